-- MySQL's and MariaDB's catalog.
-- The product and its version: MySQL's, MariaDB's, or TiDB's behind MySQL's wire (VERSION() '8.0.11-TiDB-v7.5.0').
-- name: server_version()
SELECT IF(VERSION() LIKE '%-TiDB-v%', CONCAT('TiDB ', SUBSTRING_INDEX(VERSION(), '-TiDB-v', -1)),
	CONCAT(IF(VERSION() LIKE '%MariaDB%', 'MariaDB ', 'MySQL '), VERSION()))
-- The server's own version string, which tells a distributed SQL database behind this wire: TiDB (distributed.go).
-- name: variant()
SELECT VERSION()
-- name: table_exists(name)
SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = :name
-- name: analyze_table
ANALYZE TABLE {table}
-- name: database_exists(name)
SELECT count(*) FROM information_schema.schemata WHERE schema_name = :name
-- name: create_database
CREATE DATABASE IF NOT EXISTS {name}
-- name: bulk_allowed()
SELECT @@local_infile
-- A table's indexes, PRIMARY among them (the build's manifest, compared when a run starts).
-- name: index_names(name)
SELECT DISTINCT index_name FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = :name
-- The storage engine's estimate of a table's rows (a run's start check of large tables).
-- name: row_estimate(name)
SELECT COALESCE((SELECT table_rows FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = :name), -1)
-- A named lock of the session, not waiting: 1 when taken. User locks are exclusive and server-wide, so the name
-- carries the database; a run takes one of several numbered slots, a build or drop all of them.
-- name: lock_exclusive(name)
SELECT GET_LOCK(CONCAT(DATABASE(), '.', :name), 0)
-- name: unlock_all()
SELECT RELEASE_ALL_LOCKS()
-- A checksum of a table's contents in one scan: its rows and the sum of the CRC-32 of each row's values as a
-- JSON array, NULLs in their places (the build's manifest; the check verbs compare it).
-- name: table_checksum
SELECT count(*), coalesce(sum(crc32(json_array({columns}))), 0) FROM {table}
-- A table's columns in order ({columns} of table_checksum).
-- name: column_names(name)
SELECT column_name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = :name ORDER BY ordinal_position

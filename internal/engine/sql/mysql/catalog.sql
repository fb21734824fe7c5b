-- MySQL's and MariaDB's catalog.
-- name: server_version()
SELECT CONCAT(IF(VERSION() LIKE '%MariaDB%', 'MariaDB ', 'MySQL '), VERSION())
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

-- SQLite's catalog.
-- name: server_version()
SELECT 'SQLite ' || sqlite_version()
-- name: table_exists(name)
SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = :name
-- name: analyze
ANALYZE
-- A table's indexes, those SQLite makes for a primary key or unique constraint among them (the build's
-- manifest, compared when a run starts).
-- name: index_names(name)
SELECT name FROM pragma_index_list(:name)
-- A checksum of a table's contents in one scan: its rows and the sum of the CRC-32 of each row's values as a
-- JSON array, NULLs in their places (dbdyno_crc32 is dbdyno's own function; the build's manifest; the check
-- verbs compare it).
-- name: table_checksum
SELECT count(*), coalesce(sum(dbdyno_crc32(json_array({columns}))), 0) FROM {table}
-- A table's columns in order ({columns} of table_checksum).
-- name: column_names(name)
SELECT name FROM pragma_table_info(:name) ORDER BY cid

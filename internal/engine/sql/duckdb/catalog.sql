-- DuckDB's catalog. Statistics are kept as data is written; a checkpoint writes them out with the data.
-- name: server_version()
SELECT 'DuckDB ' || version()
-- name: analyze
CHECKPOINT
-- How queries are held to {n} threads (--maxdop); the setting is the database's, for every connection.
-- name: max_parallel_session
SET threads = {n}
-- A table's indexes, and 'PRIMARY KEY' for its primary key (the build's manifest, compared when a run starts).
-- name: index_names(name)
SELECT index_name FROM duckdb_indexes() WHERE schema_name = current_schema() AND table_name = :name UNION ALL SELECT DISTINCT constraint_type FROM duckdb_constraints() WHERE schema_name = current_schema() AND table_name = :name AND constraint_type = 'PRIMARY KEY'
-- A checksum of a table's contents in one scan: its rows and the sum of the hash of each row (the build's
-- manifest; the check verbs compare it).
-- name: table_checksum
SELECT count(*), coalesce(sum(hash(t)), 0)::varchar FROM {table} t
-- An instance's settings as the process opened it; an instance kept for the next open after an interrupted
-- statement (duckdb_held.go) has each setting an earlier open changed reset, as a new instance would have it.
-- name: instance_settings()
SELECT name, value FROM duckdb_settings()
-- name: reset_setting
RESET GLOBAL {name}
-- A setting every instance is opened with off (extension autoloading, duckdb_held.go): RESET would give it
-- DuckDB's default, on.
-- name: off_setting
SET GLOBAL {name} = false

-- DuckDB's catalog. Statistics are kept as data is written; a checkpoint writes them out with the data.
-- name: server_version()
SELECT 'DuckDB ' || version()
-- name: analyze
CHECKPOINT
-- How queries are held to {n} threads (--maxdop); the setting is the database's, for every connection.
-- name: max_parallel_session
SET threads = {n}

-- DuckDB's catalog. Statistics are kept as data is written; a checkpoint writes them out with the data.
-- name: server_version()
SELECT 'DuckDB ' || version()
-- name: analyze
CHECKPOINT

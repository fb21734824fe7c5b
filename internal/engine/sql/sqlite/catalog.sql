-- SQLite's catalog.
-- name: server_version()
SELECT 'SQLite ' || sqlite_version()
-- name: table_exists(name)
SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = :name
-- name: analyze
ANALYZE

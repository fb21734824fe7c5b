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

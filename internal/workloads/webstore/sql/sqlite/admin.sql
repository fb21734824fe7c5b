-- SQLite: the restock trigger (indexes.sql) as the database keeps its definition: the build record keeps a
-- digest of it, which every run's start, reset and check compare.
-- name: routines()
SELECT type, name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN ('dbdyno_ws_restock');
-- SQLite: its own check of the database file's structure (pages, cells, free lists), which `webstore check`
-- runs first and fails on: one row "ok", or up to 100 findings.
-- name: integrity_check()
PRAGMA quick_check;

-- SQLite: its own check of the database file's structure (pages, cells, free lists), which `ycsb check` runs
-- first and fails on: one row "ok", or up to 100 findings.
-- name: integrity_check()
PRAGMA quick_check;

-- SQLite: every transaction begins IMMEDIATE (the store's connection string), so writers queue for the one
-- write lock and migrations need no lock of their own.

-- name: tables
SELECT count(*), count(CASE WHEN name = 'store_meta' THEN 1 END) FROM sqlite_master WHERE type = 'table'

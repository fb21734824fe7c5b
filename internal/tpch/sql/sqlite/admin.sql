-- Bookkeeping: what exists, the engine's version, and dbdyno's build record.
-- name: table_exists(name)
SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = :name
-- name: server_version()
SELECT 'SQLite ' || sqlite_version()
-- name: meta_get(k)
SELECT v FROM dbdyno_tpch_meta WHERE k = :k
-- name: meta_delete(k)
DELETE FROM dbdyno_tpch_meta WHERE k = :k
-- name: meta_put(k, v)
INSERT INTO dbdyno_tpch_meta (k, v) VALUES (:k, :v)

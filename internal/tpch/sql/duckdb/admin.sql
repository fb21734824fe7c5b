-- Bookkeeping: what exists, the engine's version, and dbdyno's build record.
-- name: table_exists(name)
SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = :name
-- name: server_version()
SELECT 'DuckDB ' || version()
-- name: meta_get(k)
SELECT v FROM dbdyno_tpch_meta WHERE k = :k
-- name: meta_delete(k)
DELETE FROM dbdyno_tpch_meta WHERE k = :k
-- name: meta_put(k, v)
INSERT INTO dbdyno_tpch_meta (k, v) VALUES (:k, :v)

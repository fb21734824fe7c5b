-- Bookkeeping: what exists, the engine's version, and dbdyno's build record.
-- name: table_exists(name)
SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = :name
-- name: server_version()
SELECT 'PostgreSQL ' || current_setting('server_version')
-- name: meta_get(k)
SELECT v FROM dbdyno_tpch_meta WHERE k = :k
-- name: meta_delete(k)
DELETE FROM dbdyno_tpch_meta WHERE k = :k
-- name: meta_put(k, v)
INSERT INTO dbdyno_tpch_meta (k, v) VALUES (:k, :v)

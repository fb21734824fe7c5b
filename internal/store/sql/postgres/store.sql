-- PostgreSQL: the store's tables are in the connection's current schema (search_path).

-- name: tables
SELECT count(*), count(CASE WHEN table_name = 'store_meta' THEN 1 END)
FROM information_schema.tables
WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'

-- name: lock
-- processes that open one new store at the same time take turns to migrate it (released at commit)
SELECT pg_advisory_xact_lock(hashtext('dbdyno results store'))

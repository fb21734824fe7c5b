-- PostgreSQL: the build's functions (procs.sql, the restock trigger's in schema.sql) and the restock trigger
-- (indexes.sql; its enabled state with it) as the server reports their definitions: the build record keeps a
-- digest of each, which every run's start, reset and check compare.
-- name: routines()
SELECT CASE p.prokind WHEN 'p' THEN 'procedure' ELSE 'function' END, p.proname, pg_catalog.pg_get_functiondef(p.oid)
FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = current_schema() AND p.proname IN ('dbdyno_ws_login', 'dbdyno_ws_purchase', 'dbdyno_ws_restock')
UNION ALL
SELECT 'trigger', t.tgname, pg_catalog.pg_get_triggerdef(t.oid) || ' ' || t.tgenabled::text
FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = current_schema() AND NOT t.tgisinternal AND t.tgname IN ('dbdyno_ws_restock');

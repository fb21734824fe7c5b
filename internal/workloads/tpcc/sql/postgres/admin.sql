-- PostgreSQL: the build's functions (procs.sql) as the server reports their definitions: the build record
-- keeps a digest of each, which every run's start and every check compare.
-- name: routines()
SELECT CASE p.prokind WHEN 'p' THEN 'procedure' ELSE 'function' END, p.proname, pg_catalog.pg_get_functiondef(p.oid)
FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = current_schema() AND p.proname IN ('dbdyno_new_order', 'dbdyno_customer_by_name', 'dbdyno_payment',
  'dbdyno_order_status', 'dbdyno_delivery', 'dbdyno_stock_level');

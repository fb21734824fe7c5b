-- SQL Server: the build's stored procedures (procs.sql) as the server reports their definitions: the build
-- record keeps a digest of each, which every run's start and every check compare.
-- name: routines()
SELECT 'procedure', o.name, m.definition FROM sys.objects o JOIN sys.sql_modules m ON m.object_id = o.object_id
WHERE SCHEMA_NAME(o.schema_id) = SCHEMA_NAME() AND o.name IN ('dbdyno_new_order', 'dbdyno_payment', 'dbdyno_order_status',
  'dbdyno_delivery', 'dbdyno_stock_level');

-- SQL Server: the build's stored procedures (procs.sql) and the restock trigger (indexes.sql; whether it is
-- disabled with it) as the server reports their definitions: the build record keeps a digest of each, which
-- every run's start, reset and check compare.
-- name: routines()
SELECT CASE o.type WHEN 'TR' THEN 'trigger' ELSE 'procedure' END, o.name,
  m.definition + CASE WHEN OBJECTPROPERTY(o.object_id, 'ExecIsTriggerDisabled') = 1 THEN ' (disabled)' ELSE '' END
FROM sys.objects o JOIN sys.sql_modules m ON m.object_id = o.object_id
WHERE SCHEMA_NAME(o.schema_id) = SCHEMA_NAME() AND o.name IN ('dbdyno_ws_login', 'dbdyno_ws_purchase', 'dbdyno_ws_restock');

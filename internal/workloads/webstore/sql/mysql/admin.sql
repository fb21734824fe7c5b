-- MySQL/MariaDB: the build's stored procedures (procs.sql) and the restock trigger (indexes.sql) as the server
-- reports their definitions: the build record keeps a digest of each, which every run's start, reset and check
-- compare.
-- name: routines()
SELECT lower(routine_type), routine_name, routine_definition FROM information_schema.routines
WHERE routine_schema = DATABASE() AND routine_name IN ('dbdyno_ws_login', 'dbdyno_ws_purchase')
UNION ALL
SELECT 'trigger', trigger_name, concat_ws(' ', action_timing, event_manipulation, event_object_table, action_statement)
FROM information_schema.triggers WHERE trigger_schema = DATABASE() AND trigger_name IN ('dbdyno_ws_restock');

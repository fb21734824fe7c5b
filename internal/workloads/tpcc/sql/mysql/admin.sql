-- MySQL/MariaDB: the build's stored procedures (procs.sql) as the server reports their definitions: the build
-- record keeps a digest of each, which every run's start and every check compare.
-- name: routines()
SELECT lower(routine_type), routine_name, routine_definition FROM information_schema.routines
WHERE routine_schema = DATABASE() AND routine_name IN ('dbdyno_new_order', 'dbdyno_payment', 'dbdyno_order_status',
  'dbdyno_delivery', 'dbdyno_stock_level');

-- PostgreSQL: the functions of procs.sql and the restock trigger's function (indexes.sql) go too; the trigger
-- went with its table.
-- name: drop_dbdyno_ws_login
DROP FUNCTION IF EXISTS dbdyno_ws_login(varchar, varchar);
-- name: drop_dbdyno_ws_purchase
DROP FUNCTION IF EXISTS dbdyno_ws_purchase(int, int, date, int[], int[]);
-- The purchase function of builds before the restock trigger, which took the reorder threshold.
-- name: drop_dbdyno_ws_purchase_reorder
DROP FUNCTION IF EXISTS dbdyno_ws_purchase(int, int, date, int[], int[], int);
-- name: drop_dbdyno_ws_restock
DROP FUNCTION IF EXISTS dbdyno_ws_restock();

-- PostgreSQL: the functions of procs.sql go too.
-- name: drop_dbdyno_ws_login
DROP FUNCTION IF EXISTS dbdyno_ws_login(varchar, varchar);
-- name: drop_dbdyno_ws_purchase
DROP FUNCTION IF EXISTS dbdyno_ws_purchase(int, int, date, int[], int[], int);

-- PostgreSQL: the PL/pgSQL functions of procs.sql go too.
-- name: drop_dbdyno_new_order
DROP FUNCTION IF EXISTS dbdyno_new_order(int, int, int, int, int, int[], int[], int[]);
-- name: drop_dbdyno_payment
DROP FUNCTION IF EXISTS dbdyno_payment(int, int, int, int, int, boolean, varchar, numeric);
-- name: drop_dbdyno_order_status
DROP FUNCTION IF EXISTS dbdyno_order_status(int, int, int, boolean, varchar);
-- name: drop_dbdyno_delivery
DROP FUNCTION IF EXISTS dbdyno_delivery(int, int);
-- name: drop_dbdyno_stock_level
DROP FUNCTION IF EXISTS dbdyno_stock_level(int, int, int);
-- name: drop_dbdyno_customer_by_name
DROP FUNCTION IF EXISTS dbdyno_customer_by_name(int, int, varchar);

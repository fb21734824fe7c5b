-- SQL Server: the stored procedures of procs.sql go too.
-- name: drop_dbdyno_new_order
DROP PROCEDURE IF EXISTS dbdyno_new_order;
-- name: drop_dbdyno_payment
DROP PROCEDURE IF EXISTS dbdyno_payment;
-- name: drop_dbdyno_order_status
DROP PROCEDURE IF EXISTS dbdyno_order_status;
-- name: drop_dbdyno_delivery
DROP PROCEDURE IF EXISTS dbdyno_delivery;
-- name: drop_dbdyno_stock_level
DROP PROCEDURE IF EXISTS dbdyno_stock_level;

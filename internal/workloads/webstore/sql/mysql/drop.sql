-- MySQL/MariaDB: the stored procedures of procs.sql go too.
-- name: drop_dbdyno_ws_login
DROP PROCEDURE IF EXISTS dbdyno_ws_login;
-- name: drop_dbdyno_ws_purchase
DROP PROCEDURE IF EXISTS dbdyno_ws_purchase;

-- SQL Server: the stored procedures of procs.sql go too.
-- name: drop_dbdyno_tpce_bv1
DROP PROCEDURE IF EXISTS dbdyno_tpce_bv1;
-- name: drop_dbdyno_tpce_cp1
DROP PROCEDURE IF EXISTS dbdyno_tpce_cp1;
-- name: drop_dbdyno_tpce_cp2
DROP PROCEDURE IF EXISTS dbdyno_tpce_cp2;
-- name: drop_dbdyno_tpce_mw1
DROP PROCEDURE IF EXISTS dbdyno_tpce_mw1;
-- name: drop_dbdyno_tpce_sd1
DROP PROCEDURE IF EXISTS dbdyno_tpce_sd1;
-- name: drop_dbdyno_tpce_tl1
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl1;
-- name: drop_dbdyno_tpce_tl2
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl2;
-- name: drop_dbdyno_tpce_tl3
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl3;
-- name: drop_dbdyno_tpce_tl4
DROP PROCEDURE IF EXISTS dbdyno_tpce_tl4;
-- name: drop_dbdyno_tpce_ts1
DROP PROCEDURE IF EXISTS dbdyno_tpce_ts1;
-- name: drop_dbdyno_tpce_to1
DROP PROCEDURE IF EXISTS dbdyno_tpce_to1;
-- name: drop_dbdyno_tpce_to2
DROP PROCEDURE IF EXISTS dbdyno_tpce_to2;
-- name: drop_dbdyno_tpce_to3
DROP PROCEDURE IF EXISTS dbdyno_tpce_to3;
-- name: drop_dbdyno_tpce_to4
DROP PROCEDURE IF EXISTS dbdyno_tpce_to4;
-- name: drop_dbdyno_tpce_tr1
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr1;
-- name: drop_dbdyno_tpce_tr2
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr2;
-- name: drop_dbdyno_tpce_tr3
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr3;
-- name: drop_dbdyno_tpce_tr4
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr4;
-- name: drop_dbdyno_tpce_tr5
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr5;
-- name: drop_dbdyno_tpce_tr6
DROP PROCEDURE IF EXISTS dbdyno_tpce_tr6;
-- name: drop_dbdyno_tpce_mf1
DROP PROCEDURE IF EXISTS dbdyno_tpce_mf1;
-- name: drop_dbdyno_tpce_dm1
DROP PROCEDURE IF EXISTS dbdyno_tpce_dm1;
-- name: drop_dbdyno_tpce_tc1
DROP PROCEDURE IF EXISTS dbdyno_tpce_tc1;

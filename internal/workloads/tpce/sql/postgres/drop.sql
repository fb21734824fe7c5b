-- PostgreSQL: the PL/pgSQL functions of procs.sql go too.
-- name: drop_dbdyno_tpce_bv1
DROP FUNCTION IF EXISTS dbdyno_tpce_bv1(bigint, bigint, varchar);
-- name: drop_dbdyno_tpce_cp1
DROP FUNCTION IF EXISTS dbdyno_tpce_cp1(int, bigint, varchar);
-- name: drop_dbdyno_tpce_cp2
DROP FUNCTION IF EXISTS dbdyno_tpce_cp2(bigint);
-- name: drop_dbdyno_tpce_mw1
DROP FUNCTION IF EXISTS dbdyno_tpce_mw1(int, bigint, bigint, varchar, bigint, bigint, date);
-- name: drop_dbdyno_tpce_sd1
DROP FUNCTION IF EXISTS dbdyno_tpce_sd1(varchar, bigint, date, int);
-- name: drop_dbdyno_tpce_tl1
DROP FUNCTION IF EXISTS dbdyno_tpce_tl1(int, bigint, bigint);
-- name: drop_dbdyno_tpce_tl2
DROP FUNCTION IF EXISTS dbdyno_tpce_tl2(int, bigint, timestamp, timestamp);
-- name: drop_dbdyno_tpce_tl3
DROP FUNCTION IF EXISTS dbdyno_tpce_tl3(int, varchar, timestamp, timestamp);
-- name: drop_dbdyno_tpce_tl4
DROP FUNCTION IF EXISTS dbdyno_tpce_tl4(bigint, timestamp);
-- name: drop_dbdyno_tpce_ts1
DROP FUNCTION IF EXISTS dbdyno_tpce_ts1(bigint);
-- name: drop_dbdyno_tpce_to1
DROP FUNCTION IF EXISTS dbdyno_tpce_to1(bigint);
-- name: drop_dbdyno_tpce_to2
DROP FUNCTION IF EXISTS dbdyno_tpce_to2(bigint, varchar);
-- name: drop_dbdyno_tpce_to3
DROP FUNCTION IF EXISTS dbdyno_tpce_to3(int, varchar, varchar, varchar, bigint, bigint, int, varchar, int, int, int);
-- name: drop_dbdyno_tpce_to4
DROP FUNCTION IF EXISTS dbdyno_tpce_to4(bigint, timestamp, varchar, varchar, int, varchar, int, numeric, bigint, varchar, numeric, numeric, int, int, bigint);
-- name: drop_dbdyno_tpce_tr1
DROP FUNCTION IF EXISTS dbdyno_tpce_tr1(bigint);
-- name: drop_dbdyno_tpce_tr2
DROP FUNCTION IF EXISTS dbdyno_tpce_tr2(bigint, bigint, varchar, int, int, int, numeric, timestamp, int, int);
-- name: drop_dbdyno_tpce_tr3
DROP FUNCTION IF EXISTS dbdyno_tpce_tr3(bigint, bigint, numeric);
-- name: drop_dbdyno_tpce_tr4
DROP FUNCTION IF EXISTS dbdyno_tpce_tr4(int, varchar, varchar, int);
-- name: drop_dbdyno_tpce_tr5
DROP FUNCTION IF EXISTS dbdyno_tpce_tr5(bigint, numeric, timestamp, numeric, bigint);
-- name: drop_dbdyno_tpce_tr6
DROP FUNCTION IF EXISTS dbdyno_tpce_tr6(bigint, int, date, numeric, bigint, timestamp, varchar);
-- name: drop_dbdyno_tpce_mf1
DROP FUNCTION IF EXISTS dbdyno_tpce_mf1(varchar, numeric, int, timestamp);
-- name: drop_dbdyno_tpce_dm1
DROP FUNCTION IF EXISTS dbdyno_tpce_dm1(int, bigint, varchar, varchar, date, timestamp, int);
-- name: drop_dbdyno_tpce_tc1
DROP FUNCTION IF EXISTS dbdyno_tpce_tc1(timestamp, bigint, bigint, bigint);

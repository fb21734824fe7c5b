-- dbdyno's own script over what pgbench's expression test (src/bin/pgbench/t/001_pgbench_with_server.pl,
-- "pgbench expressions") covers, run with its -D values: -Dfoo=-10.1 -Dbla=false -Di=+3 -Dn=null -Dt=t -Df=of
-- -Dd=1.0. Each debug() line's value is what pgbench gives for the same expression.
-- integer functions and arithmetic
\set a1 debug(abs(-4))
\set a2 debug(greatest(5, 4, 3, 2))
\set a3 debug(11 + least(-5, -4, -3, -2))
\set a4 debug(int(7.3))
\set a5 debug(17 / (4|1) + ( 4 + (7 >> 2)))
\set a6 debug(- (3 * 4 - (-(~ 1) + -(~ 0))) / -1 + 3 % -1)
\set a7 debug(10 + (0 + 0 * 0 - 0 / 1))
\set a8 debug(:a7 + :scale)
\set a9 debug(64 % (((2 + 1 * 2 + (1 # 2) | 4 * (2 & 11)) - (1 << 2)) + 2))
-- doubles
\set b1 debug(sqrt(+1.5 * 2.0) * abs(-0.8E1))
\set b2 debug(double(1 + 1) * (-75.0 / :foo))
\set b3 debug(greatest(4, 2, -1.17) * 4.0 * Ln(Exp(1.0)))
\set b4 debug(least(-5.18, .0E0, 1.0/0) * -3.3)
-- pow and power
\set p1 debug(pow(-3,3))
\set p2 debug(pow(2.0,10))
\set p3 debug(pow(0,0))
\set p4 debug(pow(-2,-3))
\set p5 debug(power(-5.0,-5.0))
\set p6 debug(pow(10,30))
-- comparisons, CASE and logic
\set c1 debug(1.0 = 0.0 and 1.0 != 0.0)
\set c2 debug(0 = 1 Or 1.0 = 1)
\set c3 debug(case when 0 < 1 then 32 else 0 end)
\set c4 debug(case when false THEN -1 when 1 = 1 then 13 + 19 + 2.0 end )
\set c5 debug(case when (1 > 0) and (1 >= 0) and (0 < 1) and (0 <= 1) and (0 != 1) and (0 = 0) and (0 <> 1) then 35 else 0 end)
\set c6 debug(CASE WHEN NOT FALSE THEN 3 * 12.3333334 END)
\set c7 debug(10 + mod(13 * 7 + 12, 13) - mod(-19 * 11 - 17, 19))
\set c8 debug(NOT (0 > 1) AND (1 <= 1) AND NOT (0 >= 1) AND (0 < 1) AND \
    NOT (false and true) AND (false OR TRUE) AND (NOT :f) AND (NOT FALSE) AND \
    NOT (NOT TRUE))
-- NULL
\set d1 false
\set n0 debug(NULL + NULL * exp(NULL))
\set n1 debug(:n0)
\set n2 debug(NOT (:n0 IS NOT NULL OR :d1 IS NULL))
\set n3 debug(:n0 IS NULL AND :d1 IS NOT NULL AND :d1 NOTNULL)
\set n4 debug(:n0 ISNULL AND NOT :n0 IS TRUE AND :n0 IS NOT FALSE)
\set n5 debug(CASE WHEN :n IS NULL THEN 46 ELSE NULL END)
\set n6 debug(:n IS NULL AND NOT :f AND :t)
\set n7 debug(CASE WHEN 1 THEN TRUE END AND CASE WHEN 1.0 THEN TRUE END AND CASE WHEN :n THEN NULL ELSE TRUE END)
-- lazy evaluation
\set zy 0
\set yz debug(case when :zy = 0 then -1 else (1 / :zy) end)
\set yz debug(case when :zy > 0 and (1 / :zy) < 0 then (1 / :zy) else 1 end)
-- every type substituted into a statement (the boolean read back: SQL Server has no boolean literal)
\set v0 NULL
\set v1 TRUE
\set v2 5432
\set v3 -54.21E-2
SELECT :v0, :v2, :v3;
\set vb debug(:v1)
-- the automatic variables and the integers' ends
\set sc debug(:scale)
\set ci debug(:client_id)
\set lo debug(-9223372036854775808)
\set hi debug(-(:lo + 1))
-- permute is a permutation
\set q1 debug(permute(0, 3) + permute(1, 3) + permute(2, 3) = 3)
\set q2 debug(permute(0, 2, 5431) = 0 and permute(1, 2, 5431) = 1 and permute(0, 2, 5433) = 1 and permute(1, 2, 5433) = 0)
-- compound statements: \gset takes the last query's row, \aset every query's, a query's last row
\; \; SELECT 0 AS g5 \; SELECT 5 AS g5 \; \; \gset
\set g debug(:g5)
\; SELECT 6 AS a6x \; SELECT 7 AS a7x \; \aset
SELECT 8 AS a6x UNION SELECT 9 ORDER BY 1 DESC \aset
\set g debug(:a6x)
\set g debug(:a7x)
-- sleeps with their unit joined or apart
\sleep 2ms
\sleep 1 us

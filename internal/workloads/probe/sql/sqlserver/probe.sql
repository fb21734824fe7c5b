-- name: empty
TRUNCATE TABLE {{part}};
-- SQL Server: the loop join asked for by name, as the study did.
-- name: cpu_join(n)
SELECT count(*) FROM {{part}} t1 CROSS JOIN {{part}} t2
WHERE t1.id <= :n AND t2.id <= :n
  AND abs(((t1.i1 * t2.i2) + t1.i3) - ((t2.i1 * t1.i2) + t2.i4)) < 17
  AND abs(power(t1.i5 % 5, 3) - (t2.i5 % 25)) < 7
OPTION (LOOP JOIN);
-- name: max_id
SELECT isnull(max(id), 0) FROM {{part}};

-- The probes' statements. {{part}} is the table a statement works on.
-- read: the study's scan; the predicate touches every row and the query returns one value.
-- name: scan
SELECT count(*) FROM {{part}}
WHERE flag IS NOT NULL AND tiny BETWEEN 10 AND 240 AND i4 BETWEEN 100000 AND 2000000000 AND amount BETWEEN 0 AND 10000000;
-- write: one chunk appended ({{chunk}} is the cached 100 MB chunk table), ids moved past the rows there.
-- name: write_chunk(shift)
INSERT INTO {{part}} (id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)
SELECT id + :shift, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{chunk}};
-- name: empty
DELETE FROM {{part}};
-- name: count
SELECT count(*) FROM {{part}};
-- name: max_id
SELECT coalesce(max(id), 0) FROM {{part}};
-- cpu: the study's forced loop join over the first N rows by id (no equality: every pair is compared).
-- name: cpu_join(n)
SELECT count(*) FROM {{part}} t1 CROSS JOIN {{part}} t2
WHERE t1.id <= :n AND t2.id <= :n
  AND abs(((t1.i1 * t2.i2) + t1.i3) - ((t2.i1 * t1.i2) + t2.i4)) < 17
  AND abs(power(t1.i5 % 5, 3) - (t2.i5 % 25)) < 7;
-- mixed: single-row and range operations on the mixed table.
-- name: insert_row(id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)
INSERT INTO {{part}} (id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)
VALUES (:id, :flag, :tiny, :i1, :i2, :i3, :i4, :i5, :big, :amount, :ratio, :born, :stamp, :code, :name, :note);
-- name: select_row(id)
SELECT id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{part}} WHERE id = :id;
-- name: select_range(lo, hi)
SELECT id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{part}}
WHERE id >= :lo AND id < :hi;
-- name: update_row(id, i1, amount, stamp, note)
UPDATE {{part}} SET i1 = :i1, amount = :amount, stamp = :stamp, note = :note WHERE id = :id;
-- name: delete_row(id)
DELETE FROM {{part}} WHERE id = :id;

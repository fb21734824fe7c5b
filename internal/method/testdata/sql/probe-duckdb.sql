-- dbdyno sql: workload probe, engine duckdb (DuckDB)

-- file: schema.sql
-- name: meta  -- from sql/generic/schema.sql
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows  -- from sql/generic/schema.sql
CREATE TABLE {{part}} (
  id bigint NOT NULL, flag boolean NOT NULL, tiny smallint NOT NULL,
  i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL,
  big bigint NOT NULL, amount numeric(19,4) NOT NULL, ratio double precision NOT NULL,
  born date NOT NULL, stamp timestamp NOT NULL,
  code char(10) NOT NULL, name varchar(70) NOT NULL, note varchar(263) NOT NULL
);

-- file: indexes.sql
-- name: primary_key  -- from sql/duckdb/indexes.sql
CREATE UNIQUE INDEX {{part}}_id ON {{part}} (id);

-- file: drop.sql
-- name: drop_part  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS {{part}};
-- name: drop_meta  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS {{meta}};

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM {{meta}} WHERE k = $1;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM {{meta}} WHERE k = $1;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO {{meta}} (k, v) VALUES ($1, $2);

-- file: cpusql/schema.sql
-- name: meta  -- from sql/generic/schema.sql
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows  -- from sql/generic/schema.sql
CREATE TABLE {{part}} (id bigint NOT NULL, i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL);

-- file: probe.sql
-- name: scan  -- from sql/generic/probe.sql
SELECT count(*) FROM {{part}}
WHERE flag IS NOT NULL AND tiny BETWEEN 10 AND 240 AND i4 BETWEEN 100000 AND 2000000000 AND amount BETWEEN 0 AND 10000000;
-- name: write_chunk(shift)  -- from sql/generic/probe.sql
INSERT INTO {{part}} (id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)
SELECT id + $1, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{chunk}};
-- name: empty  -- from sql/generic/probe.sql
DELETE FROM {{part}};
-- name: count  -- from sql/generic/probe.sql
SELECT count(*) FROM {{part}};
-- name: max_id  -- from sql/generic/probe.sql
SELECT coalesce(max(id), 0) FROM {{part}};
-- name: cpu_join(n)  -- from sql/generic/probe.sql
SELECT count(*) FROM {{part}} t1 CROSS JOIN {{part}} t2
WHERE t1.id <= $1 AND t2.id <= $1
  AND abs(((t1.i1 * t2.i2) + t1.i3) - ((t2.i1 * t1.i2) + t2.i4)) < 17
  AND abs(power(t1.i5 % 5, 3) - (t2.i5 % 25)) < 7;
-- name: insert_row(id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)  -- from sql/generic/probe.sql
INSERT INTO {{part}} (id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16);
-- name: select_row(id)  -- from sql/generic/probe.sql
SELECT id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{part}} WHERE id = $1;
-- name: select_range(lo, hi)  -- from sql/generic/probe.sql
SELECT id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{part}}
WHERE id >= $1 AND id < $2;
-- name: update_row(id, i1, amount, stamp, note)  -- from sql/generic/probe.sql
UPDATE {{part}} SET i1 = $2, amount = $3, stamp = $4, note = $5 WHERE id = $1;
-- name: delete_row(id)  -- from sql/generic/probe.sql
DELETE FROM {{part}} WHERE id = $1;

-- file: plan.sql
-- name: explain  -- from sql/duckdb/plan.sql
EXPLAIN;


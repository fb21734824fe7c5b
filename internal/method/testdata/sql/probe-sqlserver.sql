-- dbdyno sql: workload probe, engine sqlserver (SQL Server)

-- file: schema.sql
-- name: meta  -- from sql/sqlserver/schema.sql
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows  -- from sql/sqlserver/schema.sql
CREATE TABLE {{part}} (
  id bigint NOT NULL, flag bit NOT NULL, tiny tinyint NOT NULL,
  i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL,
  big bigint NOT NULL, amount money NOT NULL, ratio float NOT NULL,
  born date NOT NULL, stamp datetime2 NOT NULL,
  code char(10) NOT NULL, name varchar(70) NOT NULL, note varchar(263) NOT NULL
);

-- file: indexes.sql
-- name: primary_key  -- from sql/sqlserver/indexes.sql
ALTER TABLE {{part}} ADD CONSTRAINT pk_{{part}} PRIMARY KEY CLUSTERED (id);

-- file: drop.sql
-- name: drop_part  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS {{part}};
-- name: drop_meta  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS {{meta}};

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM {{meta}} WHERE k = @p1;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM {{meta}} WHERE k = @p1;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO {{meta}} (k, v) VALUES (@p1, @p2);

-- file: cpusql/schema.sql
-- name: meta  -- from sql/sqlserver/schema.sql
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows  -- from sql/sqlserver/schema.sql
CREATE TABLE {{part}} (
  id bigint NOT NULL, flag bit NOT NULL, tiny tinyint NOT NULL,
  i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL,
  big bigint NOT NULL, amount money NOT NULL, ratio float NOT NULL,
  born date NOT NULL, stamp datetime2 NOT NULL,
  code char(10) NOT NULL, name varchar(70) NOT NULL, note varchar(263) NOT NULL
);

-- file: probe.sql
-- name: scan  -- from sql/generic/probe.sql
SELECT count(*) FROM {{part}}
WHERE flag IS NOT NULL AND tiny BETWEEN 10 AND 240 AND i4 BETWEEN 100000 AND 2000000000 AND amount BETWEEN 0 AND 10000000;
-- name: write_chunk(shift)  -- from sql/generic/probe.sql
INSERT INTO {{part}} (id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)
SELECT id + @p1, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{chunk}};
-- name: empty  -- from sql/sqlserver/probe.sql
TRUNCATE TABLE {{part}};
-- name: count  -- from sql/generic/probe.sql
SELECT count(*) FROM {{part}};
-- name: max_id  -- from sql/sqlserver/probe.sql
SELECT isnull(max(id), 0) FROM {{part}};
-- name: cpu_join(n)  -- from sql/sqlserver/probe.sql
SELECT count(*) FROM {{part}} t1 CROSS JOIN {{part}} t2
WHERE t1.id <= @p1 AND t2.id <= @p1
  AND abs(((t1.i1 * t2.i2) + t1.i3) - ((t2.i1 * t1.i2) + t2.i4)) < 17
  AND abs(power(t1.i5 % 5, 3) - (t2.i5 % 25)) < 7
OPTION (LOOP JOIN);
-- name: insert_row(id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)  -- from sql/generic/probe.sql
INSERT INTO {{part}} (id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)
VALUES (@p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8, @p9, @p10, @p11, @p12, @p13, @p14, @p15, @p16);
-- name: select_row(id)  -- from sql/generic/probe.sql
SELECT id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{part}} WHERE id = @p1;
-- name: select_range(lo, hi)  -- from sql/generic/probe.sql
SELECT id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{part}}
WHERE id >= @p1 AND id < @p2;
-- name: update_row(id, i1, amount, stamp, note)  -- from sql/generic/probe.sql
UPDATE {{part}} SET i1 = @p2, amount = @p3, stamp = @p4, note = @p5 WHERE id = @p1;
-- name: delete_row(id)  -- from sql/generic/probe.sql
DELETE FROM {{part}} WHERE id = @p1;


-- The probes' tables: identical rows of about 410 bytes of mixed basic types, no large objects, only the
-- primary key on the row id (made after the load, indexes.sql). {{part}} is each of the probe's tables.
-- name: meta
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows
CREATE TABLE {{part}} (
  id bigint NOT NULL, flag boolean NOT NULL, tiny smallint NOT NULL,
  i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL,
  big bigint NOT NULL, amount numeric(19,4) NOT NULL, ratio double precision NOT NULL,
  born date NOT NULL, stamp timestamp NOT NULL,
  code char(10) NOT NULL, name varchar(70) NOT NULL, note varchar(263) NOT NULL
);

-- SQLite: the row id is the table's own key (INTEGER PRIMARY KEY), declared with it.
-- name: meta
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows
CREATE TABLE {{part}} (
  id INTEGER PRIMARY KEY, flag boolean NOT NULL, tiny smallint NOT NULL,
  i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL,
  big bigint NOT NULL, amount numeric(19,4) NOT NULL, ratio double precision NOT NULL,
  born date NOT NULL, stamp timestamp NOT NULL,
  code char(10) NOT NULL, name varchar(70) NOT NULL, note varchar(263) NOT NULL
);

-- SQL Server: the study's types (bit, tinyint, money); the clustered primary key is made after the load.
-- name: meta
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows
CREATE TABLE {{part}} (
  id bigint NOT NULL, flag bit NOT NULL, tiny tinyint NOT NULL,
  i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL,
  big bigint NOT NULL, amount money NOT NULL, ratio float NOT NULL,
  born date NOT NULL, stamp datetime2 NOT NULL,
  code char(10) NOT NULL, name varchar(70) NOT NULL, note varchar(263) NOT NULL
);

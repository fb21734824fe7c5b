-- name: meta
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows
CREATE TABLE {{part}} (id bigint NOT NULL PRIMARY KEY, i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL) ENGINE=InnoDB;

-- SQLite: keys as unique indexes (SQLite cannot add a primary key to a table).
-- name: region_pk
CREATE UNIQUE INDEX region_pk ON region (r_regionkey);
-- name: nation_pk
CREATE UNIQUE INDEX nation_pk ON nation (n_nationkey);
-- name: supplier_pk
CREATE UNIQUE INDEX supplier_pk ON supplier (su_suppkey);

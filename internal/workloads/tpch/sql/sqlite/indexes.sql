-- SQLite: keys as unique indexes (SQLite cannot add a primary key to a table).
-- name: region_pk
CREATE UNIQUE INDEX region_pk ON region (r_regionkey);
-- name: nation_pk
CREATE UNIQUE INDEX nation_pk ON nation (n_nationkey);
-- name: supplier_pk
CREATE UNIQUE INDEX supplier_pk ON supplier (s_suppkey);
-- name: customer_pk
CREATE UNIQUE INDEX customer_pk ON customer (c_custkey);
-- name: part_pk
CREATE UNIQUE INDEX part_pk ON part (p_partkey);
-- name: partsupp_pk
CREATE UNIQUE INDEX partsupp_pk ON partsupp (ps_partkey, ps_suppkey);
-- name: orders_pk
CREATE UNIQUE INDEX orders_pk ON orders (o_orderkey);
-- name: lineitem_pk
CREATE UNIQUE INDEX lineitem_pk ON lineitem (l_orderkey, l_linenumber);

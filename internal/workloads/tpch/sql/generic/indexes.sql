-- Keys and indexes (clause 1.4.2), created after the load.
-- name: region_pk
ALTER TABLE region ADD PRIMARY KEY (r_regionkey);
-- name: nation_pk
ALTER TABLE nation ADD PRIMARY KEY (n_nationkey);
-- name: supplier_pk
ALTER TABLE supplier ADD PRIMARY KEY (s_suppkey);
-- name: customer_pk
ALTER TABLE customer ADD PRIMARY KEY (c_custkey);
-- name: part_pk
ALTER TABLE part ADD PRIMARY KEY (p_partkey);
-- name: partsupp_pk
ALTER TABLE partsupp ADD PRIMARY KEY (ps_partkey, ps_suppkey);
-- name: orders_pk
ALTER TABLE orders ADD PRIMARY KEY (o_orderkey);
-- name: lineitem_pk
ALTER TABLE lineitem ADD PRIMARY KEY (l_orderkey, l_linenumber);
-- name: nation_region
CREATE INDEX nation_region ON nation (n_regionkey);
-- name: supplier_nation
CREATE INDEX supplier_nation ON supplier (s_nationkey);
-- name: customer_nation
CREATE INDEX customer_nation ON customer (c_nationkey);
-- name: partsupp_supp
CREATE INDEX partsupp_supp ON partsupp (ps_suppkey);
-- name: orders_cust
CREATE INDEX orders_cust ON orders (o_custkey);
-- name: orders_date
CREATE INDEX orders_date ON orders (o_orderdate);
-- name: lineitem_part_supp
CREATE INDEX lineitem_part_supp ON lineitem (l_partkey, l_suppkey);
-- name: lineitem_ship
CREATE INDEX lineitem_ship ON lineitem (l_shipdate);

-- Keys and indexes (clause 1.4.2), created after the load.
CREATE UNIQUE INDEX region_pk ON region (r_regionkey);
CREATE UNIQUE INDEX nation_pk ON nation (n_nationkey);
CREATE UNIQUE INDEX supplier_pk ON supplier (s_suppkey);
CREATE UNIQUE INDEX customer_pk ON customer (c_custkey);
CREATE UNIQUE INDEX part_pk ON part (p_partkey);
CREATE UNIQUE INDEX partsupp_pk ON partsupp (ps_partkey, ps_suppkey);
CREATE UNIQUE INDEX orders_pk ON orders (o_orderkey);
CREATE UNIQUE INDEX lineitem_pk ON lineitem (l_orderkey, l_linenumber);
CREATE INDEX nation_region ON nation (n_regionkey);
CREATE INDEX supplier_nation ON supplier (s_nationkey);
CREATE INDEX customer_nation ON customer (c_nationkey);
CREATE INDEX partsupp_supp ON partsupp (ps_suppkey);
CREATE INDEX orders_cust ON orders (o_custkey);
CREATE INDEX orders_date ON orders (o_orderdate);
CREATE INDEX lineitem_part_supp ON lineitem (l_partkey, l_suppkey);
CREATE INDEX lineitem_ship ON lineitem (l_shipdate);

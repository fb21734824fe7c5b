-- Keys and indexes (clause 1.4.2), created after the load.
ALTER TABLE region ADD PRIMARY KEY (r_regionkey);
ALTER TABLE nation ADD PRIMARY KEY (n_nationkey);
ALTER TABLE supplier ADD PRIMARY KEY (s_suppkey);
ALTER TABLE customer ADD PRIMARY KEY (c_custkey);
ALTER TABLE part ADD PRIMARY KEY (p_partkey);
ALTER TABLE partsupp ADD PRIMARY KEY (ps_partkey, ps_suppkey);
ALTER TABLE orders ADD PRIMARY KEY (o_orderkey);
ALTER TABLE lineitem ADD PRIMARY KEY (l_orderkey, l_linenumber);
CREATE INDEX nation_region ON nation (n_regionkey);
CREATE INDEX supplier_nation ON supplier (s_nationkey);
CREATE INDEX customer_nation ON customer (c_nationkey);
CREATE INDEX partsupp_supp ON partsupp (ps_suppkey);
CREATE INDEX orders_cust ON orders (o_custkey);
CREATE INDEX orders_date ON orders (o_orderdate);
CREATE INDEX lineitem_part_supp ON lineitem (l_partkey, l_suppkey);
CREATE INDEX lineitem_ship ON lineitem (l_shipdate);

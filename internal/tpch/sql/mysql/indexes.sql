-- Secondary indexes, created after the load (primary keys are part of the tables).
CREATE INDEX nation_region ON nation (n_regionkey);
CREATE INDEX supplier_nation ON supplier (s_nationkey);
CREATE INDEX customer_nation ON customer (c_nationkey);
CREATE INDEX partsupp_supp ON partsupp (ps_suppkey);
CREATE INDEX orders_cust ON orders (o_custkey);
CREATE INDEX orders_date ON orders (o_orderdate);
CREATE INDEX lineitem_part_supp ON lineitem (l_partkey, l_suppkey);
CREATE INDEX lineitem_ship ON lineitem (l_shipdate);

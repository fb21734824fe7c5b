-- SQL Server with --columnstore: every table stored as a clustered columnstore index (as the cloud VM study
-- built its TPC-H tables), the primary keys kept as nonclustered B-trees; no other indexes.
-- name: region_cci
CREATE CLUSTERED COLUMNSTORE INDEX region_cci ON region;
-- name: nation_cci
CREATE CLUSTERED COLUMNSTORE INDEX nation_cci ON nation;
-- name: supplier_cci
CREATE CLUSTERED COLUMNSTORE INDEX supplier_cci ON supplier;
-- name: customer_cci
CREATE CLUSTERED COLUMNSTORE INDEX customer_cci ON customer;
-- name: part_cci
CREATE CLUSTERED COLUMNSTORE INDEX part_cci ON part;
-- name: partsupp_cci
CREATE CLUSTERED COLUMNSTORE INDEX partsupp_cci ON partsupp;
-- name: orders_cci
CREATE CLUSTERED COLUMNSTORE INDEX orders_cci ON orders;
-- name: lineitem_cci
CREATE CLUSTERED COLUMNSTORE INDEX lineitem_cci ON lineitem;
-- name: region_pk
ALTER TABLE region ADD CONSTRAINT region_pk PRIMARY KEY NONCLUSTERED (r_regionkey);
-- name: nation_pk
ALTER TABLE nation ADD CONSTRAINT nation_pk PRIMARY KEY NONCLUSTERED (n_nationkey);
-- name: supplier_pk
ALTER TABLE supplier ADD CONSTRAINT supplier_pk PRIMARY KEY NONCLUSTERED (s_suppkey);
-- name: customer_pk
ALTER TABLE customer ADD CONSTRAINT customer_pk PRIMARY KEY NONCLUSTERED (c_custkey);
-- name: part_pk
ALTER TABLE part ADD CONSTRAINT part_pk PRIMARY KEY NONCLUSTERED (p_partkey);
-- name: partsupp_pk
ALTER TABLE partsupp ADD CONSTRAINT partsupp_pk PRIMARY KEY NONCLUSTERED (ps_partkey, ps_suppkey);
-- name: orders_pk
ALTER TABLE orders ADD CONSTRAINT orders_pk PRIMARY KEY NONCLUSTERED (o_orderkey);
-- name: lineitem_pk
ALTER TABLE lineitem ADD CONSTRAINT lineitem_pk PRIMARY KEY NONCLUSTERED (l_orderkey, l_linenumber);

-- SQLite: money is stored as REAL and dates as YYYY-MM-DD text.
-- name: supplier
CREATE TABLE supplier (
  s_suppkey integer NOT NULL, s_name char(25) NOT NULL, s_address varchar(40) NOT NULL, s_nationkey integer NOT NULL,
  s_phone char(15) NOT NULL, s_acctbal real NOT NULL, s_comment varchar(101) NOT NULL
);
-- name: customer
CREATE TABLE customer (
  c_custkey integer NOT NULL, c_name varchar(25) NOT NULL, c_address varchar(40) NOT NULL, c_nationkey integer NOT NULL,
  c_phone char(15) NOT NULL, c_acctbal real NOT NULL, c_mktsegment char(10) NOT NULL, c_comment varchar(117) NOT NULL
);
-- name: part
CREATE TABLE part (
  p_partkey integer NOT NULL, p_name varchar(55) NOT NULL, p_mfgr char(25) NOT NULL, p_brand char(10) NOT NULL,
  p_type varchar(25) NOT NULL, p_size integer NOT NULL, p_container char(10) NOT NULL, p_retailprice real NOT NULL,
  p_comment varchar(23) NOT NULL
);
-- name: partsupp
CREATE TABLE partsupp (
  ps_partkey integer NOT NULL, ps_suppkey integer NOT NULL, ps_availqty integer NOT NULL, ps_supplycost real NOT NULL,
  ps_comment varchar(199) NOT NULL
);
-- name: orders
CREATE TABLE orders (
  o_orderkey integer NOT NULL, o_custkey integer NOT NULL, o_orderstatus char(1) NOT NULL, o_totalprice real NOT NULL,
  o_orderdate text NOT NULL, o_orderpriority char(15) NOT NULL, o_clerk char(15) NOT NULL, o_shippriority integer NOT NULL,
  o_comment varchar(79) NOT NULL
);
-- name: lineitem
CREATE TABLE lineitem (
  l_orderkey integer NOT NULL, l_partkey integer NOT NULL, l_suppkey integer NOT NULL, l_linenumber integer NOT NULL,
  l_quantity real NOT NULL, l_extendedprice real NOT NULL, l_discount real NOT NULL,
  l_tax real NOT NULL, l_returnflag char(1) NOT NULL, l_linestatus char(1) NOT NULL, l_shipdate text NOT NULL,
  l_commitdate text NOT NULL, l_receiptdate text NOT NULL, l_shipinstruct char(25) NOT NULL, l_shipmode char(10) NOT NULL,
  l_comment varchar(44) NOT NULL
);

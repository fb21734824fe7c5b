-- SQLite: dates are stored as YYYY-MM-DD text, as bound.
-- name: rf1_orders(o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)
INSERT INTO orders (o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)
VALUES (:o_orderkey, :o_custkey, :o_orderstatus, :o_totalprice, :o_orderdate, :o_orderpriority, :o_clerk, :o_shippriority, :o_comment);
-- name: rf1_lineitem(l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment)
INSERT INTO lineitem (l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax,
  l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment)
VALUES (:l_orderkey, :l_partkey, :l_suppkey, :l_linenumber, :l_quantity, :l_extendedprice, :l_discount, :l_tax,
  :l_returnflag, :l_linestatus, :l_shipdate, :l_commitdate, :l_receiptdate,
  :l_shipinstruct, :l_shipmode, :l_comment);

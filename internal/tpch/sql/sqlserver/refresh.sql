-- Refresh functions (clause 2.5). RF1 inserts new orders with their lines; RF2 deletes orders with their lines
-- by key range.
-- name: rf1_orders(o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)
INSERT INTO orders (o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)
VALUES (:o_orderkey, :o_custkey, :o_orderstatus, :o_totalprice, cast(:o_orderdate as date), :o_orderpriority, :o_clerk, :o_shippriority, :o_comment)
-- name: rf1_lineitem(l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment)
INSERT INTO lineitem (l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax,
  l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment)
VALUES (:l_orderkey, :l_partkey, :l_suppkey, :l_linenumber, :l_quantity, :l_extendedprice, :l_discount, :l_tax,
  :l_returnflag, :l_linestatus, cast(:l_shipdate as date), cast(:l_commitdate as date), cast(:l_receiptdate as date),
  :l_shipinstruct, :l_shipmode, :l_comment)
-- name: rf2_lineitem(lo, hi)
DELETE FROM lineitem WHERE l_orderkey >= :lo AND l_orderkey <= :hi
-- name: rf2_orders(lo, hi)
DELETE FROM orders WHERE o_orderkey >= :lo AND o_orderkey <= :hi
-- name: count_orders_above(lo)
SELECT count(*) FROM orders WHERE o_orderkey >= :lo

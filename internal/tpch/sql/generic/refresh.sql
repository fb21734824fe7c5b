-- Refresh functions (clause 2.5) with dbgen's update sets: RF1 inserts the new orders with their lines
-- (orders.tbl.uN, lineitem.tbl.uN), one row at a time in one transaction.
-- name: rf1_orders(o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)
INSERT INTO orders (o_orderkey, o_custkey, o_orderstatus, o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment)
VALUES (:o_orderkey, :o_custkey, :o_orderstatus, :o_totalprice, cast(:o_orderdate as date), :o_orderpriority, :o_clerk, :o_shippriority, :o_comment);
-- name: rf1_lineitem(l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment)
INSERT INTO lineitem (l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax,
  l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment)
VALUES (:l_orderkey, :l_partkey, :l_suppkey, :l_linenumber, :l_quantity, :l_extendedprice, :l_discount, :l_tax,
  :l_returnflag, :l_linestatus, cast(:l_shipdate as date), cast(:l_commitdate as date), cast(:l_receiptdate as date),
  :l_shipinstruct, :l_shipmode, :l_comment);
-- RF2 (clause 2.27.2) deletes the orders of dbgen's delete set one key at a time, lines first.
-- name: rf2_lineitem(o_orderkey)
DELETE FROM lineitem WHERE l_orderkey = :o_orderkey;
-- name: rf2_orders(o_orderkey)
DELETE FROM orders WHERE o_orderkey = :o_orderkey;
-- Restoring the loaded data after a run (not timed): every order and line with a key in the range of the update
-- sets applied is deleted, then the loaded rows of that range are loaded again as the build loaded them.
-- name: restore_lineitem(lo, hi)
DELETE FROM lineitem WHERE l_orderkey >= :lo AND l_orderkey <= :hi;
-- name: restore_orders(lo, hi)
DELETE FROM orders WHERE o_orderkey >= :lo AND o_orderkey <= :hi;

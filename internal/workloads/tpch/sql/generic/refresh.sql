-- Refresh functions (clause 2.5) with dbgen's update sets. RF1 inserts the new orders with their lines
-- (orders.tbl.uN, lineitem.tbl.uN) in one transaction through the engine's bulk path, as the build loads
-- (PostgreSQL COPY, MySQL LOAD DATA, DuckDB's appender, INSERT elsewhere): no statement of its own here.
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

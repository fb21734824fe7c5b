-- What `dbdyno tpch drop` removes: only objects dbdyno created.
-- name: lineitem
DROP TABLE IF EXISTS lineitem;
-- name: orders
DROP TABLE IF EXISTS orders;
-- name: partsupp
DROP TABLE IF EXISTS partsupp;
-- name: part
DROP TABLE IF EXISTS part;
-- name: customer
DROP TABLE IF EXISTS customer;
-- name: supplier
DROP TABLE IF EXISTS supplier;
-- name: nation
DROP TABLE IF EXISTS nation;
-- name: region
DROP TABLE IF EXISTS region;
-- name: dbdyno_tpch_meta
DROP TABLE IF EXISTS dbdyno_tpch_meta;

-- What `dbdyno tpcc drop` removes: only objects dbdyno created. Engines with stored procedures drop those too
-- (sql/ENGINE/drop.sql).
-- name: warehouse
DROP TABLE IF EXISTS warehouse;
-- name: district
DROP TABLE IF EXISTS district;
-- name: customer
DROP TABLE IF EXISTS customer;
-- name: history
DROP TABLE IF EXISTS history;
-- name: new_order
DROP TABLE IF EXISTS new_order;
-- name: orders
DROP TABLE IF EXISTS orders;
-- name: order_line
DROP TABLE IF EXISTS order_line;
-- name: item
DROP TABLE IF EXISTS item;
-- name: stock
DROP TABLE IF EXISTS stock;
-- name: dbdyno_tpcc_meta
DROP TABLE IF EXISTS dbdyno_tpcc_meta;

-- What `dbdyno webstore drop` removes: only objects dbdyno created (and, where the engine has them, its
-- procedures: sql/ENGINE/drop.sql).
-- name: categories
DROP TABLE IF EXISTS categories;
-- name: products
DROP TABLE IF EXISTS products;
-- name: inventory
DROP TABLE IF EXISTS inventory;
-- name: inventory_loaded
DROP TABLE IF EXISTS inventory_loaded;
-- name: customers
DROP TABLE IF EXISTS customers;
-- name: cust_hist
DROP TABLE IF EXISTS cust_hist;
-- name: orders
DROP TABLE IF EXISTS orders;
-- name: orderlines
DROP TABLE IF EXISTS orderlines;
-- name: reorder
DROP TABLE IF EXISTS reorder;
-- name: membership
DROP TABLE IF EXISTS membership;
-- name: reviews
DROP TABLE IF EXISTS reviews;
-- name: reviews_helpfulness
DROP TABLE IF EXISTS reviews_helpfulness;
-- name: dbdyno_webstore_ids
DROP TABLE IF EXISTS dbdyno_webstore_ids;
-- name: dbdyno_webstore_meta
DROP TABLE IF EXISTS dbdyno_webstore_meta;

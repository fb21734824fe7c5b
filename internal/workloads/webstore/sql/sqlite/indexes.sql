-- SQLite: keys as unique indexes (SQLite cannot add a primary key to a table).
-- name: categories_pk
CREATE UNIQUE INDEX categories_pk ON categories (category);
-- name: products_pk
CREATE UNIQUE INDEX products_pk ON products (prod_id);
-- name: inventory_pk
CREATE UNIQUE INDEX inventory_pk ON inventory (prod_id);
-- name: inventory_loaded_pk
CREATE UNIQUE INDEX inventory_loaded_pk ON inventory_loaded (prod_id);
-- name: customers_pk
CREATE UNIQUE INDEX customers_pk ON customers (customerid);
-- name: orders_pk
CREATE UNIQUE INDEX orders_pk ON orders (orderid);
-- name: orderlines_pk
CREATE UNIQUE INDEX orderlines_pk ON orderlines (orderid, orderlineid);

-- Keys and indexes, created after the load.
-- name: categories_pk
ALTER TABLE categories ADD CONSTRAINT categories_pk PRIMARY KEY (category);
-- name: products_pk
ALTER TABLE products ADD CONSTRAINT products_pk PRIMARY KEY (prod_id);
-- name: products_category
CREATE INDEX products_category ON products (category, special);
-- name: products_actor
CREATE INDEX products_actor ON products (actor);
-- name: products_title
CREATE INDEX products_title ON products (title);
-- name: inventory_pk
ALTER TABLE inventory ADD CONSTRAINT inventory_pk PRIMARY KEY (prod_id);
-- name: inventory_loaded_pk
ALTER TABLE inventory_loaded ADD CONSTRAINT inventory_loaded_pk PRIMARY KEY (prod_id);
-- name: customers_pk
ALTER TABLE customers ADD CONSTRAINT customers_pk PRIMARY KEY (customerid);
-- name: customers_username
CREATE UNIQUE INDEX customers_username ON customers (username);
-- name: cust_hist_customer
CREATE INDEX cust_hist_customer ON cust_hist (customerid, orderid);
-- name: cust_hist_order
CREATE INDEX cust_hist_order ON cust_hist (orderid);
-- name: orders_pk
ALTER TABLE orders ADD CONSTRAINT orders_pk PRIMARY KEY (orderid);
-- name: orderlines_pk
ALTER TABLE orderlines ADD CONSTRAINT orderlines_pk PRIMARY KEY (orderid, orderlineid);
-- name: reorder_prod
CREATE INDEX reorder_prod ON reorder (prod_id);
-- name: membership_pk
ALTER TABLE membership ADD CONSTRAINT membership_pk PRIMARY KEY (customerid);
-- name: reviews_pk
ALTER TABLE reviews ADD CONSTRAINT reviews_pk PRIMARY KEY (review_id);
-- name: reviews_prod_stars
CREATE INDEX reviews_prod_stars ON reviews (prod_id, stars);
-- name: reviews_helpfulness_pk
ALTER TABLE reviews_helpfulness ADD CONSTRAINT reviews_helpfulness_pk PRIMARY KEY (review_helpfulness_id);
-- name: reviews_helpfulness_review
CREATE INDEX reviews_helpfulness_review ON reviews_helpfulness (review_id);

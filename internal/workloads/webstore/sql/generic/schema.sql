-- dbdyno web store (DVD-Store-style) schema. Keys and indexes are created after the load (indexes.sql).
-- name: dbdyno_webstore_meta
CREATE TABLE dbdyno_webstore_meta (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- The next free ids of new customers and orders, handed out to the virtual users in blocks.
-- name: dbdyno_webstore_ids
CREATE TABLE dbdyno_webstore_ids (k varchar(16) NOT NULL PRIMARY KEY, next_id bigint NOT NULL);
-- name: categories
CREATE TABLE categories (category int NOT NULL, categoryname varchar(50) NOT NULL);
-- name: products
CREATE TABLE products (
  prod_id int NOT NULL, category int NOT NULL, title varchar(50) NOT NULL, actor varchar(50) NOT NULL,
  price numeric(12,2) NOT NULL, special smallint NOT NULL, common_prod_id int NOT NULL
);
-- name: inventory
CREATE TABLE inventory (prod_id int NOT NULL, quan_in_stock int NOT NULL, sales int NOT NULL);
-- The inventory as loaded: `webstore reset` restores it and `webstore check` compares with it.
-- name: inventory_loaded
CREATE TABLE inventory_loaded (prod_id int NOT NULL, quan_in_stock int NOT NULL, sales int NOT NULL);
-- name: customers
CREATE TABLE customers (
  customerid int NOT NULL, firstname varchar(50) NOT NULL, lastname varchar(50) NOT NULL, address1 varchar(50) NOT NULL,
  city varchar(50) NOT NULL, state varchar(50), zip int, country varchar(50) NOT NULL, region smallint NOT NULL,
  email varchar(50), phone varchar(50), creditcardtype int NOT NULL, creditcard varchar(50) NOT NULL,
  creditcardexpiration varchar(50) NOT NULL, username varchar(50) NOT NULL, password varchar(50) NOT NULL,
  age smallint, income int, gender varchar(1)
);
-- name: cust_hist
CREATE TABLE cust_hist (customerid int NOT NULL, orderid int NOT NULL, prod_id int NOT NULL);
-- name: orders
CREATE TABLE orders (
  orderid int NOT NULL, orderdate date NOT NULL, customerid int NOT NULL, netamount numeric(12,2) NOT NULL,
  tax numeric(12,2) NOT NULL, totalamount numeric(12,2) NOT NULL
);
-- name: orderlines
CREATE TABLE orderlines (orderlineid smallint NOT NULL, orderid int NOT NULL, prod_id int NOT NULL, quantity smallint NOT NULL, orderdate date NOT NULL);
-- What the restock trigger did (indexes.sql): a sale that left a product's stock below 3 (quan_low) brought it
-- back to 250, or 2,500 for a hot seller (every 10,000th product), adding quan_reordered, as DVD Store 3's
-- RESTOCK trigger keeps the rollback rate constant.
-- name: reorder
CREATE TABLE reorder (prod_id int NOT NULL, date_low date NOT NULL, quan_low int NOT NULL, quan_reordered int NOT NULL);
-- DVD Store 3's additions: premier members, product reviews and their helpfulness ratings.
-- name: membership
CREATE TABLE membership (customerid int NOT NULL, membershiptype int NOT NULL, expiredate date NOT NULL);
-- name: reviews
CREATE TABLE reviews (
  review_id int NOT NULL, prod_id int NOT NULL, review_date date NOT NULL, stars int NOT NULL, customerid int NOT NULL,
  review_summary varchar(50) NOT NULL, review_text varchar(1000) NOT NULL
);
-- name: reviews_helpfulness
CREATE TABLE reviews_helpfulness (review_helpfulness_id int NOT NULL, review_id int NOT NULL, customerid int NOT NULL, helpfulness int NOT NULL);

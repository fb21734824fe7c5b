-- dbdyno sql: workload webstore, engine sqlite (SQLite)

-- file: schema.sql
-- name: dbdyno_webstore_meta  -- from sql/generic/schema.sql
CREATE TABLE dbdyno_webstore_meta (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: dbdyno_webstore_ids  -- from sql/generic/schema.sql
CREATE TABLE dbdyno_webstore_ids (k varchar(16) NOT NULL PRIMARY KEY, next_id bigint NOT NULL);
-- name: categories  -- from sql/generic/schema.sql
CREATE TABLE categories (category int NOT NULL, categoryname varchar(50) NOT NULL);
-- name: products  -- from sql/generic/schema.sql
CREATE TABLE products (
  prod_id int NOT NULL, category int NOT NULL, title varchar(50) NOT NULL, actor varchar(50) NOT NULL,
  price numeric(12,2) NOT NULL, special smallint NOT NULL, common_prod_id int NOT NULL
);
-- name: inventory  -- from sql/generic/schema.sql
CREATE TABLE inventory (prod_id int NOT NULL, quan_in_stock int NOT NULL, sales int NOT NULL);
-- name: inventory_loaded  -- from sql/generic/schema.sql
CREATE TABLE inventory_loaded (prod_id int NOT NULL, quan_in_stock int NOT NULL, sales int NOT NULL);
-- name: customers  -- from sql/generic/schema.sql
CREATE TABLE customers (
  customerid int NOT NULL, firstname varchar(50) NOT NULL, lastname varchar(50) NOT NULL, address1 varchar(50) NOT NULL,
  city varchar(50) NOT NULL, state varchar(50), zip int, country varchar(50) NOT NULL, region smallint NOT NULL,
  email varchar(50), phone varchar(50), creditcardtype int NOT NULL, creditcard varchar(50) NOT NULL,
  creditcardexpiration varchar(50) NOT NULL, username varchar(50) NOT NULL, password varchar(50) NOT NULL,
  age smallint, income int, gender varchar(1)
);
-- name: cust_hist  -- from sql/generic/schema.sql
CREATE TABLE cust_hist (customerid int NOT NULL, orderid int NOT NULL, prod_id int NOT NULL);
-- name: orders  -- from sql/generic/schema.sql
CREATE TABLE orders (
  orderid int NOT NULL, orderdate date NOT NULL, customerid int NOT NULL, netamount numeric(12,2) NOT NULL,
  tax numeric(12,2) NOT NULL, totalamount numeric(12,2) NOT NULL
);
-- name: orderlines  -- from sql/generic/schema.sql
CREATE TABLE orderlines (orderlineid smallint NOT NULL, orderid int NOT NULL, prod_id int NOT NULL, quantity smallint NOT NULL, orderdate date NOT NULL);
-- name: reorder  -- from sql/generic/schema.sql
CREATE TABLE reorder (prod_id int NOT NULL, date_low date NOT NULL, quan_low int NOT NULL, quan_reordered int NOT NULL);
-- name: membership  -- from sql/generic/schema.sql
CREATE TABLE membership (customerid int NOT NULL, membershiptype int NOT NULL, expiredate date NOT NULL);
-- name: reviews  -- from sql/generic/schema.sql
CREATE TABLE reviews (
  review_id int NOT NULL, prod_id int NOT NULL, review_date date NOT NULL, stars int NOT NULL, customerid int NOT NULL,
  review_summary varchar(50) NOT NULL, review_text varchar(1000) NOT NULL
);
-- name: reviews_helpfulness  -- from sql/generic/schema.sql
CREATE TABLE reviews_helpfulness (review_helpfulness_id int NOT NULL, review_id int NOT NULL, customerid int NOT NULL, helpfulness int NOT NULL);

-- file: indexes.sql
-- name: categories_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX categories_pk ON categories (category);
-- name: products_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX products_pk ON products (prod_id);
-- name: products_category  -- from sql/generic/indexes.sql
CREATE INDEX products_category ON products (category, special);
-- name: products_actor  -- from sql/generic/indexes.sql
CREATE INDEX products_actor ON products (actor);
-- name: products_title  -- from sql/generic/indexes.sql
CREATE INDEX products_title ON products (title);
-- name: inventory_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX inventory_pk ON inventory (prod_id);
-- name: inventory_loaded_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX inventory_loaded_pk ON inventory_loaded (prod_id);
-- name: customers_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX customers_pk ON customers (customerid);
-- name: customers_username  -- from sql/generic/indexes.sql
CREATE UNIQUE INDEX customers_username ON customers (username);
-- name: cust_hist_customer  -- from sql/generic/indexes.sql
CREATE INDEX cust_hist_customer ON cust_hist (customerid, orderid);
-- name: cust_hist_order  -- from sql/generic/indexes.sql
CREATE INDEX cust_hist_order ON cust_hist (orderid);
-- name: orders_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX orders_pk ON orders (orderid);
-- name: orderlines_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX orderlines_pk ON orderlines (orderid, orderlineid);
-- name: reorder_prod  -- from sql/generic/indexes.sql
CREATE INDEX reorder_prod ON reorder (prod_id);
-- name: membership_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX membership_pk ON membership (customerid);
-- name: reviews_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX reviews_pk ON reviews (review_id);
-- name: reviews_prod_stars  -- from sql/generic/indexes.sql
CREATE INDEX reviews_prod_stars ON reviews (prod_id, stars);
-- name: reviews_helpfulness_pk  -- from sql/sqlite/indexes.sql
CREATE UNIQUE INDEX reviews_helpfulness_pk ON reviews_helpfulness (review_helpfulness_id);
-- name: reviews_helpfulness_review  -- from sql/generic/indexes.sql
CREATE INDEX reviews_helpfulness_review ON reviews_helpfulness (review_id);
-- name: restock  -- from sql/sqlite/indexes.sql
CREATE TRIGGER dbdyno_ws_restock AFTER UPDATE OF quan_in_stock ON inventory FOR EACH ROW
WHEN NEW.sales > OLD.sales AND NEW.quan_in_stock < 3
BEGIN
  INSERT INTO reorder (prod_id, date_low, quan_low, quan_reordered)
  VALUES (NEW.prod_id, date('now'), NEW.quan_in_stock, CASE WHEN NEW.prod_id % 10000 = 0 THEN 2500 ELSE 250 END - NEW.quan_in_stock);
  UPDATE inventory SET quan_in_stock = CASE WHEN NEW.prod_id % 10000 = 0 THEN 2500 ELSE 250 END WHERE prod_id = NEW.prod_id;
END;

-- file: drop.sql
-- name: categories  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS categories;
-- name: products  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS products;
-- name: inventory  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS inventory;
-- name: inventory_loaded  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS inventory_loaded;
-- name: customers  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS customers;
-- name: cust_hist  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS cust_hist;
-- name: orders  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS orders;
-- name: orderlines  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS orderlines;
-- name: reorder  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS reorder;
-- name: membership  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS membership;
-- name: reviews  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS reviews;
-- name: reviews_helpfulness  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS reviews_helpfulness;
-- name: dbdyno_webstore_ids  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS dbdyno_webstore_ids;
-- name: dbdyno_webstore_meta  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS dbdyno_webstore_meta;

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM dbdyno_webstore_meta WHERE k = ?;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM dbdyno_webstore_meta WHERE k = ?;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO dbdyno_webstore_meta (k, v) VALUES (?, ?);
-- name: routines()  -- from sql/sqlite/admin.sql
SELECT type, name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN ('dbdyno_ws_restock');
-- name: integrity_check()  -- from sql/sqlite/admin.sql
PRAGMA quick_check;

-- file: tx.sql
-- name: ids_take(k, n)  -- from sql/generic/tx.sql
UPDATE dbdyno_webstore_ids SET next_id = next_id + ? WHERE k = ?;
-- name: ids_next(k)  -- from sql/generic/tx.sql
SELECT next_id FROM dbdyno_webstore_ids WHERE k = ?;
-- name: ids_put(k, next_id)  -- from sql/generic/tx.sql
INSERT INTO dbdyno_webstore_ids (k, next_id) VALUES (?, ?);
-- name: login(username, password)  -- from sql/generic/tx.sql
SELECT customerid FROM customers WHERE username = ? AND password = ?;
-- name: login_history(customerid)  -- from sql/generic/tx.sql
SELECT p.title, p.actor FROM cust_hist h JOIN products p ON p.prod_id = h.prod_id
WHERE h.customerid = ? ORDER BY h.orderid DESC LIMIT 10;
-- name: new_customer(customerid, firstname, lastname, address1, city, state, zip, country, region, email, phone, creditcardtype, creditcard, creditcardexpiration, username, password, age, income, gender)  -- from sql/generic/tx.sql
INSERT INTO customers (customerid, firstname, lastname, address1, city, state, zip, country, region, email, phone,
  creditcardtype, creditcard, creditcardexpiration, username, password, age, income, gender)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
  ?, ?, ?, ?, ?, ?, ?, ?);
-- name: browse_category(category, batch)  -- from sql/generic/tx.sql
SELECT prod_id, title, actor, price, special, common_prod_id FROM products
WHERE category = ? AND special = 1 ORDER BY prod_id LIMIT ?;
-- name: browse_actor(actor, batch)  -- from sql/generic/tx.sql
SELECT prod_id, title, actor, price, special, common_prod_id FROM products WHERE actor = ? ORDER BY prod_id LIMIT ?;
-- name: browse_title(title, batch)  -- from sql/generic/tx.sql
SELECT prod_id, title, actor, price, special, common_prod_id FROM products WHERE title = ? ORDER BY prod_id LIMIT ?;
-- name: member_exists(customerid)  -- from sql/generic/tx.sql
SELECT COUNT(*) FROM membership WHERE customerid = ?;
-- name: new_member(customerid, membershiptype, expiredate)  -- from sql/generic/tx.sql
INSERT INTO membership (customerid, membershiptype, expiredate) VALUES (?, ?, ?);
-- name: browse_reviews_actor(actor, batch)  -- from sql/generic/tx.sql
SELECT r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM (SELECT rv.review_id, rv.prod_id, rv.review_date, rv.stars, rv.customerid, rv.review_summary, rv.review_text
      FROM products p JOIN reviews rv ON rv.prod_id = p.prod_id WHERE p.actor = ? LIMIT 500) r
ORDER BY total DESC LIMIT ?;
-- name: browse_reviews_title(title, batch)  -- from sql/generic/tx.sql
SELECT r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM (SELECT rv.review_id, rv.prod_id, rv.review_date, rv.stars, rv.customerid, rv.review_summary, rv.review_text
      FROM products p JOIN reviews rv ON rv.prod_id = p.prod_id WHERE p.title = ? LIMIT 500) r
ORDER BY total DESC LIMIT ?;
-- name: get_reviews(prod_id, batch)  -- from sql/generic/tx.sql
SELECT r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM reviews r WHERE r.prod_id = ? ORDER BY total DESC LIMIT ?;
-- name: get_reviews_stars(prod_id, stars, batch)  -- from sql/generic/tx.sql
SELECT r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM reviews r WHERE r.prod_id = ? AND r.stars = ? ORDER BY total DESC LIMIT ?;
-- name: get_reviews_date(prod_id, batch)  -- from sql/generic/tx.sql
SELECT r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM reviews r WHERE r.prod_id = ? ORDER BY r.review_date DESC LIMIT ?;
-- name: new_review(review_id, prod_id, review_date, stars, customerid, review_summary, review_text)  -- from sql/generic/tx.sql
INSERT INTO reviews (review_id, prod_id, review_date, stars, customerid, review_summary, review_text)
VALUES (?, ?, ?, ?, ?, ?, ?);
-- name: new_helpfulness(review_helpfulness_id, review_id, customerid, helpfulness)  -- from sql/generic/tx.sql
INSERT INTO reviews_helpfulness (review_helpfulness_id, review_id, customerid, helpfulness)
VALUES (?, ?, ?, ?);
-- name: purchase_stock(prod_id, quantity)  -- from sql/generic/tx.sql
UPDATE inventory SET quan_in_stock = quan_in_stock - ?, sales = sales + ?
WHERE prod_id = ? AND quan_in_stock >= ?;
-- name: purchase_order(orderid, orderdate, customerid, netamount, tax, totalamount)  -- from sql/generic/tx.sql
INSERT INTO orders (orderid, orderdate, customerid, netamount, tax, totalamount)
VALUES (?, ?, ?, ?, ?, ?);
-- name: purchase_line(orderlineid, orderid, prod_id, quantity, orderdate)  -- from sql/generic/tx.sql
INSERT INTO orderlines (orderlineid, orderid, prod_id, quantity, orderdate) VALUES (?, ?, ?, ?, ?);
-- name: purchase_history(customerid, orderid, prod_id)  -- from sql/generic/tx.sql
INSERT INTO cust_hist (customerid, orderid, prod_id) VALUES (?, ?, ?);
-- name: begin_write  -- from sql/sqlite/tx.sql
BEGIN IMMEDIATE;
-- name: commit  -- from sql/generic/tx.sql
COMMIT;
-- name: rollback  -- from sql/generic/tx.sql
ROLLBACK;
-- name: check_stock()  -- from sql/generic/tx.sql
SELECT i.prod_id, i.quan_in_stock + i.sales - l.quan_in_stock - l.sales - COALESCE(r.q, 0) FROM inventory i
JOIN inventory_loaded l ON l.prod_id = i.prod_id
LEFT JOIN (SELECT prod_id, SUM(quan_reordered) AS q FROM reorder GROUP BY prod_id) r ON r.prod_id = i.prod_id
WHERE i.quan_in_stock + i.sales <> l.quan_in_stock + l.sales + COALESCE(r.q, 0);
-- name: check_sales(loaded_orders)  -- from sql/generic/tx.sql
SELECT i.prod_id, i.sales - COALESCE(s.q, 0) FROM inventory i
LEFT JOIN (SELECT prod_id, SUM(quantity) AS q FROM orderlines WHERE orderid > ? GROUP BY prod_id) s ON s.prod_id = i.prod_id
WHERE i.sales <> COALESCE(s.q, 0);
-- name: check_totals()  -- from sql/generic/tx.sql
SELECT o.orderid, o.netamount - l.amount FROM orders o
JOIN (SELECT ol.orderid, SUM(ol.quantity * p.price) AS amount FROM orderlines ol JOIN products p ON p.prod_id = ol.prod_id GROUP BY ol.orderid) l
  ON l.orderid = o.orderid
WHERE ABS(o.netamount - l.amount) > 0.001 OR ABS(o.totalamount - o.netamount - o.tax) > 0.001;
-- name: check_lines()  -- from sql/generic/tx.sql
SELECT o.orderid, COALESCE(l.n, 0) - COALESCE(h.n, 0) FROM orders o
LEFT JOIN (SELECT orderid, COUNT(*) AS n FROM orderlines GROUP BY orderid) l ON l.orderid = o.orderid
LEFT JOIN (SELECT orderid, COUNT(*) AS n FROM cust_hist GROUP BY orderid) h ON h.orderid = o.orderid
WHERE l.n IS NULL OR l.n <> COALESCE(h.n, 0);
-- name: count_customers()  -- from sql/generic/tx.sql
SELECT COUNT(*) FROM customers;
-- name: count_orders()  -- from sql/generic/tx.sql
SELECT COUNT(*) FROM orders;
-- name: count_reorder()  -- from sql/generic/tx.sql
SELECT COUNT(*) FROM reorder;
-- name: count_orders_added(loaded_orders)  -- from sql/generic/tx.sql
SELECT COUNT(*) FROM orders WHERE orderid > ?;
-- name: reset_history(loaded_orders)  -- from sql/generic/tx.sql
DELETE FROM cust_hist WHERE orderid > ?;
-- name: reset_lines(loaded_orders)  -- from sql/generic/tx.sql
DELETE FROM orderlines WHERE orderid > ?;
-- name: reset_orders(loaded_orders)  -- from sql/generic/tx.sql
DELETE FROM orders WHERE orderid > ?;
-- name: reset_customers(loaded_customers)  -- from sql/generic/tx.sql
DELETE FROM customers WHERE customerid > ?;
-- name: reset_reorder()  -- from sql/generic/tx.sql
DELETE FROM reorder;
-- name: reset_members()  -- from sql/generic/tx.sql
DELETE FROM membership WHERE customerid % 10 <> 0;
-- name: reset_reviews(loaded_reviews)  -- from sql/generic/tx.sql
DELETE FROM reviews WHERE review_id > ?;
-- name: reset_helpfulness(loaded_helpfulness)  -- from sql/generic/tx.sql
DELETE FROM reviews_helpfulness WHERE review_helpfulness_id > ?;
-- name: reset_inventory()  -- from sql/generic/tx.sql
UPDATE inventory SET quan_in_stock = (SELECT l.quan_in_stock FROM inventory_loaded l WHERE l.prod_id = inventory.prod_id),
  sales = (SELECT l.sales FROM inventory_loaded l WHERE l.prod_id = inventory.prod_id)
WHERE EXISTS (SELECT 1 FROM inventory_loaded l WHERE l.prod_id = inventory.prod_id
              AND (l.quan_in_stock <> inventory.quan_in_stock OR l.sales <> inventory.sales));
-- name: reset_ids(k, next_id)  -- from sql/generic/tx.sql
UPDATE dbdyno_webstore_ids SET next_id = ? WHERE k = ?;


-- dbdyno web store: the steps of a user's order, client-side (--mode sql). Each statement is prepared once per
-- connection; :name marks an argument. Engines override statements by name in sql/ENGINE/tx.sql.

-- Ids of new customers and orders come from dbdyno_webstore_ids in blocks, one short transaction a block.
-- name: ids_take(k, n)
UPDATE dbdyno_webstore_ids SET next_id = next_id + :n WHERE k = :k;
-- name: ids_next(k)
SELECT next_id FROM dbdyno_webstore_ids WHERE k = :k;
-- name: ids_put(k, next_id)
INSERT INTO dbdyno_webstore_ids (k, next_id) VALUES (:k, :next_id);
-- Login: the customer by name and password, then the titles of their last purchases.
-- name: login(username, password)
SELECT customerid FROM customers WHERE username = :username AND password = :password;
-- name: login_history(customerid)
SELECT p.title, p.actor FROM cust_hist h JOIN products p ON p.prod_id = h.prod_id
WHERE h.customerid = :customerid ORDER BY h.orderid DESC LIMIT 10;
-- New customer: a row of its own, its user name made from its id.
-- name: new_customer(customerid, firstname, lastname, address1, city, state, zip, country, region, email, phone, creditcardtype, creditcard, creditcardexpiration, username, password, age, income, gender)
INSERT INTO customers (customerid, firstname, lastname, address1, city, state, zip, country, region, email, phone,
  creditcardtype, creditcard, creditcardexpiration, username, password, age, income, gender)
VALUES (:customerid, :firstname, :lastname, :address1, :city, :state, :zip, :country, :region, :email, :phone,
  :creditcardtype, :creditcard, :creditcardexpiration, :username, :password, :age, :income, :gender);
-- Browsing, BATCH results each: a category's specials, an actor's titles, a title.
-- name: browse_category(category, batch)
SELECT prod_id, title, actor, price, special, common_prod_id FROM products
WHERE category = :category AND special = 1 ORDER BY prod_id LIMIT :batch;
-- name: browse_actor(actor, batch)
SELECT prod_id, title, actor, price, special, common_prod_id FROM products WHERE actor = :actor ORDER BY prod_id LIMIT :batch;
-- name: browse_title(title, batch)
SELECT prod_id, title, actor, price, special, common_prod_id FROM products WHERE title = :title ORDER BY prod_id LIMIT :batch;
-- DVD Store 3's additions. A new premier member: a loaded customer who is none yet (asked first; DVD Store 3's
-- procedure tries the insert and takes a duplicate key as "already a member").
-- name: member_exists(customerid)
SELECT COUNT(*) FROM membership WHERE customerid = :customerid;
-- name: new_member(customerid, membershiptype, expiredate)
INSERT INTO membership (customerid, membershiptype, expiredate) VALUES (:customerid, :membershiptype, :expiredate);
-- Reviews of an actor's or a title's products (at most 500 of them), the most helpful first: DVD Store 3's
-- GET_PROD_REVIEWS_BY_ACTOR and _BY_TITLE, by the whole name or title (DVD Store 3: a full-text word).
-- name: browse_reviews_actor(actor, batch)
SELECT r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM (SELECT rv.review_id, rv.prod_id, rv.review_date, rv.stars, rv.customerid, rv.review_summary, rv.review_text
      FROM products p JOIN reviews rv ON rv.prod_id = p.prod_id WHERE p.actor = :actor LIMIT 500) r
ORDER BY total DESC LIMIT :batch;
-- name: browse_reviews_title(title, batch)
SELECT r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM (SELECT rv.review_id, rv.prod_id, rv.review_date, rv.stars, rv.customerid, rv.review_summary, rv.review_text
      FROM products p JOIN reviews rv ON rv.prod_id = p.prod_id WHERE p.title = :title LIMIT 500) r
ORDER BY total DESC LIMIT :batch;
-- A product's reviews: the most helpful, those of some stars, the newest (GET_PROD_REVIEWS, _BY_STARS, _BY_DATE).
-- name: get_reviews(prod_id, batch)
SELECT r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM reviews r WHERE r.prod_id = :prod_id ORDER BY total DESC LIMIT :batch;
-- name: get_reviews_stars(prod_id, stars, batch)
SELECT r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM reviews r WHERE r.prod_id = :prod_id AND r.stars = :stars ORDER BY total DESC LIMIT :batch;
-- name: get_reviews_date(prod_id, batch)
SELECT r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM reviews r WHERE r.prod_id = :prod_id ORDER BY r.review_date DESC LIMIT :batch;
-- A new review of a product, a new helpfulness rating of a review (NEW_PROD_REVIEW, NEW_REVIEW_HELPFULNESS).
-- name: new_review(review_id, prod_id, review_date, stars, customerid, review_summary, review_text)
INSERT INTO reviews (review_id, prod_id, review_date, stars, customerid, review_summary, review_text)
VALUES (:review_id, :prod_id, :review_date, :stars, :customerid, :review_summary, :review_text);
-- name: new_helpfulness(review_helpfulness_id, review_id, customerid, helpfulness)
INSERT INTO reviews_helpfulness (review_helpfulness_id, review_id, customerid, helpfulness)
VALUES (:review_helpfulness_id, :review_id, :customerid, :helpfulness);

-- Purchase, one transaction: each line takes its quantity from stock only if the stock covers it (else the
-- purchase rolls back), then the order, its lines and the customer's history are written. A sale that leaves a
-- product's stock below 3 is restocked by the inventory's trigger (indexes.sql), as in DVD Store 3.
-- name: purchase_stock(prod_id, quantity)
UPDATE inventory SET quan_in_stock = quan_in_stock - :quantity, sales = sales + :quantity
WHERE prod_id = :prod_id AND quan_in_stock >= :quantity;
-- name: purchase_order(orderid, orderdate, customerid, netamount, tax, totalamount)
INSERT INTO orders (orderid, orderdate, customerid, netamount, tax, totalamount)
VALUES (:orderid, :orderdate, :customerid, :netamount, :tax, :totalamount);
-- name: purchase_line(orderlineid, orderid, prod_id, quantity, orderdate)
INSERT INTO orderlines (orderlineid, orderid, prod_id, quantity, orderdate) VALUES (:orderlineid, :orderid, :prod_id, :quantity, :orderdate);
-- name: purchase_history(customerid, orderid, prod_id)
INSERT INTO cust_hist (customerid, orderid, prod_id) VALUES (:customerid, :orderid, :prod_id);

-- Transaction control of the client-side mode.
-- name: begin_write
BEGIN;
-- name: commit
COMMIT;
-- name: rollback
ROLLBACK;

-- Consistency checks (`dbdyno webstore check`); each returns the rows that break it, as two columns.
-- 1: every product's stock and sales add up to its loaded stock and what the restock trigger added.
-- name: check_stock()
SELECT i.prod_id, i.quan_in_stock + i.sales - l.quan_in_stock - l.sales - COALESCE(r.q, 0) FROM inventory i
JOIN inventory_loaded l ON l.prod_id = i.prod_id
LEFT JOIN (SELECT prod_id, SUM(quan_reordered) AS q FROM reorder GROUP BY prod_id) r ON r.prod_id = i.prod_id
WHERE i.quan_in_stock + i.sales <> l.quan_in_stock + l.sales + COALESCE(r.q, 0);
-- 2: a product's sales since the load are the quantities of its lines in orders placed since the load.
-- name: check_sales(loaded_orders)
SELECT i.prod_id, i.sales - COALESCE(s.q, 0) FROM inventory i
LEFT JOIN (SELECT prod_id, SUM(quantity) AS q FROM orderlines WHERE orderid > :loaded_orders GROUP BY prod_id) s ON s.prod_id = i.prod_id
WHERE i.sales <> COALESCE(s.q, 0);
-- 3: an order's net amount is the sum of its lines' quantities times prices, and its total is net plus tax.
-- name: check_totals()
SELECT o.orderid, o.netamount - l.amount FROM orders o
JOIN (SELECT ol.orderid, SUM(ol.quantity * p.price) AS amount FROM orderlines ol JOIN products p ON p.prod_id = ol.prod_id GROUP BY ol.orderid) l
  ON l.orderid = o.orderid
WHERE ABS(o.netamount - l.amount) > 0.001 OR ABS(o.totalamount - o.netamount - o.tax) > 0.001;
-- 4: every order has lines, and every line a history row.
-- name: check_lines()
SELECT o.orderid, COALESCE(l.n, 0) - COALESCE(h.n, 0) FROM orders o
LEFT JOIN (SELECT orderid, COUNT(*) AS n FROM orderlines GROUP BY orderid) l ON l.orderid = o.orderid
LEFT JOIN (SELECT orderid, COUNT(*) AS n FROM cust_hist GROUP BY orderid) h ON h.orderid = o.orderid
WHERE l.n IS NULL OR l.n <> COALESCE(h.n, 0);
-- Counts `webstore reset` compares with the build record.
-- name: count_customers()
SELECT COUNT(*) FROM customers;
-- name: count_orders()
SELECT COUNT(*) FROM orders;
-- name: count_reorder()
SELECT COUNT(*) FROM reorder;
-- The orders runs added (keys beyond the loaded ones): read at the measured window's edges, the database's count
-- of the orders placed in it, which must agree with the client's.
-- name: count_orders_added(loaded_orders)
SELECT COUNT(*) FROM orders WHERE orderid > :loaded_orders;

-- `dbdyno webstore reset`: back to the loaded state. What runs added is deleted by key range, the inventory
-- rows that changed are restored from the loaded copy, the id blocks start again after the loaded keys.
-- name: reset_history(loaded_orders)
DELETE FROM cust_hist WHERE orderid > :loaded_orders;
-- name: reset_lines(loaded_orders)
DELETE FROM orderlines WHERE orderid > :loaded_orders;
-- name: reset_orders(loaded_orders)
DELETE FROM orders WHERE orderid > :loaded_orders;
-- name: reset_customers(loaded_customers)
DELETE FROM customers WHERE customerid > :loaded_customers;
-- name: reset_reorder()
DELETE FROM reorder;
-- The loaded members are every 10th customer; runs add others.
-- name: reset_members()
DELETE FROM membership WHERE customerid % 10 <> 0;
-- name: reset_reviews(loaded_reviews)
DELETE FROM reviews WHERE review_id > :loaded_reviews;
-- name: reset_helpfulness(loaded_helpfulness)
DELETE FROM reviews_helpfulness WHERE review_helpfulness_id > :loaded_helpfulness;
-- name: reset_inventory()
UPDATE inventory SET quan_in_stock = (SELECT l.quan_in_stock FROM inventory_loaded l WHERE l.prod_id = inventory.prod_id),
  sales = (SELECT l.sales FROM inventory_loaded l WHERE l.prod_id = inventory.prod_id)
WHERE EXISTS (SELECT 1 FROM inventory_loaded l WHERE l.prod_id = inventory.prod_id
              AND (l.quan_in_stock <> inventory.quan_in_stock OR l.sales <> inventory.sales));
-- name: reset_ids(k, next_id)
UPDATE dbdyno_webstore_ids SET next_id = :next_id WHERE k = :k;

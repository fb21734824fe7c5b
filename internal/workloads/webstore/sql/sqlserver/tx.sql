-- SQL Server: the first rows with TOP, transactions with BEGIN TRANSACTION.
-- name: login_history(customerid)
SELECT TOP 10 p.title, p.actor FROM cust_hist h JOIN products p ON p.prod_id = h.prod_id
WHERE h.customerid = :customerid ORDER BY h.orderid DESC;
-- name: browse_category(category, batch)
SELECT TOP (:batch) prod_id, title, actor, price, special, common_prod_id FROM products
WHERE category = :category AND special = 1 ORDER BY prod_id;
-- name: browse_actor(actor, batch)
SELECT TOP (:batch) prod_id, title, actor, price, special, common_prod_id FROM products WHERE actor = :actor ORDER BY prod_id;
-- name: browse_title(title, batch)
SELECT TOP (:batch) prod_id, title, actor, price, special, common_prod_id FROM products WHERE title = :title ORDER BY prod_id;
-- name: browse_reviews_actor(actor, batch)
SELECT TOP (:batch) r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM (SELECT TOP 500 rv.review_id, rv.prod_id, rv.review_date, rv.stars, rv.customerid, rv.review_summary, rv.review_text
      FROM products p JOIN reviews rv ON rv.prod_id = p.prod_id WHERE p.actor = :actor) r
ORDER BY total DESC;
-- name: browse_reviews_title(title, batch)
SELECT TOP (:batch) r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM (SELECT TOP 500 rv.review_id, rv.prod_id, rv.review_date, rv.stars, rv.customerid, rv.review_summary, rv.review_text
      FROM products p JOIN reviews rv ON rv.prod_id = p.prod_id WHERE p.title = :title) r
ORDER BY total DESC;
-- name: get_reviews(prod_id, batch)
SELECT TOP (:batch) r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM reviews r WHERE r.prod_id = :prod_id ORDER BY total DESC;
-- name: get_reviews_stars(prod_id, stars, batch)
SELECT TOP (:batch) r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM reviews r WHERE r.prod_id = :prod_id AND r.stars = :stars ORDER BY total DESC;
-- name: get_reviews_date(prod_id, batch)
SELECT TOP (:batch) r.review_id, r.prod_id, r.review_date, r.stars, r.customerid, r.review_summary, r.review_text,
  (SELECT SUM(h.helpfulness) FROM reviews_helpfulness h WHERE h.review_id = r.review_id) AS total
FROM reviews r WHERE r.prod_id = :prod_id ORDER BY r.review_date DESC;
-- name: begin_write
BEGIN TRANSACTION;
-- name: commit
COMMIT TRANSACTION;
-- name: rollback
IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION;

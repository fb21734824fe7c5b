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
-- name: begin_write
BEGIN TRANSACTION;
-- name: commit
COMMIT TRANSACTION;
-- name: rollback
IF @@TRANCOUNT > 0 ROLLBACK TRANSACTION;

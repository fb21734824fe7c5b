-- MySQL/MariaDB: the primary keys came with the tables (schema.sql).
-- name: categories_pk
-- name: products_pk
-- name: inventory_pk
-- name: inventory_loaded_pk
-- name: customers_pk
-- name: orders_pk
-- name: orderlines_pk
-- name: membership_pk
-- name: reviews_pk
-- name: reviews_helpfulness_pk
-- DVD Store 3's RESTOCK trigger: a sale (sales grow) that leaves a product's stock below 3 brings it back to
-- 250, or 2,500 for a hot seller (every 10,000th product, the ones DVD Store 3's driver picks ten times as
-- often), and records the restock in reorder. A reset's restore of the loaded stock is no sale.
-- name: restock
CREATE TRIGGER dbdyno_ws_restock BEFORE UPDATE ON inventory FOR EACH ROW
BEGIN
  IF NEW.sales > OLD.sales AND NEW.quan_in_stock < 3 THEN
    INSERT INTO reorder (prod_id, date_low, quan_low, quan_reordered)
    VALUES (NEW.prod_id, CURRENT_DATE, NEW.quan_in_stock, IF(NEW.prod_id % 10000 = 0, 2500, 250) - NEW.quan_in_stock);
    SET NEW.quan_in_stock = IF(NEW.prod_id % 10000 = 0, 2500, 250);
  END IF;
END;
-- Full-text indexes of the actor and title, as DVD Store 3's: the browse by actor and by title search them
-- (tx.sql).
-- name: products_actor_fts
CREATE FULLTEXT INDEX products_actor_fts ON products (actor);
-- name: products_title_fts
CREATE FULLTEXT INDEX products_title_fts ON products (title);

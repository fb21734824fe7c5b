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
-- name: membership_pk
CREATE UNIQUE INDEX membership_pk ON membership (customerid);
-- name: reviews_pk
CREATE UNIQUE INDEX reviews_pk ON reviews (review_id);
-- name: reviews_helpfulness_pk
CREATE UNIQUE INDEX reviews_helpfulness_pk ON reviews_helpfulness (review_helpfulness_id);
-- DVD Store 3's RESTOCK trigger: a sale (sales grow) that leaves a product's stock below 3 brings it back to
-- 250, or 2,500 for a hot seller (every 10,000th product, the ones DVD Store 3's driver picks ten times as
-- often), and records the restock in reorder. A reset's restore of the loaded stock is no sale.
-- name: restock
CREATE TRIGGER dbdyno_ws_restock AFTER UPDATE OF quan_in_stock ON inventory FOR EACH ROW
WHEN NEW.sales > OLD.sales AND NEW.quan_in_stock < 3
BEGIN
  INSERT INTO reorder (prod_id, date_low, quan_low, quan_reordered)
  VALUES (NEW.prod_id, date('now'), NEW.quan_in_stock, CASE WHEN NEW.prod_id % 10000 = 0 THEN 2500 ELSE 250 END - NEW.quan_in_stock);
  UPDATE inventory SET quan_in_stock = CASE WHEN NEW.prod_id % 10000 = 0 THEN 2500 ELSE 250 END WHERE prod_id = NEW.prod_id;
END;

-- PostgreSQL: the function of DVD Store 3's RESTOCK trigger, made with the schema (the trigger itself comes after
-- the load, indexes.sql, whose statements run in parallel). A sale (sales grow) that leaves a product's stock
-- below 3 brings it back to 250, or 2,500 for a hot seller (every 10,000th product, the ones DVD Store 3's driver
-- picks ten times as often), and records the restock in reorder.
-- name: dbdyno_ws_restock
CREATE OR REPLACE FUNCTION dbdyno_ws_restock() RETURNS trigger AS $$
DECLARE
  v_to int := CASE WHEN NEW.prod_id % 10000 = 0 THEN 2500 ELSE 250 END;
BEGIN
  INSERT INTO reorder (prod_id, date_low, quan_low, quan_reordered) VALUES (NEW.prod_id, current_date, NEW.quan_in_stock, v_to - NEW.quan_in_stock);
  NEW.quan_in_stock := v_to;
  RETURN NEW;
END $$ LANGUAGE plpgsql;

-- PostgreSQL: DVD Store 3's RESTOCK trigger, after the load (its function: schema.sql). A reset's restore of the
-- loaded stock is no sale and restocks nothing.
-- name: restock
CREATE TRIGGER dbdyno_ws_restock BEFORE UPDATE ON inventory FOR EACH ROW
WHEN (NEW.sales > OLD.sales AND NEW.quan_in_stock < 3) EXECUTE FUNCTION dbdyno_ws_restock();

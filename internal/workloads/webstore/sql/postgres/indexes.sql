-- PostgreSQL: DVD Store 3's RESTOCK trigger, after the load (its function: schema.sql). A reset's restore of the
-- loaded stock is no sale and restocks nothing.
-- name: restock
CREATE TRIGGER dbdyno_ws_restock BEFORE UPDATE ON inventory FOR EACH ROW
WHEN (NEW.sales > OLD.sales AND NEW.quan_in_stock < 3) EXECUTE FUNCTION dbdyno_ws_restock();
-- Full-text indexes of the actor and title, as DVD Store 3's (GIN on to_tsvector('simple', ...)): the browse by
-- actor and by title search them (tx.sql).
-- name: products_actor_fts
CREATE INDEX products_actor_fts ON products USING GIN (to_tsvector('simple', actor));
-- name: products_title_fts
CREATE INDEX products_title_fts ON products USING GIN (to_tsvector('simple', title));

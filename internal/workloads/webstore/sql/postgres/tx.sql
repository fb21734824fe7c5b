-- PostgreSQL: after `webstore reset` (outside its transaction), the removed rows' space is reclaimed and the
-- statistics are those of the loaded data again, as on a restored backup. Without it autovacuum finds the dead
-- rows of cust_hist, orderlines and orders later, in the middle of the next measured run.
-- name: reset_tidy
VACUUM (ANALYZE) cust_hist, orderlines, orders, customers, inventory, reorder, membership, reviews, reviews_helpfulness;
-- Browse by actor and by title as DVD Store 3 does on PostgreSQL: full-text, every word of the name or title
-- (its BROWSE_BY_ACTOR, BROWSE_BY_TITLE; no order, as there).
-- name: browse_actor(actor, batch)
SELECT prod_id, title, actor, price, special, common_prod_id FROM products
WHERE to_tsvector('simple', actor) @@ plainto_tsquery('simple', :actor) LIMIT :batch;
-- name: browse_title(title, batch)
SELECT prod_id, title, actor, price, special, common_prod_id FROM products
WHERE to_tsvector('simple', title) @@ plainto_tsquery('simple', :title) LIMIT :batch;

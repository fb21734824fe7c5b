-- PostgreSQL: after `webstore reset` (outside its transaction), the removed rows' space is reclaimed and the
-- statistics are those of the loaded data again, as on a restored backup. Without it autovacuum finds the dead
-- rows of cust_hist, orderlines and orders later, in the middle of the next measured run.
-- name: reset_tidy
VACUUM (ANALYZE) cust_hist, orderlines, orders, customers, inventory, reorder, membership, reviews, reviews_helpfulness;

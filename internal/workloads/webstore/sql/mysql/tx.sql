-- MySQL/MariaDB: browse by actor and by title as DVD Store 3 does there: MATCH ... AGAINST in natural language
-- mode (any word of the name or title, the best matches first; words under innodb_ft_min_token_size are not
-- indexed).
-- name: browse_actor(actor, batch)
SELECT prod_id, title, actor, price, special, common_prod_id FROM products WHERE MATCH (actor) AGAINST (:actor) LIMIT :batch;
-- name: browse_title(title, batch)
SELECT prod_id, title, actor, price, special, common_prod_id FROM products WHERE MATCH (title) AGAINST (:title) LIMIT :batch;

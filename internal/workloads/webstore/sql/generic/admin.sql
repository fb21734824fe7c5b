-- dbdyno's build record of the web store tables.
-- name: meta_get(k)
SELECT v FROM dbdyno_webstore_meta WHERE k = :k;
-- name: meta_delete(k)
DELETE FROM dbdyno_webstore_meta WHERE k = :k;
-- name: meta_put(k, v)
INSERT INTO dbdyno_webstore_meta (k, v) VALUES (:k, :v);

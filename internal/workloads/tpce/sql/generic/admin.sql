-- dbdyno's build record of the TPC-E tables.
-- name: meta_get(k)
SELECT v FROM dbdyno_tpce_meta WHERE k = :k;
-- name: meta_delete(k)
DELETE FROM dbdyno_tpce_meta WHERE k = :k;
-- name: meta_put(k, v)
INSERT INTO dbdyno_tpce_meta (k, v) VALUES (:k, :v);

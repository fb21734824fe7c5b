-- dbdyno's build record of the TPC-H tables.
-- name: meta_get(k)
SELECT v FROM dbdyno_tpch_meta WHERE k = :k;
-- name: meta_delete(k)
DELETE FROM dbdyno_tpch_meta WHERE k = :k;
-- name: meta_put(k, v)
INSERT INTO dbdyno_tpch_meta (k, v) VALUES (:k, :v);

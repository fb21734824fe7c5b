-- dbdyno's build record of the TPC-C tables.
-- name: meta_get(k)
SELECT v FROM dbdyno_tpcc_meta WHERE k = :k;
-- name: meta_delete(k)
DELETE FROM dbdyno_tpcc_meta WHERE k = :k;
-- name: meta_put(k, v)
INSERT INTO dbdyno_tpcc_meta (k, v) VALUES (:k, :v);

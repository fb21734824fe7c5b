-- dbdyno's build record of YCSB's table: the properties it was loaded with, the ranges of records each load
-- finished, where the runs' inserts go on from.
-- name: meta_get(k)
SELECT v FROM dbdyno_ycsb_meta WHERE k = :k;
-- name: meta_delete(k)
DELETE FROM dbdyno_ycsb_meta WHERE k = :k;
-- name: meta_put(k, v)
INSERT INTO dbdyno_ycsb_meta (k, v) VALUES (:k, :v);
-- name: meta_loaded()
SELECT k, v FROM dbdyno_ycsb_meta WHERE k LIKE 'loaded.%';

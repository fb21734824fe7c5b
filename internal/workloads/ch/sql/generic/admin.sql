-- dbdyno's build record of the CH-benCHmark tables.
-- name: meta_get(k)
SELECT v FROM dbdyno_ch_meta WHERE k = :k;
-- name: meta_delete(k)
DELETE FROM dbdyno_ch_meta WHERE k = :k;
-- name: meta_put(k, v)
INSERT INTO dbdyno_ch_meta (k, v) VALUES (:k, :v);

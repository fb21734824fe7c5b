-- The build record of one probe's tables ({{meta}}: dbdyno_probe_KIND_meta).
-- name: meta_get(k)
SELECT v FROM {{meta}} WHERE k = :k;
-- name: meta_delete(k)
DELETE FROM {{meta}} WHERE k = :k;
-- name: meta_put(k, v)
INSERT INTO {{meta}} (k, v) VALUES (:k, :v);

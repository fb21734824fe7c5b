-- name: drop_part
DROP TABLE IF EXISTS {{part}};
-- name: drop_meta
DROP TABLE IF EXISTS {{meta}};

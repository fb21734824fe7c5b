-- name: empty
TRUNCATE {{part}};

-- name: empty
TRUNCATE TABLE {{part}};

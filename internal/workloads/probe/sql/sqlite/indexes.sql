-- SQLite: the row id is the key already (schema.sql).
-- name: primary_key
SELECT 1;

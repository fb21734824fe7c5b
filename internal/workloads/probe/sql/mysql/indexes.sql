-- MySQL/MariaDB: the primary key came with the table (schema.sql).
-- name: primary_key
SELECT 1;

-- dbdyno sql: workload ping, engine mysql (MySQL/MariaDB)

-- file: ping.sql
-- name: ping()  -- from sql/generic/ping.sql
SELECT 1;


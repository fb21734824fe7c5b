-- dbdyno sql: workload ping, engine postgres (PostgreSQL)

-- file: ping.sql
-- name: ping()  -- from sql/generic/ping.sql
SELECT 1;


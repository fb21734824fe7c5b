-- dbdyno sql: workload ping, engine sqlite (SQLite)

-- file: ping.sql
-- name: ping()  -- from sql/generic/ping.sql
SELECT 1;


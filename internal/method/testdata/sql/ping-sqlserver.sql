-- dbdyno sql: workload ping, engine sqlserver (SQL Server)

-- file: ping.sql
-- name: ping()  -- from sql/generic/ping.sql
SELECT 1;


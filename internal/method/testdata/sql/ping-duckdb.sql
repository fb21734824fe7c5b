-- dbdyno sql: workload ping, engine duckdb (DuckDB)

-- file: ping.sql
-- name: ping()  -- from sql/generic/ping.sql
SELECT 1;


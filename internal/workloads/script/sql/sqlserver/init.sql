-- TIMESTAMP is SQL Server's row version, not a time.
-- name: create_history
CREATE TABLE pgbench_history (tid INT, bid INT, aid INT, delta INT, mtime DATETIME2, filler CHAR(22));

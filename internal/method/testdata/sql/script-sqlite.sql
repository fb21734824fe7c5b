-- dbdyno sql: workload script, engine sqlite (SQLite)

-- file: init.sql
-- name: drop_history  -- from sql/generic/init.sql
DROP TABLE IF EXISTS pgbench_history;
-- name: drop_tellers  -- from sql/generic/init.sql
DROP TABLE IF EXISTS pgbench_tellers;
-- name: drop_accounts  -- from sql/generic/init.sql
DROP TABLE IF EXISTS pgbench_accounts;
-- name: drop_branches  -- from sql/generic/init.sql
DROP TABLE IF EXISTS pgbench_branches;
-- name: create_history  -- from sql/generic/init.sql
CREATE TABLE pgbench_history (tid INT, bid INT, aid INT, delta INT, mtime TIMESTAMP, filler CHAR(22));
-- name: create_tellers  -- from sql/generic/init.sql
CREATE TABLE pgbench_tellers (tid INT NOT NULL PRIMARY KEY, bid INT, tbalance INT, filler CHAR(84));
-- name: create_accounts  -- from sql/generic/init.sql
CREATE TABLE pgbench_accounts (aid INT NOT NULL PRIMARY KEY, bid INT, abalance INT, filler CHAR(84));
-- name: create_branches  -- from sql/generic/init.sql
CREATE TABLE pgbench_branches (bid INT NOT NULL PRIMARY KEY, bbalance INT, filler CHAR(88));

-- file: tx.sql
-- name: begin  -- from sql/sqlite/tx.sql
BEGIN IMMEDIATE;
-- name: commit  -- from sql/generic/tx.sql
COMMIT;
-- name: rollback  -- from sql/generic/tx.sql
ROLLBACK;

-- file: scale.sql
-- name: scale  -- from sql/generic/scale.sql
SELECT COUNT(*) FROM pgbench_branches;
-- name: balances  -- from sql/generic/scale.sql
SELECT (SELECT COALESCE(SUM(abalance), 0) FROM pgbench_accounts), (SELECT COALESCE(SUM(bbalance), 0) FROM pgbench_branches),
  (SELECT COALESCE(SUM(tbalance), 0) FROM pgbench_tellers), (SELECT COALESCE(SUM(delta), 0) FROM pgbench_history),
  (SELECT COUNT(*) FROM pgbench_history);


-- pgbench's tables, as pgbench -i makes them (the primary keys declared with the tables); `script init` runs
-- these in order, then loads branches, tellers and accounts.
-- name: drop_history
DROP TABLE IF EXISTS pgbench_history;
-- name: drop_tellers
DROP TABLE IF EXISTS pgbench_tellers;
-- name: drop_accounts
DROP TABLE IF EXISTS pgbench_accounts;
-- name: drop_branches
DROP TABLE IF EXISTS pgbench_branches;
-- name: create_history
CREATE TABLE pgbench_history (tid INT, bid INT, aid INT, delta INT, mtime TIMESTAMP, filler CHAR(22));
-- name: create_tellers
CREATE TABLE pgbench_tellers (tid INT NOT NULL PRIMARY KEY, bid INT, tbalance INT, filler CHAR(84));
-- name: create_accounts
CREATE TABLE pgbench_accounts (aid INT NOT NULL PRIMARY KEY, bid INT, abalance INT, filler CHAR(84));
-- name: create_branches
CREATE TABLE pgbench_branches (bid INT NOT NULL PRIMARY KEY, bbalance INT, filler CHAR(88));

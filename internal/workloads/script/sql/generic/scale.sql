-- :scale of a run that gives none, as pgbench reads it; and the tables' sums the TPC-B-like script keeps equal.
-- name: scale
SELECT COUNT(*) FROM pgbench_branches;
-- name: balances
SELECT (SELECT COALESCE(SUM(abalance), 0) FROM pgbench_accounts), (SELECT COALESCE(SUM(bbalance), 0) FROM pgbench_branches),
  (SELECT COALESCE(SUM(tbalance), 0) FROM pgbench_tellers), (SELECT COALESCE(SUM(delta), 0) FROM pgbench_history),
  (SELECT COUNT(*) FROM pgbench_history);

-- What precedes the cpu probe's join to show its plan, recorded with the result.
-- name: explain
EXPLAIN;

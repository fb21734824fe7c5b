-- SQLite: a transaction takes the write lock at its start, so writers queue for it instead of deadlocking.
-- name: begin
BEGIN IMMEDIATE;

-- SQLite: writers start with BEGIN IMMEDIATE (they queue for the database lock instead of deadlocking).
-- name: begin_write
BEGIN IMMEDIATE;

-- A script's transaction takes the write lock at its start, so that writers queue for it instead of failing
-- when two deferred transactions both try to upgrade.
-- name: begin
BEGIN IMMEDIATE;

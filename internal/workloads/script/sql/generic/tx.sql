-- What a script's transaction statements run as (BEGIN, START TRANSACTION; END, COMMIT; ROLLBACK, ABORT), so that
-- pgbench's BEGIN; ... END; runs on every engine.
-- name: begin
BEGIN;
-- name: commit
COMMIT;
-- name: rollback
ROLLBACK;

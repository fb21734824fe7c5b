-- Settings of a bulk-load connection, for that session only: no per-row checks.
-- name: no_unique_checks
SET SESSION unique_checks = 0
-- name: no_foreign_key_checks
SET SESSION foreign_key_checks = 0

-- Settings of a bulk-load connection, for that session only.
-- name: no_sync_commit
SET synchronous_commit = off

-- Settings of a bulk-load connection: no fsync per transaction while loading.
-- name: no_sync
PRAGMA synchronous = OFF

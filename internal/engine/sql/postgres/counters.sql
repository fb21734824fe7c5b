-- Database-side counters read at the start and end of a run and every metrics interval: (name, value) rows.
-- name: counters()
SELECT k, v FROM (VALUES
  ('xact_commit', (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::float8),
  ('xact_rollback', (SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database())::float8),
  ('blks_read', (SELECT blks_read FROM pg_stat_database WHERE datname = current_database())::float8),
  ('blks_hit', (SELECT blks_hit FROM pg_stat_database WHERE datname = current_database())::float8),
  ('tup_inserted', (SELECT tup_inserted FROM pg_stat_database WHERE datname = current_database())::float8),
  ('tup_updated', (SELECT tup_updated FROM pg_stat_database WHERE datname = current_database())::float8),
  ('tup_deleted', (SELECT tup_deleted FROM pg_stat_database WHERE datname = current_database())::float8),
  ('deadlocks', (SELECT deadlocks FROM pg_stat_database WHERE datname = current_database())::float8),
  ('wal_bytes', pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8)) AS c(k, v)
-- The background writer's buffers (every version), read with the counters.
-- name: counters_bgwriter()
SELECT k, v FROM (VALUES
  ('buffers_clean', (SELECT buffers_clean FROM pg_stat_bgwriter)::float8),
  ('buffers_alloc', (SELECT buffers_alloc FROM pg_stat_bgwriter)::float8)) AS c(k, v)
-- Checkpoints up to PostgreSQL 16 (pg_stat_bgwriter); on 17 and later this fails and the next one answers.
-- name: counters_checkpoints()
SELECT k, v FROM (VALUES
  ('checkpoints_timed', (SELECT checkpoints_timed FROM pg_stat_bgwriter)::float8),
  ('checkpoints_req', (SELECT checkpoints_req FROM pg_stat_bgwriter)::float8),
  ('buffers_checkpoint', (SELECT buffers_checkpoint FROM pg_stat_bgwriter)::float8),
  ('buffers_backend', (SELECT buffers_backend FROM pg_stat_bgwriter)::float8)) AS c(k, v)
-- Checkpoints from PostgreSQL 17 on (pg_stat_checkpointer).
-- name: counters_checkpointer()
SELECT k, v FROM (VALUES
  ('checkpoints_timed', (SELECT num_timed FROM pg_stat_checkpointer)::float8),
  ('checkpoints_req', (SELECT num_requested FROM pg_stat_checkpointer)::float8),
  ('buffers_checkpoint', (SELECT buffers_written FROM pg_stat_checkpointer)::float8)) AS c(k, v)
-- What each active client session waits on now (wait_event_type, wait_event; both null while it runs on CPU),
-- and whether it is one of dbdyno's own (application_name, which dbdyno sets on its connections).
-- name: waits()
SELECT wait_event_type, wait_event, application_name = 'dbdyno'
FROM pg_stat_activity
WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()
-- The storage figures the capacity probes compare across engines (StorageCounters): bytes read into the
-- engine's cache from the operating system, reads served by the cache (blocks), and log bytes written.
-- name: io_counters()
SELECT k, v FROM (VALUES
  ('read_bytes', (SELECT blks_read FROM pg_stat_database WHERE datname = current_database())::float8 * current_setting('block_size')::float8),
  ('cache_hits', (SELECT blks_hit FROM pg_stat_database WHERE datname = current_database())::float8),
  ('cache_misses', (SELECT blks_read FROM pg_stat_database WHERE datname = current_database())::float8),
  ('log_bytes', pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8)) AS c(k, v)
-- The engine's own cache in bytes (the memory probe's default range is 4x it).
-- name: cache_size()
SELECT setting::float8 * current_setting('block_size')::float8 FROM pg_settings WHERE name = 'shared_buffers'
-- The transactions the database committed and rolled back (ReadTxCounts: HammerDB's TPM is their change per
-- minute; HammerDB sums every database of the cluster, dbdyno reads the run's own). A backend adds its counts
-- at most once a second (and an idle one within 10 s), so a read lags up to a second of each session's work.
-- name: tx_counts()
SELECT k, v FROM (VALUES
  ('commits', (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::float8),
  ('rollbacks', (SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database())::float8),
  ('each_statement', 1::float8), ('lag_s', 1::float8)) AS c(k, v)

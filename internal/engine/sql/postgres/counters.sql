-- Database-side counters read at the start and end of a run: (name, value) rows.
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

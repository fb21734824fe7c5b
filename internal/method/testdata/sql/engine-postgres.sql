-- PostgreSQL's own statements (internal/engine/sql)

-- file: catalog.sql
-- name: table_exists(name)  -- from sql/postgres/catalog.sql
SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = $1;
-- name: server_version()  -- from sql/postgres/catalog.sql
SELECT CASE
	WHEN version() LIKE 'CockroachDB%' THEN 'CockroachDB ' || split_part(split_part(version(), ' v', 2), ' ', 1)
	WHEN version() LIKE '%-YB-%' THEN 'YugabyteDB ' || split_part(split_part(version(), '-YB-', 2), ' ', 1)
	ELSE 'PostgreSQL ' || current_setting('server_version') END;
-- name: count_rows  -- from sql/generic/catalog.sql
SELECT count(*) FROM {table};
-- name: variant()  -- from sql/postgres/catalog.sql
SELECT version();
-- name: analyze_table  -- from sql/postgres/catalog.sql
ANALYZE {table};
-- name: database_exists(name)  -- from sql/postgres/catalog.sql
SELECT count(*) FROM pg_database WHERE datname = $1;
-- name: create_database  -- from sql/postgres/catalog.sql
CREATE DATABASE {name};
-- name: schema_exists(name)  -- from sql/postgres/catalog.sql
SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = $1;
-- name: create_schema  -- from sql/postgres/catalog.sql
CREATE SCHEMA {name};
-- name: max_parallel_session  -- from sql/postgres/catalog.sql
SET max_parallel_workers_per_gather = {workers};
-- name: index_names(name)  -- from sql/postgres/catalog.sql
SELECT indexname FROM pg_catalog.pg_indexes WHERE schemaname = current_schema() AND tablename = $1;
-- name: row_estimate(name)  -- from sql/postgres/catalog.sql
SELECT COALESCE((SELECT reltuples::bigint FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relname = $1), -1);
-- name: lock_shared(name)  -- from sql/postgres/catalog.sql
SELECT pg_try_advisory_lock_shared(hashtext(current_schema() || '.' || $1))::int;
-- name: lock_exclusive(name)  -- from sql/postgres/catalog.sql
SELECT pg_try_advisory_lock(hashtext(current_schema() || '.' || $1))::int;
-- name: unlock_all()  -- from sql/postgres/catalog.sql
SELECT pg_advisory_unlock_all();
-- name: table_checksum  -- from sql/postgres/catalog.sql
SELECT count(*), coalesce(sum(hashtext(t::text)), 0)::text FROM {table} t;

-- file: settings.sql
-- name: shared_buffers()  -- from sql/postgres/settings.sql
SELECT current_setting('shared_buffers');
-- name: effective_cache_size()  -- from sql/postgres/settings.sql
SELECT current_setting('effective_cache_size');
-- name: work_mem()  -- from sql/postgres/settings.sql
SELECT current_setting('work_mem');
-- name: max_parallel_workers_per_gather()  -- from sql/postgres/settings.sql
SELECT current_setting('max_parallel_workers_per_gather');
-- name: max_parallel_workers()  -- from sql/postgres/settings.sql
SELECT current_setting('max_parallel_workers');
-- name: max_connections()  -- from sql/postgres/settings.sql
SELECT current_setting('max_connections');
-- name: synchronous_commit()  -- from sql/postgres/settings.sql
SELECT current_setting('synchronous_commit');
-- name: fsync()  -- from sql/postgres/settings.sql
SELECT current_setting('fsync');
-- name: wal_level()  -- from sql/postgres/settings.sql
SELECT current_setting('wal_level');
-- name: max_wal_size()  -- from sql/postgres/settings.sql
SELECT current_setting('max_wal_size');
-- name: checkpoint_timeout()  -- from sql/postgres/settings.sql
SELECT current_setting('checkpoint_timeout');
-- name: random_page_cost()  -- from sql/postgres/settings.sql
SELECT current_setting('random_page_cost');
-- name: jit()  -- from sql/postgres/settings.sql
SELECT current_setting('jit');

-- file: counters.sql
-- name: counters()  -- from sql/postgres/counters.sql
SELECT k, v FROM (VALUES
  ('xact_commit', (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::float8),
  ('xact_rollback', (SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database())::float8),
  ('blks_read', (SELECT blks_read FROM pg_stat_database WHERE datname = current_database())::float8),
  ('blks_hit', (SELECT blks_hit FROM pg_stat_database WHERE datname = current_database())::float8),
  ('tup_inserted', (SELECT tup_inserted FROM pg_stat_database WHERE datname = current_database())::float8),
  ('tup_updated', (SELECT tup_updated FROM pg_stat_database WHERE datname = current_database())::float8),
  ('tup_deleted', (SELECT tup_deleted FROM pg_stat_database WHERE datname = current_database())::float8),
  ('deadlocks', (SELECT deadlocks FROM pg_stat_database WHERE datname = current_database())::float8),
  ('wal_bytes', pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8)) AS c(k, v);
-- name: counters_bgwriter()  -- from sql/postgres/counters.sql
SELECT k, v FROM (VALUES
  ('buffers_clean', (SELECT buffers_clean FROM pg_stat_bgwriter)::float8),
  ('buffers_alloc', (SELECT buffers_alloc FROM pg_stat_bgwriter)::float8)) AS c(k, v);
-- name: counters_checkpoints()  -- from sql/postgres/counters.sql
SELECT k, v FROM (VALUES
  ('checkpoints_timed', (SELECT checkpoints_timed FROM pg_stat_bgwriter)::float8),
  ('checkpoints_req', (SELECT checkpoints_req FROM pg_stat_bgwriter)::float8),
  ('buffers_checkpoint', (SELECT buffers_checkpoint FROM pg_stat_bgwriter)::float8),
  ('buffers_backend', (SELECT buffers_backend FROM pg_stat_bgwriter)::float8)) AS c(k, v);
-- name: counters_checkpointer()  -- from sql/postgres/counters.sql
SELECT k, v FROM (VALUES
  ('checkpoints_timed', (SELECT num_timed FROM pg_stat_checkpointer)::float8),
  ('checkpoints_req', (SELECT num_requested FROM pg_stat_checkpointer)::float8),
  ('buffers_checkpoint', (SELECT buffers_written FROM pg_stat_checkpointer)::float8)) AS c(k, v);
-- name: waits()  -- from sql/postgres/counters.sql
SELECT wait_event_type, wait_event, application_name = 'dbdyno'
FROM pg_stat_activity
WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid();
-- name: io_counters()  -- from sql/postgres/counters.sql
SELECT k, v FROM (VALUES
  ('read_bytes', (SELECT blks_read FROM pg_stat_database WHERE datname = current_database())::float8 * current_setting('block_size')::float8),
  ('cache_hits', (SELECT blks_hit FROM pg_stat_database WHERE datname = current_database())::float8),
  ('cache_misses', (SELECT blks_read FROM pg_stat_database WHERE datname = current_database())::float8),
  ('log_bytes', pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8)) AS c(k, v);
-- name: cache_size()  -- from sql/postgres/counters.sql
SELECT setting::float8 * current_setting('block_size')::float8 FROM pg_settings WHERE name = 'shared_buffers';
-- name: tx_counts()  -- from sql/postgres/counters.sql
SELECT k, v FROM (VALUES
  ('commits', (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::float8),
  ('rollbacks', (SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database())::float8),
  ('each_statement', 1::float8), ('lag_s', 1::float8)) AS c(k, v);

-- file: load.sql
-- name: no_sync_commit  -- from sql/postgres/load.sql
SET synchronous_commit = off;

-- file: index.sql
-- name: index_sort_memory  -- from sql/postgres/index.sql
SET maintenance_work_mem = '256MB';


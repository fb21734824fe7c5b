-- dbdyno sql: workload probe, engine postgres (PostgreSQL)

-- file: schema.sql
-- name: meta  -- from sql/generic/schema.sql
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows  -- from sql/generic/schema.sql
CREATE TABLE {{part}} (
  id bigint NOT NULL, flag boolean NOT NULL, tiny smallint NOT NULL,
  i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL,
  big bigint NOT NULL, amount numeric(19,4) NOT NULL, ratio double precision NOT NULL,
  born date NOT NULL, stamp timestamp NOT NULL,
  code char(10) NOT NULL, name varchar(70) NOT NULL, note varchar(263) NOT NULL
);

-- file: indexes.sql
-- name: primary_key  -- from sql/generic/indexes.sql
ALTER TABLE {{part}} ADD PRIMARY KEY (id);

-- file: drop.sql
-- name: drop_part  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS {{part}};
-- name: drop_meta  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS {{meta}};

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM {{meta}} WHERE k = $1;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM {{meta}} WHERE k = $1;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO {{meta}} (k, v) VALUES ($1, $2);

-- file: cpusql/schema.sql
-- name: meta  -- from sql/generic/schema.sql
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows  -- from sql/generic/schema.sql
CREATE TABLE {{part}} (id bigint NOT NULL, i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL);

-- file: probe.sql
-- name: scan  -- from sql/generic/probe.sql
SELECT count(*) FROM {{part}}
WHERE flag IS NOT NULL AND tiny BETWEEN 10 AND 240 AND i4 BETWEEN 100000 AND 2000000000 AND amount BETWEEN 0 AND 10000000;
-- name: write_chunk(shift)  -- from sql/generic/probe.sql
INSERT INTO {{part}} (id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)
SELECT id + $1, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{chunk}};
-- name: empty  -- from sql/postgres/probe.sql
TRUNCATE {{part}};
-- name: count  -- from sql/generic/probe.sql
SELECT count(*) FROM {{part}};
-- name: max_id  -- from sql/generic/probe.sql
SELECT coalesce(max(id), 0) FROM {{part}};
-- name: cpu_join(n)  -- from sql/generic/probe.sql
SELECT count(*) FROM {{part}} t1 CROSS JOIN {{part}} t2
WHERE t1.id <= $1 AND t2.id <= $1
  AND abs(((t1.i1 * t2.i2) + t1.i3) - ((t2.i1 * t1.i2) + t2.i4)) < 17
  AND abs(power(t1.i5 % 5, 3) - (t2.i5 % 25)) < 7;
-- name: insert_row(id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)  -- from sql/generic/probe.sql
INSERT INTO {{part}} (id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16);
-- name: select_row(id)  -- from sql/generic/probe.sql
SELECT id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{part}} WHERE id = $1;
-- name: select_range(lo, hi)  -- from sql/generic/probe.sql
SELECT id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{part}}
WHERE id >= $1 AND id < $2;
-- name: update_row(id, i1, amount, stamp, note)  -- from sql/generic/probe.sql
UPDATE {{part}} SET i1 = $2, amount = $3, stamp = $4, note = $5 WHERE id = $1;
-- name: delete_row(id)  -- from sql/generic/probe.sql
DELETE FROM {{part}} WHERE id = $1;

-- file: plan.sql
-- name: explain  -- from sql/postgres/plan.sql
EXPLAIN;

-- PostgreSQL's own statements (internal/engine/sql)

-- file: catalog.sql
-- name: table_exists(name)  -- from sql/postgres/catalog.sql
SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = $1;
-- name: server_version()  -- from sql/postgres/catalog.sql
SELECT 'PostgreSQL ' || current_setting('server_version');
-- name: analyze_table  -- from sql/postgres/catalog.sql
ANALYZE {table};
-- name: database_exists(name)  -- from sql/postgres/catalog.sql
SELECT count(*) FROM pg_database WHERE datname = $1;
-- name: create_database  -- from sql/postgres/catalog.sql
CREATE DATABASE {name};
-- name: max_parallel_session  -- from sql/postgres/catalog.sql
SET max_parallel_workers_per_gather = {workers};

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

-- file: load.sql
-- name: no_sync_commit  -- from sql/postgres/load.sql
SET synchronous_commit = off;


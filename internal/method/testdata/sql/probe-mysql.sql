-- dbdyno sql: workload probe, engine mysql (MySQL/MariaDB)

-- file: schema.sql
-- name: meta  -- from sql/mysql/schema.sql
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows  -- from sql/mysql/schema.sql
CREATE TABLE {{part}} (
  id bigint NOT NULL PRIMARY KEY, flag boolean NOT NULL, tiny smallint NOT NULL,
  i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL,
  big bigint NOT NULL, amount decimal(19,4) NOT NULL, ratio double NOT NULL,
  born date NOT NULL, stamp datetime NOT NULL,
  code char(10) NOT NULL, name varchar(70) NOT NULL, note varchar(263) NOT NULL
) ENGINE=InnoDB;

-- file: indexes.sql
-- name: primary_key  -- from sql/mysql/indexes.sql
SELECT 1;

-- file: drop.sql
-- name: drop_part  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS {{part}};
-- name: drop_meta  -- from sql/generic/drop.sql
DROP TABLE IF EXISTS {{meta}};

-- file: admin.sql
-- name: meta_get(k)  -- from sql/generic/admin.sql
SELECT v FROM {{meta}} WHERE k = ?;
-- name: meta_delete(k)  -- from sql/generic/admin.sql
DELETE FROM {{meta}} WHERE k = ?;
-- name: meta_put(k, v)  -- from sql/generic/admin.sql
INSERT INTO {{meta}} (k, v) VALUES (?, ?);

-- file: cpusql/schema.sql
-- name: meta  -- from sql/mysql/schema.sql
CREATE TABLE {{meta}} (k varchar(64) NOT NULL PRIMARY KEY, v varchar(255));
-- name: rows  -- from sql/mysql/schema.sql
CREATE TABLE {{part}} (id bigint NOT NULL PRIMARY KEY, i1 int NOT NULL, i2 int NOT NULL, i3 int NOT NULL, i4 int NOT NULL, i5 int NOT NULL) ENGINE=InnoDB;

-- file: probe.sql
-- name: scan  -- from sql/generic/probe.sql
SELECT count(*) FROM {{part}}
WHERE flag IS NOT NULL AND tiny BETWEEN 10 AND 240 AND i4 BETWEEN 100000 AND 2000000000 AND amount BETWEEN 0 AND 10000000;
-- name: write_chunk(shift)  -- from sql/generic/probe.sql
INSERT INTO {{part}} (id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)
SELECT id + ?, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{chunk}};
-- name: empty  -- from sql/mysql/probe.sql
TRUNCATE TABLE {{part}};
-- name: count  -- from sql/generic/probe.sql
SELECT count(*) FROM {{part}};
-- name: max_id  -- from sql/generic/probe.sql
SELECT coalesce(max(id), 0) FROM {{part}};
-- name: cpu_join(n)  -- from sql/generic/probe.sql
SELECT count(*) FROM {{part}} t1 CROSS JOIN {{part}} t2
WHERE t1.id <= ? AND t2.id <= ?
  AND abs(((t1.i1 * t2.i2) + t1.i3) - ((t2.i1 * t1.i2) + t2.i4)) < 17
  AND abs(power(t1.i5 % 5, 3) - (t2.i5 % 25)) < 7;
-- name: insert_row(id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)  -- from sql/generic/probe.sql
INSERT INTO {{part}} (id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- name: select_row(id)  -- from sql/generic/probe.sql
SELECT id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{part}} WHERE id = ?;
-- name: select_range(lo, hi)  -- from sql/generic/probe.sql
SELECT id, flag, tiny, i1, i2, i3, i4, i5, big, amount, ratio, born, stamp, code, name, note FROM {{part}}
WHERE id >= ? AND id < ?;
-- name: update_row(id, i1, amount, stamp, note)  -- from sql/generic/probe.sql
UPDATE {{part}} SET i1 = ?, amount = ?, stamp = ?, note = ? WHERE id = ?;
-- name: delete_row(id)  -- from sql/generic/probe.sql
DELETE FROM {{part}} WHERE id = ?;

-- file: plan.sql
-- name: explain  -- from sql/mysql/plan.sql
EXPLAIN;

-- MySQL/MariaDB's own statements (internal/engine/sql)

-- file: catalog.sql
-- name: table_exists(name)  -- from sql/mysql/catalog.sql
SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?;
-- name: server_version()  -- from sql/mysql/catalog.sql
SELECT CONCAT(IF(VERSION() LIKE '%MariaDB%', 'MariaDB ', 'MySQL '), VERSION());
-- name: analyze_table  -- from sql/mysql/catalog.sql
ANALYZE TABLE {table};
-- name: database_exists(name)  -- from sql/mysql/catalog.sql
SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?;
-- name: create_database  -- from sql/mysql/catalog.sql
CREATE DATABASE IF NOT EXISTS {name};
-- name: bulk_allowed()  -- from sql/mysql/catalog.sql
SELECT @@local_infile;

-- file: settings.sql
-- name: innodb_buffer_pool_size()  -- from sql/mysql/settings.sql
SELECT @@innodb_buffer_pool_size;
-- name: innodb_log_file_size()  -- from sql/mysql/settings.sql
SELECT @@innodb_log_file_size;
-- name: innodb_flush_log_at_trx_commit()  -- from sql/mysql/settings.sql
SELECT @@innodb_flush_log_at_trx_commit;
-- name: innodb_flush_method()  -- from sql/mysql/settings.sql
SELECT @@innodb_flush_method;
-- name: innodb_io_capacity()  -- from sql/mysql/settings.sql
SELECT @@innodb_io_capacity;
-- name: sync_binlog()  -- from sql/mysql/settings.sql
SELECT @@sync_binlog;
-- name: max_connections()  -- from sql/mysql/settings.sql
SELECT @@max_connections;
-- name: transaction_isolation()  -- from sql/mysql/settings.sql
SELECT @@tx_isolation;

-- file: counters.sql
-- name: counters()  -- from sql/mysql/counters.sql
SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN
  ('INNODB_DATA_READS', 'INNODB_DATA_WRITES', 'INNODB_DATA_READ', 'INNODB_DATA_WRITTEN', 'INNODB_OS_LOG_WRITTEN',
   'INNODB_LOG_WRITES', 'INNODB_ROWS_READ', 'INNODB_ROWS_INSERTED', 'INNODB_ROWS_UPDATED', 'INNODB_ROWS_DELETED',
   'INNODB_BUFFER_POOL_READS', 'INNODB_BUFFER_POOL_READ_REQUESTS', 'INNODB_DEADLOCKS', 'COM_COMMIT', 'COM_ROLLBACK', 'INNODB_ROW_LOCK_WAITS', 'INNODB_ROW_LOCK_TIME',
   'INNODB_BUFFER_POOL_WRITE_REQUESTS', 'INNODB_BUFFER_POOL_PAGES_FLUSHED');
-- name: waits()  -- from sql/mysql/counters.sql
SELECT CASE WHEN w.EVENT_NAME IS NULL THEN NULL ELSE SUBSTRING_INDEX(w.EVENT_NAME, '/', 2) END, w.EVENT_NAME,
       EXISTS (SELECT 1 FROM performance_schema.session_connect_attrs a
               WHERE a.PROCESSLIST_ID = t.PROCESSLIST_ID AND a.ATTR_NAME = 'program_name' AND a.ATTR_VALUE = 'dbdyno')
FROM performance_schema.threads t
LEFT JOIN performance_schema.events_waits_current w ON w.THREAD_ID = t.THREAD_ID AND w.END_EVENT_ID IS NULL
WHERE t.TYPE = 'FOREGROUND' AND t.PROCESSLIST_COMMAND <> 'Sleep' AND t.PROCESSLIST_ID <> CONNECTION_ID();
-- name: waits_enabled()  -- from sql/mysql/counters.sql
SELECT @@performance_schema;
-- name: io_counters()  -- from sql/mysql/counters.sql
SELECT CASE VARIABLE_NAME WHEN 'INNODB_DATA_READ' THEN 'read_bytes' WHEN 'INNODB_OS_LOG_WRITTEN' THEN 'log_bytes'
  WHEN 'INNODB_BUFFER_POOL_READS' THEN 'cache_misses' ELSE 'cache_requests' END, VARIABLE_VALUE
FROM information_schema.GLOBAL_STATUS
WHERE VARIABLE_NAME IN ('INNODB_DATA_READ', 'INNODB_OS_LOG_WRITTEN', 'INNODB_BUFFER_POOL_READS', 'INNODB_BUFFER_POOL_READ_REQUESTS');
-- name: cache_size()  -- from sql/mysql/counters.sql
SELECT @@innodb_buffer_pool_size;

-- file: load.sql
-- name: no_unique_checks  -- from sql/mysql/load.sql
SET SESSION unique_checks = 0;
-- name: no_foreign_key_checks  -- from sql/mysql/load.sql
SET SESSION foreign_key_checks = 0;


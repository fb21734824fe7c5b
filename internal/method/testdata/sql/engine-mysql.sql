-- MySQL/MariaDB's own statements (internal/engine/sql)

-- file: catalog.sql
-- name: table_exists(name)  -- from sql/mysql/catalog.sql
SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?;
-- name: server_version()  -- from sql/mysql/catalog.sql
SELECT IF(VERSION() LIKE '%-TiDB-v%', CONCAT('TiDB ', SUBSTRING_INDEX(VERSION(), '-TiDB-v', -1)),
	CONCAT(IF(VERSION() LIKE '%MariaDB%', 'MariaDB ', 'MySQL '), VERSION()));
-- name: count_rows  -- from sql/generic/catalog.sql
SELECT count(*) FROM {table};
-- name: variant()  -- from sql/mysql/catalog.sql
SELECT VERSION();
-- name: analyze_table  -- from sql/mysql/catalog.sql
ANALYZE TABLE {table};
-- name: database_exists(name)  -- from sql/mysql/catalog.sql
SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?;
-- name: create_database  -- from sql/mysql/catalog.sql
CREATE DATABASE IF NOT EXISTS {name};
-- name: bulk_allowed()  -- from sql/mysql/catalog.sql
SELECT @@local_infile;
-- name: index_names(name)  -- from sql/mysql/catalog.sql
SELECT DISTINCT index_name FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ?;
-- name: row_estimate(name)  -- from sql/mysql/catalog.sql
SELECT COALESCE((SELECT table_rows FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?), -1);
-- name: lock_exclusive(name)  -- from sql/mysql/catalog.sql
SELECT GET_LOCK(CONCAT(DATABASE(), '.', ?), 0);
-- name: unlock_all()  -- from sql/mysql/catalog.sql
SELECT RELEASE_ALL_LOCKS();
-- name: table_checksum  -- from sql/mysql/catalog.sql
SELECT count(*), coalesce(sum(crc32(json_array({columns}))), 0) FROM {table};
-- name: column_names(name)  -- from sql/mysql/catalog.sql
SELECT column_name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position;

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
-- name: tx_counts()  -- from sql/mysql/counters.sql
SELECT CASE VARIABLE_NAME WHEN 'COM_COMMIT' THEN 'commits' ELSE 'rollbacks' END, VARIABLE_VALUE
FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN ('COM_COMMIT', 'COM_ROLLBACK')
UNION ALL SELECT 'each_statement', 0 UNION ALL SELECT 'lag_s', 0;

-- file: load.sql
-- name: no_unique_checks  -- from sql/mysql/load.sql
SET SESSION unique_checks = 0;
-- name: no_foreign_key_checks  -- from sql/mysql/load.sql
SET SESSION foreign_key_checks = 0;


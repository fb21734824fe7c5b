-- Database-side counters read at the start and end of a run and every metrics interval: (name, value) rows.
-- name: counters()
SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN
  ('INNODB_DATA_READS', 'INNODB_DATA_WRITES', 'INNODB_DATA_READ', 'INNODB_DATA_WRITTEN', 'INNODB_OS_LOG_WRITTEN',
   'INNODB_LOG_WRITES', 'INNODB_ROWS_READ', 'INNODB_ROWS_INSERTED', 'INNODB_ROWS_UPDATED', 'INNODB_ROWS_DELETED',
   'INNODB_BUFFER_POOL_READS', 'INNODB_BUFFER_POOL_READ_REQUESTS', 'INNODB_DEADLOCKS', 'COM_COMMIT', 'COM_ROLLBACK', 'INNODB_ROW_LOCK_WAITS', 'INNODB_ROW_LOCK_TIME',
   'INNODB_BUFFER_POOL_WRITE_REQUESTS', 'INNODB_BUFFER_POOL_PAGES_FLUSHED')
-- What each busy foreground session waits on now, from performance_schema (where it is enabled): the wait's
-- class (its first two name parts) and name, null while the session runs on CPU; dbdyno's own sessions carry
-- the connection attribute program_name=dbdyno.
-- name: waits()
SELECT CASE WHEN w.EVENT_NAME IS NULL THEN NULL ELSE SUBSTRING_INDEX(w.EVENT_NAME, '/', 2) END, w.EVENT_NAME,
       EXISTS (SELECT 1 FROM performance_schema.session_connect_attrs a
               WHERE a.PROCESSLIST_ID = t.PROCESSLIST_ID AND a.ATTR_NAME = 'program_name' AND a.ATTR_VALUE = 'dbdyno')
FROM performance_schema.threads t
LEFT JOIN performance_schema.events_waits_current w ON w.THREAD_ID = t.THREAD_ID AND w.END_EVENT_ID IS NULL
WHERE t.TYPE = 'FOREGROUND' AND t.PROCESSLIST_COMMAND <> 'Sleep' AND t.PROCESSLIST_ID <> CONNECTION_ID()
-- Whether wait events can be sampled at all: performance_schema is off by default on MariaDB (its tables are
-- then empty, not missing).
-- name: waits_enabled()
SELECT @@performance_schema
-- The storage figures the capacity probes compare across engines (StorageCounters): bytes InnoDB read from
-- its files, buffer pool reads served from memory and from disk (pages), and redo log bytes written.
-- name: io_counters()
SELECT CASE VARIABLE_NAME WHEN 'INNODB_DATA_READ' THEN 'read_bytes' WHEN 'INNODB_OS_LOG_WRITTEN' THEN 'log_bytes'
  WHEN 'INNODB_BUFFER_POOL_READS' THEN 'cache_misses' ELSE 'cache_requests' END, VARIABLE_VALUE
FROM information_schema.GLOBAL_STATUS
WHERE VARIABLE_NAME IN ('INNODB_DATA_READ', 'INNODB_OS_LOG_WRITTEN', 'INNODB_BUFFER_POOL_READS', 'INNODB_BUFFER_POOL_READ_REQUESTS')
-- The engine's own cache in bytes (the memory probe's default range is 4x it).
-- name: cache_size()
SELECT @@innodb_buffer_pool_size
-- The COMMIT and ROLLBACK statements the server ran, every session's and database's (ReadTxCounts: HammerDB's
-- TPM is their change per minute, Com_commit + Com_rollback). Statements inside stored procedures count;
-- autocommitted statements and the rollback of a dropped connection's transaction do not.
-- name: tx_counts()
SELECT CASE VARIABLE_NAME WHEN 'COM_COMMIT' THEN 'commits' ELSE 'rollbacks' END, VARIABLE_VALUE
FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN ('COM_COMMIT', 'COM_ROLLBACK')
UNION ALL SELECT 'each_statement', 0 UNION ALL SELECT 'lag_s', 0

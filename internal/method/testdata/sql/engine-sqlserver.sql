-- SQL Server's own statements (internal/engine/sql)

-- file: catalog.sql
-- name: table_exists(name)  -- from sql/sqlserver/catalog.sql
SELECT count(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = SCHEMA_NAME() AND TABLE_NAME = @p1;
-- name: server_version()  -- from sql/sqlserver/catalog.sql
SELECT 'SQL Server ' + CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)) + ' ' + CAST(SERVERPROPERTY('Edition') AS nvarchar(128));
-- name: count_rows  -- from sql/generic/catalog.sql
SELECT count(*) FROM {table};
-- name: variant()  -- from sql/sqlserver/catalog.sql
SELECT CAST(SERVERPROPERTY('BabelfishVersion') AS nvarchar(128)), CAST(@@VERSION AS nvarchar(4000));
-- name: analyze_table  -- from sql/sqlserver/catalog.sql
UPDATE STATISTICS {table};
-- name: database_exists(name)  -- from sql/sqlserver/catalog.sql
SELECT count(*) FROM sys.databases WHERE name = @p1;
-- name: create_database  -- from sql/sqlserver/catalog.sql
CREATE DATABASE {name};
-- name: schema_exists(name)  -- from sql/sqlserver/catalog.sql
SELECT count(*) FROM sys.schemas WHERE name = @p1;
-- name: create_schema  -- from sql/sqlserver/catalog.sql
CREATE SCHEMA {name};
-- name: current_schema  -- from sql/sqlserver/catalog.sql
SELECT SCHEMA_NAME();
-- name: host_cores()  -- from sql/sqlserver/catalog.sql
SELECT socket_count * cores_per_socket FROM sys.dm_os_sys_info;
-- name: max_parallel_hint  -- from sql/sqlserver/catalog.sql
OPTION (MAXDOP {n});
-- name: max_parallel_session_babelfish  -- from sql/sqlserver/catalog.sql
SELECT set_config('max_parallel_workers_per_gather', '{workers}', false);
-- name: index_names(name)  -- from sql/sqlserver/catalog.sql
SELECT i.name FROM sys.indexes i WHERE i.object_id = OBJECT_ID(QUOTENAME(SCHEMA_NAME()) + '.' + QUOTENAME(@p1)) AND i.name IS NOT NULL;
-- name: row_estimate(name)  -- from sql/sqlserver/catalog.sql
SELECT COALESCE((SELECT SUM(p.rows) FROM sys.partitions p WHERE p.object_id = OBJECT_ID(QUOTENAME(SCHEMA_NAME()) + '.' + QUOTENAME(@p1)) AND p.index_id IN (0, 1)), -1);
-- name: lock_shared(name)  -- from sql/sqlserver/catalog.sql
DECLARE @r int, @res nvarchar(255) = CONCAT(DB_NAME(), '.', SCHEMA_NAME(), '.', @p1); EXEC @r = sp_getapplock @Resource = @res, @LockMode = 'Shared', @LockOwner = 'Session', @LockTimeout = 0; SELECT CASE WHEN @r >= 0 THEN 1 ELSE 0 END;
-- name: lock_exclusive(name)  -- from sql/sqlserver/catalog.sql
DECLARE @r int, @res nvarchar(255) = CONCAT(DB_NAME(), '.', SCHEMA_NAME(), '.', @p1); EXEC @r = sp_getapplock @Resource = @res, @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = 0; SELECT CASE WHEN @r >= 0 THEN 1 ELSE 0 END;
-- name: unlock_all(name)  -- from sql/sqlserver/catalog.sql
DECLARE @res nvarchar(255) = CONCAT(DB_NAME(), '.', SCHEMA_NAME(), '.', @p1); EXEC sp_releaseapplock @Resource = @res, @LockOwner = 'Session';
-- name: table_checksum  -- from sql/sqlserver/catalog.sql
SELECT COUNT_BIG(*), COALESCE(SUM(CAST(CHECKSUM(*) AS bigint)), 0) FROM {table};

-- file: settings.sql
-- name: edition()  -- from sql/sqlserver/settings.sql
SELECT CAST(SERVERPROPERTY('Edition') AS nvarchar(128));
-- name: engine_edition()  -- from sql/sqlserver/settings.sql
SELECT CASE CAST(SERVERPROPERTY('EngineEdition') AS int) WHEN 5 THEN 'Azure SQL Database' WHEN 8 THEN 'Azure SQL Managed Instance'
            WHEN 4 THEN 'Express' WHEN 3 THEN 'Enterprise' WHEN 2 THEN 'Standard' ELSE CAST(SERVERPROPERTY('EngineEdition') AS varchar(8)) END;
-- name: service_objective()  -- from sql/sqlserver/settings.sql
SELECT CAST(DATABASEPROPERTYEX(DB_NAME(), 'ServiceObjective') AS nvarchar(128));
-- name: max_server_memory_mb()  -- from sql/sqlserver/settings.sql
SELECT CAST(value_in_use AS bigint) FROM sys.configurations WHERE name = 'max server memory (MB)';
-- name: maxdop()  -- from sql/sqlserver/settings.sql
SELECT CAST(value_in_use AS int) FROM sys.configurations WHERE name = 'max degree of parallelism';
-- name: database_maxdop()  -- from sql/sqlserver/settings.sql
SELECT CAST(value AS int) FROM sys.database_scoped_configurations WHERE name = 'MAXDOP';
-- name: cost_threshold_for_parallelism()  -- from sql/sqlserver/settings.sql
SELECT CAST(value_in_use AS int) FROM sys.configurations WHERE name = 'cost threshold for parallelism';
-- name: trace_flags()  -- from sql/sqlserver/settings.sql
SET NOCOUNT ON;
DECLARE @flags TABLE (TraceFlag int, Status int, Global int, Session int);
INSERT INTO @flags EXEC ('DBCC TRACESTATUS(-1) WITH NO_INFOMSGS');
SELECT COALESCE(STRING_AGG(CAST(TraceFlag AS varchar(10)), ','), 'none') FROM @flags WHERE Global = 1;
-- name: tempdb_data_files()  -- from sql/sqlserver/settings.sql
SELECT count(*) FROM tempdb.sys.database_files WHERE type = 0;
-- name: memory_model()  -- from sql/sqlserver/settings.sql
SELECT sql_memory_model_desc FROM sys.dm_os_sys_info;
-- name: compatibility_level()  -- from sql/sqlserver/settings.sql
SELECT compatibility_level FROM sys.databases WHERE name = DB_NAME();
-- name: recovery_model()  -- from sql/sqlserver/settings.sql
SELECT recovery_model_desc FROM sys.databases WHERE name = DB_NAME();
-- name: read_committed_snapshot()  -- from sql/sqlserver/settings.sql
SELECT is_read_committed_snapshot_on FROM sys.databases WHERE name = DB_NAME();
-- name: delayed_durability()  -- from sql/sqlserver/settings.sql
SELECT delayed_durability_desc FROM sys.databases WHERE name = DB_NAME();
-- name: cpu_count()  -- from sql/sqlserver/settings.sql
SELECT cpu_count FROM sys.dm_os_sys_info;
-- name: physical_memory_mb()  -- from sql/sqlserver/settings.sql
SELECT physical_memory_kb / 1024 FROM sys.dm_os_sys_info;

-- file: counters.sql
-- name: counters()  -- from sql/sqlserver/counters.sql
SELECT lower(replace(rtrim(counter_name), ' ', '_')), CAST(cntr_value AS float)
FROM sys.dm_os_performance_counters
WHERE (object_name LIKE '%:SQL Statistics%' AND counter_name IN ('Batch Requests/sec', 'SQL Compilations/sec', 'SQL Re-Compilations/sec'))
   OR (object_name LIKE '%:Buffer Manager%' AND counter_name IN ('Page reads/sec', 'Page writes/sec', 'Page lookups/sec', 'Checkpoint pages/sec', 'Lazy writes/sec'))
   OR (object_name LIKE '%:Locks%' AND instance_name = '_Total' AND counter_name IN ('Lock Waits/sec', 'Number of Deadlocks/sec'))
   OR (object_name LIKE '%:Databases%' AND instance_name = DB_NAME() AND counter_name IN ('Log Bytes Flushed/sec', 'Log Flushes/sec', 'Transactions/sec'));
-- name: counters_file_io()  -- from sql/sqlserver/counters.sql
SELECT k, v FROM (
  SELECT CASE f.type WHEN 1 THEN 'log_' ELSE 'data_' END AS kind,
         SUM(s.num_of_bytes_read) AS bytes_read, SUM(s.num_of_bytes_written) AS bytes_written,
         SUM(s.num_of_reads) AS reads, SUM(s.num_of_writes) AS writes,
         SUM(s.io_stall_read_ms) AS read_stall_ms, SUM(s.io_stall_write_ms) AS write_stall_ms
  FROM sys.dm_io_virtual_file_stats(DB_ID(), NULL) s
  JOIN sys.database_files f ON f.file_id = s.file_id
  GROUP BY CASE f.type WHEN 1 THEN 'log_' ELSE 'data_' END) AS x
CROSS APPLY (VALUES (x.kind + 'bytes_read', CAST(x.bytes_read AS float)), (x.kind + 'bytes_written', CAST(x.bytes_written AS float)),
                    (x.kind + 'reads', CAST(x.reads AS float)), (x.kind + 'writes', CAST(x.writes AS float)),
                    (x.kind + 'read_stall_ms', CAST(x.read_stall_ms AS float)), (x.kind + 'write_stall_ms', CAST(x.write_stall_ms AS float))) AS c(k, v);
-- name: counters_wait_stats()  -- from sql/sqlserver/counters.sql
SELECT 'wait_ms_' + lower(wait_type), CAST(wait_time_ms AS float)
FROM sys.dm_os_wait_stats
WHERE wait_time_ms > 0 AND wait_type NOT IN (
  'BROKER_EVENTHANDLER', 'BROKER_RECEIVE_WAITFOR', 'BROKER_TASK_STOP', 'BROKER_TO_FLUSH', 'BROKER_TRANSMITTER',
  'CHECKPOINT_QUEUE', 'CLR_AUTO_EVENT', 'CLR_MANUAL_EVENT', 'DIRTY_PAGE_POLL', 'DISPATCHER_QUEUE_SEMAPHORE',
  'FT_IFTS_SCHEDULER_IDLE_WAIT', 'HADR_FILESTREAM_IOMGR_IOCOMPLETION', 'HADR_WORK_QUEUE', 'LAZYWRITER_SLEEP',
  'LOGMGR_QUEUE', 'ONDEMAND_TASK_QUEUE', 'PWAIT_EXTENSIBILITY_CLEANUP_TASK', 'QDS_ASYNC_QUEUE',
  'QDS_CLEANUP_STALE_QUERIES_TASK_MAIN_LOOP_SLEEP', 'QDS_PERSIST_TASK_MAIN_LOOP_SLEEP', 'REQUEST_FOR_DEADLOCK_SEARCH',
  'SLEEP_TASK', 'SLEEP_SYSTEMTASK', 'SP_SERVER_DIAGNOSTICS_SLEEP', 'SQLTRACE_BUFFER_FLUSH',
  'SQLTRACE_INCREMENTAL_FLUSH_SLEEP', 'WAITFOR', 'XE_DISPATCHER_WAIT', 'XE_TIMER_EVENT', 'SOS_WORK_DISPATCHER')
  AND wait_type NOT LIKE 'SLEEP[_]%' AND wait_type NOT LIKE 'PREEMPTIVE[_]XE[_]%';
-- name: counters_azure_resource()  -- from sql/sqlserver/counters.sql
SELECT k, v FROM (SELECT TOP 1 * FROM sys.dm_db_resource_stats ORDER BY end_time DESC) AS r
CROSS APPLY (VALUES ('cpu_pct', CAST(r.avg_cpu_percent AS float)), ('data_io_pct', CAST(r.avg_data_io_percent AS float)),
                    ('log_write_pct', CAST(r.avg_log_write_percent AS float)), ('memory_pct', CAST(r.avg_memory_usage_percent AS float))) AS c(k, v);
-- name: waits()  -- from sql/sqlserver/counters.sql
SELECT CASE WHEN r.wait_type IS NULL THEN NULL
            WHEN r.wait_type LIKE 'LCK[_]%' THEN 'Lock'
            WHEN r.wait_type LIKE 'PAGEIOLATCH[_]%' THEN 'Buffer IO'
            WHEN r.wait_type LIKE 'PAGELATCH[_]%' OR r.wait_type LIKE 'LATCH[_]%' THEN 'Latch'
            WHEN r.wait_type IN ('WRITELOG', 'LOGBUFFER') OR r.wait_type LIKE 'LOG[_]RATE[_]%' THEN 'Tran Log IO'
            WHEN r.wait_type LIKE 'CX%' OR r.wait_type LIKE 'EXCHANGE%' THEN 'Parallelism'
            WHEN r.wait_type = 'SOS_SCHEDULER_YIELD' THEN 'CPU'
            WHEN r.wait_type = 'ASYNC_NETWORK_IO' THEN 'Network IO'
            WHEN r.wait_type LIKE 'RESOURCE_SEMAPHORE%' THEN 'Memory'
            ELSE 'Other' END,
       r.wait_type,
       CASE WHEN s.program_name = 'dbdyno' THEN 1 ELSE 0 END
FROM sys.dm_exec_requests r
JOIN sys.dm_exec_sessions s ON s.session_id = r.session_id
WHERE s.is_user_process = 1 AND r.session_id <> @@SPID;
-- name: waits_enabled()  -- from sql/sqlserver/counters.sql
SELECT CASE WHEN HAS_PERMS_BY_NAME(NULL, NULL, 'VIEW SERVER STATE') = 1 OR HAS_PERMS_BY_NAME(DB_NAME(), 'DATABASE', 'VIEW DATABASE STATE') = 1 THEN 1 ELSE 0 END;
-- name: io_counters()  -- from sql/sqlserver/counters.sql
SELECT CASE WHEN f.type = 1 THEN 'log_bytes' ELSE 'read_bytes' END,
       CAST(SUM(CASE WHEN f.type = 1 THEN s.num_of_bytes_written ELSE s.num_of_bytes_read END) AS float)
FROM sys.dm_io_virtual_file_stats(DB_ID(), NULL) s JOIN sys.database_files f ON f.file_id = s.file_id
WHERE f.type IN (0, 1)
GROUP BY f.type;
-- name: cache_size()  -- from sql/sqlserver/counters.sql
SELECT CAST(cntr_value AS float) * 1024 FROM sys.dm_os_performance_counters WHERE counter_name = 'Target Server Memory (KB)';
-- name: tx_counts()  -- from sql/sqlserver/counters.sql
SELECT 'batches', CAST(cntr_value AS float) FROM sys.dm_os_performance_counters
WHERE object_name LIKE '%:SQL Statistics%' AND counter_name = 'Batch Requests/sec'
UNION ALL SELECT 'each_statement', CAST(1 AS float) UNION ALL SELECT 'lag_s', CAST(0 AS float);

-- file: load.sql
-- name: nocount  -- from sql/sqlserver/load.sql
SET NOCOUNT ON;


-- Database-side counters read at the start and end of a run and every metrics interval: (name, value) rows.
-- The "/sec" performance counters are cumulative counts (cntr_type 272696576), so their change over an interval
-- is the rate; names ending in _pct are levels (gauges), reported as read.
-- name: counters()
SELECT lower(replace(rtrim(counter_name), ' ', '_')), CAST(cntr_value AS float)
FROM sys.dm_os_performance_counters
WHERE (object_name LIKE '%:SQL Statistics%' AND counter_name IN ('Batch Requests/sec', 'SQL Compilations/sec', 'SQL Re-Compilations/sec'))
   OR (object_name LIKE '%:Buffer Manager%' AND counter_name IN ('Page reads/sec', 'Page writes/sec', 'Page lookups/sec', 'Checkpoint pages/sec', 'Lazy writes/sec'))
   OR (object_name LIKE '%:Locks%' AND instance_name = '_Total' AND counter_name IN ('Lock Waits/sec', 'Number of Deadlocks/sec'))
   OR (object_name LIKE '%:Databases%' AND instance_name = DB_NAME() AND counter_name IN ('Log Bytes Flushed/sec', 'Log Flushes/sec', 'Transactions/sec'))
-- The database's files' IO (data and log): bytes, operations and their stall times.
-- name: counters_file_io()
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
                    (x.kind + 'read_stall_ms', CAST(x.read_stall_ms AS float)), (x.kind + 'write_stall_ms', CAST(x.write_stall_ms AS float))) AS c(k, v)
-- The server's waits, by type, in milliseconds waited (sys.dm_os_wait_stats; idle and background waits left out).
-- name: counters_wait_stats()
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
  AND wait_type NOT LIKE 'SLEEP[_]%' AND wait_type NOT LIKE 'PREEMPTIVE[_]XE[_]%'
-- Azure SQL Database: the tier's use of its limits over the last 15 s (levels, in percent of the limit).
-- Elsewhere the view is missing and the statement is skipped.
-- name: counters_azure_resource()
SELECT k, v FROM (SELECT TOP 1 * FROM sys.dm_db_resource_stats ORDER BY end_time DESC) AS r
CROSS APPLY (VALUES ('cpu_pct', CAST(r.avg_cpu_percent AS float)), ('data_io_pct', CAST(r.avg_data_io_percent AS float)),
                    ('log_write_pct', CAST(r.avg_log_write_percent AS float)), ('memory_pct', CAST(r.avg_memory_usage_percent AS float))) AS c(k, v)
-- What each active user request waits on now (wait_type null while it runs), its class by the wait type's
-- family, and whether it is one of dbdyno's own sessions (program_name, which dbdyno sets as its app name).
-- name: waits()
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
WHERE s.is_user_process = 1 AND r.session_id <> @@SPID
-- Whether the account may see other sessions' requests (VIEW SERVER STATE, or VIEW DATABASE STATE on Azure
-- SQL Database): 0 when it may not.
-- name: waits_enabled()
SELECT CASE WHEN HAS_PERMS_BY_NAME(NULL, NULL, 'VIEW SERVER STATE') = 1 OR HAS_PERMS_BY_NAME(DB_NAME(), 'DATABASE', 'VIEW DATABASE STATE') = 1 THEN 1 ELSE 0 END
-- The storage figures the capacity probes compare across engines (StorageCounters): bytes read from the
-- database's data files and written to its log, from the file statistics.
-- name: io_counters()
SELECT CASE WHEN f.type = 1 THEN 'log_bytes' ELSE 'read_bytes' END,
       CAST(SUM(CASE WHEN f.type = 1 THEN s.num_of_bytes_written ELSE s.num_of_bytes_read END) AS float)
FROM sys.dm_io_virtual_file_stats(DB_ID(), NULL) s JOIN sys.database_files f ON f.file_id = s.file_id
WHERE f.type IN (0, 1)
GROUP BY f.type
-- The engine's own cache in bytes (the memory probe's default range is 4x it): the buffer pool's target.
-- name: cache_size()
SELECT CAST(cntr_value AS float) * 1024 FROM sys.dm_os_performance_counters WHERE counter_name = 'Target Server Memory (KB)'
-- The batches the server ran, a cumulative count (ReadTxCounts: HammerDB's TPM on SQL Server is the change in
-- 'Batch Requests/sec' per minute, not commits and rollbacks).
-- name: tx_counts()
SELECT 'batches', CAST(cntr_value AS float) FROM sys.dm_os_performance_counters
WHERE object_name LIKE '%:SQL Statistics%' AND counter_name = 'Batch Requests/sec'
UNION ALL SELECT 'each_statement', CAST(1 AS float) UNION ALL SELECT 'lag_s', CAST(0 AS float)

-- The settings recorded with every result, one statement each, named as the setting. A statement the server
-- or the account cannot answer (Azure SQL Database has no sys.configurations to read, no DBCC TRACESTATUS) is
-- left out of the result.
-- name: edition()
SELECT CAST(SERVERPROPERTY('Edition') AS nvarchar(128))
-- name: engine_edition()
SELECT CASE CAST(SERVERPROPERTY('EngineEdition') AS int) WHEN 5 THEN 'Azure SQL Database' WHEN 8 THEN 'Azure SQL Managed Instance'
            WHEN 4 THEN 'Express' WHEN 3 THEN 'Enterprise' WHEN 2 THEN 'Standard' ELSE CAST(SERVERPROPERTY('EngineEdition') AS varchar(8)) END
-- name: service_objective()
SELECT CAST(DATABASEPROPERTYEX(DB_NAME(), 'ServiceObjective') AS nvarchar(128))
-- name: max_server_memory_mb()
SELECT CAST(value_in_use AS bigint) FROM sys.configurations WHERE name = 'max server memory (MB)'
-- name: maxdop()
SELECT CAST(value_in_use AS int) FROM sys.configurations WHERE name = 'max degree of parallelism'
-- name: database_maxdop()
SELECT CAST(value AS int) FROM sys.database_scoped_configurations WHERE name = 'MAXDOP'
-- name: cost_threshold_for_parallelism()
SELECT CAST(value_in_use AS int) FROM sys.configurations WHERE name = 'cost threshold for parallelism'
-- The trace flags on globally, comma-separated ("none" when none is).
-- name: trace_flags()
SET NOCOUNT ON;
DECLARE @flags TABLE (TraceFlag int, Status int, Global int, Session int);
INSERT INTO @flags EXEC ('DBCC TRACESTATUS(-1) WITH NO_INFOMSGS');
SELECT COALESCE(STRING_AGG(CAST(TraceFlag AS varchar(10)), ','), 'none') FROM @flags WHERE Global = 1
-- name: tempdb_data_files()
SELECT count(*) FROM tempdb.sys.database_files WHERE type = 0
-- Lock pages in memory: LOCK_PAGES when granted, CONVENTIONAL when not (SQL Server 2016 SP1 and later).
-- name: memory_model()
SELECT sql_memory_model_desc FROM sys.dm_os_sys_info
-- name: compatibility_level()
SELECT compatibility_level FROM sys.databases WHERE name = DB_NAME()
-- name: recovery_model()
SELECT recovery_model_desc FROM sys.databases WHERE name = DB_NAME()
-- name: read_committed_snapshot()
SELECT is_read_committed_snapshot_on FROM sys.databases WHERE name = DB_NAME()
-- name: delayed_durability()
SELECT delayed_durability_desc FROM sys.databases WHERE name = DB_NAME()
-- name: cpu_count()
SELECT cpu_count FROM sys.dm_os_sys_info
-- name: physical_memory_mb()
SELECT physical_memory_kb / 1024 FROM sys.dm_os_sys_info

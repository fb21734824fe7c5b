-- SQL Server's and Azure SQL's catalog (T-SQL).
-- name: server_version()
SELECT 'SQL Server ' + CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)) + ' ' + CAST(SERVERPROPERTY('Edition') AS nvarchar(128))
-- Babelfish for PostgreSQL (SQL Server's TDS and T-SQL on PostgreSQL) answers its version here, SQL Server
-- NULL; its @@VERSION names the PostgreSQL under it.
-- name: variant()
SELECT CAST(SERVERPROPERTY('BabelfishVersion') AS nvarchar(128)), CAST(@@VERSION AS nvarchar(4000))
-- name: table_exists(name)
SELECT count(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = SCHEMA_NAME() AND TABLE_NAME = :name
-- name: analyze_table
UPDATE STATISTICS {table}
-- name: database_exists(name)
SELECT count(*) FROM sys.databases WHERE name = :name
-- name: create_database
CREATE DATABASE {name}
-- A schema of the database (--schema: the user's default schema, created by a build when missing).
-- name: schema_exists(name)
SELECT count(*) FROM sys.schemas WHERE name = :name
-- name: create_schema
CREATE SCHEMA {name}
-- The session's schema: its user's default one (--schema checks it is the one asked for).
-- name: current_schema
SELECT SCHEMA_NAME()
-- The physical cores of the server's machine (sockets x cores per socket, SQL Server 2016 SP2 and later).
-- name: host_cores()
SELECT socket_count * cores_per_socket FROM sys.dm_os_sys_info
-- How a query is held to {n} parallel workers (--maxdop): the hint added to each query.
-- name: max_parallel_hint
OPTION (MAXDOP {n})
-- Babelfish ignores T-SQL's query hints, OPTION (MAXDOP) among them, unless pg_hint_plan is installed and
-- enable_pg_hint on: a query connection is held to the leader and {workers} helpers by its PostgreSQL's
-- setting instead, for the session.
-- name: max_parallel_session_babelfish
SELECT set_config('max_parallel_workers_per_gather', '{workers}', false)
-- A table's indexes, its primary key's among them (the build's manifest, compared when a run starts).
-- name: index_names(name)
SELECT i.name FROM sys.indexes i WHERE i.object_id = OBJECT_ID(QUOTENAME(SCHEMA_NAME()) + '.' + QUOTENAME(:name)) AND i.name IS NOT NULL
-- The rows of a table as the partition catalog counts them (a run's start check of large tables).
-- name: row_estimate(name)
SELECT COALESCE((SELECT SUM(p.rows) FROM sys.partitions p WHERE p.object_id = OBJECT_ID(QUOTENAME(SCHEMA_NAME()) + '.' + QUOTENAME(:name)) AND p.index_id IN (0, 1)), -1)
-- The application lock every run holds shared and every build or drop exclusive, for the session, not
-- waiting: 1 when taken. Its name carries the database's (Babelfish keeps every T-SQL database in one
-- PostgreSQL database, whose application locks are the server's) and the schema's (--schema: one dataset per
-- schema).
-- name: lock_shared(name)
DECLARE @r int, @res nvarchar(255) = CONCAT(DB_NAME(), '.', SCHEMA_NAME(), '.', :name); EXEC @r = sp_getapplock @Resource = @res, @LockMode = 'Shared', @LockOwner = 'Session', @LockTimeout = 0; SELECT CASE WHEN @r >= 0 THEN 1 ELSE 0 END
-- name: lock_exclusive(name)
DECLARE @r int, @res nvarchar(255) = CONCAT(DB_NAME(), '.', SCHEMA_NAME(), '.', :name); EXEC @r = sp_getapplock @Resource = @res, @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = 0; SELECT CASE WHEN @r >= 0 THEN 1 ELSE 0 END
-- name: unlock_all(name)
DECLARE @res nvarchar(255) = CONCAT(DB_NAME(), '.', SCHEMA_NAME(), '.', :name); EXEC sp_releaseapplock @Resource = @res, @LockOwner = 'Session'
-- A checksum of a table's contents in one scan: its rows and the sum of CHECKSUM(*) of each row (the build's
-- manifest; the check verbs compare it).
-- name: table_checksum
SELECT COUNT_BIG(*), COALESCE(SUM(CAST(CHECKSUM(*) AS bigint)), 0) FROM {table}

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
-- The physical cores of the server's machine (sockets x cores per socket, SQL Server 2016 SP2 and later).
-- name: host_cores()
SELECT socket_count * cores_per_socket FROM sys.dm_os_sys_info
-- How a query is held to {n} parallel workers (--maxdop): the hint added to each query.
-- name: max_parallel_hint
OPTION (MAXDOP {n})

-- PostgreSQL's catalog.
-- name: server_version()
SELECT 'PostgreSQL ' || current_setting('server_version')
-- name: table_exists(name)
SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = :name
-- name: analyze_table
ANALYZE {table}
-- name: database_exists(name)
SELECT count(*) FROM pg_database WHERE datname = :name
-- name: create_database
CREATE DATABASE {name}
-- How a connection's queries are held to {n} parallel workers (--maxdop): the leader and {workers} helpers.
-- name: max_parallel_session
SET max_parallel_workers_per_gather = {workers}

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

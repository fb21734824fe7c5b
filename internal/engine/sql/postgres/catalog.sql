-- PostgreSQL's catalog.
-- The product and its version: PostgreSQL's, or that of a distributed SQL database behind PostgreSQL's wire
-- (version() 'CockroachDB CCL v23.1.11 (...)', 'PostgreSQL 11.2-YB-2.18.2.1-b0 on ...').
-- name: server_version()
SELECT CASE
	WHEN version() LIKE 'CockroachDB%' THEN 'CockroachDB ' || split_part(split_part(version(), ' v', 2), ' ', 1)
	WHEN version() LIKE '%-YB-%' THEN 'YugabyteDB ' || split_part(split_part(version(), '-YB-', 2), ' ', 1)
	ELSE 'PostgreSQL ' || current_setting('server_version') END
-- The server's own version string, which tells a distributed SQL database behind this wire: CockroachDB and YugabyteDB (distributed.go).
-- name: variant()
SELECT version()
-- name: table_exists(name)
SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = :name
-- name: analyze_table
ANALYZE {table}
-- name: database_exists(name)
SELECT count(*) FROM pg_database WHERE datname = :name
-- name: create_database
CREATE DATABASE {name}
-- A schema of the database (--schema: a build creates it when missing, a run needs it).
-- name: schema_exists(name)
SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = :name
-- name: create_schema
CREATE SCHEMA {name}
-- How a connection's queries are held to {n} parallel workers (--maxdop): the leader and {workers} helpers.
-- name: max_parallel_session
SET max_parallel_workers_per_gather = {workers}
-- A table's indexes, its primary key's among them (the build's manifest, compared when a run starts).
-- name: index_names(name)
SELECT indexname FROM pg_catalog.pg_indexes WHERE schemaname = current_schema() AND tablename = :name
-- The planner's estimate of a table's rows, -1 before it was first analysed (a run's start check of large tables).
-- name: row_estimate(name)
SELECT COALESCE((SELECT reltuples::bigint FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relname = :name), -1)
-- The advisory lock every run holds shared and every build or drop exclusive, for the session, not waiting: 1
-- when taken. Keyed by the schema and the dataset, within the database.
-- name: lock_shared(name)
SELECT pg_try_advisory_lock_shared(hashtext(current_schema() || '.' || :name))::int
-- name: lock_exclusive(name)
SELECT pg_try_advisory_lock(hashtext(current_schema() || '.' || :name))::int
-- name: unlock_all()
SELECT pg_advisory_unlock_all()
-- A checksum of a table's contents in one scan: its rows and the sum of a hash of each row's text (the build's
-- manifest; the check verbs compare it).
-- name: table_checksum
SELECT count(*), coalesce(sum(hashtext(t::text)), 0)::text FROM {table} t

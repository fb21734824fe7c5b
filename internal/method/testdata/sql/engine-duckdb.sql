-- DuckDB's own statements (internal/engine/sql)

-- file: catalog.sql
-- name: table_exists(name)  -- from sql/generic/catalog.sql
SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1;
-- name: server_version()  -- from sql/duckdb/catalog.sql
SELECT 'DuckDB ' || version();
-- name: count_rows  -- from sql/generic/catalog.sql
SELECT count(*) FROM {table};
-- name: analyze  -- from sql/duckdb/catalog.sql
CHECKPOINT;
-- name: max_parallel_session  -- from sql/duckdb/catalog.sql
SET threads = {n};
-- name: index_names(name)  -- from sql/duckdb/catalog.sql
SELECT index_name FROM duckdb_indexes() WHERE schema_name = current_schema() AND table_name = $1 UNION ALL SELECT DISTINCT constraint_type FROM duckdb_constraints() WHERE schema_name = current_schema() AND table_name = $1 AND constraint_type = 'PRIMARY KEY';
-- name: table_checksum  -- from sql/duckdb/catalog.sql
SELECT count(*), coalesce(sum(hash(t)), 0)::varchar FROM {table} t;
-- name: instance_settings()  -- from sql/duckdb/catalog.sql
SELECT name, value FROM duckdb_settings();
-- name: reset_setting  -- from sql/duckdb/catalog.sql
RESET GLOBAL {name};
-- name: off_setting  -- from sql/duckdb/catalog.sql
SET GLOBAL {name} = false;

-- file: settings.sql
-- name: threads()  -- from sql/duckdb/settings.sql
SELECT current_setting('threads');
-- name: memory_limit()  -- from sql/duckdb/settings.sql
SELECT current_setting('memory_limit');

-- file: load.sql
-- name: load_memory_limit  -- from sql/duckdb/load.sql
SET memory_limit = '128MB';


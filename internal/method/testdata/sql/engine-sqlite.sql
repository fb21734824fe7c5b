-- SQLite's own statements (internal/engine/sql)

-- file: catalog.sql
-- name: table_exists(name)  -- from sql/sqlite/catalog.sql
SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?;
-- name: server_version()  -- from sql/sqlite/catalog.sql
SELECT 'SQLite ' || sqlite_version();
-- name: count_rows  -- from sql/generic/catalog.sql
SELECT count(*) FROM {table};
-- name: analyze  -- from sql/sqlite/catalog.sql
ANALYZE;
-- name: index_names(name)  -- from sql/sqlite/catalog.sql
SELECT name FROM pragma_index_list(?);
-- name: table_checksum  -- from sql/sqlite/catalog.sql
SELECT count(*), coalesce(sum(dbdyno_crc32(json_array({columns}))), 0) FROM {table};
-- name: column_names(name)  -- from sql/sqlite/catalog.sql
SELECT name FROM pragma_table_info(?) ORDER BY cid;

-- file: settings.sql
-- name: journal_mode()  -- from sql/sqlite/settings.sql
PRAGMA journal_mode;
-- name: synchronous()  -- from sql/sqlite/settings.sql
PRAGMA synchronous;
-- name: page_size()  -- from sql/sqlite/settings.sql
PRAGMA page_size;
-- name: cache_size()  -- from sql/sqlite/settings.sql
PRAGMA cache_size;

-- file: load.sql
-- name: no_sync  -- from sql/sqlite/load.sql
PRAGMA synchronous = OFF;


-- Catalog statements dbdyno runs on every engine; sql/ENGINE/catalog.sql overrides them by name.
-- {table} and {name} stand for identifiers dbdyno fills in (lower-case letters, digits and _ only).
-- name: table_exists(name)
SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = :name
-- name: server_version()
SELECT version()
-- The exact count of a table's rows (the build's manifest; a run's start check of the smaller tables).
-- name: count_rows
SELECT count(*) FROM {table}

-- DuckDB: a unique index on the row id (its adaptive radix tree) stands for the primary key.
-- name: primary_key
CREATE UNIQUE INDEX {{part}}_id ON {{part}} (id);

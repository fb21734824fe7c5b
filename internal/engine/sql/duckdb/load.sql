-- Settings of a bulk load. DuckDB's memory limit is its instance's, and a build opens an instance of its own: the
-- limit keeps the blocks the load has written from piling up in DuckDB's cache (its memory would otherwise grow
-- with the scale: 3.5 GB at TPC-H SF 10) and ends with the build.
-- name: load_memory_limit
SET memory_limit = '128MB'

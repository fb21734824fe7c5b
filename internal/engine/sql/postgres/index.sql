-- Settings of a connection that builds a load's keys and indexes, for that session only: the sort of an index
-- build in memory rather than in temporary files (PostgreSQL's default is 64 MB; pg_restore's advice is more).
-- name: index_sort_memory
SET maintenance_work_mem = '256MB'

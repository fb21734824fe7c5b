-- The results store's statements, the same on every store engine unless sql/ENGINE/store.sql overrides them.
-- The tables are made by the numbered migrations beside this file (sql/ENGINE/NNNN_*.sql), the same numbers on
-- every engine; schema_version records those applied.

-- name: create_schema_version
CREATE TABLE IF NOT EXISTS schema_version (
	version INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	applied_at TEXT NOT NULL)

-- name: applied_versions
SELECT version FROM schema_version ORDER BY version

-- name: record_version(version, name, applied_at)
INSERT INTO schema_version (version, name, applied_at) VALUES (:version, :name, :applied_at)

-- name: meta_version
SELECT v FROM store_meta WHERE k = 'schema_version'

-- name: add_result(run_id, workload, engine, target, status, started_at, group_id, labels, headline, document)
INSERT INTO results (run_id, workload, engine, target, status, started_at, group_id, labels, headline, document)
VALUES (:run_id, :workload, :engine, :target, :status, :started_at, :group_id, :labels, :headline, :document)

-- name: put_result(run_id, workload, engine, target, status, started_at, group_id, labels, headline, document)
INSERT INTO results (run_id, workload, engine, target, status, started_at, group_id, labels, headline, document)
VALUES (:run_id, :workload, :engine, :target, :status, :started_at, :group_id, :labels, :headline, :document)
ON CONFLICT (run_id) DO NOTHING

-- name: list(workload, group_id)
SELECT seq, run_id, workload, engine, target, status, started_at, group_id, labels, headline
FROM results
WHERE (:workload = '' OR workload = :workload) AND (:group_id = '' OR group_id = :group_id)
ORDER BY seq

-- name: get(ref)
SELECT seq, run_id, workload, engine, target, status, started_at, group_id, labels, headline, document
FROM results
WHERE run_id = :ref OR group_id = :ref OR CAST(seq AS TEXT) = :ref
ORDER BY seq

-- name: get_prefix(pattern)
SELECT seq, run_id, workload, engine, target, status, started_at, group_id, labels, headline, document
FROM results
WHERE run_id LIKE :pattern ESCAPE '\'
ORDER BY seq

-- name: all_results
SELECT seq, run_id, workload, engine, target, status, started_at, group_id, labels, headline, document
FROM results
ORDER BY seq

-- name: add_sample(name, at_ns, document)
INSERT INTO monitor_samples (name, at_ns, document) VALUES (:name, :at_ns, :document)
ON CONFLICT (name, at_ns) DO NOTHING

-- name: samples(name)
SELECT document FROM monitor_samples WHERE name = :name ORDER BY at_ns

-- name: recordings
SELECT name, count(*), min(at_ns), max(at_ns) FROM monitor_samples GROUP BY name ORDER BY name

-- A page of a recording's intervals after a moment, oldest first (results push/pull copy them).
-- name: sample_page(name, after_ns)
SELECT at_ns, document FROM monitor_samples WHERE name = :name AND at_ns > :after_ns ORDER BY at_ns LIMIT 500

-- Migration 1: the results. store_meta's schema_version is the compatibility level: a later migration that
-- older dbdynos cannot read through changes it (they then refuse the store); additive ones leave it.

-- name: store_meta
CREATE TABLE IF NOT EXISTS store_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)

-- name: results
CREATE TABLE IF NOT EXISTS results (
	seq INTEGER PRIMARY KEY AUTOINCREMENT,
	run_id TEXT NOT NULL UNIQUE,
	workload TEXT NOT NULL,
	engine TEXT NOT NULL,
	target TEXT NOT NULL,
	status TEXT NOT NULL,
	started_at TEXT NOT NULL,
	group_id TEXT NOT NULL DEFAULT '',
	labels TEXT NOT NULL DEFAULT '{}',
	headline TEXT NOT NULL DEFAULT '',
	document TEXT NOT NULL)

-- name: results_group
CREATE INDEX IF NOT EXISTS results_group ON results (group_id)

-- name: compatibility
INSERT OR IGNORE INTO store_meta (k, v) VALUES ('schema_version', '1')

-- Migration 2: dbdyno monitor's recordings, one row per interval, its JSON document (monitor.Sample).

-- name: monitor_samples
CREATE TABLE IF NOT EXISTS monitor_samples (
	name TEXT NOT NULL,
	at_ns BIGINT NOT NULL,
	document TEXT NOT NULL,
	PRIMARY KEY (name, at_ns))

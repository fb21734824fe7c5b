// Package envinfo records the environment of a run: the machine (CPU model, sockets, cores, threads, NUMA
// nodes, memory, OS and kernel), the storage under an embedded database's file, the engine's version and the
// settings that matter for performance, and database-side counters read at the start and end of a run.
package envinfo

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/result"
	"github.com/dbdyno/dbdyno/internal/target"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/disk"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"
)

// Local reports whether the target's database runs on this machine (an embedded engine, or a server on a
// loopback address): then the system metrics show the database's load too.
func Local(t *target.Target) bool {
	if t.Engine == target.SQLite || t.Engine == target.DuckDB {
		return true
	}
	h := strings.ToLower(t.Host)
	return h == "localhost" || strings.HasPrefix(h, "127.") || h == "::1" || strings.HasPrefix(h, "/")
}

// Scope is the system metrics' scope for a target.
func Scope(t *target.Target) string {
	if Local(t) {
		return "database and client (the database runs on this machine)"
	}
	return "client only (the database runs on another machine)"
}

// Machine fingerprints this machine.
func Machine(ctx context.Context) *result.Environment {
	e := &result.Environment{Settings: map[string]string{}}
	if h, err := host.InfoWithContext(ctx); err == nil {
		e.Host, e.OS, e.Kernel = h.Hostname, h.OS, h.KernelVersion
		e.Platform = strings.TrimSpace(h.Platform + " " + h.PlatformVersion)
		e.Virtualization = strings.TrimSpace(h.VirtualizationSystem + " " + h.VirtualizationRole)
	}
	if infos, err := cpu.InfoWithContext(ctx); err == nil && len(infos) > 0 {
		e.CPUModel = infos[0].ModelName
		sockets := map[string]bool{}
		for _, i := range infos {
			sockets[i.PhysicalID] = true
		}
		e.Sockets = len(sockets)
	}
	e.Cores, _ = cpu.CountsWithContext(ctx, false)
	e.Threads, _ = cpu.CountsWithContext(ctx, true)
	if m, err := mem.VirtualMemoryWithContext(ctx); err == nil {
		e.MemoryBytes = m.Total
	}
	if nodes, err := filepath.Glob("/sys/devices/system/node/node[0-9]*"); err == nil {
		e.NUMANodes = len(nodes)
	}
	return e
}

// storage finds the filesystem and device holding path.
func storage(ctx context.Context, path string) *result.Storage {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	parts, err := disk.PartitionsWithContext(ctx, true)
	if err != nil {
		return nil
	}
	var best disk.PartitionStat
	for _, p := range parts {
		if (abs == p.Mountpoint || strings.HasPrefix(abs, strings.TrimSuffix(p.Mountpoint, "/")+"/")) && len(p.Mountpoint) > len(best.Mountpoint) {
			best = p
		}
	}
	if best.Mountpoint == "" {
		return &result.Storage{Path: abs}
	}
	return &result.Storage{Path: abs, Mount: best.Mountpoint, Filesystem: best.Fstype, Device: best.Device}
}

// Open returns a database/sql handle to a target for the short queries here.
func Open(ctx context.Context, t *target.Target) (*sql.DB, error) {
	if t.Engine == target.Postgres {
		cfg, err := t.PgConfig()
		if err != nil {
			return nil, err
		}
		db := stdlib.OpenDB(*cfg)
		if err := db.PingContext(ctx); err != nil {
			db.Close()
			return nil, t.ConnectError(err)
		}
		return db, nil
	}
	return t.OpenDB(ctx)
}

var settingQueries = map[target.Engine][][2]string{
	target.Postgres: {
		{"shared_buffers", "SELECT current_setting('shared_buffers')"},
		{"effective_cache_size", "SELECT current_setting('effective_cache_size')"},
		{"work_mem", "SELECT current_setting('work_mem')"},
		{"max_parallel_workers_per_gather", "SELECT current_setting('max_parallel_workers_per_gather')"},
		{"max_parallel_workers", "SELECT current_setting('max_parallel_workers')"},
		{"max_connections", "SELECT current_setting('max_connections')"},
		{"synchronous_commit", "SELECT current_setting('synchronous_commit')"},
		{"fsync", "SELECT current_setting('fsync')"},
		{"wal_level", "SELECT current_setting('wal_level')"},
		{"max_wal_size", "SELECT current_setting('max_wal_size')"},
		{"checkpoint_timeout", "SELECT current_setting('checkpoint_timeout')"},
		{"random_page_cost", "SELECT current_setting('random_page_cost')"},
		{"jit", "SELECT current_setting('jit')"},
	},
	target.MySQL: {
		{"innodb_buffer_pool_size", "SELECT @@innodb_buffer_pool_size"},
		{"innodb_log_file_size", "SELECT @@innodb_log_file_size"},
		{"innodb_flush_log_at_trx_commit", "SELECT @@innodb_flush_log_at_trx_commit"},
		{"innodb_flush_method", "SELECT @@innodb_flush_method"},
		{"innodb_io_capacity", "SELECT @@innodb_io_capacity"},
		{"sync_binlog", "SELECT @@sync_binlog"},
		{"max_connections", "SELECT @@max_connections"},
		{"transaction_isolation", "SELECT @@tx_isolation"},
	},
	target.SQLite: {
		{"journal_mode", "PRAGMA journal_mode"},
		{"synchronous", "PRAGMA synchronous"},
		{"page_size", "PRAGMA page_size"},
		{"cache_size", "PRAGMA cache_size"},
	},
	target.DuckDB: {
		{"threads", "SELECT current_setting('threads')"},
		{"memory_limit", "SELECT current_setting('memory_limit')"},
	},
}

// Settings reads the engine's performance settings; a setting the account may not read is left out.
func Settings(ctx context.Context, db *sql.DB, e target.Engine) map[string]string {
	out := map[string]string{}
	for _, q := range settingQueries[e] {
		var v any
		if err := db.QueryRowContext(ctx, q[1]).Scan(&v); err == nil {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			out[q[0]] = fmt.Sprint(v)
		}
	}
	return out
}

// Collect fingerprints the machine and the target. db may be nil (the engine part is then left empty).
func Collect(ctx context.Context, t *target.Target, db *sql.DB, engineVersion string) *result.Environment {
	e := Machine(ctx)
	e.Engine, e.EngineVersion = string(t.Engine), engineVersion
	e.DatabaseLocal = Local(t)
	if t.Engine == target.SQLite || t.Engine == target.DuckDB {
		e.Storage = storage(ctx, t.Path)
	}
	if db != nil {
		e.Settings = Settings(ctx, db, t.Engine)
	}
	return e
}

// counterQueries return (name, value) rows.
var counterQueries = map[target.Engine]string{
	target.Postgres: `SELECT k, v FROM (VALUES
		('xact_commit', (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::float8),
		('xact_rollback', (SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database())::float8),
		('blks_read', (SELECT blks_read FROM pg_stat_database WHERE datname = current_database())::float8),
		('blks_hit', (SELECT blks_hit FROM pg_stat_database WHERE datname = current_database())::float8),
		('tup_inserted', (SELECT tup_inserted FROM pg_stat_database WHERE datname = current_database())::float8),
		('tup_updated', (SELECT tup_updated FROM pg_stat_database WHERE datname = current_database())::float8),
		('tup_deleted', (SELECT tup_deleted FROM pg_stat_database WHERE datname = current_database())::float8),
		('deadlocks', (SELECT deadlocks FROM pg_stat_database WHERE datname = current_database())::float8),
		('wal_bytes', pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8)) AS c(k, v)`,
	target.MySQL: `SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME IN
		('INNODB_DATA_READS', 'INNODB_DATA_WRITES', 'INNODB_DATA_READ', 'INNODB_DATA_WRITTEN', 'INNODB_OS_LOG_WRITTEN',
		 'INNODB_LOG_WRITES', 'INNODB_ROWS_READ', 'INNODB_ROWS_INSERTED', 'INNODB_ROWS_UPDATED', 'INNODB_ROWS_DELETED',
		 'INNODB_BUFFER_POOL_READS', 'INNODB_BUFFER_POOL_READ_REQUESTS', 'INNODB_DEADLOCKS', 'COM_COMMIT', 'COM_ROLLBACK')`,
}

// Counters reads the database-side counters, or nil where the engine has none that are cheap to read.
func Counters(ctx context.Context, db *sql.DB, e target.Engine) map[string]float64 {
	q, ok := counterQueries[e]
	if !ok || db == nil {
		return nil
	}
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil
	}
	defer rows.Close()
	out := map[string]float64{}
	for rows.Next() {
		var k string
		var v any
		if rows.Scan(&k, &v) != nil {
			continue
		}
		switch x := v.(type) {
		case float64:
			out[strings.ToLower(k)] = x
		case []byte:
			if f, err := strconv.ParseFloat(string(x), 64); err == nil {
				out[strings.ToLower(k)] = f
			}
		case string:
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				out[strings.ToLower(k)] = f
			}
		case int64:
			out[strings.ToLower(k)] = float64(x)
		}
	}
	return out
}

// Delta builds the start/end/change record.
func Delta(start, end map[string]float64) *result.DBCounters {
	if start == nil || end == nil {
		return nil
	}
	d := &result.DBCounters{Start: start, End: end, Delta: map[string]float64{}}
	for k, v := range end {
		if s, ok := start[k]; ok {
			d.Delta[k] = v - s
		}
	}
	return d
}

package engine

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
)

// ReadCounters reads the database-side counters (name, value rows) of every counters statement of the
// engine's counters.sql (a statement that fails, such as a view another server version lacks, is skipped), or
// nil where the engine has none.
func (e *Engine) ReadCounters(ctx context.Context, q Queryer) map[string]float64 {
	return e.readCounters(ctx, q, "counters")
}

// StorageCounters are the few storage figures the capacity probes compare across engines, under one set of
// names: read_bytes (bytes the engine read from storage or the operating system), log_bytes (log bytes
// written), cache_hits or cache_requests and cache_misses (pages), from counters.sql's io_counters(); nil for
// an embedded engine, which runs in dbdyno's process (its figures are the process's own IO).
func (e *Engine) StorageCounters(ctx context.Context, q Queryer) map[string]float64 {
	if e.Embedded {
		return nil
	}
	return e.readCounters(ctx, q, "io_counters")
}

// CacheBytes is the size of a server engine's own cache (PostgreSQL's shared buffers, InnoDB's buffer pool,
// SQL Server's target memory), from counters.sql's cache_size(); false where it has none or it cannot be read.
func (e *Engine) CacheBytes(ctx context.Context, q Queryer) (int64, bool) {
	if e.counters == nil || q == nil {
		return 0, false
	}
	st := e.counters.Set()["cache_size"]
	if st == nil {
		return 0, false
	}
	var v any
	if q.QueryRowContext(ctx, st.SQL).Scan(&v) != nil {
		return 0, false
	}
	f, ok := number(v)
	return int64(f), ok && f > 0
}

func (e *Engine) readCounters(ctx context.Context, q Queryer, prefix string) map[string]float64 {
	if q == nil || e.counters == nil {
		return nil
	}
	var out map[string]float64
	for _, st := range e.counters.Statements {
		if !strings.HasPrefix(st.Name, prefix) {
			continue
		}
		rows, err := q.QueryContext(ctx, st.SQL)
		if err != nil {
			continue
		}
		for rows.Next() {
			var k string
			var v any
			if rows.Scan(&k, &v) != nil {
				continue
			}
			if f, ok := number(v); ok {
				if out == nil {
					out = map[string]float64{}
				}
				out[strings.ToLower(k)] = f
			}
		}
		rows.Close()
	}
	return out
}

// Gauge says a counter is a level read as it is (a percentage of a limit), not a count whose change is a rate:
// counters.sql names those NAME_pct.
func Gauge(name string) bool { return strings.HasSuffix(name, "_pct") }

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case []byte:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// Wait is what one active session of the database was doing at a sample: its wait event's class and name
// ("CPU" when it waited on nothing), and whether it was one of dbdyno's own sessions.
type Wait struct {
	Class, Event string
	Own          bool
}

// HasWaits says whether the engine can sample its sessions' wait events (counters.sql's waits()).
func (e *Engine) HasWaits() bool { return e.counters.Set()["waits"] != nil }

// WaitsReady says why wait events cannot be sampled on this server (counters.sql's waits_enabled() answers
// 0), nil when they can.
func (e *Engine) WaitsReady(ctx context.Context, q Queryer) error {
	st := e.counters.Set()["waits_enabled"]
	if st == nil || q == nil {
		return nil
	}
	if vr := e.variantOf(ctx, q); vr != nil {
		if err := vr.waitsMissing(); err != nil {
			return err
		}
	}
	var v any
	if err := q.QueryRowContext(ctx, st.SQL).Scan(&v); err != nil {
		return err
	}
	if n, ok := number(v); ok && n == 0 {
		return errors.New(e.waitsOff)
	}
	return nil
}

// Waits samples the active sessions' wait events once; an error says why the engine cannot (a disabled
// performance schema, a missing privilege).
func (e *Engine) Waits(ctx context.Context, q Queryer) ([]Wait, error) {
	st := e.counters.Set()["waits"]
	if st == nil || q == nil {
		return nil, nil
	}
	rows, err := q.QueryContext(ctx, st.SQL)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Wait
	for rows.Next() {
		var w Wait
		var class, event sql.NullString
		var own any
		if err := rows.Scan(&class, &event, &own); err != nil {
			return nil, err
		}
		w.Class, w.Event = class.String, event.String
		if w.Event == "" {
			w.Class, w.Event = "CPU", "CPU"
		}
		switch o := own.(type) {
		case bool:
			w.Own = o
		default:
			n, _ := number(o)
			w.Own = n != 0
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

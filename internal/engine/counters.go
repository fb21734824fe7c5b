package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// SideCounts are the statements dbdyno's own reads of a server's counters, cache size and wait events ran (and
// how many of them the server refused), over every server of an engine in this process: the server counts
// them too (PostgreSQL a transaction each, a refused one as a rollback), so a comparison of the server's
// transaction counters with the client's takes their change out.
type SideCounts struct{ Statements, Refused int64 }

type sideTally struct {
	statements, refused atomic.Int64
	// what the run's catalog reads did not collect on a distributed SQL product, by statement (catalogRead):
	// its result's settings record it
	mu           sync.Mutex
	notCollected map[string]string
}

var sides sync.Map // *Engine -> *sideTally

func (e *Engine) side() *sideTally {
	t, _ := sides.LoadOrStore(e, &sideTally{})
	return t.(*sideTally)
}

type sideKey struct{}

// WithSideTally gives ctx a tally of its own of the side statements run under it: one run's on its target, apart
// from those of other runs in the same process (several targets at once, a test process's parallel runs), whose
// statements the run's server does not count. SideCounts(ctx) reads it. It also keeps the catalog facts the run
// could not collect (catalogRead), which Settings(ctx, ...) records.
func WithSideTally(ctx context.Context) context.Context {
	return context.WithValue(ctx, sideKey{}, &sideTally{})
}

// noteSide counts one side statement, refused when err is not nil: the engine's, and ctx's tally where it has one.
func (e *Engine) noteSide(ctx context.Context, err error) {
	for _, t := range []*sideTally{e.side(), tallyOf(ctx)} {
		if t == nil {
			continue
		}
		t.statements.Add(1)
		if err != nil {
			t.refused.Add(1)
		}
	}
}

// noteNotCollected keeps, in ctx's run, that a catalog statement's fact was not collected and why (the first
// note of a statement is kept).
func noteNotCollected(ctx context.Context, statement, why string) {
	t := tallyOf(ctx)
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.notCollected == nil {
		t.notCollected = map[string]string{}
	}
	if _, ok := t.notCollected[statement]; !ok {
		t.notCollected[statement] = why
	}
}

// WithCatalogNotes is ctx with a run's tally of its own (WithSideTally) where it has none, so that what the
// catalog reads under it could not collect on a distributed SQL product can be read back (CatalogNotCollected):
// for commands that write no result (a build's manifest).
func WithCatalogNotes(ctx context.Context) context.Context {
	if tallyOf(ctx) != nil {
		return ctx
	}
	return WithSideTally(ctx)
}

// CatalogNotCollected is what the catalog reads under ctx's run could not collect on a distributed SQL product,
// by statement ("not collected: ..."), nil where there is nothing or ctx keeps no run.
func CatalogNotCollected(ctx context.Context) map[string]string {
	t := tallyOf(ctx)
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.notCollected) == 0 {
		return nil
	}
	return maps.Clone(t.notCollected)
}

// notCollectedIn adds to out what ctx's run noted as not collected, where out has nothing of that name.
func notCollectedIn(ctx context.Context, out map[string]string) {
	t := tallyOf(ctx)
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, v := range t.notCollected {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
}

func tallyOf(ctx context.Context) *sideTally {
	t, _ := ctx.Value(sideKey{}).(*sideTally)
	return t
}

// SideCounts are the side statements run so far under ctx's tally (WithSideTally: one run's), or where ctx has
// none, on this engine's servers by the whole process.
func (e *Engine) SideCounts(ctx context.Context) SideCounts {
	t := tallyOf(ctx)
	if t == nil {
		t = e.side()
	}
	return SideCounts{Statements: t.statements.Load(), Refused: t.refused.Load()}
}

// refusedStmt is a counters statement a server refused (a view its version lacks), by the Queryer it was run
// on: not run there again, since each refusal is a failed statement the server counts (PostgreSQL: a rollback,
// every metrics interval, which doubled the run's rollbacks).
type refusedStmt struct {
	q    Queryer
	name string
}

var refused sync.Map // refusedStmt -> struct{}

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
	err := q.QueryRowContext(ctx, st.SQL).Scan(&v)
	e.noteSide(ctx, err)
	if err != nil {
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
		key := refusedStmt{q, st.Name}
		if _, ok := refused.Load(key); ok {
			continue
		}
		rows, err := q.QueryContext(ctx, st.SQL)
		e.noteSide(ctx, err)
		if err != nil {
			if ctx.Err() == nil && e.Classify(err) != ConnLost {
				refused.Store(key, struct{}{})
			}
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
	err := q.QueryRowContext(ctx, st.SQL).Scan(&v)
	e.noteSide(ctx, err)
	if err != nil {
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
	e.noteSide(ctx, err)
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

// TxCounts are the server's own cumulative transaction counters, the ones HammerDB reads at the edges of its
// timed window for its TPM (the change in them per minute), from counters.sql's tx_counts(): PostgreSQL's
// xact_commit and xact_rollback of the database (HammerDB sums every database of the cluster), MySQL's and
// MariaDB's Com_commit and Com_rollback (COMMIT and ROLLBACK statements, server-wide), SQL Server's Batch
// Requests/sec counter (a cumulative count of batches, which HammerDB's TPM is there: not split into commits and
// rollbacks, so Split is false). Its rows each_statement and lag_s state how the counters count (EachStatement,
// LagSeconds).
type TxCounts struct {
	Commits, Rollbacks float64
	Batches            float64
	Split              bool // Commits and Rollbacks are known apart (else only Batches)
	// EachStatement: every statement run outside a transaction counts as one (PostgreSQL's implicit
	// transactions, SQL Server's batches; MySQL counts COMMIT and ROLLBACK statements only), so a reader's own
	// queries show in the counts.
	EachStatement bool
	// LagSeconds is how late a session's counts may reach the counters (PostgreSQL's backends report theirs at
	// most once a second), 0 when at once.
	LagSeconds float64
}

// Total is what HammerDB's TPM counts: commits plus rollbacks, or batches.
func (c TxCounts) Total() float64 { return c.Commits + c.Rollbacks + c.Batches }

// Sub is the change from c0 to c.
func (c TxCounts) Sub(c0 TxCounts) TxCounts {
	return TxCounts{Commits: c.Commits - c0.Commits, Rollbacks: c.Rollbacks - c0.Rollbacks, Batches: c.Batches - c0.Batches,
		Split: c.Split, EachStatement: c.EachStatement, LagSeconds: c.LagSeconds}
}

// ReadTxCounts reads the server's transaction counters (TxCounts); the error says why they cannot be read: an
// embedded engine keeps none (it is not zero), a variant lacks the view (Babelfish has no
// sys.dm_os_performance_counters), or the query failed.
func (e *Engine) ReadTxCounts(ctx context.Context, q Queryer) (TxCounts, error) {
	c, _, err := e.ReadTxCountsWith(ctx, q, "")
	return c, err
}

// ReadTxCountsWith reads the transaction counters and, in the same statement (one round trip, one moment of the
// server's: nothing commits between the two), the (name, value) rows of with, a query of the caller's own such
// as a table's count; its rows come back by name. with "" reads the counters alone.
func (e *Engine) ReadTxCountsWith(ctx context.Context, q Queryer, with string) (TxCounts, map[string]float64, error) {
	var c TxCounts
	extra := map[string]float64{}
	if e.Embedded {
		return c, nil, fmt.Errorf("%s is embedded: it keeps no server-side transaction counters", e.Title)
	}
	st := e.counters.Set()["tx_counts"]
	if st == nil || q == nil {
		return c, nil, fmt.Errorf("%s has no transaction counters dbdyno can read", e.Title)
	}
	if why := e.Unavailable(ctx, q, "tx_counts"); why != "" {
		return c, nil, errors.New(why)
	}
	query := st.SQL
	if with != "" {
		query = strings.TrimRight(strings.TrimSpace(query), ";") + "\nUNION ALL\n" + strings.TrimRight(strings.TrimSpace(with), ";")
	}
	rows, err := q.QueryContext(ctx, query)
	e.noteSide(ctx, err)
	if err != nil {
		return c, nil, err
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var k string
		var v any
		if err := rows.Scan(&k, &v); err != nil {
			return c, nil, err
		}
		f, ok := number(v)
		if !ok {
			return c, nil, fmt.Errorf("%s's transaction counter %s is not a number (%v)", e.Title, k, v)
		}
		switch strings.ToLower(k) {
		case "commits":
			c.Commits, c.Split = f, true
		case "rollbacks":
			c.Rollbacks = f
		case "batches":
			c.Batches = f
		case "each_statement":
			c.EachStatement = f != 0
			continue
		case "lag_s":
			c.LagSeconds = f
			continue
		default:
			extra[strings.ToLower(k)] = f
			continue
		}
		seen++
	}
	if err := rows.Err(); err != nil {
		return c, nil, err
	}
	if seen == 0 {
		return c, nil, fmt.Errorf("%s answered no transaction counters", e.Title)
	}
	return c, extra, nil
}

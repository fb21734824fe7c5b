package probe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// The mixed probe's operations, in the order its results list them.
const (
	OpInsert = iota
	OpSelectRow
	OpSelectRange
	OpUpdate
	OpDelete
)

// OpNames name the operations in results.
var OpNames = []string{"insert", "select_id", "select_range", "update", "delete"}

var mixedTable = mixedSet.PartName(1)

// MixedFlags are `probe mixed`'s options: the virtual users' shared ones under the probe's names and
// defaults (threads, measured from a cold start, per-minute series), then the probe's own.
type MixedFlags struct {
	runner.Users      `vus.alias:"threads" vus.sweep:"by virtual users (client threads)" vus.help:"virtual users: client threads, one connection each, unthrottled; a list 1,2,4,8 sweeps them (the study's matrix)" warmup.help:"a warm-up run of this length before the measured runs" rampup.default:"0s" rampup.help:"time before measuring starts (the study measured from a cold start)" duration.default:"5m" interval.default:"1m" interval.help:"series and progress interval (the study's charts are per minute)"`
	Rows              int    `flag:"rows" default:"1000000" help:"rows of the mixed table when it is built (410 bytes each)"`
	Mix               string `flag:"mix" default:"20/30/30/20" help:"per cent of insert/select/update/delete, chosen per request at random"`
	SelectRows        string `flag:"select-rows" unit:"%" default:"75%" help:"share of selects that read one row by id (the rest read a range of rows)"`
	Range             int    `flag:"range" default:"100" help:"ids a range select spans"`
	Hot               string `flag:"hot" unit:"%" default:"90%" help:"share of single-row operations on the newest --hot-ids of the table (the rest uniform over all ids)"`
	HotIDs            string `flag:"hot-ids" unit:"%" default:"5%" help:"the newest share of ids the hot operations go to"`
	workload.Sharding `shard.help:"drive shard I of N (I/N, e.g. 2/4) of a run driven by N processes: the I-th of N even ranges of --vus, and --rate/N; build the table first; merge with dbdyno results merge"`
	ColdStart
	Build `rebuild.help:"replace the mixed table when it was built with another --rows" load-threads.default:"2"`
}

// Mix is the mixed probe's request mix and its two distributions of ids.
//
// Single-row operations (select row, update, delete) draw an id hot or cold: with probability Hot uniformly
// from the newest HotIDs share of the ids [1, newest], else uniformly from all of them; so the newest 5% of ids
// get Hot + (1-Hot) x 5% of single-row operations (90.5% at the defaults). Range selects start at
// newest - Range - floor(span x u^2), u uniform on [0,1) and span the ids below the range: a less peaked
// pull towards recent rows, with P(start in the newest share q) = sqrt(q) (22% in the newest 5%, 71% in the
// newest half). Inserts take the next id above the newest; an id deleted before is not found again (counted).
type Mix struct {
	Insert, Select, Update, Delete float64 // shares of requests, summing to 1
	SelectRow                      float64 // share of selects by one id
	Hot, HotIDs                    float64
	Range                          int64
}

// ParseMix reads the mixed probe's options.
func ParseMix(o *MixedFlags) (Mix, error) {
	var m Mix
	parts := strings.Split(o.Mix, "/")
	if len(parts) != 4 {
		return m, fmt.Errorf("--mix %q is not four per cents insert/select/update/delete, e.g. 20/30/30/20", o.Mix)
	}
	var p [4]float64
	sum := 0.0
	for i, s := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
		if err != nil || f < 0 {
			return m, fmt.Errorf("--mix %q is not four per cents insert/select/update/delete, e.g. 20/30/30/20", o.Mix)
		}
		p[i], sum = f, sum+f
	}
	if math.Abs(sum-100) > 0.01 {
		return m, fmt.Errorf("--mix %q adds up to %g, not 100", o.Mix, sum)
	}
	m.Insert, m.Select, m.Update, m.Delete = p[0]/100, p[1]/100, p[2]/100, p[3]/100
	var err error
	for _, f := range []struct {
		flag, value string
		to          *float64
	}{{"select-rows", o.SelectRows, &m.SelectRow}, {"hot", o.Hot, &m.Hot}, {"hot-ids", o.HotIDs, &m.HotIDs}} {
		if *f.to, err = share("--"+f.flag, f.value); err != nil {
			return m, err
		}
	}
	if m.HotIDs <= 0 {
		return m, fmt.Errorf("--hot-ids must be more than 0%%")
	}
	if m.Range = int64(o.Range); m.Range < 1 {
		return m, fmt.Errorf("--range must be at least 1 id (got %d)", m.Range)
	}
	return m, nil
}

func share(flag, s string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || f < 0 || f > 100 {
		return 0, fmt.Errorf("%s %q is not a percentage: give 0%% to 100%%", flag, s)
	}
	return f / 100, nil
}

func (m Mix) String() string {
	p := func(share float64) units.Percent { return units.Percent(share * 100) } // 0.9%, not 0.9000000000000001%
	return fmt.Sprintf("insert %v, select %v (%v by id), update %v, delete %v; hot %v on the newest %v, range %d",
		p(m.Insert), p(m.Select), p(m.SelectRow), p(m.Update), p(m.Delete), p(m.Hot), p(m.HotIDs), m.Range)
}

// Op draws the next operation.
func (m Mix) Op(r *rand.Rand) int {
	u := r.Float64()
	switch {
	case u < m.Insert:
		return OpInsert
	case u < m.Insert+m.Select:
		if r.Float64() < m.SelectRow {
			return OpSelectRow
		}
		return OpSelectRange
	case u < m.Insert+m.Select+m.Update:
		return OpUpdate
	}
	return OpDelete
}

// RowID draws a single-row operation's id among [1, newest].
func (m Mix) RowID(r *rand.Rand, newest int64) int64 {
	if newest < 1 {
		return 1
	}
	if r.Float64() < m.Hot {
		hot := max(1, int64(float64(newest)*m.HotIDs))
		return newest - r.Int64N(hot)
	}
	return 1 + r.Int64N(newest)
}

// RangeStart draws a range select's first id.
func (m Mix) RangeStart(r *rand.Rand, newest int64) int64 {
	span := newest - m.Range
	if span < 1 {
		return 1
	}
	u := r.Float64()
	return max(1, newest-m.Range+1-int64(float64(span)*u*u))
}

// checkMixed checks the mixed probe's options (before the virtual users' shared checks, so that its own
// combined messages come first).
func checkMixed(o *MixedFlags) error {
	if _, err := ParseMix(o); err != nil {
		return err
	}
	if o.Rows < 1 {
		return fmt.Errorf("--rows must be at least 1 (got %d)", o.Rows)
	}
	if o.Duration <= 0 || o.Interval <= 0 || o.ReconnectTimeout <= 0 {
		return fmt.Errorf("--duration, --interval and --reconnect-timeout must be positive")
	}
	if o.Rampup < 0 || o.Warmup < 0 || o.Rate < 0 {
		return fmt.Errorf("--rampup, --warmup and --rate cannot be negative")
	}
	if err := o.Shard.Check(o.VUs, "virtual users"); err != nil {
		return err
	}
	return o.Build.check()
}

// mixedState is the mixed table's build record of whether a run has changed it since its load: stateChanged
// from a run's start on, so that the next run loads it again.
const (
	mixedState   = "state"
	stateChanged = "changed by a run"
	stateLoaded  = "loaded"
)

// mixed is one run of the mixed probe, driven by runner.VU.
type mixed struct {
	setup     *runner.Setup
	o         *MixedFlags
	mix       Mix
	db        *sql.DB
	t         *engine.Target
	st        sqlfile.Set
	ops       sqlfile.Set  // the five operations' statements on the mixed table
	newest    atomic.Int64 // the highest id handed out
	missed    [5]atomic.Int64
	rowsStart int64
	version   string
	opTimeout time.Duration // an operation's bound: the reconnect timeout
	shard     workload.Shard
}

// openMixed builds the mixed table when it is not there, starts cold, opens the run and prints its banner.
func openMixed(ctx context.Context, setup *runner.Setup, o *MixedFlags) (runner.Session, error) {
	mix, _ := ParseMix(o)
	rows := int64(o.Rows)
	t, out := setup.Target, setup.Out
	load := func(c adder) []bulk.Work { return rowWork(mixedTable, 1, rows, 250_000, c) }
	data, err := ensure(ctx, mixedSet, t, built{"rows": fmt.Sprint(rows)}, 1, o.Rebuild, o.LoadThreads, rows*RowBytes, load, out)
	if err != nil {
		return nil, err
	}
	// every run starts from the loaded table, as the study restored the database before every test: a run marks
	// the table changed before it starts, and the next one loads it again
	if state, err := data.Meta(ctx, mixedState); errors.Is(err, bulk.ErrNoMeta) {
		// a table built before runs recorded it: as loaded
	} else if err == nil && state == stateChanged {
		data.Close()
		fmt.Fprintf(out, "restoring the mixed table to its loaded state (%d rows): an earlier run changed it\n", rows)
		if data, err = ensure(ctx, mixedSet, t, built{"rows": fmt.Sprint(rows), mixedState: stateLoaded}, 1, true, o.LoadThreads, rows*RowBytes, load, out); err != nil {
			return nil, err
		}
	} else if err != nil {
		data.Close()
		return nil, err
	}
	if err := data.PutMeta(ctx, mixedState, stateChanged); err != nil {
		data.Close()
		return nil, err
	}
	data.Close()
	if setup.Cold != nil || !setup.Warmup && o.Cold { // a warm-up after a cold start (--cold-cmd) runs it
		if err := cold(ctx, t, setup.Cold); err != nil {
			return nil, err
		}
	}
	m := &mixed{setup: setup, o: o, mix: mix, t: t, opTimeout: o.ReconnectTimeout}
	m.shard = o.Shard
	lo, hi := m.shard.Range(o.VUs)
	setup.Users.VUs = hi - lo // the shard's threads (the options keep the run's)
	if m.db, err = t.Open(ctx); err != nil {
		return nil, err
	}
	if m.st, err = statements(t.Engine); err != nil {
		m.db.Close()
		return nil, err
	}
	m.ops = sqlfile.Set{}
	for _, name := range opStatements {
		m.ops[name] = m.st[name].Ident("part", mixedTable)
	}
	m.version = t.Engine.ServerVersion(ctx, m.db)
	var newest int64
	for _, q := range []struct {
		name string
		to   *int64
	}{{"max_id", &newest}, {"count", &m.rowsStart}} {
		st := m.st[q.name].Ident("part", mixedTable)
		if err := m.db.QueryRowContext(ctx, st.SQL).Scan(q.to); err != nil {
			m.db.Close()
			return nil, fmt.Errorf("reading %s: %w", mixedTable, err)
		}
	}
	m.newest.Store(newest)
	fmt.Fprintf(out, "dbdyno probe mixed on %s (%s): %d rows, %d thread(s), %s, seed %d\n", m.version, t, m.rowsStart,
		o.VUs, mix, o.Seed)
	return m, nil
}

func (m *mixed) ServerVersion() string { return m.version }

// Options are the run's settings for the result: the probe's own keys (threads, no mode or reconnect
// timeout), not runner.Setup's.
func (m *mixed) Options() map[string]any {
	o := m.o
	out := map[string]any{"probe": "mixed", "rows": o.Rows, "threads": o.VUs, "mix": o.Mix,
		"select_rows_pct": m.mix.SelectRow * 100, "hot_pct": m.mix.Hot * 100, "hot_ids_pct": m.mix.HotIDs * 100, "range": m.mix.Range,
		"rate": o.Rate, "duration_s": m.setup.Duration.Seconds(), "rampup_s": o.Rampup.Seconds(), "interval_s": o.Interval.Seconds(),
		"seed": fmt.Sprint(o.Seed), "cold": o.Cold, "cold_cmd": m.setup.Cold != nil, "rows_at_start": m.rowsStart,
		"driver_gomaxprocs": m.setup.Procs()}
	m.shard.Record(out, "threads", o.VUs, 1)
	return out
}

func (m *mixed) Transactions() []string { return OpNames }

func (m *mixed) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	w := &worker{m: m, r: rand.New(rand.NewPCG(m.o.Seed, uint64(vu)+1))}
	return w, w.Reconnect(ctx)
}

func (m *mixed) Configure(cfg *runner.Config) {
	// the open-loop rate (a shard's share of it) is runner.VU's
	cfg.KeyTx, cfg.KeyLabel, cfg.RateLabel = OpSelectRow, "selects by id/s", "ops/s"
	cfg.PerSecond = true // as the summary and the headline (mixed ops/s)
}

// Figures are the run's figures. The key transaction is the progress lines' only: runner.VU records it in the
// measurement, which the mixed probe's results never carried, so it is taken out again.
func (m *mixed) Figures(meas *result.Measurement) map[string]any {
	meas.KeyTx, meas.KeyLabel = "", ""
	return m.figures(meas)
}

func (m *mixed) figures(meas *result.Measurement) map[string]any {
	fig := map[string]any{}
	if meas.MeasuredSecs > 0 {
		fig["ops_per_s"] = round(float64(meas.Committed)/meas.MeasuredSecs, 1)
		for i, n := range OpNames {
			fig[strings.ReplaceAll(n, " ", "_")+"_per_s"] = round(float64(meas.Transactions[n].Count)/meas.MeasuredSecs, 1)
			if c := m.missed[i].Load(); c > 0 {
				fig[strings.ReplaceAll(n, " ", "_")+"_no_row"] = c
			}
		}
	}
	if meas.Committed > 0 {
		fig["client_cpu_us_per_op"] = round(meas.ClientCPU.MicrosPerTx, 1)
	}
	fig["rows_at_start"] = m.rowsStart
	return fig
}

func (m *mixed) Finish(ctx context.Context, res *result.Result) {
	st := m.st["count"].Ident("part", mixedTable)
	var end int64
	q, cancel := runner.EndContext(ctx)
	defer cancel()
	if err := m.db.QueryRowContext(q, st.SQL).Scan(&end); err == nil && res.Figures != nil {
		res.Figures["rows_at_end"] = end
	}
	printMixed(m.setup.Out, res)
}

func (m *mixed) Close() { m.db.Close() }

func printMixed(w io.Writer, res *result.Result) {
	meas := res.Measurement
	if meas == nil {
		return
	}
	fmt.Fprintf(w, "\n%s after %.1fs measured: %v ops/s; rows %v at the start, %v at the end\n", strings.ToUpper(res.Status), meas.MeasuredSecs,
		res.Figures["ops_per_s"], res.Figures["rows_at_start"], res.Figures["rows_at_end"])
	runner.PrintTable(w, meas, "operation", OpNames)
	if v, ok := res.Figures["client_cpu_us_per_op"]; ok {
		fmt.Fprintf(w, "client CPU: %v µs per operation\n", v)
	}
	for _, e := range meas.ErrorSamples {
		fmt.Fprintf(w, "error: %s\n", e)
	}
	if res.Error != "" {
		fmt.Fprintln(w, result.Ended(res))
	}
}

func mixedMetrics(r *result.Result) []result.Metric {
	out := runner.FigureMetric(nil, mOps.WithNoise(result.IntervalsNoise()), r, "ops_per_s")
	if r.Measurement != nil {
		out = runner.P95Metrics(out, mKindP95, r.Measurement, OpNames)
	}
	return runner.FigureMetric(out, mCPUPerOp, r, "client_cpu_us_per_op")
}

// worker is one thread of the mixed probe: its own connection and prepared statements. A PostgreSQL
// connection is driven through pgx itself (statements prepared by name, binary protocol): the shortest path,
// so that the client's CPU per operation stays small beside the server's.
type worker struct {
	runner.Cut // interrupts the connection
	m          *mixed
	r          *rand.Rand
	s          *engine.Session
}

var opStatements = [5]string{"insert_row", "select_row", "select_range", "update_row", "delete_row"}

func (w *worker) Next() (int, time.Duration, time.Duration) { return w.m.mix.Op(w.r), 0, 0 }

func (w *worker) Reconnect(ctx context.Context) error {
	w.Close()
	conn, err := w.m.db.Conn(ctx)
	if err != nil {
		return err
	}
	if w.s, err = w.m.t.Engine.NewSession(conn, w.m.ops); err != nil {
		conn.Close()
		return err
	}
	w.Set(w.s.Interrupter())
	if err := w.s.Prepare(ctx, opStatements[:]...); err != nil {
		w.Close()
		return err
	}
	return nil
}

func (w *worker) Close() {
	w.s.Close()
	w.s = nil
}

func (w *worker) Do(ctx context.Context, op int) runner.Outcome {
	// an operation in flight when the run ends is let finish (it takes milliseconds) rather than interrupted:
	// an interrupted statement costs the server more than the operation, and an embedded engine's interrupt
	// path is its least trodden one; a server that does not answer still ends it after the reconnect timeout
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.m.opTimeout)
	defer cancel()
	m := w.m
	newest := m.newest.Load()
	var args []any
	switch op {
	case OpInsert:
		row := MakeRow(m.newest.Add(1), 0)
		args = row.args()
	case OpSelectRow:
		args = []any{m.mix.RowID(w.r, newest)}
	case OpSelectRange:
		lo := m.mix.RangeStart(w.r, newest)
		args = []any{lo, lo + m.mix.Range}
	case OpUpdate:
		id := m.mix.RowID(w.r, newest)
		row := MakeRow(id, w.r.Uint64()|1)
		args = []any{id, row.I1, float64(row.Amount) / 1e4, row.Stamp, row.Note}
	case OpDelete:
		args = []any{m.mix.RowID(w.r, newest)}
	}
	// a deadlock or lock timeout runs the same statement again
	return runner.Retry{Engine: m.t.Engine}.Unit(ctx, OpNames[op], func() (bool, error) {
		var n int64
		var err error
		if op == OpSelectRow || op == OpSelectRange {
			n, err = w.query(ctx, op, args...)
		} else {
			n, err = w.exec(ctx, op, args...)
		}
		if err == nil && n == 0 {
			m.missed[op].Add(1)
		}
		return false, err
	})
}

func (w *worker) exec(ctx context.Context, op int, args ...any) (int64, error) {
	return w.s.Exec(ctx, opStatements[op], args...)
}

// query reads a query's rows to the end (the driver reads and decodes each row: the values are not copied
// again) and returns how many there were.
func (w *worker) query(ctx context.Context, op int, args ...any) (int64, error) {
	return w.s.Count(ctx, opStatements[op], args...)
}

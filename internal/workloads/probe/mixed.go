package probe

import (
	"context"
	"database/sql"
	"database/sql/driver"
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
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
	"github.com/jackc/pgx/v5"
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

var mixedFlags = []workload.Flag{
	{Name: "threads", Kind: workload.Counts, Default: "1", Help: "client threads (one connection each), unthrottled; a list 1,2,4,8 sweeps them (the study's matrix)", SweepTitle: "by threads"},
	{Name: "rows", Kind: workload.Int, Default: "1000000", Help: "rows of the mixed table when it is built (410 bytes each)"},
	{Name: "mix", Kind: workload.String, Default: "20/30/30/20", Help: "per cent of insert/select/update/delete, chosen per request at random"},
	{Name: "select-rows", Kind: workload.String, Default: "75%", Help: "share of selects that read one row by id (the rest read a range of rows)"},
	{Name: "range", Kind: workload.Int, Default: "100", Help: "ids a range select spans"},
	{Name: "hot", Kind: workload.String, Default: "90%", Help: "share of single-row operations on the newest --hot-ids of the table (the rest uniform over all ids)"},
	{Name: "hot-ids", Kind: workload.String, Default: "5%", Help: "the newest share of ids the hot operations go to"},
	{Name: "rate", Kind: workload.Int, Default: "0", Help: "cap on requests per second over all threads (open loop: latency counts from each request's intended start); 0: unthrottled"},
	{Name: "warmup", Kind: workload.Duration, Default: "0s", Help: "a warm-up run of this length before the measured runs"},
	{Name: "rampup", Kind: workload.Duration, Default: "0s", Help: "time before measuring starts (the study measured from a cold start)"},
	{Name: "duration", Kind: workload.Duration, Default: "5m", Help: "measured time"},
	{Name: "interval", Kind: workload.Duration, Default: "1m", Help: "series and progress interval (the study's charts are per minute)"},
	{Name: "seed", Kind: workload.Uint, Help: "seed of every random choice (default: from the clock; always recorded)"},
	{Name: "reconnect-timeout", Kind: workload.Duration, Default: "30s", Help: "a lost connection that is not back within this time fails the run"},
	coldFlag, coldCmdFlag,
	{Name: "rebuild", Kind: workload.Bool, Help: "replace the mixed table when it was built with another --rows"},
	{Name: "load-threads", Kind: workload.Int, Default: "2", Help: "parallel load connections of the build"},
	{Name: "cpuprofile", Kind: workload.String, Hidden: true, NoPlan: true, Help: "write a Go CPU profile of the driver to this file"},
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

// ParseMix reads the mixed probe's flags.
func ParseMix(v *workload.Values) (Mix, error) {
	var m Mix
	parts := strings.Split(v.String("mix"), "/")
	if len(parts) != 4 {
		return m, fmt.Errorf("--mix %q is not four per cents insert/select/update/delete, e.g. 20/30/30/20", v.String("mix"))
	}
	var p [4]float64
	sum := 0.0
	for i, s := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
		if err != nil || f < 0 {
			return m, fmt.Errorf("--mix %q is not four per cents insert/select/update/delete, e.g. 20/30/30/20", v.String("mix"))
		}
		p[i], sum = f, sum+f
	}
	if math.Abs(sum-100) > 0.01 {
		return m, fmt.Errorf("--mix %q adds up to %g, not 100", v.String("mix"), sum)
	}
	m.Insert, m.Select, m.Update, m.Delete = p[0]/100, p[1]/100, p[2]/100, p[3]/100
	var err error
	for _, f := range []struct {
		flag string
		to   *float64
	}{{"select-rows", &m.SelectRow}, {"hot", &m.Hot}, {"hot-ids", &m.HotIDs}} {
		if *f.to, err = share("--"+f.flag, v.String(f.flag)); err != nil {
			return m, err
		}
	}
	if m.HotIDs <= 0 {
		return m, fmt.Errorf("--hot-ids must be more than 0%%")
	}
	if m.Range = int64(v.Int("range")); m.Range < 1 {
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
	return fmt.Sprintf("insert %g%%, select %g%% (%g%% by id), update %g%%, delete %g%%; hot %g%% on the newest %g%%, range %d",
		m.Insert*100, m.Select*100, m.SelectRow*100, m.Update*100, m.Delete*100, m.Hot*100, m.HotIDs*100, m.Range)
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

type mixedProbe struct{}

func (mixedProbe) Prepare(v *workload.Values) (*workload.Values, error) {
	if _, err := ParseMix(v); err != nil {
		return nil, err
	}
	if v.Int("rows") < 1 {
		return nil, fmt.Errorf("--rows must be at least 1 (got %d)", v.Int("rows"))
	}
	if v.Duration("duration") <= 0 || v.Duration("interval") <= 0 || v.Duration("reconnect-timeout") <= 0 {
		return nil, fmt.Errorf("--duration, --interval and --reconnect-timeout must be positive")
	}
	if v.Duration("rampup") < 0 || v.Duration("warmup") < 0 || v.Int("rate") < 0 {
		return nil, fmt.Errorf("--rampup, --warmup and --rate cannot be negative")
	}
	if v.Int("load-threads") < 1 {
		return nil, fmt.Errorf("--load-threads must be at least 1 (got %d)", v.Int("load-threads"))
	}
	if !v.Changed("seed") {
		v = v.Set("seed", uint64(time.Now().UnixNano()))
	}
	return v, nil
}

func (mixedProbe) Warmup(v *workload.Values) (bool, string) {
	return v.Duration("warmup") > 0, v.Duration("warmup").String()
}

// mixed is one run of the mixed probe.
type mixed struct {
	spec      workload.Spec
	v         *workload.Values
	mix       Mix
	db        *sql.DB
	t         *engine.Target
	st        sqlfile.Set
	newest    atomic.Int64 // the highest id handed out
	missed    [5]atomic.Int64
	rowsStart int64
	version   string
	duration  time.Duration
	opTimeout time.Duration // an operation's bound: the reconnect timeout
	procs     int
	release   func()
}

func (mixedProbe) Start(ctx context.Context, sp workload.Spec) (workload.Run, error) {
	v := sp.Values
	mix, _ := ParseMix(v)
	rows := int64(v.Int("rows"))
	data, err := ensure(ctx, mixedSet, sp.Target, built{"rows": fmt.Sprint(rows)}, 1, v.Bool("rebuild"), v.Int("load-threads"), rows*RowBytes,
		func(c adder) []bulk.Work { return rowWork(mixedTable, 1, rows, 250_000, c) }, sp.Out)
	if err != nil {
		return nil, err
	}
	data.Close()
	if !sp.Warmup && (v.Bool("cold") || v.String("cold-cmd") != "") {
		if err := cold(ctx, sp.Target, v.String("cold-cmd"), sp.Out); err != nil {
			return nil, err
		}
	}
	m := &mixed{spec: sp, v: v, mix: mix, t: sp.Target, duration: v.Duration("duration"), opTimeout: v.Duration("reconnect-timeout")}
	if sp.Warmup {
		m.duration = v.Duration("warmup")
	}
	if m.db, err = sp.Target.Open(ctx); err != nil {
		return nil, err
	}
	if m.st, err = statements(sp.Target.Engine); err != nil {
		m.db.Close()
		return nil, err
	}
	m.version = sp.Target.Engine.ServerVersion(ctx, m.db)
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
	m.procs, m.release = runner.HoldDriverCPU(sp.Target.Engine.Embedded, v.Count("threads"))
	fmt.Fprintf(sp.Out, "dbdyno probe mixed on %s (%s): %d rows, %d thread(s), %s, seed %d\n", m.version, sp.Target, m.rowsStart,
		v.Count("threads"), mix, v.Uint("seed"))
	return m, nil
}

func (m *mixed) ServerVersion() string { return m.version }

func (m *mixed) Options() map[string]any {
	v := m.v
	return map[string]any{"probe": "mixed", "rows": v.Int("rows"), "threads": v.Count("threads"), "mix": v.String("mix"),
		"select_rows_pct": m.mix.SelectRow * 100, "hot_pct": m.mix.Hot * 100, "hot_ids_pct": m.mix.HotIDs * 100, "range": m.mix.Range,
		"rate": v.Int("rate"), "duration_s": m.duration.Seconds(), "rampup_s": v.Duration("rampup").Seconds(), "interval_s": v.Duration("interval").Seconds(),
		"seed": fmt.Sprint(v.Uint("seed")), "cold": v.Bool("cold"), "cold_cmd": v.String("cold-cmd") != "", "rows_at_start": m.rowsStart,
		"driver_gomaxprocs": m.procs}
}

func (m *mixed) Transactions() []string { return OpNames }

func (m *mixed) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	w := &worker{m: m, r: rand.New(rand.NewPCG(m.v.Uint("seed"), uint64(vu)+1))}
	return w, w.Reconnect(ctx)
}

func (m *mixed) Measure(ctx context.Context, res *result.Result) (bool, error) {
	v := m.v
	cfg := runner.Config{VUs: v.Count("threads"), Rampup: v.Duration("rampup"), Duration: m.duration, Interval: v.Duration("interval"),
		Progress: m.spec.Out, ReconnectTimeout: v.Duration("reconnect-timeout"), KeyTx: OpSelectRow, KeyLabel: "selects by id/min",
		RateLabel: "ops/min", Rate: float64(v.Int("rate"))}
	stop, err := runner.Profile(v.String("cpuprofile"))
	if err != nil {
		return false, err
	}
	defer stop()
	meas, err := runner.Run(ctx, m, cfg)
	if meas == nil {
		return false, err
	}
	res.Measurement = meas
	res.Figures = m.figures(meas)
	return true, err
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

func (m *mixed) Finish(ctx context.Context, res *result.Result) error {
	st := m.st["count"].Ident("part", mixedTable)
	var end int64
	if err := m.db.QueryRowContext(context.WithoutCancel(ctx), st.SQL).Scan(&end); err == nil && res.Figures != nil {
		res.Figures["rows_at_end"] = end
	}
	printMixed(m.spec.Out, res)
	return nil
}

func (m *mixed) Close() {
	m.db.Close()
	m.release()
}

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
	var out []result.Metric
	if v, ok := r.Figures["ops_per_s"].(float64); ok {
		out = append(out, mOps.Value(v))
	}
	if r.Measurement != nil {
		for _, n := range OpNames {
			if st, ok := r.Measurement.Transactions[n]; ok && st.Count > 0 {
				out = append(out, mKindP95.Named(n+" p95 latency").Value(float64(st.Latency.P95)/1000))
			}
		}
	}
	if v, ok := r.Figures["client_cpu_us_per_op"].(float64); ok {
		out = append(out, mCPUPerOp.Value(v))
	}
	return out
}

// worker is one thread of the mixed probe: its own connection and prepared statements. A PostgreSQL
// connection is driven through pgx itself (statements prepared by name, binary protocol): the shortest path,
// so that the client's CPU per operation stays small beside the server's.
type worker struct {
	m     *mixed
	r     *rand.Rand
	conn  *sql.Conn
	stmts [5]*sql.Stmt
	args  [5]*sqlfile.Statement
	pg    *pgx.Conn
}

var opStatements = [5]string{"insert_row", "select_row", "select_range", "update_row", "delete_row"}

func (w *worker) Next() (int, time.Duration, time.Duration) { return w.m.mix.Op(w.r), 0, 0 }

func (w *worker) Reconnect(ctx context.Context) error {
	w.Close()
	conn, err := w.m.db.Conn(ctx)
	if err != nil {
		return err
	}
	w.conn = conn
	if w.m.t.Engine.Wire == engine.WirePostgres {
		if w.pg, err = engine.Pgx(conn); err != nil {
			w.Close()
			return err
		}
	}
	for i, name := range opStatements {
		st := w.m.st[name].Ident("part", mixedTable)
		w.args[i] = st
		if w.pg != nil {
			_, err = w.pg.Prepare(ctx, name, st.SQL)
		} else {
			w.stmts[i], err = conn.PrepareContext(ctx, st.SQL)
		}
		if err != nil {
			w.Close()
			return fmt.Errorf("preparing %s: %w", name, err)
		}
	}
	return nil
}

func (w *worker) Close() {
	for i, s := range w.stmts {
		if s != nil {
			s.Close()
			w.stmts[i] = nil
		}
	}
	if w.pg != nil {
		w.pg.Close(context.Background()) // database/sql finds the connection closed and discards it
		w.pg = nil
	}
	if w.conn != nil {
		w.conn.Close()
		w.conn = nil
	}
}

func (w *worker) Do(ctx context.Context, op int) runner.Outcome {
	// an operation in flight when the run ends is let finish (it takes milliseconds) rather than interrupted:
	// an interrupted statement costs the server more than the operation, and an embedded engine's interrupt
	// path is its least trodden one; a server that does not answer still ends it after the reconnect timeout
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.m.opTimeout)
	defer cancel()
	m := w.m
	newest := m.newest.Load()
	var n int64
	var err error
	switch op {
	case OpInsert:
		row := MakeRow(m.newest.Add(1), 0)
		n, err = w.exec(ctx, op, row.args()...)
	case OpSelectRow:
		n, err = w.query(ctx, op, m.mix.RowID(w.r, newest))
	case OpSelectRange:
		lo := m.mix.RangeStart(w.r, newest)
		n, err = w.query(ctx, op, lo, lo+m.mix.Range)
	case OpUpdate:
		id := m.mix.RowID(w.r, newest)
		row := MakeRow(id, w.r.Uint64()|1)
		n, err = w.exec(ctx, op, id, row.I1, float64(row.Amount)/1e4, row.Stamp, row.Note)
	case OpDelete:
		n, err = w.exec(ctx, op, m.mix.RowID(w.r, newest))
	}
	if err != nil {
		return runner.Outcome{Err: err, ConnLost: errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone)}
	}
	if n == 0 {
		m.missed[op].Add(1)
	}
	return runner.Outcome{}
}

func (w *worker) exec(ctx context.Context, op int, args ...any) (int64, error) {
	if w.pg != nil {
		tag, err := w.pg.Exec(ctx, opStatements[op], args...)
		return tag.RowsAffected(), err
	}
	r, err := w.stmts[op].ExecContext(ctx, w.args[op].Args(args)...)
	if err != nil {
		return 0, err
	}
	return r.RowsAffected()
}

func (w *worker) query(ctx context.Context, op int, args ...any) (int64, error) {
	if w.pg != nil {
		rows, err := w.pg.Query(ctx, opStatements[op], args...)
		if err != nil {
			return 0, err
		}
		var n int64
		for rows.Next() {
			n++
		}
		rows.Close()
		return n, rows.Err()
	}
	rows, err := w.stmts[op].QueryContext(ctx, w.args[op].Args(args)...)
	if err != nil {
		return 0, err
	}
	// the driver has read and decoded each row when Next returns: the values are not copied again
	var n int64
	for rows.Next() {
		n++
	}
	rows.Close()
	return n, rows.Err()
}

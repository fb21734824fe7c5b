// Package ping is the smallest workload: each virtual user sends the engine's cheapest statement on its own
// connection as fast as it answers, and the run reports the round trip's latency (p50, p99, max, per second)
// and the round trips per second: the floor every other workload's latency sits on.
package ping

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

//go:embed sql
var sqlFS embed.FS

func files(e *engine.Engine) ([]*sqlfile.File, error) {
	f, err := sqlfile.Overlay(sqlFS, e.Name, "ping.sql", e.Placeholder)
	return []*sqlfile.File{f}, err
}

var (
	rate = workload.MetricDesc{Name: "round trips per second", Unit: "1/s", Better: result.Higher, Aggregate: "sum"}
	p50  = workload.MetricDesc{Name: "p50 latency", Unit: "µs", Better: result.Lower, Headline: true, Aggregate: "max"}
	p99  = workload.MetricDesc{Name: "p99 latency", Unit: "µs", Better: result.Lower, Aggregate: "max"}
	pmax = workload.MetricDesc{Name: "max latency", Unit: "µs", Better: result.Lower, Aggregate: "max"}
)

func init() {
	workload.Register(&workload.Meta{
		Name:          "ping",
		Short:         "round-trip latency of the engine's cheapest statement, per connection",
		Long:          "Each virtual user sends SELECT 1 (sql/generic/ping.sql) on its own connection, back to back.",
		DefaultTarget: "sqlite://dbdyno.db",
		NeedsDB:       true,
		Sections:      []string{"measurement"},
		Metrics:       []workload.MetricDesc{p50, p99, pmax, rate},
		SQL:           files,
		Derive:        runner.Measured(metrics),
		Work:          func(r *result.Result) string { return fmt.Sprint(r.Options["statement"]) },
		Commands: []*workload.Command{
			workload.NewMeasured(workload.Command{Target: workload.ManyTargets}, &Options{}, measured{}),
		},
		// its part of a report: its measurement, throughput over time and the transactions' latencies
		Report: report.MeasurementSection,
	})
}

// Options are ping's options.
type Options struct {
	runner.Timing    `vus.help:"connections, each sending back to back; a list 1,2,4 or a range 1..8 sweeps them" rampup.default:"1s" duration.default:"10s" interval.default:"1s" interval.help:"progress line and series interval"`
	ReconnectTimeout time.Duration `flag:"reconnect-timeout" default:"30s" help:"a lost connection that is not back within this time fails the run"`
}

type measured struct{}

func (measured) Prepare(o *Options, _ *workload.Values) error {
	if o.Duration <= 0 {
		return fmt.Errorf("--duration must be positive (got %s)", o.Duration)
	}
	if o.Rampup < 0 {
		return fmt.Errorf("--rampup cannot be negative")
	}
	if o.Interval <= 0 {
		return fmt.Errorf("--interval must be positive (got %s)", o.Interval)
	}
	if o.ReconnectTimeout <= 0 {
		return fmt.Errorf("--reconnect-timeout must be positive (got %s)", o.ReconnectTimeout)
	}
	return nil
}

func (measured) Warmup(*Options) (bool, string) { return false, "" }

type run struct {
	spec    workload.Spec
	o       *Options
	db      *sql.DB
	query   string
	version string
}

func (measured) Start(ctx context.Context, s workload.Spec, o *Options) (workload.Run, error) {
	fs, err := files(s.Target.Engine)
	if err != nil {
		return nil, err
	}
	db, err := s.Target.Open(ctx)
	if err != nil {
		return nil, err
	}
	r := &run{spec: s, o: o, db: db, query: fs[0].Set()["ping"].SQL, version: s.Target.Engine.ServerVersion(ctx, db)}
	fmt.Fprintf(s.Out, "dbdyno ping on %s (%s): %d connection(s) sending %q\n", r.version, s.Target, o.VUs, r.query)
	return r, nil
}

func (r *run) ServerVersion() string { return r.version }

func (r *run) Options() map[string]any {
	o := r.o
	return map[string]any{"vus": o.VUs, "rampup_s": o.Rampup.Seconds(), "duration_s": o.Duration.Seconds(),
		"interval_s": o.Interval.Seconds(), "reconnect_timeout_s": o.ReconnectTimeout.Seconds(), "statement": r.query}
}

func (r *run) Measure(ctx context.Context, res *result.Result) (bool, error) {
	o := r.o
	cfg := runner.Config{VUs: o.VUs, Rampup: o.Rampup, Duration: o.Duration,
		Interval: o.Interval, ReconnectTimeout: o.ReconnectTimeout, Progress: r.spec.Out, KeyTx: -1, RateLabel: "calls/s", PerSecond: true, Micros: true, Classify: r.spec.Target.Engine.Classify, MeasureAt: r.spec.StartAt, Live: r.spec.Live}
	if len(r.spec.Steps) > 0 && !r.spec.Warmup {
		return runner.MeasureSteps(ctx, r, cfg, r.spec, res, nil)
	}
	m, err := runner.Run(ctx, r, cfg)
	if m == nil {
		return false, err
	}
	res.Measurement = m
	return true, err
}

// TakesSteps: a stepped load by users (--steps) is one loop of connections, each step adding to them.
func (r *run) TakesSteps() bool { return true }

// StartsAt: the runner starts the measured window at --start-at (its ramp-up ending then).
func (r *run) StartsAt() bool { return true }

func (r *run) Finish(_ context.Context, res *result.Result) error {
	what := r.spec.LastStep()
	if what != "" {
		what += ", "
	}
	summary(r.spec.Out, res, what)
	return nil
}

func (r *run) Close() { r.db.Close() }

// summary is the run's line: what names its part where it is not the whole run ("the last step (3 of 3), ").
func summary(w io.Writer, res *result.Result, what string) {
	s := res.Measurement.Transactions["ping"]
	fmt.Fprintf(w, "\n%s%s: %d round trips in %.1fs, %.0f per second; latency p50 %d µs, p99 %d µs, max %d µs; errors %d\n",
		what, res.Status, s.Count, res.Measurement.MeasuredSecs, s.PerMinute/60, s.Latency.P50, s.Latency.P99, s.Latency.Max, res.Measurement.Errors)
}

func metrics(r *result.Result, m *result.Measurement) []result.Metric {
	s := m.Transactions["ping"]
	if s.Count == 0 {
		return nil
	}
	return []result.Metric{p50.WithNoise(result.LatencyNoise("ping", 50)).Value(float64(s.Latency.P50)),
		p99.WithNoise(result.LatencyNoise("ping", 99)).Value(float64(s.Latency.P99)), pmax.Value(float64(s.Latency.Max)),
		rate.WithNoise(result.TxNoise("ping")).Value(s.PerMinute / 60)}
}

// The runner's side: one transaction, the ping.

func (r *run) Transactions() []string { return []string{"ping"} }

// TransactionNames: ping's one transaction, known before it measures (workload.TxNamed).
func (r *run) TransactionNames() []string { return r.Transactions() }

func (r *run) NewWorker(ctx context.Context, _ int) (runner.Worker, error) {
	w := &worker{r: r}
	return w, w.Reconnect(ctx)
}

type worker struct {
	runner.Cut // interrupts the connection
	r          *run
	conn       *sql.Conn
	stmt       *sql.Stmt
	v          int64
}

func (w *worker) Next() (int, time.Duration, time.Duration) { return 0, 0, 0 }

func (w *worker) Do(ctx context.Context, _ int) runner.Outcome {
	if err := w.stmt.QueryRowContext(ctx).Scan(&w.v); err != nil {
		return runner.Outcome{Err: err, ConnLost: w.r.spec.Target.Engine.Classify(err) == engine.ConnLost}
	}
	return runner.Outcome{}
}

func (w *worker) Reconnect(ctx context.Context) error {
	w.Close()
	c, err := w.r.db.Conn(ctx)
	if err != nil {
		return w.r.spec.Target.ConnectError(err)
	}
	st, err := c.PrepareContext(ctx, w.r.query)
	if err != nil {
		c.Close()
		return err
	}
	w.conn, w.stmt = c, st
	w.Set(engine.Interrupter(c))
	return nil
}

func (w *worker) Close() {
	if w.stmt != nil {
		w.stmt.Close()
		w.conn.Close()
		w.stmt, w.conn = nil, nil
	}
}

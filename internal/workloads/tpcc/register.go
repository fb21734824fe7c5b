package tpcc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/output/store"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// The TPC-C-derived workload's commands and metrics, as the registry (and so the CLI and plans) sees them.
func init() {
	threads := fmt.Sprint(runtime.NumCPU())
	workload.Register(&workload.Meta{
		Name:  "tpcc",
		Short: "TPC-C-derived OLTP workload: build, run, check, drop",
		Long: "A TPC-C-derived OLTP workload (not an audited TPC-C result): nine tables sized by warehouses, five\n" +
			"transactions in the 45/43/4/4/4 mix, NOPM and TPM, latency percentiles and consistency checks.",
		DefaultTarget: DefaultTarget,
		NeedsDB:       true,
		Sections:      []string{"measurement"},
		Metrics:       []workload.MetricDesc{nopm, tpm, txP95, clientCPU},
		SQL:           Files,
		Supports:      supported,
		Derive:        metrics,
		Upgrade:       upgrade,
		Work: func(r *result.Result) string {
			o := r.Options
			return fmt.Sprintf("warehouses %v, mode %v, all_warehouses %v, keying_thinking %v", o["warehouses"], o["mode"], o["all_warehouses"], o["keying_thinking"])
		},
		Commands: []*workload.Command{{
			Name:   "build",
			Short:  "create the schema and load the initial population (clause 4.3)",
			Target: workload.OneTarget,
			Flags: []workload.Flag{
				{Name: "warehouses", Kind: workload.Int, Default: "1", Help: "number of warehouses (scale: about 100 MB each)"},
				{Name: "threads", Kind: workload.Int, Default: threads, Help: "parallel load connections"},
				{Name: "drop", Kind: workload.Bool, Help: "replace dbdyno's existing TPC-C tables (never touches tables dbdyno did not create)"},
				{Name: "seed", Kind: workload.Uint, Default: "1", Help: "seed of the generated data"},
			},
			Do: build,
		}, {
			Name:     "run",
			Short:    "drive the five transactions with virtual users and report NOPM, TPM and latency",
			Target:   workload.ManyTargets,
			Flags:    runFlags,
			Measured: measured{},
		}, {
			Name:   "check",
			Short:  "verify the consistency conditions (clause 3.3.2, conditions 1-4)",
			Target: workload.OneTarget,
			Do: func(ctx context.Context, env *workload.Env, _ *workload.Values) error {
				db, err := Open(ctx, env.Target())
				if err != nil {
					return err
				}
				defer db.Close()
				_, err = printChecks(ctx, env.Out, db)
				return err
			},
		}, {
			Name:   "drop",
			Short:  "remove dbdyno's TPC-C tables and procedures (and nothing else)",
			Target: workload.OneTarget,
			Do: func(ctx context.Context, env *workload.Env, _ *workload.Values) error {
				db, err := Open(ctx, env.Target())
				if err != nil {
					return err
				}
				defer db.Close()
				return db.data.DropCommand(ctx, env.Out)
			},
		}, {
			Name:  "gen",
			Short: "write the initial population as CSV files (one per table and warehouse) instead of loading it",
			Flags: []workload.Flag{
				{Name: "warehouses", Kind: workload.Int, Default: "1", Help: "number of warehouses"},
				{Name: "threads", Kind: workload.Int, Default: threads, Help: "parallel generators"},
				{Name: "out", Kind: workload.String, Help: "output directory"},
				{Name: "seed", Kind: workload.Uint, Default: "1", Help: "seed of the generated data"},
			},
			Do: gen,
		}},
	})
	workload.RegisterShortcut(&workload.Shortcut{
		Name:  "quickstart",
		Short: "build 1 warehouse in the embedded SQLite default, run 2 virtual users for 20 s, check, write the result",
		Flags: func() []workload.Flag {
			return []workload.Flag{
				{Name: "target", Kind: workload.String, Default: quickstartTarget, Help: "database URL (its TPC-C tables are replaced only in the default file, which only quickstart uses)"},
				{Name: "result", Kind: workload.String, Default: "dbdyno-quickstart.json", Help: "result JSON file"},
				{Name: "store", Kind: workload.String, Default: store.DefaultPath, Help: "results store (SQLite file); \"\" to keep the result out of it"},
			}
		},
		Steps: func(v *workload.Values) [][]string {
			t := v.String("target")
			build := []string{"tpcc", "build", "--target", t, "--warehouses", "1", "--threads", "1", "--seed", "1"}
			if t == quickstartTarget {
				build = append(build, "--drop") // its own file: only quickstart builds there
			}
			return [][]string{
				build,
				{"tpcc", "run", "--target", t, "--vus", "2", "--rampup", "2s", "--duration", "20s", "--interval", "5s", "--check",
					"--result", v.String("result"), "--store", v.String("store")},
			}
		},
	})
}

// quickstartTarget is the file only quickstart uses, so that it never replaces tables someone built elsewhere.
const quickstartTarget = "sqlite://dbdyno-quickstart.db"

var runFlags = append(runner.Flags("sql (client-side statements) or procedures (one stored-procedure call per transaction; default where the engine has them)"),
	workload.Flag{Name: "warehouses", Kind: workload.Int, Default: "0", Help: "warehouses to use (default: all that were built)"},
	workload.Flag{Name: "all-warehouses", Kind: workload.Bool, Help: "each virtual user cycles through all warehouses instead of one home warehouse"},
	workload.Flag{Name: "keying-thinking", Kind: workload.Bool, Help: "apply the specification's keying and think times"},
)

func build(ctx context.Context, env *workload.Env, v *workload.Values) error {
	w, threads := v.Int("warehouses"), v.Int("threads")
	if w < 1 {
		return fmt.Errorf("--warehouses must be at least 1 (got %d)", w)
	}
	if threads < 1 {
		return fmt.Errorf("--threads must be at least 1 (got %d)", threads)
	}
	if err := bulk.CheckSpace(ctx, env.Target(), int64(w)*bytesPerWarehouse); err != nil {
		return err
	}
	db, err := Open(ctx, env.Target())
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(env.Out, "building TPC-C schema with %d warehouse(s) in %s (%s), %d thread(s)\n", w, db.T, db.ServerVersion(ctx), threads)
	rep, err := db.Build(ctx, BuildOptions{Warehouses: w, Threads: threads, Drop: v.Bool("drop"), Seed: v.Uint("seed"), Version: env.Version, Progress: env.Out})
	if err != nil {
		return bulk.Interrupted(ctx, err)
	}
	fmt.Fprintln(env.Out, rep.Summary())
	return nil
}

func gen(ctx context.Context, env *workload.Env, v *workload.Values) error {
	w, out := v.Int("warehouses"), v.String("out")
	if w < 1 {
		return fmt.Errorf("--warehouses must be at least 1 (got %d)", w)
	}
	if out == "" {
		return errors.New("--out DIR is required")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("cannot create --out directory: %w", err)
	}
	rows, err := GenerateFiles(ctx, out, w, v.Int("threads"), v.Uint("seed"), env.Out)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "wrote %d rows to %s\n", rows, out)
	return nil
}

// measured is `tpcc run` for the method.
type measured struct{}

func (measured) Prepare(v *workload.Values) (*workload.Values, error) {
	if w := v.Int("warehouses"); w < 0 {
		return nil, fmt.Errorf("--warehouses must be at least 1 (got %d)", w)
	}
	return runner.CheckFlags(v)
}

func (measured) Warmup(v *workload.Values) (bool, string) {
	return v.Duration("warmup") > 0, v.Duration("warmup").String()
}

// run is one `tpcc run` against one target.
type run struct {
	v              *workload.Values
	spec           workload.Spec
	db             *DB
	wl             *Workload
	mode           string
	procs          int
	release        func() // gives back the driver's share of the process's CPU settings
	serverVersion  string
	next0, next1   int64
	duration       time.Duration
	check, profile bool
}

func (measured) Start(ctx context.Context, s workload.Spec) (workload.Run, error) {
	v, t := s.Values, s.Target
	r := &run{v: v, spec: s, mode: v.String("mode"), duration: v.Duration("duration"), check: v.Bool("check")}
	if s.Warmup {
		r.duration, r.check = v.Duration("warmup"), false
	}
	if r.mode == "" {
		r.mode = "sql"
		if t.Engine.Procedures {
			r.mode = "procedures"
		}
	}
	db, err := Open(ctx, t)
	if err != nil {
		return nil, err
	}
	wl, err := db.NewWorkload(ctx, RunOptions{Warehouses: v.Int("warehouses"), AllWarehouses: v.Bool("all-warehouses"),
		KeyingThinking: v.Bool("keying-thinking"), Procedures: r.mode == "procedures", Seed: v.Uint("seed")})
	if err != nil {
		db.Close()
		return nil, err
	}
	r.db, r.wl = db, wl
	r.procs, r.release = runner.HoldDriverCPU(t.Engine.Embedded, v.Count("vus"))
	r.serverVersion = db.ServerVersion(ctx)
	fmt.Fprintf(s.Out, "dbdyno tpcc on %s (%s): %d of %d warehouses, %d VUs, mode %s, seed %d\n",
		r.serverVersion, t, wl.Options().Warehouses, wl.Meta().Warehouses, v.Count("vus"), r.mode, v.Uint("seed"))
	return r, nil
}

func (r *run) ServerVersion() string { return r.serverVersion }

func (r *run) Options() map[string]any {
	v, opts := r.v, r.wl.Options()
	return map[string]any{
		"vus": v.Count("vus"), "rampup_s": v.Duration("rampup").Seconds(), "duration_s": r.duration.Seconds(), "interval_s": v.Duration("interval").Seconds(),
		"warehouses": opts.Warehouses, "warehouses_built": r.wl.Meta().Warehouses, "all_warehouses": v.Bool("all-warehouses"),
		"keying_thinking": v.Bool("keying-thinking"), "mode": r.mode, "seed": fmt.Sprint(v.Uint("seed")),
		"nurand_c_run": r.wl.C, "nurand_c_load": r.wl.Meta().C, "build_seed": fmt.Sprint(r.wl.Meta().Seed),
		"reconnect_timeout_s": v.Duration("reconnect-timeout").Seconds(), "driver_gomaxprocs": r.procs,
	}
}

func (r *run) Measure(ctx context.Context, res *result.Result) (bool, error) {
	v := r.v
	nextOrderID, closeReader, err := r.db.NextOrderIDReader(ctx)
	if err != nil {
		return false, r.spec.Target.ConnectError(err)
	}
	defer closeReader()
	cfg := runner.Config{VUs: v.Count("vus"), Rampup: v.Duration("rampup"), Duration: r.duration, Interval: v.Duration("interval"),
		Progress: r.spec.Out, ReconnectTimeout: v.Duration("reconnect-timeout"), KeyTx: NewOrder, KeyLabel: "NOPM",
		AtMeasureStart: func(ctx context.Context) (err error) {
			r.procs = runtime.GOMAXPROCS(0) // settled by then, with every target of a multi-target run started
			r.next0, err = nextOrderID(ctx)
			return err
		},
		AtMeasureEnd: func(ctx context.Context) (err error) { r.next1, err = nextOrderID(ctx); return err },
	}
	stop, err := runner.Profile(v.String("cpuprofile"))
	if err != nil {
		return false, err
	}
	defer stop()
	m, err := runner.Run(ctx, r.wl, cfg)
	if m == nil {
		return false, err
	}
	m.KeyTx, m.KeyLabel = TxNames[NewOrder], "NOPM"
	res.Options["driver_gomaxprocs"] = r.procs
	res.Measurement = m
	res.Figures = figures(m, r.next0, r.next1)
	return true, err
}

func (r *run) Finish(ctx context.Context, res *result.Result) error {
	printSummary(r.spec.Out, res)
	if !r.check || res.Status != result.StatusOK {
		return nil
	}
	checks, err := printChecks(context.WithoutCancel(ctx), r.spec.Out, r.db)
	res.Checks = checks
	return err
}

func (r *run) Close() {
	r.db.Close()
	r.release()
}

// figures are the headline numbers: NOPM counted by the client and cross-checked against the change in
// sum(d_next_o_id) over the measured window.
func figures(m *result.Measurement, next0, next1 int64) map[string]any {
	fig := map[string]any{"tpm": runner.Round(m.PerMinute, 1), "nopm": 0.0}
	no := m.Transactions[TxNames[NewOrder]]
	if m.MeasuredSecs > 0 {
		fig["nopm"] = runner.Round(float64(no.Count)/(m.MeasuredSecs/60), 1)
	}
	if next1 > 0 {
		fig["new_orders_db"] = next1 - next0
		if m.MeasuredSecs > 0 {
			fig["nopm_db"] = runner.Round(float64(next1-next0)/(m.MeasuredSecs/60), 1)
		}
	}
	return fig
}

// The workload's metrics: NOPM is the headline; rates add up over targets run at once and are normalised per
// database core and per price.
var (
	nopm      = workload.MetricDesc{Name: "NOPM", Unit: "new orders/min", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	tpm       = workload.MetricDesc{Name: "TPM", Unit: "transactions/min", Better: result.Higher, PerCore: true, PerPrice: true, Aggregate: "sum"}
	txP95     = workload.MetricDesc{Name: "<transaction> p95 latency", Unit: "ms", Better: result.Lower}
	clientCPU = workload.MetricDesc{Name: "client CPU per transaction", Unit: "µs", Better: result.Lower}
)

// metrics derives a run's metrics from its measurement and figures.
func metrics(r *result.Result) []result.Metric {
	m := r.Measurement
	if m == nil || m.MeasuredSecs <= 0 {
		return nil
	}
	var out []result.Metric
	if v, ok := r.Figures["nopm"].(float64); ok {
		out = append(out, nopm.Value(v))
	}
	out = append(out, tpm.Value(m.PerMinute))
	for _, tx := range TxNames {
		if s, ok := m.Transactions[tx]; ok && s.Count > 0 {
			out = append(out, txP95.Named(tx+" p95 latency").Value(float64(s.Latency.P95)/1000))
		}
	}
	return append(out, clientCPU.Value(m.ClientCPU.MicrosPerTx))
}

// upgrade fills what results written before the key transaction was recorded lack.
func upgrade(r *result.Result) {
	if m := r.Measurement; m != nil && m.KeyTx == "" {
		m.KeyTx, m.KeyLabel = TxNames[NewOrder], "NOPM"
	}
}

func printSummary(w io.Writer, res *result.Result) {
	m := res.Measurement
	fmt.Fprintf(w, "\n%s after %.1fs measured: NOPM %.0f  TPM %.0f", strings.ToUpper(res.Status), m.MeasuredSecs, res.Figures["nopm"], res.Figures["tpm"])
	if v, ok := res.Figures["nopm_db"]; ok {
		fmt.Fprintf(w, "  (database: %d new orders, NOPM %.0f)", res.Figures["new_orders_db"], v)
	}
	fmt.Fprintln(w)
	runner.PrintTable(w, m, "transaction", TxNames)
	fmt.Fprintf(w, "client CPU: %.2fs user + %.2fs system = %.1f µs per transaction; reconnects %d\n",
		m.ClientCPU.UserSeconds, m.ClientCPU.SystemSeconds, m.ClientCPU.MicrosPerTx, m.Reconnects)
	if m.DisconnectedSecs > 0 {
		fmt.Fprintf(w, "WARNING: virtual users were without a connection for %.1fs of the measured window in all: the figures include that gap\n", m.DisconnectedSecs)
	}
	runner.PrintErrors(w, res)
}

func ms(us int64) float64 { return float64(us) / 1000 }

func printChecks(ctx context.Context, w io.Writer, db *DB) ([]result.Check, error) {
	checks, err := db.Check(ctx)
	if err != nil {
		return nil, err
	}
	return checks, runner.PrintChecks(w, checks)
}

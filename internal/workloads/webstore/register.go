package webstore

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// The web store's commands and metrics, as the registry (and so the CLI and plans) sees them.
func init() {
	threads := fmt.Sprint(runtime.NumCPU())
	workload.Register(&workload.Meta{
		Name:  "webstore",
		Short: "DVD-Store-style web store OLTP workload: build, run, check, reset, drop",
		Long: "A web store in the manner of DVD Store 2: customers log in or register, browse by category, actor and\n" +
			"title, and buy 1-9 products with a stock check. Orders per minute (OPM), each step's latency, rollbacks.\n" +
			"The store is reset to its loaded state before every run (as a backup restored), unless --no-reset.",
		DefaultTarget: "sqlite://dbdyno-webstore.db",
		NeedsDB:       true,
		Sections:      []string{"measurement"},
		Metrics:       []workload.MetricDesc{opm, stepP95, rollbackShare, cpuPerOrder},
		SQL:           Files,
		Supports:      supported,
		Derive:        metrics,
		Work: func(r *result.Result) string {
			o := r.Options
			return fmt.Sprintf("customers %v, products %v, orders/month %v, mode %v, new customers %v%%, searches %v, lines %v",
				o["customers"], o["products"], o["orders_per_month"], o["mode"], o["new_customers_pct"], o["searches"], o["lines"])
		},
		Commands: []*workload.Command{{
			Name:   "build",
			Short:  "create the store and load customers, products, inventory and 12 months of orders",
			Target: workload.OneTarget,
			Flags: []workload.Flag{
				{Name: "size", Kind: workload.String, Default: "S", Help: "S (20,000 customers, 10,000 products, 1,000 orders a month), M (2,000,000 / 100,000 / 100,000) or L (200,000,000 / 1,000,000 / 10,000,000)"},
				{Name: "customers", Kind: workload.Int, Help: "customers (overrides the size's)"},
				{Name: "products", Kind: workload.Int, Help: "products (overrides the size's)"},
				{Name: "orders-per-month", Kind: workload.Int, Help: "orders a month of the 12 months of history (overrides the size's)"},
				{Name: "threads", Kind: workload.Int, Default: threads, Help: "parallel load connections"},
				{Name: "drop", Kind: workload.Bool, Help: "replace dbdyno's existing web store tables (never touches tables dbdyno did not create)"},
				{Name: "seed", Kind: workload.Uint, Default: "1", Help: "seed of the generated data"},
			},
			Do: build,
		}, {
			Name:     "run",
			Short:    "drive users' orders with virtual users and report OPM, each step's latency and rollbacks",
			Target:   workload.ManyTargets,
			Flags:    runFlags,
			Measured: measured{},
		}, {
			Name:   "check",
			Short:  "verify the store's consistency: stock plus sales, sales against order lines, order totals, lines and history",
			Target: workload.OneTarget,
			Do: onDB(func(ctx context.Context, env *workload.Env, db *DB) error {
				_, err := printChecks(ctx, env.Out, db)
				return err
			}),
		}, {
			Name:   "reset",
			Short:  "bring the store back to its loaded state (what runs added removed, inventory restored)",
			Target: workload.OneTarget,
			Do: onDB(func(ctx context.Context, env *workload.Env, db *DB) error {
				rep, err := db.Reset(ctx)
				if err == nil {
					fmt.Fprintln(env.Out, rep)
				}
				return err
			}),
		}, {
			Name:   "drop",
			Short:  "remove dbdyno's web store tables and procedures (and nothing else)",
			Target: workload.OneTarget,
			Do: onDB(func(ctx context.Context, env *workload.Env, db *DB) error {
				return db.data.DropCommand(ctx, env.Out)
			}),
		}},
	})
}

// onDB is a command that works on the target's store: opened for it and closed after.
func onDB(do func(context.Context, *workload.Env, *DB) error) func(context.Context, *workload.Env, *workload.Values) error {
	return func(ctx context.Context, env *workload.Env, _ *workload.Values) error {
		db, err := Open(ctx, env.Target())
		if err != nil {
			return err
		}
		defer db.Close()
		return do(ctx, env, db)
	}
}

var runFlags = append(runner.Flags("sql (client-side statements) or procedures (a login and a purchase are one procedure call each; default where the engine has them)"),
	workload.Flag{Name: "new-customers", Kind: workload.String, Default: "20%", Help: "share of orders placed by a newly registered customer instead of a login"},
	workload.Flag{Name: "searches", Kind: workload.Int, Default: "3", Help: "browse steps per order (each by category, actor or title at random)"},
	workload.Flag{Name: "batch", Kind: workload.Int, Default: "5", Help: "results per browse"},
	workload.Flag{Name: "lines", Kind: workload.String, Default: "1..9", Help: "products bought per order, uniform in the range (0..0: browsing only)"},
	workload.Flag{Name: "reorder-below", Kind: workload.Int, Default: "3", Help: "a purchase that leaves a product's stock below this inserts a reorder record"},
	workload.Flag{Name: "think", Kind: workload.Duration, Default: "0s", Help: "think time after each step (off by default)"},
	workload.Flag{Name: "no-reset", Kind: workload.Bool, Help: "do not reset the store to its loaded state before the run"},
)

// sizeOf reads --size and the counts that override it.
func sizeOf(v *workload.Values) (Size, error) {
	s, ok := Sizes[strings.ToUpper(v.String("size"))]
	if !ok {
		return Size{}, fmt.Errorf("--size %q is not known: use S, M or L (or --customers, --products and --orders-per-month)", v.String("size"))
	}
	if v.Changed("customers") {
		s.Customers = int64(v.Int("customers"))
	}
	if v.Changed("products") {
		s.Products = int64(v.Int("products"))
	}
	if v.Changed("orders-per-month") {
		s.OrdersPerMonth = int64(v.Int("orders-per-month"))
	}
	return s, s.Check()
}

func build(ctx context.Context, env *workload.Env, v *workload.Values) error {
	s, err := sizeOf(v)
	if err != nil {
		return err
	}
	threads := v.Int("threads")
	if threads < 1 {
		return fmt.Errorf("--threads must be at least 1 (got %d)", threads)
	}
	if err := bulk.CheckSpace(ctx, env.Target(), s.Bytes()); err != nil {
		return err
	}
	db, err := Open(ctx, env.Target())
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(env.Out, "building the web store (%d customers, %d products, %d orders a month for %d months) in %s (%s), %d thread(s)\n",
		s.Customers, s.Products, s.OrdersPerMonth, Months, db.T, db.ServerVersion(ctx), threads)
	rep, err := db.Build(ctx, BuildOptions{Size: s, Threads: threads, Drop: v.Bool("drop"), Seed: v.Uint("seed"), Version: env.Version, Progress: env.Out})
	if err != nil {
		return bulk.Interrupted(ctx, err)
	}
	fmt.Fprintln(env.Out, rep.Summary())
	return nil
}

// ParseShare reads a percentage: "20%" or "20" (a bare number is a percentage too).
func ParseShare(flag, s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || v < 0 || v > 100 {
		return 0, fmt.Errorf("%s %q is not a percentage: give 0%% to 100%%, e.g. 20%%", flag, s)
	}
	return v / 100, nil
}

// ParseRange reads "1..9" or "5" (a range of one).
func ParseRange(flag, s string) (lo, hi int, err error) {
	a, b, ok := strings.Cut(s, "..")
	if !ok {
		b = a
	}
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%s %q is not a range: give LO..HI, e.g. 1..9", flag, s)
	}
	return lo, hi, nil
}

func options(v *workload.Values) (Options, error) {
	o := Options{Searches: v.Int("searches"), Batch: v.Int("batch"), Reorder: v.Int("reorder-below"), Think: v.Duration("think"), Seed: v.Uint("seed")}
	var err error
	if o.NewCustomers, err = ParseShare("--new-customers", v.String("new-customers")); err != nil {
		return o, err
	}
	if o.MinLines, o.MaxLines, err = ParseRange("--lines", v.String("lines")); err != nil {
		return o, err
	}
	return o, o.Check()
}

// measured is `webstore run` for the method.
type measured struct{}

func (measured) Prepare(v *workload.Values) (*workload.Values, error) {
	if v.Duration("think") < 0 {
		return nil, fmt.Errorf("--think cannot be negative (got %s)", v.Duration("think"))
	}
	if _, err := options(v); err != nil {
		return nil, err
	}
	return runner.CheckFlags(v)
}

func (measured) Warmup(v *workload.Values) (bool, string) {
	return v.Duration("warmup") > 0, v.Duration("warmup").String()
}

type run struct {
	v             *workload.Values
	spec          workload.Spec
	db            *DB
	wl            *Workload
	mode          string
	serverVersion string
	duration      time.Duration
	check         bool
	reset         *ResetReport
	procs         int
	release       func() // gives back the driver's share of the process's CPU settings
}

func (measured) Start(ctx context.Context, s workload.Spec) (workload.Run, error) {
	v, t := s.Values, s.Target
	opts, _ := options(v)
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
	opts.Procedures = r.mode == "procedures"
	db, err := Open(ctx, t)
	if err != nil {
		return nil, err
	}
	wl, err := db.NewWorkload(ctx, opts)
	if err != nil {
		db.Close()
		return nil, err
	}
	r.db, r.wl = db, wl
	if !v.Bool("no-reset") {
		// the loaded state before every run, warm-up and repeat alike, as the studies restored a backup
		if r.reset, err = db.Reset(ctx); err != nil {
			db.Close()
			return nil, fmt.Errorf("resetting the store before the run: %w", err)
		}
		fmt.Fprintln(s.Out, r.reset)
	}
	r.procs, r.release = runner.HoldDriverCPU(t.Engine.Embedded, v.Count("vus"))
	r.serverVersion = db.ServerVersion(ctx)
	m := wl.Meta().Size
	fmt.Fprintf(s.Out, "dbdyno webstore on %s (%s): %d customers, %d products, %d VUs, mode %s, seed %d\n",
		r.serverVersion, t, m.Customers, m.Products, v.Count("vus"), r.mode, v.Uint("seed"))
	return r, nil
}

func (r *run) ServerVersion() string { return r.serverVersion }

func (r *run) Options() map[string]any {
	v, m := r.v, r.wl.Meta()
	o := r.wl.opts
	out := map[string]any{
		"vus": v.Count("vus"), "rampup_s": v.Duration("rampup").Seconds(), "duration_s": r.duration.Seconds(), "interval_s": v.Duration("interval").Seconds(),
		"customers": m.Size.Customers, "products": m.Size.Products, "orders_per_month": m.Size.OrdersPerMonth, "build_seed": fmt.Sprint(m.Seed),
		"mode": r.mode, "new_customers_pct": o.NewCustomers * 100, "searches": o.Searches, "batch": o.Batch,
		"lines": fmt.Sprintf("%d..%d", o.MinLines, o.MaxLines), "reorder_below": o.Reorder, "think_s": o.Think.Seconds(),
		"reset": r.reset != nil, "seed": fmt.Sprint(v.Uint("seed")), "reconnect_timeout_s": v.Duration("reconnect-timeout").Seconds(),
		"driver_gomaxprocs": r.procs,
	}
	if r.reset != nil {
		out["reset_s"] = round(r.reset.Took.Seconds(), 2)
	}
	return out
}

func (r *run) Measure(ctx context.Context, res *result.Result) (bool, error) {
	v := r.v
	cfg := runner.Config{VUs: v.Count("vus"), Rampup: v.Duration("rampup"), Duration: r.duration, Interval: v.Duration("interval"),
		Progress: r.spec.Out, ReconnectTimeout: v.Duration("reconnect-timeout"), KeyTx: Purchase, KeyLabel: "OPM", RateLabel: "steps/min",
		AtMeasureStart: func(context.Context) error {
			r.procs = runtime.GOMAXPROCS(0) // settled by then, with every target of a multi-target run started
			return nil
		}}
	stop, err := runner.Profile(v.String("cpuprofile"))
	if err != nil {
		return false, err
	}
	defer stop()
	m, err := runner.Run(ctx, r.wl, cfg)
	if m == nil {
		return false, err
	}
	m.KeyTx, m.KeyLabel = StepNames[Purchase], "OPM"
	res.Options["driver_gomaxprocs"] = r.procs
	res.Measurement = m
	res.Figures = figures(m)
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

// figures: OPM is the purchases completed per minute of the measured window; rollbacks are the purchases a
// short stock undid; client CPU is per completed order.
func figures(m *result.Measurement) map[string]any {
	p := m.Transactions[StepNames[Purchase]]
	fig := map[string]any{"opm": 0.0, "orders": p.Count, "rollbacks": p.Rollbacks}
	if m.MeasuredSecs > 0 {
		fig["opm"] = round(float64(p.Count)/(m.MeasuredSecs/60), 1)
	}
	if p.Count+p.Rollbacks > 0 {
		fig["rollback_pct"] = round(100*float64(p.Rollbacks)/float64(p.Count+p.Rollbacks), 2)
	}
	if p.Count > 0 {
		fig["client_cpu_us_per_order"] = round((m.ClientCPU.UserSeconds+m.ClientCPU.SystemSeconds)*1e6/float64(p.Count), 1)
	}
	return fig
}

func round(v float64, digits int) float64 {
	p := 1.0
	for i := 0; i < digits; i++ {
		p *= 10
	}
	return float64(int64(v*p+0.5)) / p
}

// The workload's metrics: OPM is the headline; it adds up over instances run at once (the studies' total OPM
// of several databases) and is normalised per database core and per price.
var (
	opm           = workload.MetricDesc{Name: "OPM", Unit: "orders/min", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	stepP95       = workload.MetricDesc{Name: "<step> p95 latency", Unit: "ms", Better: result.Lower}
	rollbackShare = workload.MetricDesc{Name: "purchases rolled back", Unit: "%", Better: result.Lower}
	cpuPerOrder   = workload.MetricDesc{Name: "client CPU per order", Unit: "µs", Better: result.Lower}
)

func metrics(r *result.Result) []result.Metric {
	m := r.Measurement
	if m == nil || m.MeasuredSecs <= 0 {
		return nil
	}
	var out []result.Metric
	if v, ok := r.Figures["opm"].(float64); ok {
		out = append(out, opm.Value(v))
	}
	for _, s := range StepNames {
		if st, ok := m.Transactions[s]; ok && st.Count > 0 {
			out = append(out, stepP95.Named(s+" p95 latency").Value(float64(st.Latency.P95)/1000))
		}
	}
	if v, ok := r.Figures["rollback_pct"].(float64); ok {
		out = append(out, rollbackShare.Value(v))
	}
	if v, ok := r.Figures["client_cpu_us_per_order"].(float64); ok {
		out = append(out, cpuPerOrder.Value(v))
	}
	return out
}

func printSummary(w io.Writer, res *result.Result) {
	m := res.Measurement
	fmt.Fprintf(w, "\n%s after %.1fs measured: OPM %.0f (%v orders, %v rolled back for short stock)\n", strings.ToUpper(res.Status), m.MeasuredSecs,
		res.Figures["opm"], res.Figures["orders"], res.Figures["rollbacks"])
	runner.PrintTable(w, m, "step", StepNames)
	if v, ok := res.Figures["client_cpu_us_per_order"]; ok {
		fmt.Fprintf(w, "client CPU: %.2fs user + %.2fs system = %v µs per order; reconnects %d\n",
			m.ClientCPU.UserSeconds, m.ClientCPU.SystemSeconds, v, m.Reconnects)
	}
	for _, e := range m.ErrorSamples {
		fmt.Fprintf(w, "error: %s\n", e)
	}
	if res.Error != "" {
		fmt.Fprintln(w, result.Ended(res))
	}
}

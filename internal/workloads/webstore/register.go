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
		Derive:        runner.Measured(metrics),
		Work: func(r *result.Result) string {
			o := r.Options
			return fmt.Sprintf("customers %v, products %v, orders/month %v, mode %v, new customers %v%%, searches %v, lines %v",
				o["customers"], o["products"], o["orders_per_month"], o["mode"], o["new_customers_pct"], o["searches"], o["lines"])
		},
		Commands: []*workload.Command{
			buildCommand(),
			workload.NewMeasured(workload.Command{Name: "run",
				Short:  "drive users' orders with virtual users and report OPM, each step's latency and rollbacks",
				Target: workload.ManyTargets, Existing: true}, &RunFlags{}, runner.VU[RunFlags]{
				Check: func(o *RunFlags) error {
					if o.Think < 0 {
						return fmt.Errorf("--think cannot be negative (got %s)", o.Think)
					}
					_, err := options(o)
					return err
				},
				Open: open,
			}),
			runner.CheckCommand("verify the store's consistency: stock plus sales, sales against order lines, order totals, lines and history", Open),
			{
				Name:   "reset",
				Short:  "bring the store back to its loaded state (what runs added removed, inventory restored)",
				Target: workload.OneTarget, Existing: true,
				Do: workload.OnTarget(Open, func(ctx context.Context, env *workload.Env, db *DB) error {
					rep, err := db.Reset(ctx)
					if err == nil {
						fmt.Fprintln(env.Out, rep)
					}
					return err
				}),
			},
			workload.DropCommand("remove dbdyno's web store tables and procedures (and nothing else)", Open),
		},
	})
}

// SizeFlags are the store's size: a named size and the counts that override it.
type SizeFlags struct {
	Size           string `flag:"size" default:"S" help:"S (20,000 customers, 10,000 products, 1,000 orders a month), M (2,000,000 / 100,000 / 100,000) or L (200,000,000 / 1,000,000 / 10,000,000)"`
	Customers      int    `flag:"customers" help:"customers (overrides the size's)"`
	Products       int    `flag:"products" help:"products (overrides the size's)"`
	OrdersPerMonth int    `flag:"orders-per-month" help:"orders a month of the 12 months of history (overrides the size's)"`
}

// BuildFlags are `webstore build`'s options.
type BuildFlags struct {
	SizeFlags
	Threads int    `flag:"threads" help:"parallel load connections" max:"256" why:"more threads than cores load no faster, and each one costs a connection and memory"`
	Drop    bool   `flag:"drop" help:"replace dbdyno's existing web store tables (never touches tables dbdyno did not create)"`
	Seed    uint64 `flag:"seed" help:"seed of the generated data"`
}

// RunFlags are `webstore run`'s options: the virtual users' shared ones, then the workload's own.
type RunFlags struct {
	runner.Users
	runner.Modes `mode.help:"sql (client-side statements) or procedures (a login and a purchase are one procedure call each; default where the engine has them)"`
	NewCustomers string        `flag:"new-customers" unit:"%" default:"20%" help:"share of orders placed by a newly registered customer instead of a login"`
	Searches     int           `flag:"searches" default:"3" help:"browse steps per order (each by category, actor or title at random)"`
	Batch        int           `flag:"batch" default:"5" help:"results per browse"`
	Lines        string        `flag:"lines" default:"1..9" help:"products bought per order, uniform in the range (0..0: browsing only)"`
	ReorderBelow int           `flag:"reorder-below" default:"3" help:"a purchase that leaves a product's stock below this inserts a reorder record"`
	Think        time.Duration `flag:"think" default:"0s" help:"think time after each step (off by default)"`
	NoReset      bool          `flag:"no-reset" help:"do not reset the store to its loaded state before the run"`
}

// buildCommand is `webstore build`. Its Do reads the options as BuildFlags, and also which counts were given:
// a count given as 0 overrides the size's too (workload.NewCommand hands over only the decoded options).
func buildCommand() *workload.Command {
	return &workload.Command{
		Name:   "build",
		Short:  "create the store and load customers, products, inventory and 12 months of orders",
		Target: workload.OneTarget,
		Flags:  workload.FlagsOf(&BuildFlags{Threads: runtime.NumCPU(), Seed: 1}),
		Do: func(ctx context.Context, env *workload.Env, v *workload.Values) error {
			o, err := workload.Options[BuildFlags](v)
			if err != nil {
				return err
			}
			return build(ctx, env, o, v.Changed)
		},
	}
}

// sizeOf reads --size and the counts that override it (those given, as changed says).
func sizeOf(o *SizeFlags, changed func(flag string) bool) (Size, error) {
	s, ok := Sizes[strings.ToUpper(o.Size)]
	if !ok {
		return Size{}, fmt.Errorf("--size %q is not known: use S, M or L (or --customers, --products and --orders-per-month)", o.Size)
	}
	if changed("customers") {
		s.Customers = int64(o.Customers)
	}
	if changed("products") {
		s.Products = int64(o.Products)
	}
	if changed("orders-per-month") {
		s.OrdersPerMonth = int64(o.OrdersPerMonth)
	}
	return s, s.Check()
}

func build(ctx context.Context, env *workload.Env, o *BuildFlags, changed func(string) bool) error {
	s, err := sizeOf(&o.SizeFlags, changed)
	if err != nil {
		return err
	}
	threads := o.Threads
	if threads < 1 {
		return fmt.Errorf("--threads must be at least 1 (got %d)", threads)
	}
	what := fmt.Sprintf("the web store (%d customers, %d products, %d orders a month for %d months)", s.Customers, s.Products, s.OrdersPerMonth, Months)
	return bulk.RunBuild(ctx, bulk.BuildRun{Target: env.Target(), Out: env.Out, Bytes: s.Bytes(), What: what, Threads: threads}, Open,
		func(ctx context.Context, db *DB) (*bulk.Report, error) {
			return db.Build(ctx, BuildOptions{Size: s, Threads: threads, Drop: o.Drop, Seed: o.Seed, Version: env.Version, Progress: env.Out})
		})
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

// options are the workload's settings from the run's options.
func options(o *RunFlags) (Options, error) {
	w := Options{Searches: o.Searches, Batch: o.Batch, Reorder: o.ReorderBelow, Think: o.Think, Seed: o.Seed}
	var err error
	if w.NewCustomers, err = ParseShare("--new-customers", o.NewCustomers); err != nil {
		return w, err
	}
	if w.MinLines, w.MaxLines, err = ParseRange("--lines", o.Lines); err != nil {
		return w, err
	}
	return w, w.Check()
}

// runSession is one `webstore run` against one target, driven by runner.VU: the workload's virtual users, the
// reset before the run, the banner, options, figures, summary and checks.
type runSession struct {
	*Workload
	setup         *runner.Setup
	db            *DB
	serverVersion string
	reset         *ResetReport
}

func open(ctx context.Context, setup *runner.Setup, o *RunFlags) (runner.Session, error) {
	t := setup.Target
	opts, _ := options(o)
	opts.Procedures = setup.Mode == "procedures"
	db, err := Open(ctx, t)
	if err != nil {
		return nil, err
	}
	wl, err := db.NewWorkload(ctx, opts)
	if err != nil {
		db.Close()
		return nil, err
	}
	s := &runSession{Workload: wl, setup: setup, db: db}
	if !o.NoReset {
		// the loaded state before every run, warm-up and repeat alike, as the studies restored a backup
		if s.reset, err = db.Reset(ctx); err != nil {
			db.Close()
			return nil, fmt.Errorf("resetting the store before the run: %w", err)
		}
		fmt.Fprintln(setup.Out, s.reset)
	}
	s.serverVersion = db.ServerVersion(ctx)
	m := wl.Meta().Size
	fmt.Fprintf(setup.Out, "dbdyno webstore on %s (%s): %d customers, %d products, %d VUs, mode %s, seed %d\n",
		s.serverVersion, t, m.Customers, m.Products, o.VUs, setup.Mode, o.Seed)
	return s, nil
}

func (s *runSession) ServerVersion() string { return s.serverVersion }

func (s *runSession) Options() map[string]any {
	out, m, o := s.setup.Options(), s.Meta(), s.opts
	for k, v := range map[string]any{
		"customers": m.Size.Customers, "products": m.Size.Products, "orders_per_month": m.Size.OrdersPerMonth, "build_seed": fmt.Sprint(m.Seed),
		"new_customers_pct": o.NewCustomers * 100, "searches": o.Searches, "batch": o.Batch,
		"lines": fmt.Sprintf("%d..%d", o.MinLines, o.MaxLines), "reorder_below": o.Reorder, "think_s": o.Think.Seconds(),
		"reset": s.reset != nil,
	} {
		out[k] = v
	}
	if s.reset != nil {
		out["reset_s"] = runner.Round(s.reset.Took.Seconds(), 2)
	}
	return out
}

func (s *runSession) Configure(cfg *runner.Config) {
	cfg.KeyTx, cfg.KeyLabel, cfg.RateLabel = Purchase, "OPM", "steps/min"
}

func (s *runSession) Figures(m *result.Measurement) map[string]any { return figures(m) }

func (s *runSession) Finish(_ context.Context, res *result.Result) { printSummary(s.setup.Out, res) }

func (s *runSession) Check(ctx context.Context, w io.Writer) ([]result.Check, error) {
	return runner.RunChecks(ctx, w, s.db.Check)
}

func (s *runSession) Close() { s.db.Close() }

// figures: OPM is the purchases completed per minute of the measured window; rollbacks are the purchases a
// short stock undid; client CPU is per completed order.
func figures(m *result.Measurement) map[string]any {
	p := m.Transactions[StepNames[Purchase]]
	fig := map[string]any{"opm": 0.0, "orders": p.Count, "rollbacks": p.Rollbacks}
	if m.MeasuredSecs > 0 {
		fig["opm"] = runner.Round(float64(p.Count)/(m.MeasuredSecs/60), 1)
	}
	if p.Count+p.Rollbacks > 0 {
		fig["rollback_pct"] = runner.Round(100*float64(p.Rollbacks)/float64(p.Count+p.Rollbacks), 2)
	}
	if p.Count > 0 {
		fig["client_cpu_us_per_order"] = runner.Round((m.ClientCPU.UserSeconds+m.ClientCPU.SystemSeconds)*1e6/float64(p.Count), 1)
	}
	return fig
}

// The workload's metrics: OPM is the headline; it adds up over instances run at once (the studies' total OPM
// of several databases) and is normalised per database core and per price.
var (
	opm           = workload.MetricDesc{Name: "OPM", Unit: "orders/min", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	stepP95       = workload.MetricDesc{Name: "<step> p95 latency", Unit: "ms", Better: result.Lower}
	rollbackShare = workload.MetricDesc{Name: "purchases rolled back", Unit: "%", Better: result.Lower}
	cpuPerOrder   = workload.MetricDesc{Name: "client CPU per order", Unit: "µs", Better: result.Lower}
)

func metrics(r *result.Result, m *result.Measurement) []result.Metric {
	out := runner.P95Metrics(runner.FigureMetric(nil, opm, r, "opm"), stepP95, m, StepNames)
	out = runner.FigureMetric(out, rollbackShare, r, "rollback_pct")
	return runner.FigureMetric(out, cpuPerOrder, r, "client_cpu_us_per_order")
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
	runner.PrintErrors(w, res)
}

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
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// The web store's commands and metrics, as the registry (and so the CLI and plans) sees them.
func init() {
	workload.Register(&workload.Meta{
		Name:  "webstore",
		Short: "DVD-Store-style web store OLTP workload: build, run, check, reset, drop",
		Long: "A web store in the manner of DVD Store 3: customers log in or register, browse by category, actor and\n" +
			"title (1-5 searches an order), and buy 1-9 products with a stock check; a trigger restocks what runs low, as\n" +
			"DVD Store 3's does. OPM counts every finished order, rolled back or not (DVD Store 3's opm), the committed\n" +
			"OPM beside it; each step's latency, rollbacks, and DVD Store 3's response figures (the mean order's total\n" +
			"response time, the largest of the last 100). The store is reset to its loaded state before every run (as a\n" +
			"backup restored), unless --no-reset. Where it still differs from DVD Store 3: docs/webstore.md.",
		DefaultTarget: "sqlite://dbdyno-webstore.db",
		NeedsDB:       true,
		Sections:      []string{"measurement"},
		Metrics:       []workload.MetricDesc{opm, opmCommitted, orderRT, orderRTMax, stepP95, rollbackShare, cpuPerOrder},
		SQL:           Files,
		Supports:      supported,
		Derive:        runner.Measured(metrics),
		Work: func(r *result.Result) string {
			o := r.Options
			// in words, the flow's settings only where they differ from DVD Store 3's ("20000 customers, 10000
			// products, sql mode; searches 5"): the heading of a comparison
			w := fmt.Sprintf("%v customers, %v products, %v orders a month, %v reviews a product, %v mode", o["customers"], o["products"],
				o["orders_per_month"], o["reviews_per_product"], o["mode"])
			var flow []string
			for _, f := range []struct {
				key, name string
				std       any
				pct       bool
			}{{"new_customers_pct", "new customers", 20.0, true}, {"searches", "searches", 3.0, false}, {"lines", "lines", "1..9", false},
				{"new_members_pct", "new members", 1.0, true}, {"review_searches", "review searches", 3.0, false},
				{"new_reviews_pct", "new reviews", 5.0, true}, {"new_helpfulness_pct", "new helpfulness", 10.0, true}} {
				v := o[f.key]
				if fmt.Sprint(v) == fmt.Sprint(f.std) {
					continue
				}
				if f.pct {
					flow = append(flow, fmt.Sprintf("%s %v%%", f.name, v))
				} else {
					flow = append(flow, fmt.Sprintf("%s %v", f.name, v))
				}
			}
			if len(flow) > 0 {
				w += "; " + strings.Join(flow, ", ")
			}
			if m, ok := o["mix"].(string); ok {
				w += ", custom mix " + m
			}
			return w
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
		Datasets: []*bulk.Dataset{Dataset},
		// its part of a report: its measurement, throughput over time and the transactions' latencies
		Report: report.MeasurementSection,
	})
}

// SizeFlags are the store's size: a named size and the counts that override it.
type SizeFlags struct {
	Size           string `flag:"size" default:"S" help:"S (20,000 customers, 10,000 products, 1,000 orders a month), M (2,000,000 / 100,000 / 100,000) or L (200,000,000 / 1,000,000 / 10,000,000)"`
	Customers      int    `flag:"customers" help:"customers (overrides the size's)"`
	Products       int    `flag:"products" help:"products (overrides the size's)"`
	OrdersPerMonth int    `flag:"orders-per-month" help:"orders a month of the 12 months of history (overrides the size's)"`
	Reviews        int    `flag:"reviews-per-product" help:"reviews loaded per product, each with 2-39 helpfulness ratings (DVD Store 3's 20 unless given)"`
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
	runner.Modes      `mode.help:"sql (client-side statements) or procedures (a login and a purchase are one procedure call each; default where the engine has them)"`
	NewCustomers      string        `flag:"new-customers" unit:"%" default:"20%" help:"share of orders placed by a newly registered customer instead of a login"`
	Searches          int           `flag:"searches" default:"3" help:"mean browse steps per order, as DVD Store 3's n_searches: uniform in 1..2N-1 (each by category, actor or title at random; 0: none)"`
	Batch             int           `flag:"batch" default:"5" help:"mean results asked per browse, as DVD Store 3's search_batch_size: uniform in 1..2N-1"`
	Lines             string        `flag:"lines" default:"1..9" help:"products bought per order, uniform in the range (DVD Store 3's n_line_items 5 is 1..9; 0..0: browsing only)"`
	NewMembers        string        `flag:"new-members" unit:"%" default:"1%" help:"share of orders in which a loaded customer joins the premier membership (DVD Store 3's pct_newmember)"`
	ReviewSearches    int           `flag:"review-searches" default:"3" help:"mean review searches per order, as DVD Store 3's n_reviews: uniform in 1..2N-1 searches by actor or title, and as many reads of a product's reviews (0: none)"`
	NewReviews        string        `flag:"new-reviews" unit:"%" default:"5%" help:"share of orders in which the customer writes a review (DVD Store 3's pct_newreviews)"`
	NewHelpfulness    string        `flag:"new-helpfulness" unit:"%" default:"10%" help:"share of orders in which the customer rates a review's helpfulness (DVD Store 3's pct_newhelpfulness)"`
	Think             time.Duration `flag:"think" think:"true" default:"0s" help:"mean think time after each order, as DVD Store 3's think_time: drawn per order, uniform in 0..2x (off by default)"`
	NoReset           bool          `flag:"no-reset" help:"do not reset the store to its loaded state before the run"`
	Mix               string        `flag:"mix" help:"DVD Store 3's order flow as weights, e.g. login=80,new_customer=20,browse=600,purchase=50 (relative; login and new_customer together are the orders, browse and reviews a mean per order, purchase, new_member, new_review and new_helpfulness a share of them; a part not named does not happen); the standard is login=80,new_customer=20,browse=300,purchase=100,new_member=1,reviews=300,new_review=5,new_helpfulness=10, and another marks the result \"custom mix\" and compare sets it only beside the same mix"`
	workload.Sharding `shard.help:"drive shard I of N (I/N, e.g. 2/4) of a run driven by N processes: logins by the I-th of N even ranges of the loaded customers (the shards share one store: reset it once, and give them --no-reset); merge with dbdyno results merge"`
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
	if changed("reviews-per-product") {
		s.ReviewsPerProduct = int64(o.Reviews)
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
	w := Options{Searches: float64(o.Searches), Batch: o.Batch, ReviewSearches: float64(o.ReviewSearches), Think: o.Think, Seed: o.Seed}
	var err error
	for _, s := range []struct {
		flag, v string
		to      *float64
	}{{"--new-customers", o.NewCustomers, &w.NewCustomers}, {"--new-members", o.NewMembers, &w.NewMembers},
		{"--new-reviews", o.NewReviews, &w.NewReviews}, {"--new-helpfulness", o.NewHelpfulness, &w.NewHelpfulness}} {
		if *s.to, err = ParseShare(s.flag, s.v); err != nil {
			return w, err
		}
	}
	if w.MinLines, w.MaxLines, err = ParseRange("--lines", o.Lines); err != nil {
		return w, err
	}
	if err := applyMix(o.Mix, o, &w); err != nil {
		return w, err
	}
	w.Shard = o.Shard
	if w.Shard.On() && !o.NoReset {
		return w, fmt.Errorf("--shard %s: the shards share one store, and each one's reset would undo the others' orders: reset it once (dbdyno webstore reset) and give every shard --no-reset", o.Shard)
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
	vus           int
	// the orders the database holds beyond the loaded ones at the measured window's edges (-1: not read)
	ordersAt0, ordersAt1 int64
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
	s := &runSession{Workload: wl, setup: setup, db: db, vus: o.VUs, ordersAt0: -1, ordersAt1: -1}
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
	fmt.Fprintf(setup.Out, "dbdyno webstore on %s (%s): %d customers, %d products, %d reviews, %d VUs, mode %s, seed %d\n",
		s.serverVersion, t, m.Customers, m.Products, m.Reviews(), o.VUs, setup.Mode, o.Seed)
	return s, nil
}

func (s *runSession) ServerVersion() string { return s.serverVersion }

func (s *runSession) Options() map[string]any {
	out, m, o := s.setup.Options(), s.Meta(), s.opts
	for k, v := range map[string]any{
		"customers": m.Size.Customers, "products": m.Size.Products, "orders_per_month": m.Size.OrdersPerMonth, "build_seed": fmt.Sprint(m.Seed),
		"new_customers_pct": o.NewCustomers * 100, "searches": o.Searches, "batch": o.Batch,
		"lines": fmt.Sprintf("%d..%d", o.MinLines, o.MaxLines), "think_s": o.Think.Seconds(),
		"reviews_per_product": m.Size.ReviewsPerProduct, "new_members_pct": o.NewMembers * 100, "review_searches": o.ReviewSearches,
		"new_reviews_pct": o.NewReviews * 100, "new_helpfulness_pct": o.NewHelpfulness * 100,
		"reset": s.reset != nil,
	} {
		out[k] = v
	}
	if s.reset != nil {
		out["reset_s"] = runner.Round(s.reset.Took.Seconds(), 2)
	}
	if o.Mix != "" {
		out["mix"], out["browse_only_pct"] = o.Mix, runner.Round(o.BrowseOnly*100, 2) // a custom mix: compare sets it only beside the same mix (Work)
	}
	o.Shard.Record(out, "customers", int(m.Size.Customers), 1)
	return out
}

// Configure: the progress lines' key figure is the committed purchases per minute; the measured window's edges
// start and stop DVD Store 3's response figures and read the database's count of the orders runs added.
func (s *runSession) Configure(cfg *runner.Config) {
	cfg.KeyTx, cfg.KeyLabel, cfg.RateLabel = Purchase, "OPM", "steps/min"
	cfg.AtMeasureStart = func(ctx context.Context) (err error) {
		s.times.start()
		s.ordersAt0, err = s.db.ordersAdded(ctx, s.meta)
		return err
	}
	cfg.AtMeasureEnd = func(ctx context.Context) (err error) {
		s.times.stop()
		s.ordersAt1, err = s.db.ordersAdded(ctx, s.meta)
		return err
	}
}

func (s *runSession) Figures(m *result.Measurement) map[string]any {
	fig := figures(m)
	if n, avg, lastMax, ok := s.times.figures(); ok {
		fig["rt_orders"], fig["rt_tot_avg_ms"], fig["rt_tot_lastn_max_ms"] = n, runner.Round(avg, 2), runner.Round(lastMax, 2)
	}
	if s.ordersAt0 >= 0 && s.ordersAt1 >= 0 {
		fig["orders_db"] = s.ordersAt1 - s.ordersAt0
	}
	return fig
}

// CrossCheck fails a run whose committed orders counted by the client disagree with the orders the database
// gained over the measured window. They may differ by the purchases in flight at the window's edges.
func (s *runSession) CrossCheck(m *result.Measurement, fig map[string]any) error {
	db, ok := fig["orders_db"].(int64)
	if !ok {
		return nil
	}
	client := m.Transactions[StepNames[Purchase]].Count
	if ok, tol := runner.CountsAgree(client, db, m.KeyAtEdges); !ok {
		return fmt.Errorf("the database gained %d orders in the measured window and the client committed %d: they differ by more than %d (the %d purchases in flight at the window's edges and 1%%): another writer, a trigger or changed table, or lost commits", db, client, tol, m.KeyAtEdges)
	}
	return nil
}

func (s *runSession) Finish(_ context.Context, res *result.Result) { printSummary(s.setup.Out, res) }

func (s *runSession) Check(ctx context.Context, w io.Writer) ([]result.Check, error) {
	return runner.RunChecks(ctx, w, s.db.Check)
}

func (s *runSession) Close() { s.db.Close() }

// figures: OPM is DVD Store 3's opm, every order finished in the measured window per minute, its purchase
// committed or rolled back for short stock; the committed OPM beside it counts the committed ones only.
// Rollbacks are the purchases a short stock undid; client CPU is per finished order.
func figures(m *result.Measurement) map[string]any {
	p := m.Transactions[StepNames[Purchase]]
	orders := p.Count + p.Rollbacks
	fig := map[string]any{"opm": 0.0, "opm_committed": 0.0, "orders": orders, "orders_committed": p.Count, "rollbacks": p.Rollbacks}
	if m.MeasuredSecs > 0 {
		fig["opm"] = runner.Round(float64(orders)/(m.MeasuredSecs/60), 1)
		fig["opm_committed"] = runner.Round(float64(p.Count)/(m.MeasuredSecs/60), 1)
	}
	if orders > 0 {
		fig["rollback_pct"] = runner.Round(100*float64(p.Rollbacks)/float64(orders), 2)
		fig["client_cpu_us_per_order"] = runner.Round((m.ClientCPU.UserSeconds+m.ClientCPU.SystemSeconds)*1e6/float64(orders), 1)
	}
	return fig
}

// The workload's metrics: OPM (DVD Store 3's, rollbacks included) is the headline; it adds up over instances
// run at once (the studies' total OPM of several databases) and is normalised per database core and per price.
var (
	opm           = workload.MetricDesc{Name: "OPM", Unit: "orders/min", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	opmCommitted  = workload.MetricDesc{Name: "committed OPM", Unit: "orders/min", Better: result.Higher, Aggregate: "sum"}
	orderRT       = workload.MetricDesc{Name: "order response time (mean)", Unit: "ms", Better: result.Lower}
	orderRTMax    = workload.MetricDesc{Name: "order response time (max of last 100)", Unit: "ms", Better: result.Lower}
	stepP95       = workload.MetricDesc{Name: "<step> p95 latency", Unit: "ms", Better: result.Lower}
	rollbackShare = workload.MetricDesc{Name: "purchases rolled back", Unit: "%", Better: result.Lower}
	cpuPerOrder   = workload.MetricDesc{Name: "client CPU per order", Unit: "µs", Better: result.Lower}
)

func metrics(r *result.Result, m *result.Measurement) []result.Metric {
	out := runner.FigureMetric(nil, opm.WithNoise(result.TxNoise(m.KeyTx)), r, "opm")
	out = runner.FigureMetric(out, opmCommitted.WithNoise(result.TxNoise(m.KeyTx)), r, "opm_committed")
	out = runner.FigureMetric(out, orderRT, r, "rt_tot_avg_ms")
	out = runner.FigureMetric(out, orderRTMax, r, "rt_tot_lastn_max_ms")
	out = runner.P95Metrics(out, stepP95, m, StepNames)
	out = runner.FigureMetric(out, rollbackShare, r, "rollback_pct")
	return runner.FigureMetric(out, cpuPerOrder, r, "client_cpu_us_per_order")
}

func printSummary(w io.Writer, res *result.Result) {
	m := res.Measurement
	fmt.Fprintf(w, "\n%s after %.1fs measured: OPM %.0f (DVD Store 3's opm: %v orders finished, %v of them rolled back for short stock); committed OPM %.0f\n",
		strings.ToUpper(res.Status), m.MeasuredSecs, res.Figures["opm"], res.Figures["orders"], res.Figures["rollbacks"], res.Figures["opm_committed"])
	if avg, ok := res.Figures["rt_tot_avg_ms"]; ok {
		fmt.Fprintf(w, "order response time: mean %v ms, max of the last 100 %v ms (DVD Store 3's rt_tot_avg, rt_tot_lastn_max)\n", avg, res.Figures["rt_tot_lastn_max_ms"])
	}
	if db, ok := res.Figures["orders_db"]; ok {
		fmt.Fprintf(w, "database: %v orders added in the measured window, the client committed %v\n", db, res.Figures["orders_committed"])
	}
	runner.PrintTable(w, m, "step", StepNames)
	if v, ok := res.Figures["client_cpu_us_per_order"]; ok {
		fmt.Fprintf(w, "client CPU: %.2fs user + %.2fs system = %v µs per order; reconnects %d\n",
			m.ClientCPU.UserSeconds, m.ClientCPU.SystemSeconds, v, m.Reconnects)
	}
	runner.PrintErrors(w, res)
}

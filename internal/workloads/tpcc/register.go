package tpcc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// The TPC-C-derived workload's commands and metrics, as the registry (and so the CLI and plans) sees them.
func init() {
	workload.Register(&workload.Meta{
		Name:  "tpcc",
		Short: "TPC-C-derived OLTP workload: build, run, check, drop",
		Long: "A TPC-C-derived OLTP workload (not an audited TPC-C result): nine tables sized by warehouses, five\n" +
			"transactions in the 45/43/4/4/4 mix, NOPM and TPM, latency percentiles and consistency checks.",
		DefaultTarget: DefaultTarget,
		NeedsDB:       true,
		Sections:      []string{"measurement"},
		Metrics:       []workload.MetricDesc{nopm, tpm, hammerdbTPM, txP95, clientCPU},
		SQL:           Files,
		Supports:      supported,
		Derive:        runner.Measured(metrics),
		Upgrade:       upgrade,
		Work: func(r *result.Result) string {
			o := r.Options
			// in words, what is off unsaid ("2 warehouses, procedures mode"): the heading of a comparison
			w := fmt.Sprintf("%v warehouses, %v mode", o["warehouses"], o["mode"])
			if o["all_warehouses"] == true {
				w += ", every user on all warehouses"
			}
			if o["keying_thinking"] == true {
				w += ", keying and thinking times"
			}
			if _, ok := o["terminals"]; ok { // terminals sharing connections: their number is the load, as --vus is
				w += ", emulated terminals over a pool of connections"
			}
			if sc, ok := o["pace_scale"]; ok {
				w += fmt.Sprintf(", keying and think times scaled by %v", sc)
			}
			if m, ok := o["mix"].(string); ok {
				w += ", custom mix " + m
			}
			return w
		},
		Commands: []*workload.Command{
			workload.NewCommand(workload.Command{Name: "build", Short: "create the schema and load the initial population (clause 4.3)",
				Target: workload.OneTarget}, &BuildFlags{Threads: runtime.NumCPU(), Seed: 1}, build),
			workload.NewMeasured(workload.Command{Name: "run", Short: "drive the five transactions with virtual users and report NOPM, the client's TPM, HammerDB's TPM and latency",
				Target: workload.ManyTargets, Existing: true,
				Example: "  dbdyno tpcc run --target postgres://bench@db1/tpcc --vus 8 --duration 5m --mode procedures\n" +
					"  dbdyno tpcc run --vus 1,2,4,8 --repeat 3 --label system=E16ds_v5      # a sweep, three runs each\n" +
					"  dbdyno tpcc run --vus 4 --keying-thinking --check                      # the specification's pacing\n" +
					"  dbdyno tpcc run --terminals 100 --connections 10 --keying-thinking     # 10 warehouses' terminals over 10 connections"}, &RunFlags{}, runner.VU[RunFlags]{
				Check: func(o *RunFlags) error {
					if o.Warehouses < 0 {
						return fmt.Errorf("--warehouses must be at least 1 (got %d)", o.Warehouses)
					}
					_, err := runMix(o)
					return err
				},
				Open: open,
			}),
			runner.CheckCommand("verify the twelve consistency conditions of clause 3.3.2", Open),
			workload.DropCommand("remove dbdyno's TPC-C tables and procedures (and nothing else)", Open),
			workload.NewCommand(workload.Command{Name: "gen",
				Short: "write the initial population as CSV files (one per table and warehouse) instead of loading it"},
				&GenFlags{Threads: runtime.NumCPU(), Seed: 1}, gen),
		},
		Datasets: []*bulk.Dataset{Dataset},
		// its part of a report: its measurement, throughput over time and the transactions' latencies
		Report: report.MeasurementSection,
	})
	workload.RegisterShortcut(workload.NewShortcut(workload.Shortcut{Name: "quickstart",
		Short: "build 1 warehouse in the embedded SQLite default, run 2 virtual users for 20 s, check, write the result"},
		&quickstartFlags{Target: quickstartTarget, Result: "dbdyno-quickstart.json", Store: store.DefaultPath}, func(o *quickstartFlags) [][]string {
			build := []string{"tpcc", "build", "--target", o.Target, "--warehouses", "1", "--threads", "1", "--seed", "1"}
			if o.Target == quickstartTarget {
				build = append(build, "--drop") // its own file: only quickstart builds there
			}
			return [][]string{
				build,
				{"tpcc", "run", "--target", o.Target, "--vus", "2", "--rampup", "2s", "--duration", "20s", "--interval", "4s", "--check",
					"--result", o.Result, "--store", o.Store},
			}
		}))
}

// quickstartFlags are `dbdyno quickstart`'s options.
type quickstartFlags struct {
	Target string `flag:"target" help:"database URL (its TPC-C tables are replaced only in the default file, which only quickstart uses)"`
	Result string `flag:"result" help:"result JSON file"`
	Store  string `flag:"store" help:"results store (SQLite file); \"\" to keep the result out of it"`
}

// quickstartTarget is the file only quickstart uses, so that it never replaces tables someone built elsewhere.
const quickstartTarget = "sqlite://dbdyno-quickstart.db"

// BuildFlags are `tpcc build`'s options.
type BuildFlags struct {
	Warehouses int    `flag:"warehouses" default:"1" help:"number of warehouses (scale: about 100 MiB each)"`
	Threads    int    `flag:"threads" help:"parallel load connections" max:"256" why:"more threads than cores load no faster, and each one costs a connection and memory"`
	Drop       bool   `flag:"drop" help:"replace dbdyno's existing TPC-C tables (never touches tables dbdyno did not create)"`
	Seed       uint64 `flag:"seed" help:"seed of the generated data"`
}

// GenFlags are `tpcc gen`'s options.
type GenFlags struct {
	Warehouses int    `flag:"warehouses" default:"1" help:"number of warehouses"`
	Threads    int    `flag:"threads" help:"parallel generators" max:"256" why:"more generators than cores write no faster, and each one costs memory"`
	Out        string `flag:"out" help:"output directory"`
	Seed       uint64 `flag:"seed" help:"seed of the generated data"`
}

// RunFlags are `tpcc run`'s options: the virtual users' shared ones, then the workload's own.
type RunFlags struct {
	runner.Users
	runner.TerminalPool
	runner.Modes
	Warehouses        int     `flag:"warehouses" default:"0" help:"warehouses to use (default: all that were built)"`
	AllWarehouses     bool    `flag:"all-warehouses" help:"each virtual user cycles through all warehouses instead of one home warehouse"`
	KeyingThinking    bool    `flag:"keying-thinking" think:"true" help:"apply the specification's keying and think times"`
	PaceScale         float64 `flag:"pace-scale" default:"1" min:"0.0001" max:"1000" hidden:"true" plan:"-" help:"scale the keying and think times by this factor (tests: terminals for seconds, not minutes; benches: idle terminals); recorded, and a run at any other scale than 1 is not the specification's"`
	workload.Sharding `shard.help:"drive shard I of N (I/N, e.g. 2/4): home warehouses of the I-th of N even ranges of the warehouses; merge the shards' results with dbdyno results merge"`
	Mix               string `flag:"mix" help:"transaction weights, e.g. new_order=50,payment=50 (relative; a transaction not named does not run); a mix other than the standard 45/43/4/4/4 marks the result \"custom mix\" and compare sets it only beside the same mix"`
}

// runMix is --mix over the five transactions.
func runMix(o *RunFlags) (workload.Mix, error) {
	std := make([]float64, numTx)
	for i, n := range mix {
		std[i] = float64(n)
	}
	m, err := workload.ParseMix(o.Mix, TxNames, std)
	if err == nil && m.Weights[NewOrder] == 0 {
		return m, fmt.Errorf("--mix %q gives new_order no weight: tpcc's figure (NOPM) counts new orders; give it one, e.g. new_order=1,%s", o.Mix, o.Mix)
	}
	return m, err
}

func build(ctx context.Context, env *workload.Env, o *BuildFlags) error {
	w, threads := o.Warehouses, o.Threads
	if w < 1 {
		return fmt.Errorf("--warehouses must be at least 1 (got %d)", w)
	}
	if threads < 1 {
		return fmt.Errorf("--threads must be at least 1 (got %d)", threads)
	}
	return bulk.RunBuild(ctx, bulk.BuildRun{Target: env.Target(), Out: env.Out, Bytes: int64(w) * bytesPerWarehouse,
		What: fmt.Sprintf("TPC-C schema with %d warehouse(s)", w), Threads: threads}, Open,
		func(ctx context.Context, db *DB) (*BuildReport, error) {
			return db.Build(ctx, BuildOptions{Warehouses: w, Threads: threads, Drop: o.Drop, Seed: o.Seed, Version: env.Version, Progress: env.Out})
		})
}

func gen(ctx context.Context, env *workload.Env, o *GenFlags) error {
	w, out := o.Warehouses, o.Out
	if w < 1 {
		return fmt.Errorf("--warehouses must be at least 1 (got %d)", w)
	}
	if out == "" {
		return errors.New("--out DIR is required")
	}
	if err := CheckGenSpace(ctx, out, w, o.Threads); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("cannot create --out directory: %w", err)
	}
	rows, err := GenerateFiles(ctx, out, w, o.Threads, o.Seed, env.Out)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "wrote %d rows to %s\n", rows, out)
	return nil
}

// runSession is one `tpcc run` against one target, driven by runner.VU.
type runSession struct {
	wl            *Workload
	setup         *runner.Setup
	o             *RunFlags
	db            *DB
	serverVersion string
	nextOrderID   func(context.Context) (int64, error)
	together      bool // next0 was read with the server's counters, in one statement (next1 is too)
	closeReader   func()
	next0, next1  int64
	rollbacks     *result.Check  // too many New-Orders rolled back (Finish), kept among the checks
	spec          []result.Check // the specification's checks of the run (Finish), kept among the checks
	hammer        hammerTx       // the server's transaction counters at the window's edges (HammerDB's TPM)
}

func open(ctx context.Context, setup *runner.Setup, o *RunFlags) (runner.Session, error) {
	t := setup.Target
	db, err := Open(ctx, t)
	if err != nil {
		return nil, err
	}
	m, err := runMix(o)
	if err != nil {
		db.Close()
		return nil, err
	}
	ro := RunOptions{Warehouses: o.Warehouses, AllWarehouses: o.AllWarehouses,
		KeyingThinking: o.KeyingThinking, Procedures: setup.Mode == "procedures", Seed: o.Seed, Shard: o.Shard, PaceScale: o.PaceScale}
	if m.Custom {
		ro.Mix = m
	}
	wl, err := db.NewWorkload(ctx, ro)
	if err != nil {
		db.Close()
		return nil, err
	}
	s := &runSession{wl: wl, setup: setup, o: o, db: db}
	s.serverVersion = db.ServerVersion(ctx)
	if !setup.StartAt.IsZero() {
		if err := s.prepareEdge(ctx); err != nil {
			s.Close()
			return nil, err
		}
	}
	who := fmt.Sprintf("%d VUs", setup.Users.VUs)
	if p := setup.Pool; p.Terminals > 0 {
		who = fmt.Sprintf("%d terminals over %d connections", p.Terminals, p.Connections)
	}
	fmt.Fprintf(setup.Out, "dbdyno tpcc on %s (%s): %d of %d warehouses, %s, mode %s, seed %d\n",
		s.serverVersion, t, wl.Options().Warehouses, wl.Meta().Warehouses, who, setup.Mode, o.Seed)
	return s, nil
}

func (s *runSession) ServerVersion() string { return s.serverVersion }

func (s *runSession) Options() map[string]any {
	out, wl := s.setup.Options(), s.wl
	out["warehouses"], out["warehouses_built"], out["all_warehouses"] = wl.Options().Warehouses, wl.Meta().Warehouses, s.o.AllWarehouses
	out["keying_thinking"], out["nurand_c_run"], out["nurand_c_load"], out["build_seed"] = s.o.KeyingThinking, wl.C, wl.Meta().C, fmt.Sprint(wl.Meta().Seed)
	if o := wl.Options(); o.Shard.On() {
		o.Shard.Record(out, "warehouses", o.Warehouses, 1) // the terminals' homes
	}
	if sc := wl.Options().PaceScale; sc != 1 {
		out["pace_scale"] = sc // keying and think times scaled: not the specification's
	}
	if m := wl.Options().Mix; m.Custom {
		out["mix"] = m.Text // a custom mix: compare sets it only beside the same mix (Work)
	}
	return out
}

func (s *runSession) Transactions() []string { return s.wl.Transactions() }

func (s *runSession) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	return s.wl.NewWorker(ctx, vu)
}

func (s *runSession) NewTerminal(i int) runner.Terminal { return s.wl.NewTerminal(i) }

func (s *runSession) NewConnection(ctx context.Context, i int) (runner.Connection, error) {
	return s.wl.NewConnection(ctx, i)
}

func (s *runSession) Configure(cfg *runner.Config) {
	cfg.KeyTx, cfg.KeyLabel, cfg.RateLabel = NewOrder, "NOPM", "client TPM"
	// sum(d_next_o_id) and the server's transaction counters are read in one statement at each edge, where the
	// server has the counters: read one after the other, the New-Orders committed between the two reads counted
	// on one side only (the cross-check once saw 62 against the client's 57)
	both := s.db.Stmts["new_orders_row"].SQL
	cfg.AtMeasureStart = func(ctx context.Context) error {
		if err := s.prepareEdge(ctx); err != nil {
			return err
		}
		if n, ok := s.hammer.start(ctx, both); ok {
			s.next0, s.together = n, true
			return nil
		}
		var err error
		s.next0, err = s.nextOrderID(ctx)
		return err
	}
	cfg.AtMeasureEnd = func(ctx context.Context) (err error) {
		if s.together {
			if n, ok := s.hammer.end(ctx, both); ok {
				s.next1 = n
				return nil
			}
		}
		s.next1, err = s.nextOrderID(ctx)
		s.hammer.sideStatement()
		s.hammer.end(ctx, "")
		return err
	}
}

// prepareEdge opens the connections that read the counters at the measured window's edges and warms their
// statements (once): the slow part before the edge, new orders committed meanwhile are no one's. A run given
// --start-at prepares them when it opens, so that its window starts at that instant, as its other shards' do
// (prepared at the edge, the connections cost a loaded machine's shards up to 0.7s apart).
func (s *runSession) prepareEdge(ctx context.Context) error {
	if s.nextOrderID != nil {
		return nil
	}
	next, closeReader, err := s.db.NextOrderIDReader(ctx)
	if err != nil {
		return s.setup.Target.ConnectError(err)
	}
	s.nextOrderID, s.closeReader = next, closeReader
	s.hammer.prepare(ctx, s.db)
	if s.hammer.err == nil && s.hammer.conn != nil {
		s.hammer.start(ctx, s.db.Stmts["new_orders_row"].SQL) // warm the combined statement too
	}
	return nil
}

func (s *runSession) Figures(m *result.Measurement) map[string]any {
	fig := figures(m, s.next0, s.next1)
	s.hammer.figures(fig, m)
	return fig
}

func (s *runSession) Finish(_ context.Context, res *result.Result) {
	printSummary(s.setup.Out, res)
	s.rollbacks = warnRollbacks(s.setup.Out, res)
	nopm, _ := res.Figures["nopm"].(float64)
	s.spec = specChecks(res.Measurement, s.wl.Options(), s.setup.Pool.Terminals, nopm)
	printSpecChecks(s.setup.Out, s.spec)
	res.Checks = append(res.Checks, s.spec...)
}

func (s *runSession) Check(ctx context.Context, w io.Writer) ([]result.Check, error) {
	checks, err := runner.RunChecks(ctx, w, s.db.Check)
	if s.rollbacks != nil {
		checks = append(checks, *s.rollbacks) // the result's checks are these: the warning stays recorded
	}
	checks = append(checks, s.spec...)
	return checks, err
}

func (s *runSession) Close() {
	if s.closeReader != nil {
		s.closeReader()
	}
	s.hammer.close()
	s.db.Close()
}

// figures are the headline numbers: NOPM counted by the client and cross-checked against the change in
// sum(d_next_o_id) over the measured window.
func figures(m *result.Measurement, next0, next1 int64) map[string]any {
	fig := map[string]any{"client_tpm": runner.Round(m.PerMinute, 1), "nopm": 0.0}
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
	nopm  = workload.MetricDesc{Name: "NOPM", Unit: "new orders/min", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	tpm   = workload.MetricDesc{Name: "client TPM", Unit: "committed transactions/min", Better: result.Higher, PerCore: true, PerPrice: true, Aggregate: "sum", Noise: result.IntervalsNoise()}
	txP95 = workload.MetricDesc{Name: "<transaction> p95 latency", Unit: "ms", Better: result.Lower}
	// tpm is the client's TPM: the transactions the virtual users committed, per minute; HammerDB's TPM is not
	// that and is never called just "TPM". hammerdbTPM is HammerDB's TPM: the change in the server's own commits + rollbacks per minute (hammerdb.go).
	hammerdbTPM = workload.MetricDesc{Name: "HammerDB TPM", Unit: "server commits + rollbacks/min", Better: result.Higher, PerCore: true, PerPrice: true, Aggregate: "sum"}
	clientCPU   = workload.MetricDesc{Name: "client CPU per transaction", Unit: "µs", Better: result.Lower}
)

// metrics derives a run's metrics from its measurement and figures.
func metrics(r *result.Result, m *result.Measurement) []result.Metric {
	out := append(runner.FigureMetric(nil, nopm.WithNoise(result.TxNoise(m.KeyTx)), r, "nopm"), tpm.Value(m.PerMinute))
	out = runner.FigureMetric(out, hammerdbTPM, r, "hammerdb_tpm")
	out = runner.P95Metrics(out, txP95, m, TxNames)
	return append(out, clientCPU.Value(m.ClientCPU.MicrosPerTx))
}

// upgrade fills what results written before the key transaction was recorded lack.
func upgrade(r *result.Result) {
	if m := r.Measurement; m != nil && m.KeyTx == "" {
		m.KeyTx, m.KeyLabel = TxNames[NewOrder], "NOPM"
	}
	if v, ok := r.Figures["tpm"]; ok && r.Figures["client_tpm"] == nil { // named before the client's TPM was
		r.Figures["client_tpm"] = v
		delete(r.Figures, "tpm")
	}
	for i := range r.Metrics {
		if r.Metrics[i].Name == "TPM" {
			r.Metrics[i].Name, r.Metrics[i].Unit = tpm.Name, tpm.Unit
		}
	}
}

func printSummary(w io.Writer, res *result.Result) {
	m := res.Measurement
	fmt.Fprintf(w, "\n%s after %.1fs measured: NOPM %.0f  client TPM %.0f", strings.ToUpper(res.Status), m.MeasuredSecs, res.Figures["nopm"], res.Figures["client_tpm"])
	if v, ok := res.Figures["nopm_db"]; ok {
		fmt.Fprintf(w, "  (database: %d new orders, NOPM %.0f)", res.Figures["new_orders_db"], v)
	}
	fmt.Fprintln(w)
	printHammerDB(w, res)
	runner.PrintTable(w, m, "transaction", TxNames)
	runner.PrintTerminals(w, m)
	fmt.Fprintf(w, "client CPU: %.2fs user + %.2fs system = %.1f µs per transaction; reconnects %d\n",
		m.ClientCPU.UserSeconds, m.ClientCPU.SystemSeconds, m.ClientCPU.MicrosPerTx, m.Reconnects)
	if m.DisconnectedSecs > 0 {
		fmt.Fprintf(w, "WARNING: virtual users were without a connection for %.1fs of the measured window in all: the figures include that gap\n", m.DisconnectedSecs)
	}
	runner.PrintErrors(w, res)
}

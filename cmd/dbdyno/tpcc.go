package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/result"
	"github.com/dbdyno/dbdyno/internal/runner"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/tpcc"
	"github.com/spf13/cobra"
)

func (a *app) tpccCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "tpcc",
		Short: "TPC-C-derived OLTP workload: build, run, check, drop",
		Long: "A TPC-C-derived OLTP workload (not an audited TPC-C result): nine tables sized by warehouses, five\n" +
			"transactions in the 45/43/4/4/4 mix, NOPM and TPM, latency percentiles and consistency checks.",
	}
	c.AddCommand(a.tpccBuildCmd(), a.tpccRunCmd(), a.tpccCheckCmd(), a.tpccDropCmd(), a.tpccGenCmd())
	return c
}

func addTarget(c *cobra.Command, dst *string) {
	c.Flags().StringVar(dst, "target", tpcc.DefaultTarget,
		"database URL: sqlite://FILE, postgres://USER[:PASS]@HOST:PORT/DB, mysql://USER[:PASS]@HOST:PORT/DB (password also from "+engine.PasswordEnv+")")
}

func openTPCC(ctx context.Context, raw string) (*tpcc.DB, error) {
	t, err := engine.Parse(raw)
	if err != nil {
		return nil, err
	}
	return tpcc.Open(ctx, t)
}

type buildFlags struct {
	target     string
	warehouses int
	threads    int
	drop       bool
	seed       uint64
}

func (a *app) tpccBuildCmd() *cobra.Command {
	var f buildFlags
	c := &cobra.Command{
		Use:   "build",
		Short: "create the schema and load the initial population (clause 4.3)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.build(cmd.Context(), f)
		},
	}
	addTarget(c, &f.target)
	c.Flags().IntVar(&f.warehouses, "warehouses", 1, "number of warehouses (scale: about 100 MB each)")
	c.Flags().IntVar(&f.threads, "threads", runtime.NumCPU(), "parallel load connections")
	c.Flags().BoolVar(&f.drop, "drop", false, "replace dbdyno's existing TPC-C tables (never touches tables dbdyno did not create)")
	c.Flags().Uint64Var(&f.seed, "seed", 1, "seed of the generated data")
	return c
}

func (a *app) build(ctx context.Context, f buildFlags) error {
	if f.warehouses < 1 {
		return fmt.Errorf("--warehouses must be at least 1 (got %d)", f.warehouses)
	}
	if f.threads < 1 {
		return fmt.Errorf("--threads must be at least 1 (got %d)", f.threads)
	}
	db, err := openTPCC(ctx, f.target)
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(a.stdout, "building TPC-C schema with %d warehouse(s) in %s (%s), %d thread(s)\n", f.warehouses, db.T, db.ServerVersion(ctx), f.threads)
	rep, err := db.Build(ctx, tpcc.BuildOptions{Warehouses: f.warehouses, Threads: f.threads, Drop: f.drop, Seed: f.seed, Version: version, Progress: a.stdout})
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: build interrupted; the partial schema is marked unfinished: rebuild with --drop", runner.ErrAborted)
		}
		return err
	}
	fmt.Fprintf(a.stdout, "built %d rows in %.1fs (load %.1fs, keys/indexes %.1fs, procedures %.1fs, statistics %.1fs)\n",
		rep.Rows, rep.Total.Seconds(), rep.Load.Seconds(), rep.Index.Seconds(), rep.Procedures.Seconds(), rep.Analyze.Seconds())
	return nil
}

type runFlags struct {
	targets          []string
	vusList          string
	warmup           time.Duration
	method           methodFlags
	target           string
	vus              int
	rampup           time.Duration
	duration         time.Duration
	interval         time.Duration
	warehouses       int
	allWarehouses    bool
	keyingThinking   bool
	check            bool
	mode             string
	seed             uint64
	reconnectTimeout time.Duration
	cpuProfile       string
}

func (a *app) tpccRunCmd() *cobra.Command {
	var f runFlags
	c := &cobra.Command{
		Use:   "run",
		Short: "drive the five transactions with virtual users and report NOPM, TPM and latency",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("seed") {
				f.seed = uint64(time.Now().UnixNano())
			}
			return a.runTPCCMethod(cmd.Context(), f)
		},
	}
	c.Flags().StringArrayVar(&f.targets, "target", []string{tpcc.DefaultTarget},
		"database URL: sqlite://FILE, postgres://USER[:PASS]@HOST:PORT/DB, mysql://USER[:PASS]@HOST:PORT/DB (password also from "+engine.PasswordEnv+"); give it more than once to run every target at the same time")
	c.Flags().StringVar(&f.vusList, "vus", "1", "virtual users (one connection each); a list 1,2,4,8 or a range 1..8 sweeps them")
	c.Flags().DurationVar(&f.warmup, "warmup", 0, "a warm-up run of this length before the measured runs (recorded, not measured)")
	addMethodFlags(c, &f.method)
	c.Flags().DurationVar(&f.rampup, "rampup", 10*time.Second, "time before measuring starts")
	c.Flags().DurationVar(&f.duration, "duration", 60*time.Second, "measured time")
	c.Flags().DurationVar(&f.interval, "interval", 10*time.Second, "progress line interval")
	c.Flags().IntVar(&f.warehouses, "warehouses", 0, "warehouses to use (default: all that were built)")
	c.Flags().BoolVar(&f.allWarehouses, "all-warehouses", false, "each virtual user cycles through all warehouses instead of one home warehouse")
	c.Flags().BoolVar(&f.keyingThinking, "keying-thinking", false, "apply the specification's keying and think times")
	c.Flags().BoolVar(&f.check, "check", false, "run the consistency checks after the run")
	c.Flags().StringVar(&f.mode, "mode", "", "sql (client-side statements) or procedures (one stored-procedure call per transaction; default where the engine has them)")
	c.Flags().Uint64Var(&f.seed, "seed", 0, "seed of every random choice (default: from the clock; always recorded)")
	c.Flags().DurationVar(&f.reconnectTimeout, "reconnect-timeout", 30*time.Second, "a lost connection that is not back within this time fails the run")
	c.Flags().StringVar(&f.cpuProfile, "cpuprofile", "", "write a Go CPU profile of the driver to this file")
	c.Flags().MarkHidden("cpuprofile")
	return c
}

// runTPCCMethod runs the configured method: a warm-up, then for each VU count (a sweep) the repeats, each
// repeat against every target at once.
func (a *app) runTPCCMethod(ctx context.Context, f runFlags) error {
	vus, err := parseCounts("--vus", f.vusList)
	if err != nil {
		if n, aerr := strconv.Atoi(f.vusList); aerr == nil && n < 1 {
			return fmt.Errorf("--vus must be at least 1 (got %d)", n)
		}
		return err
	}
	labels, err := f.method.validate()
	if err != nil {
		return err
	}
	if f.duration <= 0 {
		return fmt.Errorf("--duration must be positive (got %s)", f.duration)
	}
	if f.rampup < 0 || f.warmup < 0 {
		return fmt.Errorf("--rampup and --warmup cannot be negative")
	}
	if f.warmup > 0 && f.warmup < time.Second {
		return fmt.Errorf("--warmup %s is too short: give at least 1s, or 0 for none", f.warmup)
	}
	for _, raw := range f.targets {
		if _, err := engine.Parse(raw); err != nil {
			return err
		}
	}
	rs, err := a.newRunSet(ctx, f.method, labels)
	if err != nil {
		return err
	}
	groupID := newID("g")
	var runErr error
	one := func(vu, rep int, warm bool) {
		n := len(f.targets)
		res, errs := a.onTargets(f.targets, func(raw string, out io.Writer) (*result.Result, error) {
			g := f
			g.target, g.vus = raw, vu
			if warm {
				g.duration, g.check = f.warmup, false
			}
			return a.tpccOnce(ctx, g, out, f.method.metricsInterval)
		})
		var total float64
		for i, r := range res {
			if errs[i] != nil && runErr == nil {
				runErr = errs[i]
			}
			if r == nil {
				continue
			}
			r.Group = &result.Group{ID: groupID, Repeat: rep, Repeats: f.method.repeat}
			if warm {
				// recorded, but in a group of its own so no median or comparison counts it
				r.Group = &result.Group{ID: groupID + "-warmup", Repeat: 1, Repeats: 1}
				r.Labels = map[string]any{"phase": "warmup"}
			}
			if len(vus) > 1 {
				r.Group.Sweep, r.Group.Value = "vus", float64(vu)
			}
			if n > 1 {
				r.Group.Target, r.Group.Targets = i+1, n
			}
			if v, ok := r.Figures["nopm"].(float64); ok {
				total += v
			}
			rs.add(ctx, r)
		}
		if n > 1 {
			fmt.Fprintf(a.stdout, "aggregate of %d targets: NOPM %.0f\n", n, total)
		}
	}
	if f.warmup > 0 {
		fmt.Fprintf(a.stdout, "warm-up run: %s\n", f.warmup)
		one(vus[0], 1, true)
	}
	for _, vu := range vus {
		for rep := 1; rep <= f.method.repeat && ctx.Err() == nil; rep++ {
			if f.method.repeat > 1 || len(vus) > 1 {
				fmt.Fprintf(a.stdout, "\n== %d VUs, run %d of %d\n", vu, rep, f.method.repeat)
			}
			one(vu, rep, false)
		}
	}
	if err := rs.close(ctx); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

// tpccOnce runs one measured run against one target and returns its result (nil when it could not start).
func (a *app) tpccOnce(ctx context.Context, f runFlags, out io.Writer, metricsInterval time.Duration) (*result.Result, error) {
	if f.vus < 1 {
		return nil, fmt.Errorf("--vus must be at least 1 (got %d)", f.vus)
	}
	if f.warehouses < 0 {
		return nil, fmt.Errorf("--warehouses must be at least 1 (got %d)", f.warehouses)
	}
	t, err := engine.Parse(f.target)
	if err != nil {
		return nil, err
	}
	switch f.mode {
	case "":
		f.mode = "sql"
		if t.Engine.Procedures {
			f.mode = "procedures"
		}
	case "sql", "procedures":
	default:
		return nil, fmt.Errorf("--mode %q is not known: use sql or procedures", f.mode)
	}
	started := time.Now().UTC()
	db, err := tpcc.Open(ctx, t)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	wl, err := db.NewWorkload(ctx, tpcc.RunOptions{Warehouses: f.warehouses, AllWarehouses: f.allWarehouses, KeyingThinking: f.keyingThinking,
		Procedures: f.mode == "procedures", Seed: f.seed})
	if err != nil {
		return nil, err
	}
	opts := wl.Options()
	procs := driverProcs(t.Engine, f.vus)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	defer debug.SetGCPercent(debug.SetGCPercent(400)) // the driver's heap is small: collect it less often
	serverVersion := db.ServerVersion(ctx)
	res := &result.Result{
		SchemaVersion: result.SchemaVersion,
		Tool:          result.Tool{Name: "dbdyno", Version: version, GoVersion: runtime.Version()},
		Workload:      "tpcc",
		RunID:         newID("r"),
		Command:       engine.RedactArgs(a.args),
		Target:        result.Target{URL: t.String(), Engine: t.Engine.Name, ServerVersion: serverVersion},
		StartedAt:     started,
		Options: map[string]any{
			"vus": f.vus, "rampup_s": f.rampup.Seconds(), "duration_s": f.duration.Seconds(), "interval_s": f.interval.Seconds(),
			"warehouses": opts.Warehouses, "warehouses_built": wl.Meta().Warehouses, "all_warehouses": f.allWarehouses,
			"keying_thinking": f.keyingThinking, "mode": f.mode, "seed": fmt.Sprint(f.seed),
			"nurand_c_run": wl.C, "nurand_c_load": wl.Meta().C, "build_seed": fmt.Sprint(wl.Meta().Seed),
			"reconnect_timeout_s": f.reconnectTimeout.Seconds(), "driver_gomaxprocs": procs,
		},
	}
	fmt.Fprintf(out, "dbdyno tpcc on %s (%s): %d of %d warehouses, %d VUs, mode %s, seed %d\n",
		res.Target.ServerVersion, t, opts.Warehouses, wl.Meta().Warehouses, f.vus, f.mode, f.seed)
	ms := startMeasured(ctx, t, serverVersion, metricsInterval)
	var next0, next1 int64
	cfg := runner.Config{VUs: f.vus, Rampup: f.rampup, Duration: f.duration, Interval: f.interval, Progress: out,
		ReconnectTimeout: f.reconnectTimeout, KeyTx: tpcc.NewOrder, KeyLabel: "NOPM",
		AtMeasureStart: func(ctx context.Context) (err error) { next0, err = db.SumNextOrderID(ctx); return err },
		AtMeasureEnd:   func(ctx context.Context) (err error) { next1, err = db.SumNextOrderID(ctx); return err },
	}
	if f.cpuProfile != "" {
		pf, err := os.Create(f.cpuProfile)
		if err != nil {
			return nil, err
		}
		defer pf.Close()
		pprof.StartCPUProfile(pf)
		defer pprof.StopCPUProfile()
	}
	m, runErr := runner.Run(ctx, wl, cfg)
	res.EndedAt = time.Now().UTC()
	ms.finish(ctx, res)
	if m == nil {
		return nil, runErr
	}
	res.Measurement = m
	res.Status = result.StatusOK
	if runErr != nil {
		res.Status = result.StatusFailed
		if errors.Is(runErr, runner.ErrAborted) {
			res.Status = result.StatusAborted
		}
		res.Error = t.Scrub(runErr.Error())
	}
	res.Figures = tpccFigures(m, next0, next1)
	a.printSummary(out, res)
	if f.check && res.Status == result.StatusOK {
		checks, err := a.printChecks(context.WithoutCancel(ctx), out, db)
		res.Checks = checks
		if err != nil && runErr == nil {
			runErr = err
		}
	}
	return res, runErr
}

// driverProcs is how many OS threads may run the driver's Go code at once. Against a server, virtual users
// spend nearly all their time waiting on the network; more Ps than needed only make Go's scheduler spin looking
// for work, CPU that a database on the same machine would otherwise have. One P per 16 VUs is ample (one P
// drives several thousand transactions per second). An embedded engine runs inside this process and gets every
// CPU. GOMAXPROCS in the environment overrides both.
func driverProcs(e *engine.Engine, vus int) int {
	if v := os.Getenv("GOMAXPROCS"); v != "" || e.Embedded {
		return runtime.GOMAXPROCS(0)
	}
	return max(1, min(runtime.NumCPU(), (vus+15)/16))
}

// tpccFigures are the headline numbers: NOPM counted by the client and cross-checked against the change in
// sum(d_next_o_id) over the measured window.
func tpccFigures(m *result.Measurement, next0, next1 int64) map[string]any {
	fig := map[string]any{"tpm": round(m.PerMinute, 1), "nopm": 0.0}
	no := m.Transactions[tpcc.TxNames[tpcc.NewOrder]]
	if m.MeasuredSecs > 0 {
		fig["nopm"] = round(float64(no.Count)/(m.MeasuredSecs/60), 1)
	}
	if next1 > 0 {
		fig["new_orders_db"] = next1 - next0
		if m.MeasuredSecs > 0 {
			fig["nopm_db"] = round(float64(next1-next0)/(m.MeasuredSecs/60), 1)
		}
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

func (a *app) printSummary(w io.Writer, res *result.Result) {
	m := res.Measurement
	fmt.Fprintf(w, "\n%s after %.1fs measured: NOPM %.0f  TPM %.0f", strings.ToUpper(res.Status), m.MeasuredSecs, res.Figures["nopm"], res.Figures["tpm"])
	if v, ok := res.Figures["nopm_db"]; ok {
		fmt.Fprintf(w, "  (database: %d new orders, NOPM %.0f)", res.Figures["new_orders_db"], v)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "transaction\tcount\trollbacks\terrors\tretries\tmin\tp50\tp90\tp95\tp99\tmax (ms)\t")
	for _, n := range tpcc.TxNames {
		s := m.Transactions[n]
		l := s.Latency
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n", n, s.Count, s.Rollbacks, s.Errors, s.Retries,
			ms(l.Min), ms(l.P50), ms(l.P90), ms(l.P95), ms(l.P99), ms(l.Max))
	}
	tw.Flush()
	fmt.Fprintf(w, "client CPU: %.2fs user + %.2fs system = %.1f µs per transaction; reconnects %d\n",
		m.ClientCPU.UserSeconds, m.ClientCPU.SystemSeconds, m.ClientCPU.MicrosPerTx, m.Reconnects)
	for _, e := range m.ErrorSamples {
		fmt.Fprintf(w, "error: %s\n", e)
	}
	if res.Error != "" {
		fmt.Fprintf(w, "run %s: %s\n", res.Status, res.Error)
	}
}

func ms(us int64) float64 { return float64(us) / 1000 }

func (a *app) printChecks(ctx context.Context, w io.Writer, db *tpcc.DB) ([]result.Check, error) {
	checks, err := db.Check(ctx)
	if err != nil {
		return nil, err
	}
	failed := 0
	for _, c := range checks {
		state := "PASS"
		if !c.Passed {
			state = "FAIL"
			failed++
		}
		fmt.Fprintf(w, "consistency %s  %s %s\n", state, c.Name, c.Detail)
	}
	if failed > 0 {
		return checks, fmt.Errorf("%d consistency condition(s) failed", failed)
	}
	return checks, nil
}

func (a *app) tpccCheckCmd() *cobra.Command {
	var tgt string
	c := &cobra.Command{
		Use:   "check",
		Short: "verify the consistency conditions (clause 3.3.2, conditions 1-4)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := openTPCC(cmd.Context(), tgt)
			if err != nil {
				return err
			}
			defer db.Close()
			_, err = a.printChecks(cmd.Context(), a.stdout, db)
			return err
		},
	}
	addTarget(c, &tgt)
	return c
}

func (a *app) tpccDropCmd() *cobra.Command {
	return a.dropCmd("TPC-C", "remove dbdyno's TPC-C tables and procedures (and nothing else)", tpcc.DefaultTarget,
		func(ctx context.Context, raw string) (bool, string, error) {
			db, err := openTPCC(ctx, raw)
			if err != nil {
				return false, "", err
			}
			defer db.Close()
			dropped, err := db.Drop(ctx)
			return dropped, db.T.String(), err
		})
}

// dropCmd is a workload's drop command: it removes only what dbdyno created.
func (a *app) dropCmd(workload, short, defaultTarget string, drop func(ctx context.Context, raw string) (bool, string, error)) *cobra.Command {
	var tgt string
	c := &cobra.Command{
		Use:   "drop",
		Short: short,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dropped, where, err := drop(cmd.Context(), tgt)
			if err != nil {
				return err
			}
			if dropped {
				fmt.Fprintf(a.stdout, "dropped dbdyno's %s tables from %s\n", workload, where)
			} else {
				fmt.Fprintf(a.stdout, "%s has no dbdyno %s tables: nothing to drop\n", where, workload)
			}
			return nil
		},
	}
	c.Flags().StringVar(&tgt, "target", defaultTarget, "database URL")
	return c
}

func (a *app) tpccGenCmd() *cobra.Command {
	var warehouses, threads int
	var out string
	var seed uint64
	c := &cobra.Command{
		Use:   "gen",
		Short: "write the initial population as CSV files (one per table and warehouse) instead of loading it",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if warehouses < 1 {
				return fmt.Errorf("--warehouses must be at least 1 (got %d)", warehouses)
			}
			if out == "" {
				return errors.New("--out DIR is required")
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("cannot create --out directory: %w", err)
			}
			rows, err := tpcc.GenerateFiles(cmd.Context(), out, warehouses, threads, seed, a.stdout)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "wrote %d rows to %s\n", rows, out)
			return nil
		},
	}
	c.Flags().IntVar(&warehouses, "warehouses", 1, "number of warehouses")
	c.Flags().IntVar(&threads, "threads", runtime.NumCPU(), "parallel generators")
	c.Flags().StringVar(&out, "out", "", "output directory")
	c.Flags().Uint64Var(&seed, "seed", 1, "seed of the generated data")
	return c
}

func (a *app) quickstartCmd() *cobra.Command {
	var tgt, resultFile, storePath string
	c := &cobra.Command{
		Use:   "quickstart",
		Short: "build 1 warehouse in the embedded SQLite default, run 2 virtual users for 20 s, check, write the result",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if err := a.build(ctx, buildFlags{target: tgt, warehouses: 1, threads: 1, drop: true, seed: 1}); err != nil {
				return err
			}
			return a.runTPCCMethod(ctx, runFlags{targets: []string{tgt}, vusList: "2", rampup: 2 * time.Second, duration: 20 * time.Second,
				interval: 5 * time.Second, check: true, mode: "", seed: uint64(time.Now().UnixNano()), reconnectTimeout: 30 * time.Second,
				method: methodFlags{repeat: 1, storePath: storePath, metricsInterval: time.Second, resultFile: resultFile}})
		},
	}
	c.Flags().StringVar(&tgt, "target", tpcc.DefaultTarget, "database URL")
	c.Flags().StringVar(&resultFile, "result", "dbdyno-quickstart.json", "result JSON file")
	c.Flags().StringVar(&storePath, "store", store.DefaultPath, "results store (SQLite file); \"\" to keep the result out of it")
	return c
}

func checkWritable(path string) error {
	f, err := os.CreateTemp(dirOf(path), ".dbdyno-probe*")
	if err != nil {
		return fmt.Errorf("cannot write --result %s: %v: choose a writable directory", path, errors.Unwrap(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

func dirOf(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		if i == 0 {
			return "/"
		}
		return p[:i]
	}
	return "."
}

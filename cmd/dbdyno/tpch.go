package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/result"
	"github.com/dbdyno/dbdyno/internal/runner"
	"github.com/dbdyno/dbdyno/internal/tpch"
	"github.com/dbdyno/dbdyno/internal/tpch/dbgen"
	"github.com/spf13/cobra"
)

func (a *app) tpchCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "tpch",
		Short: "TPC-H-derived analytic workload: gen, build, run, validate, drop",
		Long: "A TPC-H-derived analytic workload (not an audited TPC-H result): dbgen-identical data at any scale\n" +
			"factor, the 22 queries, power and throughput tests.",
	}
	c.AddCommand(a.tpchGenCmd(), a.tpchBuildCmd(), a.tpchRunCmd(), a.tpchValidateCmd(), a.tpchRestoreCmd(), a.tpchDropCmd())
	return c
}

func addTPCHTarget(c *cobra.Command, dst *string) {
	c.Flags().StringVar(dst, "target", tpch.DefaultTarget,
		"database URL: duckdb://FILE, sqlite://FILE, postgres://USER[:PASS]@HOST:PORT/DB, mysql://USER[:PASS]@HOST:PORT/DB")
}

func openTPCH(ctx context.Context, raw string) (*tpch.DB, error) {
	t, err := engine.Parse(raw)
	if err != nil {
		return nil, err
	}
	return tpch.Open(ctx, t)
}

func (a *app) tpchBuildCmd() *cobra.Command {
	var tgt string
	var opts tpch.BuildOptions
	c := &cobra.Command{
		Use:   "build",
		Short: "create the schema and load dbgen's population straight from the generator",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := tpch.ValidateScale(opts.Scale); err != nil {
				return err
			}
			if opts.Threads < 1 {
				return fmt.Errorf("--threads must be at least 1 (got %d)", opts.Threads)
			}
			ctx := cmd.Context()
			db, err := openTPCH(ctx, tgt)
			if err != nil {
				return err
			}
			defer db.Close()
			fmt.Fprintf(a.stdout, "building TPC-H schema at scale factor %g in %s (%s), %d thread(s)\n", opts.Scale, db.T, db.ServerVersion(ctx), opts.Threads)
			opts.Version, opts.Progress = version, a.stdout
			rep, err := db.Build(ctx, opts)
			if err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("%w: build interrupted; the partial schema is marked unfinished: rebuild with --drop", runner.ErrAborted)
				}
				return err
			}
			fmt.Fprintf(a.stdout, "built %d rows in %.1fs (load %.1fs, keys/indexes %.1fs, statistics %.1fs)\n",
				rep.Rows, rep.Total.Seconds(), rep.Load.Seconds(), rep.Index.Seconds(), rep.Analyze.Seconds())
			return nil
		},
	}
	addTPCHTarget(c, &tgt)
	c.Flags().Float64Var(&opts.Scale, "scale", 1, "scale factor")
	c.Flags().IntVar(&opts.Threads, "threads", runtime.NumCPU(), "parallel load connections")
	c.Flags().BoolVar(&opts.Drop, "drop", false, "replace dbdyno's existing TPC-H tables (never touches tables dbdyno did not create)")
	return c
}

func (a *app) tpchValidateCmd() *cobra.Command {
	var tgt, answers, against string
	c := &cobra.Command{
		Use:   "validate",
		Short: "run the 22 queries with the validation parameters and compare with expected answers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			db, err := openTPCH(ctx, tgt)
			if err != nil {
				return err
			}
			defer db.Close()
			var other *tpch.DB
			if against != "" {
				if other, err = openTPCH(ctx, against); err != nil {
					return fmt.Errorf("--against: %w", err)
				}
				defer other.Close()
			}
			res, err := db.Validate(ctx, answers, other, a.stdout)
			if err != nil {
				return err
			}
			failed := 0
			for _, v := range res {
				if !v.Passed {
					failed++
				}
			}
			fmt.Fprintf(a.stdout, "%d passed, %d failed\n", len(res)-failed, failed)
			if failed > 0 {
				return fmt.Errorf("%d of 22 queries did not match the expected answers", failed)
			}
			return nil
		},
	}
	addTPCHTarget(c, &tgt)
	c.Flags().StringVar(&answers, "answers", "", "directory of expected answers for the scale built (qNN.csv or qN.out)")
	c.Flags().StringVar(&against, "against", "", "compare with the answers of a second target built at the same scale")
	return c
}

func (a *app) tpchRestoreCmd() *cobra.Command {
	var raw string
	c := &cobra.Command{
		Use:   "restore",
		Short: "undo the refresh functions' update sets left applied (by --no-restore or an interrupted run)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			db, err := openTPCH(ctx, raw)
			if err != nil {
				return err
			}
			defer db.Close()
			t0 := time.Now()
			lo, hi, err := db.Restore(ctx)
			if err != nil {
				return err
			}
			if lo == 0 {
				fmt.Fprintf(a.stdout, "%s: no update set is applied; the data is as loaded\n", db.T)
				return nil
			}
			fmt.Fprintf(a.stdout, "%s: undid %s in %.1fs; the data is as loaded\n", db.T, tpch.SetsString(lo, hi), time.Since(t0).Seconds())
			return nil
		},
	}
	addTPCHTarget(c, &raw)
	return c
}

func (a *app) tpchDropCmd() *cobra.Command {
	return a.dropCmd("TPC-H", "remove dbdyno's TPC-H tables (and nothing else)", tpch.DefaultTarget,
		func(ctx context.Context, raw string) (bool, string, error) {
			db, err := openTPCH(ctx, raw)
			if err != nil {
				return false, "", err
			}
			defer db.Close()
			dropped, err := db.Drop(ctx)
			return dropped, db.T.String(), err
		})
}

func (a *app) tpchGenCmd() *cobra.Command {
	var opts tpch.GenOptions
	var format string
	c := &cobra.Command{
		Use:   "gen",
		Short: "write the eight tables as files, byte-identical to dbgen's .tbl output",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch format {
			case "tbl":
				opts.Format = dbgen.FormatTBL
			case "csv":
				opts.Format = dbgen.FormatCSV
			default:
				return fmt.Errorf("--format %q is not known: use tbl or csv", format)
			}
			if err := tpch.ValidateScale(opts.Scale); err != nil {
				return err
			}
			if opts.Dir == "" {
				return fmt.Errorf("--out DIR is required")
			}
			if opts.Threads < 1 || opts.Parts < 1 {
				return fmt.Errorf("--threads and --parts must be at least 1")
			}
			if opts.Updates < 0 || opts.NoTables && opts.Updates == 0 {
				return fmt.Errorf("--updates N needs N >= 1 (and --updates-only needs --updates)")
			}
			if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
				return fmt.Errorf("cannot create --out directory: %w", err)
			}
			opts.Progress = a.stdout
			rows, err := tpch.GenerateFiles(cmd.Context(), opts)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "wrote %d rows at scale factor %g to %s\n", rows, opts.Scale, opts.Dir)
			return nil
		},
	}
	c.Flags().Float64Var(&opts.Scale, "scale", 1, "scale factor (1 is about 1 GB; fractions such as 0.01 work)")
	c.Flags().StringVar(&opts.Dir, "out", "", "output directory")
	c.Flags().StringVar(&format, "format", "tbl", "tbl (dbgen's format) or csv (with a header line)")
	c.Flags().IntVar(&opts.Threads, "threads", runtime.NumCPU(), "generator threads")
	c.Flags().IntVar(&opts.Parts, "parts", 1, "split each table into this many files (TABLE.tbl.1 .. TABLE.tbl.N), as dbgen -C does")
	c.Flags().IntVar(&opts.Updates, "updates", 0, "also write update sets 1..N for the refresh functions (orders.tbl.uN, lineitem.tbl.uN, delete.N), as dbgen -U does")
	c.Flags().BoolVar(&opts.NoTables, "updates-only", false, "write only the update sets, not the tables")
	return c
}

type tpchRunFlags struct {
	targets                              []string
	target, streams, queries             string
	power, throughput, refresh, noWarmup bool
	noRestore                            bool
	timeout                              time.Duration
	seed                                 uint64
	method                               methodFlags
}

// qgenClockSeed is a qgen seed from the clock in the specification's form, mmddhhmmss.
func qgenClockSeed(t time.Time) uint64 {
	t = t.UTC()
	return uint64(t.Month())*100000000 + uint64(t.Day())*1000000 + uint64(t.Hour())*10000 + uint64(t.Minute())*100 + uint64(t.Second())
}

func (a *app) tpchRunCmd() *cobra.Command {
	var f tpchRunFlags
	c := &cobra.Command{
		Use:   "run",
		Short: "power test, throughput test, or sets of concurrent query streams; times every query",
		Long: "Without --power, --throughput or --streams: a power test and a throughput test with the specification's\n" +
			"minimum number of streams for the scale. --streams N alone runs N concurrent streams and reports the time to\n" +
			"complete them; --streams 1..N runs 1, 2, ... N in turn (after a warm-up stream unless --no-warmup).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("seed") {
				f.seed = qgenClockSeed(time.Now())
			}
			return a.runTPCHMethod(cmd.Context(), f)
		},
	}
	c.Flags().StringArrayVar(&f.targets, "target", []string{tpch.DefaultTarget},
		"database URL: duckdb://FILE, sqlite://FILE, postgres://USER[:PASS]@HOST:PORT/DB, mysql://USER[:PASS]@HOST:PORT/DB; give it more than once to run every target at the same time")
	addMethodFlags(c, &f.method)
	c.Flags().StringVar(&f.streams, "streams", "", "stream count N, a sweep 1..N, or a list 1,2,4")
	c.Flags().BoolVar(&f.power, "power", false, "run the power test (RF1, stream 0, RF2)")
	c.Flags().BoolVar(&f.throughput, "throughput", false, "run the throughput test (N streams and a refresh stream)")
	c.Flags().BoolVar(&f.refresh, "refresh", false, "run the refresh functions RF1/RF2 in the power and throughput tests")
	c.Flags().StringVar(&f.queries, "queries", "", "run only these queries, e.g. 1,3,5 (metrics are then marked as a subset)")
	c.Flags().DurationVar(&f.timeout, "timeout", 30*time.Minute, "a query running longer fails (0: no limit)")
	c.Flags().Uint64Var(&f.seed, "seed", 0, "qgen seed of the substitution parameters: stream s uses qgen -r SEED+s (default: the time as mmddhhmmss, as the specification suggests; always recorded)")
	c.Flags().BoolVar(&f.noWarmup, "no-warmup", false, "skip the warm-up stream before a --streams sweep")
	c.Flags().BoolVar(&f.noRestore, "no-restore", false, "leave dbgen's update sets applied after the run (the next run goes on with the following sets) instead of restoring the loaded data")
	return c
}

// parseCounts reads "4", "1..4" or "1,2,4" for a flag.
func parseCounts(flag, s string) ([]int, error) {
	bad := fmt.Errorf("%s %q is not a count of at least 1, a range 1..N or a list 1,2,4", flag, s)
	var out []int
	if lo, hi, ok := strings.Cut(s, ".."); ok {
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if err1 != nil || err2 != nil || a < 1 || b < a || b > 1000 {
			return nil, bad
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
		return out, nil
	}
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 1000 {
			return nil, bad
		}
		out = append(out, n)
	}
	return out, nil
}

func parseQueries(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	seen := map[int]bool{}
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(p)), "q"))
		if err != nil || n < 1 || n > 22 {
			return nil, fmt.Errorf("--queries %q: %q is not a query number from 1 to 22", s, p)
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// runTPCHMethod runs the repeats, each against every target at once.
func (a *app) runTPCHMethod(ctx context.Context, f tpchRunFlags) error {
	labels, err := f.method.validate()
	if err != nil {
		return err
	}
	if _, err := parseQueries(f.queries); err != nil {
		return err
	}
	if f.streams != "" {
		if _, err := parseCounts("--streams", f.streams); err != nil {
			return err
		}
	}
	if f.timeout < 0 {
		return fmt.Errorf("--timeout cannot be negative")
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
	for rep := 1; rep <= f.method.repeat && ctx.Err() == nil; rep++ {
		if f.method.repeat > 1 {
			fmt.Fprintf(a.stdout, "\n== run %d of %d\n", rep, f.method.repeat)
		}
		n := len(f.targets)
		res, errs := a.onTargets(f.targets, func(raw string, out io.Writer) (*result.Result, error) {
			g := f
			g.target = raw
			return a.tpchOnce(ctx, g, out)
		})
		for i, r := range res {
			if errs[i] != nil && runErr == nil {
				runErr = errs[i]
			}
			if r == nil {
				continue
			}
			r.Group = &result.Group{ID: groupID, Repeat: rep, Repeats: f.method.repeat}
			if n > 1 {
				r.Group.Target, r.Group.Targets = i+1, n
			}
			rs.add(ctx, r)
		}
		if n > 1 {
			a.printAggregate(res)
		}
	}
	if err := rs.close(ctx); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

// printAggregate adds up the targets of a multi-instance run: queries per hour over the whole set.
func (a *app) printAggregate(res []*result.Result) {
	var queries, longest float64
	for _, r := range res {
		if r == nil || r.Analytic == nil {
			continue
		}
		for _, t := range r.Analytic.Tests {
			if t.Kind == "warmup" {
				continue
			}
			for _, s := range t.QueryStreams {
				queries += float64(len(s.Queries))
			}
		}
		if r.EndedAt.Sub(r.StartedAt).Seconds() > longest {
			longest = r.EndedAt.Sub(r.StartedAt).Seconds()
		}
	}
	if longest > 0 {
		fmt.Fprintf(a.stdout, "aggregate of %d targets: %.0f queries in %.1fs (%.1f queries per hour)\n", len(res), queries, longest, queries*3600/longest)
	}
}

func (a *app) tpchOnce(ctx context.Context, f tpchRunFlags, out io.Writer) (*result.Result, error) {
	opts := tpch.RunOptions{Power: f.power, Throughput: f.throughput, Refresh: f.refresh, Timeout: f.timeout, Seed: f.seed, Progress: out}
	var err error
	if opts.Queries, err = parseQueries(f.queries); err != nil {
		return nil, err
	}
	if f.streams != "" {
		if opts.Streams, err = parseCounts("--streams", f.streams); err != nil {
			return nil, err
		}
	}
	t, err := engine.Parse(f.target)
	if err != nil {
		return nil, err
	}
	started := time.Now().UTC()
	db, err := tpch.Open(ctx, t)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	sf, err := db.Scale(ctx)
	if err != nil {
		return nil, err
	}
	if !f.power && !f.throughput && f.streams == "" {
		opts.Power, opts.Throughput, opts.Streams = true, true, []int{tpch.MinStreams(sf)}
	}
	if opts.Throughput && len(opts.Streams) == 0 {
		opts.Streams = []int{tpch.MinStreams(sf)}
	}
	opts.Warmup = !f.noWarmup && !opts.Throughput && len(opts.Streams) > 0
	opts.NoRestore = f.noRestore
	serverVersion := db.ServerVersion(ctx)
	res := &result.Result{
		SchemaVersion: result.SchemaVersion,
		Tool:          result.Tool{Name: "dbdyno", Version: version, GoVersion: runtime.Version()},
		Workload:      "tpch",
		RunID:         newID("r"),
		Command:       engine.RedactArgs(a.args),
		Target:        result.Target{URL: t.String(), Engine: t.Engine.Name, ServerVersion: serverVersion},
		StartedAt:     started,
		Options: map[string]any{"power": opts.Power, "throughput": opts.Throughput, "streams": opts.Streams, "refresh": opts.Refresh,
			"queries": f.queries, "timeout_s": f.timeout.Seconds(), "seed": fmt.Sprint(f.seed), "warmup": opts.Warmup},
	}
	fmt.Fprintf(out, "dbdyno tpch on %s (%s), scale factor %g, seed %d\n", serverVersion, t, sf, f.seed)
	ms := startMeasured(ctx, t, serverVersion, f.method.metricsInterval)
	an, runErr := db.Run(ctx, opts)
	res.EndedAt = time.Now().UTC()
	ms.finish(ctx, res)
	if an == nil {
		return nil, runErr
	}
	res.Analytic = an
	res.Status = result.StatusOK
	if runErr != nil {
		res.Status = result.StatusFailed
		res.Error = t.Scrub(runErr.Error())
		if errors.Is(runErr, tpch.ErrAborted) {
			res.Status = result.StatusAborted
		}
	}
	a.printTPCHSummary(out, res)
	return res, runErr
}

func (a *app) printTPCHSummary(w io.Writer, res *result.Result) {
	an := res.Analytic
	fmt.Fprintf(w, "\n%s  (not comparable with audited TPC-H results)\n", strings.ToUpper(res.Status))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "test\tstreams\tstatus\ttime to complete (s)\tgeomean query (s)\tmetric")
	for _, t := range an.Tests {
		metric, g := t.MetricText()
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.3f\t%s\t%s\n", t.Kind, t.Streams, t.Status, t.Seconds, g, metric)
	}
	tw.Flush()
	if an.QphH != nil {
		fmt.Fprintf(w, "QphH@Size %.1f\n", *an.QphH)
	}
	if res.Error != "" {
		fmt.Fprintf(w, "run %s: %s\n", res.Status, res.Error)
	}
}

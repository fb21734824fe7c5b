package tpch

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
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
	"github.com/dbdyno/dbdyno/internal/workloads/tpch/dbgen"
)

// The TPC-H-derived workload's commands and metrics, as the registry (and so the CLI and plans) sees them.
func init() {
	workload.Register(&workload.Meta{
		Name:  "tpch",
		Short: "TPC-H-derived analytic workload: gen, build, run, validate, drop",
		Long: "A TPC-H-derived analytic workload (not an audited TPC-H result): dbgen-identical data at any scale\n" +
			"factor, the 22 queries, power and throughput tests.",
		DefaultTarget: DefaultTarget,
		NeedsDB:       true,
		Sections:      []string{"analytic"},
		Metrics:       []workload.MetricDesc{qphh, power, throughput, toComplete, geomean, qph},
		SQL:           Files,
		Derive:        metrics,
		Work: func(r *result.Result) string {
			sf := r.Options["scale"] // recorded since results carry metrics; before, in the analytic section
			if a := r.Analytic; sf == nil && a != nil {
				sf = a.Scale
			}
			w := fmt.Sprintf("SF %v", sf) // in words, what is off or all unsaid ("SF 1, with refresh, queries 1,6")
			if r.Options["refresh"] == true {
				w += ", with refresh"
			}
			if q, _ := r.Options["queries"].(string); q != "" {
				w += ", queries " + q
			}
			return w
		},
		Commands: []*workload.Command{
			workload.NewCommand(workload.Command{
				Name:  "gen",
				Short: "write the eight tables as files, byte-identical to dbgen's .tbl output",
			}, &GenFlags{LoadOption: LoadOption{Threads: runtime.NumCPU()}}, gen),
			workload.NewCommand(workload.Command{
				Name:   "build",
				Short:  "create the schema and load dbgen's population straight from the generator",
				Target: workload.OneTarget,
			}, &BuildFlags{LoadOption: LoadOption{Threads: runtime.NumCPU()}}, build),
			runCommand(),
			workload.NewCommand(workload.Command{
				Name:   "validate",
				Short:  "run the 22 queries with the validation parameters and compare with expected answers",
				Target: workload.OneTarget, Existing: true,
			}, &ValidateFlags{}, validate),
			workload.NewCommand(workload.Command{
				Name:   "restore",
				Short:  "undo the refresh functions' update sets left applied (by --no-restore or an interrupted run)",
				Target: workload.OneTarget, Existing: true,
			}, &noFlags{}, restore),
			workload.NewCommand(workload.Command{
				Name:   "drop",
				Short:  "remove dbdyno's TPC-H tables (and nothing else)",
				Target: workload.OneTarget, Existing: true,
			}, &noFlags{}, func(ctx context.Context, env *workload.Env, _ *noFlags) error {
				d, err := Open(ctx, env.Target())
				if err != nil {
					return err
				}
				defer d.Close()
				return d.data.DropCommand(ctx, env.Out)
			}),
		},
		Datasets: []*bulk.Dataset{Dataset},
		// its part of a report: what its result's analytic section holds
		Report: report.Part(func(r *result.Result) *result.Analytic { return r.Analytic }, analytic),
	})
}

// runCommand is `tpch run`, the measured command.
func runCommand() *workload.Command {
	c := workload.NewMeasured(workload.Command{
		Name:  "run",
		Short: "power test, throughput test, or sets of concurrent query streams; times every query",
		Long: "Without --power, --throughput or --streams: a power test and a throughput test with the specification's\n" +
			"minimum number of streams for the scale. --streams N alone runs N concurrent streams and reports the time to\n" +
			"complete them; --streams 1..N runs 1, 2, ... N in turn (after a warm-up stream unless --no-warmup).",
		Target: workload.ManyTargets, Existing: true, Live: true,
		Example: "  dbdyno tpch run --target duckdb://tpch.duckdb                         # power and throughput tests\n" +
			"  dbdyno tpch run --target postgres://bench@db1/tpch --streams 1..4 --repeat 3\n" +
			"  dbdyno tpch run --target duckdb://tpch.duckdb --power --queries 1,6,14",
	}, &RunFlags{}, measured{})
	c.Measured = sweepWarmup{c.Measured, measured{}}
	return c
}

// The commands' options. The scale factor and the load threads are groups shared by gen and build; gen words
// their help its own way.

// ScaleOption is --scale, the scale factor of the data.
type ScaleOption struct {
	Scale float64 `flag:"scale" default:"1" help:"scale factor"`
}

// Check refuses a scale factor out of range.
func (o ScaleOption) Check() error { return ValidateScale(o.Scale) }

// LoadOption is --threads, the parallel connections (or generator threads) of a load; its default, the
// machine's CPUs, is the prototype's field.
type LoadOption struct {
	Threads int `flag:"threads" help:"parallel load connections" max:"256" why:"more threads than cores load no faster, and each one costs a connection and memory"`
}

// Check refuses fewer than one thread.
func (o LoadOption) Check() error {
	if o.Threads < 1 {
		return fmt.Errorf("--threads must be at least 1 (got %d)", o.Threads)
	}
	return nil
}

// GenFlags are `tpch gen`'s options.
type GenFlags struct {
	ScaleOption `scale.help:"scale factor (1 is about 1 GB; fractions such as 0.01 work)"`
	Out         string `flag:"out" help:"output directory"`
	Format      string `flag:"format" default:"tbl" help:"tbl (dbgen's format) or csv (with a header line)"`
	LoadOption  `threads.help:"generator threads" threads.why:"more generators than cores write no faster, and each one costs memory"`
	Parts       int  `flag:"parts" default:"1" help:"split each table into this many files (TABLE.tbl.1 .. TABLE.tbl.N), as dbgen -C does"`
	Updates     int  `flag:"updates" default:"0" help:"also write update sets 1..N for the refresh functions (orders.tbl.uN, lineitem.tbl.uN, delete.N), as dbgen -U does"`
	UpdatesOnly bool `flag:"updates-only" help:"write only the update sets, not the tables"`
}

// BuildFlags are `tpch build`'s options.
type BuildFlags struct {
	ScaleOption
	LoadOption
	Drop        bool `flag:"drop" help:"replace dbdyno's existing TPC-H tables (never touches tables dbdyno did not create)"`
	Columnstore bool `flag:"columnstore" help:"store every table as a clustered columnstore index, keys as nonclustered B-trees (engines that have them)"`
}

// RunFlags are `tpch run`'s options.
type RunFlags struct {
	Streams           int           `flag:"streams" sweep:"N concurrent streams" help:"stream count N, a sweep 1..N, or a list 1,2,4"`
	Power             bool          `flag:"power" help:"run the power test (RF1, stream 0, RF2)"`
	Throughput        bool          `flag:"throughput" help:"run the throughput test (N streams and a refresh stream)"`
	Refresh           bool          `flag:"refresh" help:"run the refresh functions RF1/RF2 in the power and throughput tests"`
	Queries           string        `flag:"queries" help:"run only these queries, e.g. 1,3,5 (metrics are then marked as a subset)"`
	Timeout           time.Duration `flag:"timeout" default:"30m" help:"a query running longer fails (0: no limit)"`
	Seed              uint64        `flag:"seed" help:"qgen seed of the substitution parameters: stream s uses qgen -r SEED+s (default: the time as mmddhhmmss, as the specification suggests; always recorded)"`
	NoWarmup          bool          `flag:"no-warmup" help:"skip the warm-up stream before a --streams sweep"`
	MaxDOP            int           `flag:"maxdop" help:"hold each query to N parallel workers, the engine's way (a MAXDOP hint, max_parallel_workers_per_gather, threads); recorded (default: the engine's own setting)"`
	NoRestore         bool          `flag:"no-restore" help:"leave dbgen's update sets applied after the run (the next run goes on with the following sets) instead of restoring the loaded data"`
	workload.Sharding `shard.help:"drive shard I of N (I/N, e.g. 2/4) of a throughput test driven by N processes: the I-th of N even ranges of its --streams (stream s keeps its seed SEED+s: give every shard one --seed); merge with dbdyno results merge"`
}

// ValidateFlags are `tpch validate`'s options.
type ValidateFlags struct {
	Answers string `flag:"answers" help:"directory of expected answers for the scale built (qNN.csv or qN.out)"`
	Against string `flag:"against" plan:"-" help:"compare with the answers of a second target built at the same scale"`
	Shapes  bool   `flag:"shapes" help:"compare only the answers' shapes (columns; row counts fixed at every scale) with --answers of another scale: for scales without reference answers, such as 10"`
}

// noFlags are the options of a command that has none (restore, drop).
type noFlags struct{}

func build(ctx context.Context, env *workload.Env, o *BuildFlags) error {
	sf, threads := o.Scale, o.Threads
	if err := o.ScaleOption.Check(); err != nil {
		return err
	}
	if err := o.LoadOption.Check(); err != nil {
		return err
	}
	return bulk.RunBuild(ctx, bulk.BuildRun{Target: env.Target(), Out: env.Out, Bytes: int64(sf * bytesPerScale),
		What: fmt.Sprintf("TPC-H schema at scale factor %g", sf), Threads: threads}, Open,
		func(ctx context.Context, d *DB) (*bulk.Report, error) {
			return d.Build(ctx, BuildOptions{Scale: sf, Threads: threads, Drop: o.Drop, Columnstore: o.Columnstore, Version: env.Version, Progress: env.Out})
		})
}

func gen(ctx context.Context, env *workload.Env, o *GenFlags) error {
	opts := GenOptions{Scale: o.Scale, Dir: o.Out, Threads: o.Threads, Parts: o.Parts,
		Updates: o.Updates, NoTables: o.UpdatesOnly, Progress: env.Out}
	switch f := o.Format; f {
	case "tbl":
		opts.Format = dbgen.FormatTBL
	case "csv":
		opts.Format = dbgen.FormatCSV
	default:
		return fmt.Errorf("--format %q is not known: use tbl or csv", f)
	}
	if err := o.ScaleOption.Check(); err != nil {
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
	if opts.Updates > 0 && opts.Format != dbgen.FormatTBL {
		return fmt.Errorf("update sets are written in dbgen's tbl format only: drop --format csv or --updates")
	}
	if err := CheckGenSpace(ctx, opts); err != nil {
		return err
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return fmt.Errorf("cannot create --out directory: %w", err)
	}
	rows, err := GenerateFiles(ctx, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "wrote %d rows at scale factor %g to %s\n", rows, opts.Scale, opts.Dir)
	return nil
}

func validate(ctx context.Context, env *workload.Env, o *ValidateFlags) error {
	d, err := Open(ctx, env.Target())
	if err != nil {
		return err
	}
	defer d.Close()
	var other *DB
	if against := o.Against; against != "" {
		t, err := engine.Parse(against)
		if err != nil {
			return fmt.Errorf("--against: %w", err)
		}
		t.Existing = true
		if other, err = Open(ctx, t); err != nil {
			return fmt.Errorf("--against: %w", err)
		}
		defer other.Close()
	}
	var res []Validation
	if o.Shapes {
		if other != nil {
			return fmt.Errorf("--shapes compares with --answers of another scale, not with --against")
		}
		fmt.Fprintln(env.Out, "shapes only: the columns of every answer and the row counts that do not depend on the scale (no reference answers exist at this scale)")
		res, err = d.ValidateShapes(ctx, o.Answers, env.Out)
	} else {
		res, err = d.Validate(ctx, o.Answers, other, env.Out)
	}
	if err != nil {
		return err
	}
	failed := 0
	for _, r := range res {
		if !r.Passed {
			failed++
		}
	}
	fmt.Fprintf(env.Out, "%d passed, %d failed\n", len(res)-failed, failed)
	// the answers are over a few columns; the tables' checksums are over every value the build loaded
	compared, differ, err := d.Contents(ctx)
	if err != nil {
		return fmt.Errorf("comparing the tables with their build: %w", err)
	}
	if len(compared) > 0 && len(differ) == 0 {
		fmt.Fprintf(env.Out, "contents as built: %s (checksums)\n", strings.Join(compared, ", "))
	}
	for _, d := range differ {
		fmt.Fprintf(env.Out, "contents differ: %s\n", d)
	}
	var problems []string
	if failed > 0 {
		problems = append(problems, fmt.Sprintf("%d of 22 queries did not match the expected answers", failed))
	}
	if len(differ) > 0 {
		problems = append(problems, "the tables' contents are not what the build loaded: "+strings.Join(differ, "; "))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

func restore(ctx context.Context, env *workload.Env, _ *noFlags) error {
	d, err := Open(ctx, env.Target())
	if err != nil {
		return err
	}
	defer d.Close()
	t0 := time.Now()
	lo, hi, err := d.Restore(ctx)
	if err != nil {
		return err
	}
	if lo == 0 {
		fmt.Fprintf(env.Out, "%s: no update set is applied; the data is as loaded\n", d.T)
		return nil
	}
	fmt.Fprintf(env.Out, "%s: undid %s in %.1fs; the data is as loaded\n", d.T, SetsString(lo, hi), time.Since(t0).Seconds())
	return nil
}

// ParseQueries reads --queries: "1,3,5" or "q1,q3" ("" is all 22).
func ParseQueries(s string) ([]int, error) {
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

// qgenClockSeed is a qgen seed from the clock in the specification's form, mmddhhmmss.
func qgenClockSeed(t time.Time) uint64 {
	t = t.UTC()
	return uint64(t.Month())*100000000 + uint64(t.Day())*1000000 + uint64(t.Hour())*10000 + uint64(t.Minute())*100 + uint64(t.Second())
}

// measured is `tpch run` for the method.
type measured struct{}

func (measured) Prepare(o *RunFlags, v *workload.Values) error {
	if _, err := ParseQueries(o.Queries); err != nil {
		return err
	}
	if o.Timeout < 0 {
		return fmt.Errorf("--timeout cannot be negative")
	}
	if o.MaxDOP < 0 {
		return fmt.Errorf("--maxdop must be at least 1 (leave it out for the engine's own setting)")
	}
	if o.Shard.On() && (o.Power || o.Refresh) {
		return fmt.Errorf("--shard %s runs a share of the throughput test's query streams; the power test and the refresh stream are one per run: run them without --shard", o.Shard)
	}
	if !v.Given(o, &o.Seed) {
		o.Seed = qgenClockSeed(time.Now())
	}
	return nil
}

// Warmup: a sweep of stream sets starts after one warm-up stream, unless --no-warmup; whether --streams is a
// sweep sweepWarmup adds, as the options hold only its first value.
func (measured) Warmup(o *RunFlags) (bool, string) {
	return !o.NoWarmup && !o.Throughput, "one stream"
}

// sweepWarmup is the run command's Measured (and Aggregator) with the warm-up stream kept to a sweep of
// --streams: Warmup(o) sees the swept option's first value only, so the values are asked how many it holds.
type sweepWarmup struct {
	workload.Measured
	workload.Aggregator
}

func (m sweepWarmup) Warmup(v *workload.Values) (bool, string) {
	ok, what := m.Measured.Warmup(v)
	_, points, _ := v.Swept() // --streams is the command's only sweepable option
	// after a cold start (--cold-cmd) every measured set has its warm-up stream: the study's restart, one
	// warm-up stream, then the measured streams
	c, _, _ := workload.Group[workload.Cold](v)
	cold := c.ColdCmd != ""
	return ok && (len(points) > 1 || cold), what
}

type run struct {
	d             *DB
	sf            float64
	opts          RunOptions
	queries       string
	serverVersion string
	out           io.Writer
}

func (measured) Start(ctx context.Context, s workload.Spec, o *RunFlags) (workload.Run, error) {
	opts := RunOptions{Power: o.Power, Throughput: o.Throughput, Refresh: o.Refresh, Timeout: o.Timeout,
		Seed: o.Seed, Streams: o.Streams, NoRestore: o.NoRestore, MaxDOP: o.MaxDOP, Progress: s.Out, Live: s.Live}
	opts.Queries, _ = ParseQueries(o.Queries)
	opts.Shard = o.Shard
	d, err := Open(ctx, s.Target)
	if err != nil {
		return nil, err
	}
	sf, err := d.Scale(ctx)
	if err == nil && opts.MaxDOP > 0 {
		err = d.LimitParallelism(ctx, opts.MaxDOP)
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	if !opts.Refresh || s.Warmup {
		// without the refresh functions, queries must run on the loaded data
		if set, err := d.appliedSets(ctx); err != nil || set.lo != 0 {
			d.Close()
			if err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w (%s, by a run with --no-restore or an interrupted one), so the queries would not run on the loaded data: run with --refresh to go on with the following sets, or `dbdyno tpch restore` first", s.Target, ErrRefreshed, set)
		}
	}
	switch {
	case s.Warmup:
		opts = RunOptions{Warmup: true, Queries: opts.Queries, Timeout: opts.Timeout, Seed: opts.Seed, MaxDOP: opts.MaxDOP, Progress: s.Out, Live: s.Live}
	case opts.Shard.On():
		if opts.Throughput = true; opts.Streams == 0 {
			opts.Streams = MinStreams(sf)
		}
		if err := opts.Shard.Check(opts.Streams, "streams"); err != nil {
			d.Close()
			return nil, err
		}
	case !opts.Power && !opts.Throughput && opts.Streams == 0:
		opts.Power, opts.Throughput, opts.Streams = true, true, MinStreams(sf)
	case opts.Throughput && opts.Streams == 0:
		opts.Streams = MinStreams(sf)
	}
	r := &run{d: d, opts: opts, sf: sf, queries: o.Queries, serverVersion: d.ServerVersion(ctx), out: s.Out}
	fmt.Fprintf(s.Out, "dbdyno tpch on %s (%s), scale factor %g, seed %d\n", r.serverVersion, s.Target, sf, opts.Seed)
	return r, nil
}

func (r *run) ServerVersion() string { return r.serverVersion }

func (r *run) Options() map[string]any {
	o := r.opts
	var streams []int
	if o.Streams > 0 {
		streams = []int{o.Streams}
	}
	out := map[string]any{"scale": r.sf, "power": o.Power, "throughput": o.Throughput, "streams": streams, "refresh": o.Refresh,
		"queries": r.queries, "timeout_s": o.Timeout.Seconds(), "seed": fmt.Sprint(o.Seed), "warmup": o.Warmup, "no_restore": o.NoRestore, "maxdop": o.MaxDOP}
	o.Shard.Record(out, "streams", o.Streams, 1)
	return out
}

func (r *run) Measure(ctx context.Context, res *result.Result) (bool, error) {
	an, err := r.d.Run(ctx, r.opts)
	if an == nil {
		return false, err
	}
	res.Analytic = an
	return true, err
}

func (r *run) Finish(_ context.Context, res *result.Result) error {
	w := r.out
	fmt.Fprintf(w, "\n%s  (not comparable with audited TPC-H results)\n", strings.ToUpper(res.Status))
	sub := Subset(res.Analytic)
	if sub != "" {
		fmt.Fprintf(w, "SUBSET: not all 22 queries ran (--queries): the metrics are marked %q and compare only with runs of the same queries\n", sub)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "test\tstreams\tstatus\ttime to complete (s)\tgeomean query (s)\tmetric")
	for _, t := range res.Analytic.Tests {
		metric, g := t.MetricText()
		if sub != "" && metric != "" {
			metric += " (" + sub + ")"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.3f\t%s\t%s\n", t.Kind, t.Streams, t.Status, t.Seconds, g, metric)
	}
	tw.Flush()
	if q := res.Analytic.QphH; q != nil {
		fmt.Fprintf(w, "QphH@Size %.1f%s\n", *q, map[bool]string{true: " (" + sub + ")"}[sub != ""])
	}
	if res.Error != "" {
		fmt.Fprintln(w, result.Ended(res))
	}
	return nil
}

func (r *run) Close() { r.d.Close() }

// The workload's metrics. QphH@Size is the headline when a run has both tests; a plain set of streams is
// headed by its time to complete, and adds its queries per hour.
var (
	qphh       = workload.MetricDesc{Name: "QphH@Size", Better: result.Higher, PerCore: true, PerPrice: true}
	power      = workload.MetricDesc{Name: "Power@Size", Better: result.Higher, PerCore: true, PerPrice: true}
	throughput = workload.MetricDesc{Name: "Throughput@Size", Better: result.Higher, PerCore: true, PerPrice: true}
	toComplete = workload.MetricDesc{Name: "time to complete", Unit: "s", Better: result.Lower, Aggregate: "max", Elapsed: true}
	geomean    = workload.MetricDesc{Name: "geometric mean query time", Unit: "s", Better: result.Lower}
	qph        = workload.MetricDesc{Name: "queries per hour", Better: result.Higher, PerCore: true, PerPrice: true, Aggregate: "sum"}
)

// metrics derives a run's metrics from its tests: each test's time to complete and geometric mean, the
// specification's metrics where the tests make them, and a plain stream set's queries per hour.
func metrics(r *result.Result) []result.Metric {
	a := r.Analytic
	if a == nil {
		return nil
	}
	sets := 0
	for _, t := range a.Tests {
		if t.Kind == "streams" && t.Status == result.StatusOK {
			sets++
		}
	}
	var out []result.Metric
	var last string
	for _, t := range a.Tests {
		if t.Status != result.StatusOK || t.Kind == "warmup" {
			continue
		}
		label := ""
		switch t.Kind {
		case "power":
			label = "power test: "
		case "throughput":
			label = fmt.Sprintf("throughput test (%d streams): ", t.Streams)
		case "streams":
			if sets > 1 { // a sweep inside one result, as results written before sweeps left the workload have
				label = fmt.Sprintf("%d stream(s): ", t.Streams)
			}
		}
		last = label + toComplete.Name
		out = append(out, toComplete.Named(last).Value(t.Seconds))
		if t.GeomeanSeconds != nil {
			out = append(out, geomean.Named(label+geomean.Name).Value(*t.GeomeanSeconds))
		}
		if t.Kind == "streams" && sets == 1 && t.Seconds > 0 {
			n := 0
			for _, s := range t.QueryStreams {
				n += len(s.Queries)
			}
			out = append(out, qph.Value(float64(n)*3600/t.Seconds))
		}
		if t.PowerAtSize != nil {
			out = append(out, power.Value(*t.PowerAtSize))
		}
		if t.ThroughputAtSize != nil {
			out = append(out, throughput.Value(*t.ThroughputAtSize))
		}
	}
	if a.QphH != nil {
		out = append(out, qphh.Value(*a.QphH))
	}
	out = workload.Headline(out, qphh.Name, power.Name, throughput.Name, last)
	if sub := Subset(a); sub != "" {
		// a subset's figures are not those of the 22 queries: every metric says so in its name, and so in the
		// result's JSON, the store's headline (results list), compare and the report
		for i := range out {
			out[i].Name += " (" + sub + ")"
		}
	}
	return out
}

// Subset marks a run of some of the 22 queries ("subset Q1,3,5,6 of 22"), "" for a run of all of them.
func Subset(a *result.Analytic) string {
	if a == nil || len(a.Queries) == 0 {
		return ""
	}
	seen := map[int]bool{}
	var qs []string
	for _, q := range a.Queries {
		if !seen[q] {
			seen[q] = true
			qs = append(qs, strconv.Itoa(q))
		}
	}
	if len(seen) >= 22 {
		return ""
	}
	return "subset Q" + strings.Join(qs, ",") + " of 22"
}

// Aggregate adds up the targets of a multi-instance run: the queries of all of them per hour of the longest,
// and the longest time to complete.
func (measured) Aggregate(parts []*result.Result) []result.Metric {
	var queries, longest float64
	for _, r := range parts {
		if r.Analytic == nil {
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
		longest = max(longest, r.EndedAt.Sub(r.StartedAt).Seconds())
	}
	if longest <= 0 {
		return nil
	}
	h := qph
	h.Headline = true
	return []result.Metric{h.Value(queries * 3600 / longest), toComplete.Value(longest)}
}

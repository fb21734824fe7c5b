package probe

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

func init() {
	workload.Register(&workload.Meta{
		Name:  "probe",
		Short: "capacity probes: what a database tier really gives in read and write MB/min, CPU, cache and a mixed CRUD load",
		Long: "The capacity probes of the cloud-tier studies: read (MB/min scanning 1 GiB tables), write (MB/min appending\n" +
			"100 MiB chunks, with the log the engine wrote), cpu (a forced loop join stepped until one query passes a limit;\n" +
			"a multiple of a reference run), memory (a working set stepped until the engine stops keeping it cached) and\n" +
			"mixed (a skewed insert/select/update/delete load by threads). Each probe builds its own tables once\n" +
			"(dbdyno_probe_KIND_N) and reuses them while they match what is asked; --rebuild replaces them.",
		DefaultTarget: "sqlite://dbdyno-probe.db",
		NeedsDB:       true,
		SQL:           Files,
		Derive:        metrics,
		Work:          work,
		Metrics: []workload.MetricDesc{mRead, mReadSlowest, mWrite, mLogRatio, mPairs, mMultiple, mCache, mOps, mKindP95,
			mCPUPerOp},
		Commands: []*workload.Command{
			workload.NewMeasured(workload.Command{Name: "read", Short: "MB/min scanning tables of identical 410-byte rows, one count(*) each",
				Live: true, Target: workload.ManyTargets, ColdInStart: true}, &ReadFlags{Build: defaultBuild()}, readProbe{}),
			workload.NewMeasured(workload.Command{Name: "write", Short: "MB/min appending 100 MiB chunks with INSERT ... SELECT (or the engine's bulk path), and the log written",
				Live: true, Target: workload.ManyTargets}, &WriteFlags{Build: defaultBuild()}, writeProbe{}),
			workload.NewMeasured(workload.Command{Name: "cpu", Short: "a forced loop join over the first N rows, N stepped until one query passes --limit",
				Live: true, Target: workload.ManyTargets}, &CPUFlags{Build: defaultBuild()}, cpuProbe{}),
			workload.NewMeasured(workload.Command{Name: "memory", Short: "the data the engine keeps cached: a working set stepped up, each step read twice",
				Live: true, Target: workload.ManyTargets}, &MemoryFlags{Build: defaultBuild()}, memoryProbe{}),
			workload.NewMeasured(workload.Command{Name: "mixed", Short: "the study's scale test: insert 20%, select 30%, update 30%, delete 20%, skewed to the newest rows",
				Target: workload.ManyTargets, ColdInStart: true}, &MixedFlags{}, runner.VU[MixedFlags]{
				Check: checkMixed,
				Open:  openMixed,
			}),
			{Name: "drop", Short: "remove every probe's tables (dbdyno_probe_*, and nothing else)", Target: workload.OneTarget, Existing: true, Do: drop},
		},
		Datasets: datasets,
		// its part of a report: the mixed probe's measurement, the other probes' steps
		Report: report.Sections(report.MeasurementSection,
			report.Part(func(r *result.Result) *result.Probe { return r.Probe }, probeSection)),
	})
}

// ColdStart are the cold-start options of the probes that read what they built (the method's --cold-cmd runs
// in their Start, after their tables are ready: workload.Command.ColdInStart).
type ColdStart struct {
	Cold bool `flag:"cold" default:"true" help:"embedded engines: drop the database file's pages from the OS cache before each repeat (--cold=false reads warm)"`
}

// Build are the options of a probe's table build.
type Build struct {
	Rebuild     bool `flag:"rebuild" help:"replace the probe's tables when they were built with other sizes (only dbdyno's probe tables are touched)"`
	LoadThreads int  `flag:"load-threads" help:"parallel load connections of the build" max:"256" why:"more threads than cores load no faster, and each one costs a connection and memory"`
}

// defaultBuild is the build options' defaults: one load connection per CPU.
func defaultBuild() Build { return Build{LoadThreads: runtime.NumCPU()} }

func (b *Build) check() error {
	if b.LoadThreads < 1 {
		return fmt.Errorf("--load-threads must be at least 1 (got %d)", b.LoadThreads)
	}
	return nil
}

func drop(ctx context.Context, env *workload.Env, _ *workload.Values) error {
	for _, d := range datasets {
		db, err := bulk.Open(ctx, d, env.Target())
		if err != nil {
			return err
		}
		err = db.DropCommand(ctx, env.Out)
		db.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// The probes' metrics. Each run carries those of its probe; the work key keeps probes apart in comparisons.
var (
	mRead        = workload.MetricDesc{Name: "read MB/min", Unit: "MB/min", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum", Noise: "probe"}
	mReadSlowest = workload.MetricDesc{Name: "slowest table MB/min", Unit: "MB/min", Better: result.Higher}
	mWrite       = workload.MetricDesc{Name: "write MB/min", Unit: "MB/min", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum", Noise: "probe"}
	mLogRatio    = workload.MetricDesc{Name: "log bytes per byte written", Unit: "x", Better: result.Lower}
	mPairs       = workload.MetricDesc{Name: "row pairs/s", Unit: "pairs/s", Better: result.Higher, Headline: true, PerPrice: true}
	mMultiple    = workload.MetricDesc{Name: "multiple of the reference", Unit: "x", Better: result.Higher}
	mCache       = workload.MetricDesc{Name: "cached data estimate", Unit: "MiB", Better: result.Higher, Headline: true, PerPrice: true}
	mOps         = workload.MetricDesc{Name: "mixed ops/s", Unit: "ops/s", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	mKindP95     = workload.MetricDesc{Name: "<kind> p95 latency", Unit: "ms", Better: result.Lower}
	mCPUPerOp    = workload.MetricDesc{Name: "client CPU per operation", Unit: "µs", Better: result.Lower}
)

// work keeps runs of different probes and sizes apart. Sizes are named in MiB, as they are typed; a result of
// before they were (its sizes in MB of 10^6 bytes) gets the same key as the same sizes now.
func work(r *result.Result) string {
	o := r.Options
	size := func(k string) string {
		if v, ok := o[k+"_mib"].(float64); ok {
			return units.FormatBytes(int64(v * mib))
		}
		v, _ := o[k+"_mb"].(float64)
		return units.FormatBytes(int64(v * 1e6))
	}
	switch o["probe"] {
	case "read":
		return fmt.Sprintf("read: %v tables of %s", o["tables"], size("table"))
	case "write":
		return fmt.Sprintf("write: %v chunks of %s, method %v, threads %v", o["chunks"], size("chunk"), o["method"], o["threads"])
	case "cpu":
		return fmt.Sprintf("cpu: %v rows, steps %v", o["rows"], o["steps"])
	case "memory":
		return fmt.Sprintf("memory: steps of %s up to %s", size("step"), size("max"))
	case "mixed":
		return fmt.Sprintf("mixed: %v rows, mix %v", o["rows"], o["mix"])
	}
	return fmt.Sprint(o["probe"])
}

// mib is the bytes of a MiB: the probes' sizes (tables, chunks, working sets, what was written) are in MiB, as
// they are typed (--chunk 100m is 100 MiB); their rates in MB/min and MB/s of 10^6 bytes, the studies' unit.
const mib = 1 << 20

// mibs writes a size given in MiB as the probes print every size.
func mibs(v float64) string { return units.FormatBytes(int64(v * mib)) }

// figures sums up a stepped probe's steps.
func figures(p *result.Probe, o map[string]any) map[string]any {
	fig := map[string]any{}
	var rates []float64
	var bytes, logBytes float64
	var secs float64
	for _, st := range p.Steps {
		if st.Exceeded || p.Kind == "memory" {
			continue
		}
		rates = append(rates, st.Rate)
		bytes += float64(st.Bytes)
		secs += st.Seconds
		logBytes += st.Counters["log_bytes"] + st.Counters["written_bytes"]
	}
	switch p.Kind {
	case "read":
		if len(rates) > 0 {
			fig["mb_per_min"] = round(median(rates), 1)
			fig["mb_per_s"] = round(median(rates)/60, 1)
			fig["min_mb_per_min"] = round(slices.Min(rates), 1)
			fig["max_mb_per_min"] = round(slices.Max(rates), 1)
		}
	case "write":
		if secs > 0 {
			fig["mb_per_min"] = round(bytes/1e6/(secs/60), 1)
			fig["mb_per_s"] = round(bytes/1e6/secs, 1)
			fig["median_chunk_mb_per_min"] = round(median(rates), 1)
			fig["written_mib"] = round(bytes/mib, 1)
		}
		if logBytes > 0 && bytes > 0 {
			fig["log_mib"] = round(logBytes/mib, 1)
			fig["log_per_byte"] = round(logBytes/bytes, 3)
		}
	case "cpu":
		for _, st := range p.Steps {
			if !st.Exceeded {
				fig["pairs_per_s"] = st.Rate
				fig["largest_n"] = st.X
				fig["largest_s"] = st.Seconds
			}
		}
		if m, ok := o["reference_multiple"]; ok {
			fig["reference_multiple"] = m
		}
	case "memory":
		for k, v := range memoryEstimate(p) {
			fig[k] = v
		}
	}
	return fig
}

func metrics(r *result.Result) []result.Metric {
	f := r.Figures
	num := func(k string) (float64, bool) { v, ok := f[k].(float64); return v, ok }
	var out []result.Metric
	switch r.Options["probe"] {
	case "read":
		if v, ok := num("mb_per_min"); ok {
			out = append(out, mRead.Value(v))
		}
		if v, ok := num("min_mb_per_min"); ok {
			out = append(out, mReadSlowest.Value(v))
		}
	case "write":
		if v, ok := num("mb_per_min"); ok {
			out = append(out, mWrite.Value(v))
		}
		if v, ok := num("log_per_byte"); ok {
			out = append(out, mLogRatio.Value(v))
		}
	case "cpu":
		if v, ok := num("pairs_per_s"); ok {
			out = append(out, mPairs.Value(v))
		}
		if v, ok := num("reference_multiple"); ok {
			out = append(out, mMultiple.Value(v))
		}
	case "memory":
		if v, ok := num("cache_mib"); ok {
			m := mCache.Value(v)
			if b, ok := f["cache_bound"].(string); ok {
				m.Bound = b // "at least" the largest set (every one stayed cached), "less than" the smallest (none did)
			}
			out = append(out, m)
		}
	case "mixed":
		return mixedMetrics(r)
	}
	return out
}

// figureLabels name a stepped probe's figures in its summary, with their units, in the order printed.
var figureLabels = []struct{ key, label, unit string }{
	{"mb_per_min", "rate", "MB/min"},
	{"mb_per_s", "rate per second", "MB/s"},
	{"min_mb_per_min", "slowest table", "MB/min"},
	{"max_mb_per_min", "fastest table", "MB/min"},
	{"median_chunk_mb_per_min", "median chunk", "MB/min"},
	{"written_mib", "written", "MiB"},
	{"log_mib", "log written", "MiB"},
	{"log_per_byte", "log bytes per byte written", ""},
	{"pairs_per_s", "row pairs compared (largest completed step)", "pairs/s"},
	{"largest_n", "largest N completed", "rows"},
	{"largest_s", "its time", "s"},
	{"reference_multiple", "against the reference", "x"},
	{"cache_mib", "cache estimate", "MiB"},
	{"cache_note", "how", ""},
	{"knee_low_mib", "largest working set kept cached", "MiB"},
	{"knee_high_mib", "smallest working set not kept", "MiB"},
	{"cache_bound", "", ""}, // said by "how"
}

// printFigures prints a stepped probe's summary: a table of its figures, each labelled with its unit.
func printFigures(w io.Writer, res *result.Result) {
	p := res.Probe
	if p == nil {
		return
	}
	fmt.Fprintf(w, "\n%s probe %s after %d step(s)\n", p.Kind, strings.ToUpper(res.Status), len(p.Steps))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	done := map[string]bool{}
	row := func(label string, v any, unit string) {
		if f, ok := v.(float64); ok { // as compare and the report print it: whole from 1,000 up, 1 decimal from 10
			v = compare.Format(f)
		}
		if label != "" {
			fmt.Fprintf(tw, "  %s\t%s\n", label, strings.TrimSpace(fmt.Sprintf("%v %s", v, unit)))
		}
	}
	for _, l := range figureLabels {
		if v, ok := res.Figures[l.key]; ok {
			row(l.label, v, l.unit)
			done[l.key] = true
		}
	}
	var rest []string
	for k := range res.Figures {
		if !done[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest { // a figure without a label yet: its key, rather than nothing
		row(strings.ReplaceAll(k, "_", " "), res.Figures[k], "")
	}
	tw.Flush()
	for _, warn := range p.Warnings {
		fmt.Fprintln(w, "warning: "+warn)
	}
	if res.Error != "" {
		fmt.Fprintln(w, result.Ended(res))
	}
}

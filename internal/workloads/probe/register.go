package probe

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

func init() {
	workload.Register(&workload.Meta{
		Name:  "probe",
		Short: "capacity probes: what a database tier really gives in read and write MB/min, CPU, cache and a mixed CRUD load",
		Long: "The capacity probes of the cloud-tier studies: read (MB/min scanning 1 GB tables), write (MB/min appending\n" +
			"100 MB chunks, with the log the engine wrote), cpu (a forced loop join stepped until one query passes a limit;\n" +
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
			{Name: "read", Short: "MB/min scanning tables of identical 410-byte rows, one count(*) each", Target: workload.ManyTargets,
				Flags: append([]workload.Flag{
					{Name: "table-size", Kind: workload.String, Default: "1g", Help: "bytes of rows per table (rows x 410 bytes): 64m, 1g"},
					{Name: "tables", Kind: workload.Int, Default: "4", Help: "tables to scan, one after the other"},
					{Name: "total", Kind: workload.String, Help: "or the bytes to scan in all (tables of --table-size)"},
					coldFlag, coldCmdFlag}, buildFlags...),
				Measured: readProbe{}},
			{Name: "write", Short: "MB/min appending 100 MB chunks with INSERT ... SELECT (or the engine's bulk path), and the log written",
				Target: workload.ManyTargets,
				Flags: append([]workload.Flag{
					{Name: "chunk", Kind: workload.String, Default: "100m", Help: "bytes of rows per chunk"},
					{Name: "total", Kind: workload.String, Default: "1g", Help: "bytes to write in all (whole chunks): the study wrote 1g, 2g, 5g, 10g"},
					{Name: "method", Kind: workload.String, Default: "sql", Help: "sql (INSERT ... SELECT of the cached chunk, in the server) or bulk (rows sent by the client through the engine's bulk path: COPY, LOAD DATA, appender, bulk copy)"},
					{Name: "threads", Kind: workload.Int, Default: "1", Help: "client connections of --method bulk"},
				}, buildFlags...),
				Measured: writeProbe{}},
			{Name: "cpu", Short: "a forced loop join over the first N rows, N stepped until one query passes --limit", Target: workload.ManyTargets,
				Flags: append([]workload.Flag{
					{Name: "rows", Kind: workload.Int, Default: "280000", Help: "rows of the cpu table (28 bytes each: about 8 MB at the default)"},
					{Name: "steps", Kind: workload.String, Default: "1000..", Help: "the join's N: a list 1000,2000,4000, or FROM.. doubling from FROM until a query passes --limit or N reaches --rows"},
					{Name: "limit", Kind: workload.Duration, Default: "2m", Help: "the last step is the first to run longer than this (it is stopped at the limit)"},
					{Name: "reference", Kind: workload.String, Help: "a cpu probe run (store id or result file) whose step times this run is a multiple of"},
				}, buildFlags...),
				Measured: cpuProbe{}},
			{Name: "memory", Short: "the data the engine keeps cached: a working set stepped up, each step read twice", Target: workload.ManyTargets,
				Flags: append([]workload.Flag{
					{Name: "step-size", Kind: workload.String, Default: "256m", Help: "bytes of each table the working set grows by (it doubles: 1, 2, 4 ... tables)"},
					{Name: "max", Kind: workload.String, Help: "the largest working set (default: 2x this machine's memory for an embedded engine, 4x the engine's cache for a server)"},
				}, buildFlags...),
				Measured: memoryProbe{}},
			{Name: "mixed", Short: "the study's scale test: insert 20%, select 30%, update 30%, delete 20%, skewed to the newest rows",
				Target: workload.ManyTargets, Flags: mixedFlags, Measured: mixedProbe{}},
			{Name: "drop", Short: "remove every probe's tables (dbdyno_probe_*, and nothing else)", Target: workload.OneTarget, Do: drop},
		},
	})
}

var (
	coldFlag    = workload.Flag{Name: "cold", Kind: workload.Bool, Default: "true", Help: "embedded engines: drop the database file's pages from the OS cache before each repeat (--cold=false reads warm)"}
	coldCmdFlag = workload.Flag{Name: "cold-cmd", Kind: workload.String, Help: "a shell command run before each repeat to start cold (restart the server, drop the OS caches)"}
	buildFlags  = []workload.Flag{
		{Name: "rebuild", Kind: workload.Bool, Help: "replace the probe's tables when they were built with other sizes (only dbdyno's probe tables are touched)"},
		{Name: "load-threads", Kind: workload.Int, Default: fmt.Sprint(runtime.NumCPU()), Help: "parallel load connections of the build"},
	}
)

func checkThreads(v *workload.Values) error {
	if v.Int("load-threads") < 1 {
		return fmt.Errorf("--load-threads must be at least 1 (got %d)", v.Int("load-threads"))
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
	mRead        = workload.MetricDesc{Name: "read MB/min", Unit: "MB/min", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	mReadSlowest = workload.MetricDesc{Name: "slowest table MB/min", Unit: "MB/min", Better: result.Higher}
	mWrite       = workload.MetricDesc{Name: "write MB/min", Unit: "MB/min", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	mLogRatio    = workload.MetricDesc{Name: "log bytes per byte written", Unit: "x", Better: result.Lower}
	mPairs       = workload.MetricDesc{Name: "row pairs/s", Unit: "pairs/s", Better: result.Higher, Headline: true, PerPrice: true}
	mMultiple    = workload.MetricDesc{Name: "multiple of the reference", Unit: "x", Better: result.Higher}
	mCache       = workload.MetricDesc{Name: "cached data estimate", Unit: "MB", Better: result.Higher, Headline: true, PerPrice: true}
	mOps         = workload.MetricDesc{Name: "mixed ops/s", Unit: "ops/s", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	mKindP95     = workload.MetricDesc{Name: "<kind> p95 latency", Unit: "ms", Better: result.Lower}
	mCPUPerOp    = workload.MetricDesc{Name: "client CPU per operation", Unit: "µs", Better: result.Lower}
)

// work keeps runs of different probes and sizes apart.
func work(r *result.Result) string {
	o := r.Options
	switch o["probe"] {
	case "read":
		return fmt.Sprintf("read: %v tables of %v MB", o["tables"], o["table_mb"])
	case "write":
		return fmt.Sprintf("write: %v chunks of %v MB, method %v, threads %v", o["chunks"], o["chunk_mb"], o["method"], o["threads"])
	case "cpu":
		return fmt.Sprintf("cpu: %v rows, steps %v", o["rows"], o["steps"])
	case "memory":
		return fmt.Sprintf("memory: steps of %v MB up to %v MB", o["step_mb"], o["max_mb"])
	case "mixed":
		return fmt.Sprintf("mixed: %v rows, mix %v", o["rows"], o["mix"])
	}
	return fmt.Sprint(o["probe"])
}

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
			fig["mb_written"] = round(bytes/1e6, 1)
		}
		if logBytes > 0 && bytes > 0 {
			fig["log_mb"] = round(logBytes/1e6, 1)
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
		if v, ok := num("cache_mb"); ok {
			out = append(out, mCache.Value(v))
		}
	case "mixed":
		return mixedMetrics(r)
	}
	return out
}

// printFigures prints a stepped probe's summary.
func printFigures(w io.Writer, res *result.Result) {
	p := res.Probe
	if p == nil {
		return
	}
	fmt.Fprintf(w, "\n%s probe %s after %d step(s):", p.Kind, strings.ToUpper(res.Status), len(p.Steps))
	keys := make([]string, 0, len(res.Figures))
	for k := range res.Figures {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, " %s %v;", k, res.Figures[k])
	}
	fmt.Fprintln(w)
	for _, warn := range p.Warnings {
		fmt.Fprintln(w, "warning: "+warn)
	}
	if res.Error != "" {
		fmt.Fprintln(w, result.Ended(res))
	}
}

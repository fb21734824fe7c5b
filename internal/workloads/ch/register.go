// Package ch is CH-benCHmark (Cole et al., "The mixed workload CH-benCHmark", DBTest 2011) on dbdyno's engines:
// TPC-C's nine tables (the tpcc workload's build) plus TPC-H's supplier, nation and region, TPC-C's five
// transactions by --vus terminals and the paper's 22 analytic queries by --streams streams on the same data at
// the same time, in the runner's one loop. NOPM and QphH are reported together, and each side's figure beside
// the same side run alone first, so that what each side costs the other is one number (its share kept).
// docs/ch.md says where it differs from the paper and from go-tpc's ch.
package ch

import (
	"context"
	"fmt"
	"runtime"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

func init() {
	workload.Register(&workload.Meta{
		Name:  "ch",
		Short: "CH-benCHmark: TPC-C's transactions and 22 analytic queries on the same data at once: build, run, check, drop",
		Long: "CH-benCHmark (a mixed OLTP and analytic workload; not an audited TPC result): TPC-C's nine tables plus supplier,\n" +
			"nation and region; TPC-C's five transactions by --vus terminals and the paper's 22 analytic queries by\n" +
			"--streams streams at the same time. NOPM and QphH are reported together; by default each side first runs\n" +
			"alone for the same time, and the run reports the share of its figure each side kept beside the other.",
		DefaultTarget: DefaultTarget,
		NeedsDB:       true,
		Sections:      []string{"measurement"},
		Metrics:       []workload.MetricDesc{mNOPM, mQphH, mNOPMKept, mQphHKept, mUnitP95},
		SQL:           Files,
		Supports:      supported,
		Derive:        runner.Measured(metrics),
		Work: func(r *result.Result) string {
			o := r.Options
			w := fmt.Sprintf("%v warehouses, %v mode, %v transaction users, %v analytic streams", o["warehouses"], o["mode"], o["vus"], o["streams"])
			if o["alone"] == false {
				w += ", sides together only"
			}
			return w
		},
		Commands: []*workload.Command{
			workload.NewCommand(workload.Command{Name: "build", Short: "create TPC-C's tables and CH-benCHmark's supplier, nation and region, and load them",
				Target: workload.OneTarget}, &BuildFlags{Threads: runtime.NumCPU(), Seed: 1}, build),
			workload.NewMeasured(workload.Command{Name: "run",
				Short:  "drive TPC-C's transactions (--vus) and the 22 analytic queries (--streams) at once; report NOPM and QphH, each beside its side run alone",
				Target: workload.ManyTargets, Existing: true,
				Example: "  dbdyno ch run --target postgres://bench@db1/ch --vus 4 --streams 1 --duration 5m\n" +
					"  dbdyno ch run --vus 4 --streams 1,2,4 --repeat 3          # a sweep of analytic streams, three runs each\n" +
					"  dbdyno ch run --vus 8 --streams 2 --together               # both sides at once only (no interference figure)"},
				&RunFlags{}, runner.VU[RunFlags]{Check: checkRun, Open: open}),
			runner.CheckCommand("verify TPC-C's consistency conditions (clause 3.3.2) and that CH's tables are as built", Open),
			workload.DropCommand("remove dbdyno's CH-benCHmark and TPC-C tables and procedures (and nothing else)", Open),
		},
		Datasets: []*bulk.Dataset{Dataset},
		Report:   report.MeasurementSection,
	})
}

// BuildFlags are `ch build`'s options.
type BuildFlags struct {
	Warehouses int    `flag:"warehouses" default:"1" help:"number of warehouses (scale: about 100 MiB each; supplier, nation and region are fixed: 10,000, 62 and 5 rows)"`
	Threads    int    `flag:"threads" help:"parallel load connections" max:"256" why:"more threads than cores load no faster, and each one costs a connection and memory"`
	Drop       bool   `flag:"drop" help:"replace dbdyno's existing TPC-C and CH tables (never touches tables dbdyno did not create)"`
	Seed       uint64 `flag:"seed" help:"seed of the generated data"`
}

// RunFlags are `ch run`'s options: the virtual users' shared ones (--vus are TPC-C's terminals), then the
// workload's own.
type RunFlags struct {
	runner.Users `vus.help:"TPC-C terminals (one connection each, no keying or think times, as CH-benCHmark runs them); a list 1,2,4 sweeps them" vus.default:"1" rate.hidden:"true" transactions.hidden:"true"`
	runner.Modes
	Streams           int  `flag:"streams" sweep:"N analytic streams" default:"1" help:"analytic streams (one connection each), each running the 22 queries in order from its own first; a list 1,2,4 sweeps them (the transactions alone: tpcc run)"`
	Warehouses        int  `flag:"warehouses" default:"0" help:"warehouses the terminals use (default: all that were built)"`
	Together          bool `flag:"together" help:"run both sides at once only: no side alone first (the run takes a third of the time, and reports no interference figure)"`
	workload.Sharding `shard.help:"drive shard I of N (I/N, e.g. 2/4): the terminals' home warehouses are the I-th of N even ranges, and each shard runs its own --streams; with --together (the sides alone are not timed across processes); merge the shards' results with dbdyno results merge"`
}

func checkRun(o *RunFlags) error {
	switch {
	case o.Warehouses < 0:
		return fmt.Errorf("--warehouses must be at least 1 (got %d)", o.Warehouses)
	case o.Rate > 0:
		return fmt.Errorf("--rate: ch runs closed loop, as CH-benCHmark does (each terminal and stream starts its next unit of work when the last ends): leave --rate out")
	case o.Shard.On() && !o.Together:
		return fmt.Errorf("--shard %s: the sides alone are timed by each process on its own, not across the shards: add --together to run the shards' sides at once only", o.Shard)
	case o.Transactions > 0:
		return fmt.Errorf("--transactions: a ch run's window is timed (its queries and transactions are of very different lengths): give --duration instead")
	}
	return nil
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
		What: fmt.Sprintf("CH-benCHmark schema with %d warehouse(s)", w), Threads: threads}, Open,
		func(ctx context.Context, db *DB) (*bulk.Report, error) {
			return db.Build(ctx, BuildOptions{Warehouses: w, Threads: threads, Drop: o.Drop, Seed: o.Seed, Version: env.Version, Progress: env.Out})
		})
}

// bytesPerWarehouse is a warehouse's rows as text (tpcc's; CH's three tables are a few MB whatever the scale).
const bytesPerWarehouse = 78 << 20

// The workload's metrics: NOPM is the headline, QphH the analytic side's; each side's share of its figure
// alone that it kept beside the other is the interference, one number per side.
var (
	mNOPM     = workload.MetricDesc{Name: "NOPM", Unit: "new orders/min", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	mQphH     = workload.MetricDesc{Name: "QphH", Unit: "queries/h", Better: result.Higher, PerCore: true, PerPrice: true, Aggregate: "sum"}
	mNOPMKept = workload.MetricDesc{Name: "NOPM kept beside the queries", Unit: "% of alone", Better: result.Higher}
	mQphHKept = workload.MetricDesc{Name: "QphH kept beside the transactions", Unit: "% of alone", Better: result.Higher}
	mUnitP95  = workload.MetricDesc{Name: "<transaction or query> p95 latency", Unit: "ms", Better: result.Lower}
)

func metrics(r *result.Result, m *result.Measurement) []result.Metric {
	out := runner.FigureMetric(nil, mNOPM.WithNoise(result.TxNoise(m.KeyTx)), r, "nopm")
	out = runner.FigureMetric(out, mQphH, r, "qphh")
	out = runner.FigureMetric(out, mNOPMKept, r, "nopm_kept_pct")
	out = runner.FigureMetric(out, mQphHKept, r, "qphh_kept_pct")
	return runner.P95Metrics(out, mUnitP95, m, unitNames())
}

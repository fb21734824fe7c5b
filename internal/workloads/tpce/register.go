package tpce

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
		Name:  "tpce",
		Short: "TPC-E-derived brokerage OLTP workload: build, run, check, drop",
		Long: "A brokerage in the manner of TPC-E: the specification's 33 tables loaded by dbdyno's own generator from\n" +
			"the specification's rules (customers in load units of 1,000; --trade-days shrinks the trade history), a\n" +
			"customer emulator with the specification's mix and an in-process market exchange emulator. The headline is\n" +
			"tpsE, completed Trade-Results a second. TPC-E-derived, not EGen data, not audited: docs/tpce.md.",
		DefaultTarget: "sqlite://dbdyno-tpce.db",
		NeedsDB:       true,
		Sections:      []string{"measurement"},
		Metrics:       []workload.MetricDesc{tpsE, txP95, toRollPct},
		Derive:        runner.Measured(metrics),
		Work: func(r *result.Result) string {
			o := r.Options
			w := fmt.Sprintf("%v customers, %v trade days, %v mode", o["customers"], o["trade_days"], o["mode"])
			if m, ok := o["mix"].(string); ok {
				w += ", custom mix " + m
			}
			return w
		},
		SQL:      Files,
		Supports: supported,
		Commands: []*workload.Command{
			workload.NewCommand(workload.Command{Name: "build",
				Short:  "create the 33 tables and load customers, accounts, the market and the initial trades",
				Target: workload.OneTarget}, &BuildFlags{Threads: runtime.NumCPU(), Seed: 1}, build),
			workload.NewMeasured(workload.Command{Name: "run",
				Short:  "drive the customer emulator's mix and the market exchange emulator; report tpsE",
				Target: workload.ManyTargets, Existing: true}, &RunFlags{}, runner.VU[RunFlags]{
				Check: func(o *RunFlags) error {
					_, err := ParseMix(o.Mix)
					return err
				},
				Open: open}),
			runner.CheckCommand("verify trade, holding, settlement and cash agreement, balances and holding summaries", Open),
			workload.DropCommand("remove dbdyno's TPC-E tables (and nothing else)", Open),
		},
		Datasets: []*bulk.Dataset{Dataset},
		// its part of a report: its measurement, throughput over time and the transactions' latencies
		Report: report.MeasurementSection,
	})
}

// BuildFlags are `tpce build`'s options.
type BuildFlags struct {
	Customers int    `flag:"customers" default:"5000" help:"customers, in load units of 1,000 (the specification's smallest compliant database is 5,000)"`
	TradeDays int    `flag:"trade-days" default:"300" help:"initial trade days of 8 hours (the specification's 300: 17,280 trades a customer); fewer for small runs" min:"1" max:"300"`
	Threads   int    `flag:"threads" help:"parallel load connections" max:"256" why:"more threads than cores load no faster, and each one costs a connection and memory"`
	Drop      bool   `flag:"drop" help:"replace dbdyno's existing TPC-E tables (never touches tables dbdyno did not create)"`
	Seed      uint64 `flag:"seed" help:"seed of the generated data"`
}

func build(ctx context.Context, env *workload.Env, o *BuildFlags) error {
	s := Size{Customers: int64(o.Customers), TradeDays: int64(o.TradeDays)}
	if err := s.Check(); err != nil {
		return err
	}
	if o.Threads < 1 {
		return fmt.Errorf("--threads must be at least 1 (got %d)", o.Threads)
	}
	what := fmt.Sprintf("the TPC-E-derived brokerage (%d customers, %d trade days: %d trades)", s.Customers, s.TradeDays, s.Trades())
	return bulk.RunBuild(ctx, bulk.BuildRun{Target: env.Target(), Out: env.Out, Bytes: s.Bytes(), What: what, Threads: o.Threads}, Open,
		func(ctx context.Context, db *DB) (*bulk.Report, error) {
			return db.Build(ctx, BuildOptions{Size: s, Threads: o.Threads, Drop: o.Drop, Seed: o.Seed, Version: env.Version, Progress: env.Out})
		})
}

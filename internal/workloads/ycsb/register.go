// Package ycsb is YCSB's CoreWorkload (Cooper et al., "Benchmarking Cloud Serving Systems with YCSB", SoCC
// 2010) on dbdyno's engines: `ycsb load` inserts the records as YCSB's load phase does, `ycsb run` drives
// YCSB's operations (read, update, insert, scan, read-modify-write) over them, both from YCSB's own property
// files and -p properties, by YCSB's names and meanings. Its generators (zipfian, scrambled zipfian, latest,
// hotspot ...) and key names follow YCSB's definitions, its table is the one YCSB's JDBC binding uses
// (usertable: YCSB_KEY, FIELD0 ..), and its summary ends with YCSB's own lines. YCSB's and go-ycsb's sources
// were read; none of their code is used. docs/ycsb.md says where it differs from YCSB.
package ycsb

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

func init() {
	workload.Register(&workload.Meta{
		Name:  "ycsb",
		Short: "YCSB's CoreWorkload (workloads A-F): load, run, check, drop, from YCSB's property files",
		Long: "YCSB's CoreWorkload on YCSB's table (usertable: YCSB_KEY, FIELD0..FIELD9, as YCSB's JDBC binding has it).\n" +
			"'ycsb load' inserts recordcount records, one INSERT each, by --threads client threads, as YCSB's load phase;\n" +
			"'ycsb run' runs operationcount operations (read, update, insert, scan, read-modify-write in the workload's\n" +
			"proportions, keys chosen by its requestdistribution). Properties come as YCSB takes them: --workload a..f\n" +
			"(dbdyno's copies of YCSB's workloads), -P FILE (repeatable; workloads/workloadX is the embedded copy when no\n" +
			"such file exists), -p NAME=VALUE over them; YCSB's own command line after -- (-P, -p, -threads, -target, -s).\n" +
			"threadcount is --threads, target (ops/s) the open-loop --rate. The summary ends with YCSB's [OVERALL] and\n" +
			"per-operation lines. Where it differs from YCSB: docs/ycsb.md.",
		DefaultTarget: "sqlite://dbdyno-ycsb.db",
		NeedsDB:       true,
		Sections:      []string{"measurement"},
		Metrics:       []workload.MetricDesc{mThroughput, mOpP95, mCPUPerOp},
		SQL:           Files,
		Derive:        runner.Measured(metrics),
		Work:          work,
		Commands: []*workload.Command{
			workload.NewMeasured(workload.Command{Name: "load",
				Short:      "YCSB's load phase: insert the records (insertstart, insertcount of recordcount), one INSERT each, by client threads",
				Target:     workload.ManyTargets,
				Positional: "ycsb-args",
				Example:    "  dbdyno ycsb load --workload a -p recordcount=100000 --threads 8 --target postgres://...\n  dbdyno ycsb load --target mysql://... -- -P workloads/workloada -p recordcount=100000 -threads 8",
			}, &LoadFlags{}, vuCommand[LoadFlags]{phase: "load", VU: runner.VU[LoadFlags]{
				Check: func(o *LoadFlags) error {
					if o.Drop && o.Shard.On() {
						return fmt.Errorf("--shard %s with --drop: each shard would drop the records its sister shards load; drop the table first (dbdyno ycsb drop), then load the shards without --drop", o.Shard)
					}
					return nil
				},
				Open: func(ctx context.Context, s *runner.Setup, o *LoadFlags) (runner.Session, error) {
					return openSession(ctx, s, "load", &o.Properties, o.Drop)
				}},
				users: func(o *LoadFlags) *runner.Users { return &o.Users }, props: func(o *LoadFlags) *Properties { return &o.Properties }}),
			workload.NewMeasured(workload.Command{Name: "run",
				Short:      "YCSB's transaction phase: operationcount operations in the workload's proportions, reporting ops/s and each operation's latency",
				Target:     workload.ManyTargets,
				Existing:   true,
				Positional: "ycsb-args",
				Example:    "  dbdyno ycsb run --workload a -p recordcount=100000 -p operationcount=1000000 --threads 8 --target postgres://...\n  dbdyno ycsb run --workload b -p recordcount=100000 -p target=5000 --duration 5m --target mysql://...",
			}, &RunFlags{}, vuCommand[RunFlags]{phase: "run", VU: runner.VU[RunFlags]{
				Open: func(ctx context.Context, s *runner.Setup, o *RunFlags) (runner.Session, error) {
					return openSession(ctx, s, "run", &o.Properties, false)
				}},
				users: func(o *RunFlags) *runner.Users { return &o.Users }, props: func(o *RunFlags) *Properties { return &o.Properties }}),
			runner.CheckCommand("verify YCSB's table: the records the loads and runs put there, every key of YCSB's form, no field missing", OpenRecorded),
			workload.DropCommand("remove YCSB's table and dbdyno's record of it (only when dbdyno loaded them)", OpenRecorded),
		},
		Datasets: []*bulk.Dataset{Dataset},
		Report:   report.MeasurementSection,
	})
}

// Properties are YCSB's ways of saying what to run, shared by load and run.
type Properties struct {
	Workload string   `flag:"workload" help:"YCSB's core workload a, b, c, d, e or f from dbdyno's copies of YCSB's workloads/workloadX (read before the -P files)"`
	Files    []string `flag:"property-file" short:"P" help:"a YCSB property file, as YCSB's -P (repeatable: a later file's properties over an earlier's); workloads/workloada..f is dbdyno's embedded copy when there is no such file"`
	Set      []string `flag:"property" short:"p" help:"a YCSB property NAME=VALUE, as YCSB's -p (repeatable), over every file's: -p recordcount=100000 -p requestdistribution=uniform"`
	Args     []string `flag:"ycsb-args" hidden:"true" plan:"-" help:"YCSB's own command line, after --: -P FILE -p NAME=VALUE -threads N -target N -s"`
	Resolved string   `flag:"ycsb-resolved" hidden:"true" plan:"-" help:"the properties as the command resolved them (set by dbdyno)"`
}

// LoadFlags are `ycsb load`'s options.
type LoadFlags struct {
	runner.Users `vus.alias:"threads" vus.sweep:"by client threads" vus.help:"client threads (YCSB's -threads, threadcount), one connection each; a list 1,2,4 sweeps them; default threadcount, else 1" rampup.default:"0s" rampup.help:"refused: every insert of a load is measured" rate.help:"YCSB's -target: inserts per second over all threads, as an open loop (latency counts from each insert's intended start); default the target property, else as fast as the threads go"`
	Properties
	Drop              bool `flag:"drop" help:"replace dbdyno's YCSB table and its record (never a table dbdyno did not make)"`
	workload.Sharding `shard.help:"load shard I of N (I/N, e.g. 2/4) of the records: the I-th of N even ranges of insertstart..insertstart+insertcount, as YCSB's several loading drivers are given by hand; merge the shards' results with dbdyno results merge"`
}

// RunFlags are `ycsb run`'s options.
type RunFlags struct {
	runner.Users `vus.alias:"threads" vus.sweep:"by client threads" vus.help:"client threads (YCSB's -threads, threadcount), one connection each; a list 1,2,4 sweeps them; default threadcount, else 1" rampup.default:"0s" rampup.help:"time before measuring starts (YCSB measures from the first operation: 0s)" rate.help:"YCSB's -target: operations per second over all threads, as an open loop (latency counts from each operation's intended start, as YCSB's measurement.interval=intended); default the target property, else closed loop" transactions.help:"end after this many operations (all threads together); default operationcount, unless --duration or maxexecutiontime is given" duration.help:"measured time, when neither --transactions nor operationcount ends the run (default maxexecutiontime, else 60s)"`
	Properties
	workload.Sharding `shard.help:"drive shard I of N (I/N, e.g. 2/4): the I-th share of operationcount (or of the run's time) over all the records, from random streams of the shard's own; refused for a workload that inserts (d, e); merge the shards' results with dbdyno results merge"`
}

// vuCommand is runner.VU with YCSB's properties settled first (settle): what they say of threads, target and
// the measured window becomes the runner's options where no flag said otherwise.
type vuCommand[T any] struct {
	runner.VU[T]
	phase string
	users func(*T) *runner.Users
	props func(*T) *Properties
}

func (c vuCommand[T]) Prepare(o *T, v *workload.Values) error {
	if _, err := settle(c.phase, c.props(o), c.users(o), v, any(o).(interface{ Sharded() workload.Shard }).Sharded()); err != nil {
		return err
	}
	return c.VU.Prepare(o, v)
}

// The workload's metrics: throughput (YCSB's headline, every completed operation per second), each operation's
// p95 latency, the client's CPU per operation.
var (
	mThroughput = workload.MetricDesc{Name: "throughput", Unit: "ops/s", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	mOpP95      = workload.MetricDesc{Name: "<operation> p95 latency", Unit: "ms", Better: result.Lower}
	mCPUPerOp   = workload.MetricDesc{Name: "client CPU per operation", Unit: "µs", Better: result.Lower}
)

func metrics(r *result.Result, m *result.Measurement) []result.Metric {
	out := runner.FigureMetric(nil, mThroughput.WithNoise(result.IntervalsNoise()), r, "ops_per_s")
	out = runner.P95Metrics(out, mOpP95, m, OpNames)
	return runner.FigureMetric(out, mCPUPerOp, r, "client_cpu_us_per_op")
}

// work keeps runs of different work apart: the phase, the records and fields, and a run's operations and
// distribution.
func work(r *result.Result) string {
	o := r.Options
	w := fmt.Sprintf("%v: %v records of %v fields x %v bytes (%v), %v keys", o["phase"], o["recordcount"], o["fieldcount"], o["fieldlength"],
		o["fieldlengthdistribution"], o["insertorder"])
	if o["phase"] == "load" {
		return w + fmt.Sprintf(", records %v from %v", o["insertcount"], o["insertstart"])
	}
	var mix []string
	for op, k := range proportionKeys {
		if v, ok := o[k].(float64); ok && v > 0 {
			mix = append(mix, fmt.Sprintf("%s %v", OpNames[op], v))
		}
	}
	w += "; " + strings.Join(mix, ", ") + fmt.Sprintf("; %v", o["requestdistribution"])
	if v, ok := o["readallfields"].(bool); ok && !v {
		w += ", one field read"
	}
	if v, ok := o["writeallfields"].(bool); ok && v {
		w += ", every field written"
	}
	if v, ok := o["maxscanlength"]; ok {
		w += fmt.Sprintf(", scans of %v..%v (%v)", o["minscanlength"], v, o["scanlengthdistribution"])
	}
	if v, ok := o["insertcount"]; ok && fmt.Sprint(v) != fmt.Sprint(o["recordcount"]) {
		w += fmt.Sprintf(", records %v from %v", v, o["insertstart"])
	}
	return w
}

// Check is `ycsb check`'s: SQLite's own integrity check where the engine has one, then the table's records
// against what the loads and runs recorded, YCSB's key form and the fields.
func (db *DB) Check(ctx context.Context) ([]result.Check, error) {
	if err := db.Data.Integrity(ctx); err != nil {
		return nil, err
	}
	rec, err := db.Record(ctx)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, fmt.Errorf("%s has no YCSB table loaded by dbdyno: load one with 'dbdyno ycsb load --target %s'", db.T, db.T)
	}
	if ok, err := db.T.Engine.TableExists(ctx, db.Data.SQL, rec.Layout.Table); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("%s lacks YCSB's table %s that dbdyno loaded: load it again with --drop", db.T, rec.Layout.Table)
	}
	n, err := db.count(ctx, "count_records")
	if err != nil {
		return nil, err
	}
	loaded := rec.LoadedRecords()
	inserted := max(0, rec.NextInsert-rec.RecordCount)
	c := result.Check{Name: "records", Passed: n >= loaded && n <= loaded+inserted}
	if !c.Passed {
		c.Detail = fmt.Sprintf("the table holds %d records; the loads finished %d (%s) and runs inserted up to %d more", n, loaded, rec.loadedText(), inserted)
	}
	if rec.Status != "ready" {
		c.Passed = false
		c.Detail = strings.TrimSpace(c.Detail + fmt.Sprintf(" the loads finished %s of %d records: the load is not complete", rec.loadedText(), rec.RecordCount))
	}
	out := []result.Check{c}
	for _, k := range []struct{ name, stmt, what string }{
		{"keys", "check_keys", "every key is YCSB's (user and the key number)"},
		{"fields", "check_fields", "every field of every record has a value"},
	} {
		r, err := runner.Violations(ctx, db.Data.SQL, k.name, k.what, db.Stmts[k.stmt].SQL)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

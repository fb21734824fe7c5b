// Package workload is the seam every benchmark plugs into. A workload is one package that describes itself
// (Meta), declares its commands with their flags once (the CLI, plans and sweeps derive from them), its
// metric descriptors, and, for its measured command, how one run starts, measures and finishes; the method
// (internal/method) does the rest: repeats, warm-up, sweeps, several targets, the result and the store. A
// workload registers itself from init; internal/workloads/all lists the packages, one line each.
//
// The shape follows cockroachdb's pkg/workload (Meta, Flags with metadata, a registry the CLI is built from),
// written for dbdyno's method and result.
package workload

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/abort"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Meta describes a workload: its one registration. Register makes known everything it carries (its commands,
// its result kind, its datasets, its report sections), so that a workload is registered in one place.
type Meta struct {
	Name  string // the command: dbdyno NAME ...
	Short string
	Long  string
	// DefaultTarget is the --target a command gets unless told otherwise ("" for a workload without a
	// database, such as a storage probe).
	DefaultTarget string
	NeedsDB       bool
	Metrics       []MetricDesc
	Commands      []*Command
	// SQL lists the statements the workload runs on an engine, file by file, as they run (dbdyno sql).
	SQL func(e *engine.Engine) ([]*sqlfile.File, error)
	// Supports says why the workload does not run on an engine (nil where it does, and when unset).
	Supports func(e *engine.Engine) error
	// Derive computes a result's metrics from its own sections: the workload's runs, and results written before
	// results carried their metrics.
	Derive func(r *result.Result) []result.Metric
	// Upgrade, when set, fills what a version-1 result of the workload lacks besides its metrics.
	Upgrade func(r *result.Result)
	// Work describes the settings of a run that change the work it does (scale, refresh, warehouses, mode):
	// runs whose work differs are not compared.
	Work func(r *result.Result) string
	// Describe, when set, names a run's own settings in a few words, as the workload's users name them
	// ("randread 8k Q32T2"): configurations that labels and targets do not tell apart are named by it.
	Describe func(r *result.Result) string
	// Sections are the parts every run's result holds ("measurement", "analytic"): a result without them is
	// refused when read (an aggregate holds its metrics and parts instead).
	Sections []string
	// Datasets are the tables its builds make, one build record each, so that another workload's build can tell
	// them from a user's (bulk.Register).
	Datasets []*bulk.Dataset
	// Report is its part of a run's report, between the run's metrics and its system metrics (nil: the
	// measurement's, report.MeasurementSection). StudyReport is its own view of a study after the study's
	// tables (CrystalDiskMark's grids side by side), nil for none.
	Report      report.Section
	StudyReport report.StudySection
}

// Command is one verb of a workload: `dbdyno NAME VERB`, or `dbdyno NAME` when its Name is "".
type Command struct {
	Name  string
	Short string
	Long  string
	Flags []Flag
	// Target: whether it takes --target, and how many.
	Target TargetUse
	// Do runs a plain command (build, check, drop, gen, ...).
	Do func(ctx context.Context, env *Env, v *Values) error
	// Measured is set for the command whose runs go through the method (repeats, sweeps, targets, results).
	Measured Measured
	// Existing says the command works on what a build made (a run, check, validate, drop): its targets are
	// opened only if they exist, an embedded target's missing file refused rather than created empty.
	Existing bool
	// Positional names the command's Strings flag that takes the command line's arguments too, after the flag's
	// own values (dbdyno script run A.sql B.sql@5); "" for a command that takes none.
	Positional string
	// Example is two or three command lines the help ends with, indented two spaces.
	Example string
	// ColdInStart says the measured command runs --cold-cmd itself in Start, through Spec.Cold, once its data
	// is ready (a probe that builds its tables in the run); otherwise the method runs it before Start.
	ColdInStart bool
	// Live says the measured command's runs report to Spec.Live though they run no virtual users (TPC-H's
	// queries): it takes --metrics-addr and --live as the user-driven ones do.
	Live bool
}

// TakeArgs adds a command line's positional arguments to the command's Positional flag (cobra and Invoke
// refuse arguments to a command without one).
func (c *Command) TakeArgs(v *Values, args []string) *Values {
	if len(args) == 0 || c.Positional == "" {
		return v
	}
	return v.Set(c.Positional, append(v.Strings(c.Positional), args...))
}

// TargetUse says whether a command takes --target.
type TargetUse int

const (
	NoTarget    TargetUse = iota
	OneTarget             // --target URL
	ManyTargets           // --target URL, repeatable: run against every target at the same time
)

// Live takes a run's figures as they happen (the runner calls it; lib/metrics serves them to Prometheus).
type Live interface {
	Done(tx string, d time.Duration, outcome string, retries int, measured bool)
	Users(n int)
	Phase(p string)
	Lag(d time.Duration)
	// Interval is an interval as it ends: all units of work per minute, errors, the slowest type's p95 (ms).
	Interval(elapsed time.Duration, perMinute float64, errors int64, p95ms float64, measured bool)
}

// Env is what a command gets besides its flags.
type Env struct {
	Out     io.Writer // progress and results
	Err     io.Writer // where the progress goes when Out takes a machine-read summary (--output-format json); nil: nowhere
	Targets []*engine.Target
	Version string   // dbdyno's
	Args    []string // the command line, passwords redacted
}

// Target is the command's one target.
func (e *Env) Target() *engine.Target {
	if len(e.Targets) == 0 {
		return nil
	}
	return e.Targets[0]
}

// Measured is a workload's measured command.
type Measured interface {
	// Prepare checks the flags before anything runs and settles what the whole command shares (a seed drawn
	// from the clock once, for every run).
	Prepare(v *Values) (*Values, error)
	// Warmup says whether the method runs one warm-up run (on every target) before the measured ones, and
	// what it is, for the progress line ("30s", "one stream").
	Warmup(v *Values) (bool, string)
	// Start opens the target and prepares one run (one repeat of one sweep point on one target).
	Start(ctx context.Context, s Spec) (Run, error)
}

// Spec is one run's setting.
type Spec struct {
	// Live, when set (--metrics-addr), takes the run's figures as they happen: each unit of work's end, the
	// users, the phase and the schedule's lag.
	Live   Live
	Target *engine.Target // nil for a workload without a database
	Values *Values        // the swept flag holds this run's value
	Warmup bool           // the warm-up run
	Out    io.Writer      // its progress lines
	// Cold is the run's cold start (--cold-cmd) for a command that places it itself (Command.ColdInStart):
	// the command, then the wait for the target; nil when there is none (and for every other command, whose
	// cold start the method runs before Start).
	Cold func(ctx context.Context) error
	// StartAt, when set, is the instant (on this host's clock) the measured window starts (--start-at): a Run
	// that is a StartsAt starts it itself after its ramp-up; before any other Run measures, the method waits.
	StartAt time.Time
	// Steps, when set, is a stepped load by users (--steps) run as one loop of virtual users, for a Run that is a
	// StepsRun: each step adds users to those running, ramps up and measures a window of its own; StepDone gets
	// each step's part of the result as its window ends (the result so far with the step's measurement, figures
	// and options), with the step's error.
	Steps    []LoadStep
	StepDone func(i int, part *result.Result, err error)
	// StepEdge, when set with Steps, is called at each step's window edges, on the runner's goroutine: at its
	// start edge before the window opens (end false), at its end edge after it closed (end true), as the
	// workload's own edge reads are (the method reads the database's counters and marks the wait samples there).
	StepEdge func(ctx context.Context, i int, end bool)
}

// LastStep names the part of the run a workload's own summary is of when it is not the whole run: "the last
// step (N of N)" after a stepped load (Finish gets the last step's result; the steps' table follows it), "" else.
func (s *Spec) LastStep() string {
	if len(s.Steps) == 0 || s.Warmup {
		return ""
	}
	return fmt.Sprintf("the last step (%d of %d)", len(s.Steps), len(s.Steps))
}

// LoadStep is one step of Spec.Steps: its users (the earlier steps' included), ramp-up and measured time; by
// rate (an open-loop run's --steps --by rate), its rate per second, VUs 0 (the run's users).
type LoadStep struct {
	VUs              int
	Rampup, Duration time.Duration
	Rate             float64
}

// StepsRun is a Run that takes Spec.Steps (the shared virtual-user runner's); the method runs each step of
// another Run as a run of its own.
type StepsRun interface {
	TakesSteps() bool
}

// TxNamed is a Run that knows its transactions' names before it measures (the shared virtual-user runner's):
// what names them (--find-peak --sla TX.STAT<LIMIT) is checked before the first run measures, not after it.
type TxNamed interface {
	TransactionNames() []string
}

// StartsAt is a Run that starts its measured window at its Spec's StartAt itself (its ramp-up lasting until
// then); the method waits until StartAt before it measures a Run that is not one.
type StartsAt interface {
	StartsAt() bool
}

// Run is one prepared run.
type Run interface {
	// ServerVersion and Options are known before measuring starts; the result records them.
	ServerVersion() string
	Options() map[string]any
	// Measure runs the measured part and fills the result's sections (measurement, analytic, figures); the
	// error says why it did not complete. measured is false when nothing was measured (no result then).
	Measure(ctx context.Context, res *result.Result) (measured bool, err error)
	// Finish runs after measuring stopped and the result's status is set: the summary, checks.
	Finish(ctx context.Context, res *result.Result) error
	Close()
}

// Inputs is a Measured whose command works on files of its own (a storage probe's files or device): the
// method refuses a results store or result file that is one of them, as it does a target's database file.
type Inputs interface {
	Inputs(v *Values) ([]string, error)
}

// Aggregator is a Measured that combines the targets of a multi-target run itself; otherwise the metrics
// marked "sum" are added up and those marked "max" take the largest.
type Aggregator interface {
	Aggregate(parts []*result.Result) []result.Metric
}

// ErrAborted is returned (wrapped) when a run was stopped by its context, e.g. by Ctrl-C: the same error as
// abort.ErrAborted, which the layers below workload wrap.
var ErrAborted = abort.ErrAborted

// MetricDesc describes one of a workload's metrics.
type MetricDesc struct {
	Name      string
	Unit      string
	Better    result.Better
	Headline  bool
	PerCore   bool   // normalised per physical core of the database host
	PerPrice  bool   // normalised per price_per_hour label
	Aggregate string // how targets run at once combine: "sum", "max" or ""
	// Elapsed marks a time a fixed piece of work took: its change is said as the time ratio (faster, slower).
	Elapsed bool
	// Noise names the samples one run's noise estimate of it comes from (result.Metric's Noise), "" for none.
	Noise string
}

// Value is the metric with a value.
func (d MetricDesc) Value(v float64) result.Metric {
	return result.Metric{Name: d.Name, Unit: d.Unit, Better: d.Better, Value: v, Headline: d.Headline, PerCore: d.PerCore,
		PerPrice: d.PerPrice, Aggregate: d.Aggregate, Elapsed: d.Elapsed, Noise: d.Noise}
}

// WithNoise is the descriptor with its noise source (result.Metric's Noise).
func (d MetricDesc) WithNoise(src string) MetricDesc { d.Noise = src; return d }

// Named is the descriptor under another name (a family of metrics: "power test: time to complete").
func (d MetricDesc) Named(name string) MetricDesc { d.Name = name; return d }

var registry = map[string]*Meta{}

// Register adds a workload; each workload package calls it from init.
func Register(m *Meta) {
	if _, dup := registry[m.Name]; dup {
		panic("workload " + m.Name + " registered twice")
	}
	for _, c := range m.Commands {
		if c.Measured != nil && c.Target == NoTarget && m.NeedsDB {
			panic("workload " + m.Name + ": a measured command of a database workload takes targets")
		}
	}
	registry[m.Name] = m
	result.RegisterKind(m.kind())
	for _, d := range m.Datasets {
		bulk.Register(d)
	}
	if m.Report != nil {
		report.RegisterSection(m.Name, m.Report)
	}
	if m.StudyReport != nil {
		report.RegisterStudySection(m.Name, m.StudyReport)
	}
}

// kind is what the result layer knows of the workload's results: their sections and hooks, and how a sweep
// over each of its flags is worded (the first command naming a flag words it).
func (m *Meta) kind() *result.Kind {
	k := &result.Kind{Workload: m.Name, Sections: m.Sections, Derive: m.Derive, Upgrade: m.Upgrade, Work: m.Work, Describe: m.Describe,
		SweepTitles: map[string]string{}}
	for _, c := range m.Commands {
		for _, f := range c.Flags {
			if _, ok := k.SweepTitles[f.Name]; !ok {
				k.SweepTitles[f.Name] = f.Title()
			}
		}
	}
	return k
}

// Lookup finds a workload by name.
func Lookup(name string) (*Meta, bool) {
	m, ok := registry[name]
	return m, ok
}

// All lists the workloads by name.
func All() []*Meta {
	out := make([]*Meta, 0, len(registry))
	for _, m := range registry {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names lists the workloads' names, for messages.
func Names() []string {
	var out []string
	for _, m := range All() {
		out = append(out, m.Name)
	}
	return out
}

// Help is the workload's description with its metrics, for `dbdyno NAME --help`.
func (m *Meta) Help() string {
	var b strings.Builder
	b.WriteString(m.Long)
	if len(m.Metrics) > 0 {
		b.WriteString("\n\nMetrics:")
		for _, d := range m.Metrics {
			fmt.Fprintf(&b, "\n  %s", d.Name)
			if d.Unit != "" {
				fmt.Fprintf(&b, " (%s)", d.Unit)
			}
			fmt.Fprintf(&b, ": %s is better", d.Better)
			if d.Headline {
				b.WriteString("; the headline")
			}
			if d.PerCore {
				b.WriteString("; also per database core")
			}
			if d.Aggregate != "" {
				fmt.Fprintf(&b, "; several targets: the %s", d.Aggregate)
			}
		}
	}
	return b.String()
}

// Command finds one of the workload's commands.
func (m *Meta) Command(name string) (*Command, bool) {
	for _, c := range m.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// Shortcut is a top-level command that runs other commands in turn (dbdyno quickstart).
type Shortcut struct {
	Name  string
	Short string
	Flags func() []Flag
	Steps func(v *Values) [][]string // the command lines it runs, in order
}

var shortcuts []*Shortcut

// RegisterShortcut adds a shortcut; a workload package calls it from init.
func RegisterShortcut(s *Shortcut) { shortcuts = append(shortcuts, s) }

// Shortcuts lists the shortcuts.
func Shortcuts() []*Shortcut { return shortcuts }

// Headline marks the first metric named in order as the headline (the first of them the result has).
func Headline(ms []result.Metric, order ...string) []result.Metric {
	for _, name := range order {
		for i := range ms {
			if ms[i].Name == name {
				ms[i].Headline = true
				return ms
			}
		}
	}
	return ms
}

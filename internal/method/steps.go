package method

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/host/agent"
	"github.com/dbdyno/dbdyno/internal/host/envinfo"
	"github.com/dbdyno/dbdyno/internal/method/peak"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// StepFlags are the stepped load's options, every user-driven command's: one run whose parts are the loads
// given, its ramp-up left out of its figures. The steps are one loop of virtual users (the shared runner's
// RunSteps): by users, each step grows or shrinks it (a step connects only the users it adds, and stops its
// surplus users after their unit of work in flight before it ramps up); by rate, the run's users take each
// step's rate in turn, the open-loop schedule changed at the step's start.
type StepFlags struct {
	Steps        string        `flag:"steps" plan:"-" help:"stepped load in one run: the loads in turn, e.g. 2,4,8,16 (whole users, or rates per second with --by rate, a decimal too: 0.5,1,2.5), each step a part of one result; users are one loop, each step keeping the users running and adding its own (or stopping its surplus after their work in flight), with its own throughput and percentiles; the result's headline is its best step's"`
	StepDuration time.Duration `flag:"step-duration" default:"60s" plan:"-" help:"with --steps: each step's length, its ramp-up included"`
	StepRampup   time.Duration `flag:"step-rampup" plan:"-" help:"with --steps: the start of each step left out of its figures (default: a sixth of --step-duration)"`
}

// stepping is a stepped load, checked.
type stepping struct {
	loads    []float64     // each step's load: whole users, or a rate per second (a decimal too)
	flag     workload.Flag // the setting each step sets: vus or rate
	duration time.Duration // each step's measured time
	rampup   time.Duration
	// timed are the flags a step's run is timed by: --rampup and --duration (runner.Timing's)
	timed [2]workload.Flag
}

// stepsGiven says whether the command has the stepped load's options (StepFlags; a workload may have a --steps
// of its own, as probe cpu's doubling steps) and was given --steps.
func stepsGiven(v *workload.Values) bool {
	o, ok, _ := workload.Group[StepFlags](v)
	return ok && strings.TrimSpace(o.Steps) != ""
}

// readSteps reads --steps and its options: nil when it is off (its other options are then refused as
// unused); swept is the flag given a list, if any.
func readSteps(v *workload.Values, swept string) (*stepping, error) {
	o, ok, err := workload.Group[StepFlags](v)
	if err != nil || !ok {
		return nil, err
	}
	if strings.TrimSpace(o.Steps) == "" {
		for _, f := range []*time.Duration{&o.StepDuration, &o.StepRampup} {
			if v.Given(o, f) {
				return nil, fmt.Errorf("--%s is an option of a stepped load: add --steps, e.g. --steps 2,4,8, or leave it out", v.FlagOf(o, f).Name)
			}
		}
		return nil, nil
	}
	p, _, err := workload.Group[peak.Flags](v)
	if err != nil {
		return nil, err
	}
	t, _, err := workload.Group[runner.Timing](v)
	if err != nil {
		return nil, err
	}
	u, users, err := workload.Group[runner.Users](v)
	if err != nil {
		return nil, err
	}
	switch {
	case p.FindPeak:
		return nil, fmt.Errorf("--steps runs the loads given and --find-peak chooses its own: give one of them")
	case swept != "":
		return nil, fmt.Errorf("--steps sets each step's load: give --%s one value (or none), not a list", swept)
	case v.Given(t, &t.Duration) || v.Given(t, &t.Rampup):
		return nil, fmt.Errorf("--duration and --rampup time a plain run: with --steps each step lasts --step-duration and its first --step-rampup is not measured")
	case users && u.Transactions > 0:
		return nil, fmt.Errorf("--steps times each step with --step-duration and --transactions ends a run by a count: give one of them")
	case users && u.LogLatency != "":
		return nil, fmt.Errorf("--log-latency holds one run's transactions and --steps makes a run per step: run the step you want logged on its own")
	}
	st := &stepping{timed: [2]workload.Flag{v.FlagOf(t, &t.Rampup), v.FlagOf(t, &t.Duration)}}
	switch p.By {
	case "users":
		st.flag = v.FlagOf(t, &t.VUs)
	case "rate":
		if !users {
			return nil, fmt.Errorf("--by rate steps the open-loop --rate, and this command has none: use --by users")
		}
		st.flag = v.FlagOf(u, &u.Rate)
		if err := runner.RateWithThinking("--steps "+o.Steps+" --by rate", v); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("--by %q is not known: use users or rate", p.By)
	}
	for _, term := range strings.Split(o.Steps, ",") {
		n, err := st.parseLoad(strings.TrimSpace(term))
		if err != nil {
			return nil, fmt.Errorf("--steps %q: %w", o.Steps, err)
		}
		st.loads = append(st.loads, n)
	}
	if o.StepDuration <= 0 {
		return nil, fmt.Errorf("--step-duration must be positive (got %s)", o.StepDuration)
	}
	st.rampup = o.StepDuration / 6
	if v.Given(o, &o.StepRampup) {
		st.rampup = o.StepRampup
	}
	if st.rampup < 0 || st.rampup >= o.StepDuration {
		return nil, fmt.Errorf("--step-rampup %s must be at least 0 and shorter than --step-duration %s (the rest of the step is measured)", st.rampup, o.StepDuration)
	}
	st.duration = o.StepDuration - st.rampup
	return st, nil
}

// parseLoad reads one step's load: a rate (--by rate) is any positive number of units of work per second, a
// decimal too (pgbench -R 2.5); users are whole, at least 1.
func (st *stepping) parseLoad(term string) (float64, error) {
	if st.flag.Kind == workload.Float {
		f, err := strconv.ParseFloat(term, 64)
		if err != nil || !(f > 0) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("each step is a rate above 0 in units of work per second, e.g. --steps 0.5,1,2.5 (got %q)", term)
		}
		return f, nil
	}
	n, err := strconv.Atoi(term)
	if err != nil {
		if f, ferr := strconv.ParseFloat(term, 64); ferr == nil && f > 0 && !math.IsInf(f, 0) {
			return 0, fmt.Errorf("users are whole: %q is not a number of users; give whole numbers, e.g. --steps 1,2,4, or step the open-loop rate with --by rate", term)
		}
	}
	if err != nil || n < 1 {
		return 0, fmt.Errorf("each step is a whole number of users of at least 1, e.g. --steps 2,4,8,16 (got %q)", term)
	}
	if n > workload.MaxCount { // --vus's own bound: a step had added 99,999 users
		return 0, fmt.Errorf("a step is at most %d users, as --vus is (got %d)", workload.MaxCount, n)
	}
	return float64(n), nil
}

// loadText is a step's load as given: the shortest decimal that reads back as it (2.5, never 2.5000000001).
func loadText(load float64) string { return strconv.FormatFloat(load, 'f', -1, 64) }

// values are a step's: its load, ramp-up and measured time.
func (st *stepping) values(v *workload.Values, load float64) *workload.Values {
	if st.flag.Kind == workload.Float { // --rate, as given
		v = v.Set(st.flag.Name, load)
	} else { // users, whole (parseLoad)
		v = setLoad(v, st.flag, int(load))
	}
	return v.Set(st.timed[0].Name, st.rampup).Set(st.timed[1].Name, st.duration)
}

// errNoSteps is once's when its run does not take a stepped load in one loop (workload.StepsRun).
var errNoSteps = errors.New("the run does not take steps in one loop")

// stepPlan is one target's stepped load by users run as one loop of virtual users: each step's part of the
// result, as its window ended.
type stepPlan struct {
	st    *stepping
	parts []*result.Result
	ms    *measured      // the run's surroundings (set once they started): the counters read at the step edges
	edges []stepEdges    // each step's reads at its window's edges
	whole *result.Result // the whole run's system metrics, counters and waits (finish), the stepped result's own
}

// stepEdges are one step's reads at its window's edges: the database's counters and the wait tally.
type stepEdges struct {
	c0, c1 map[string]float64
	w0, w1 waitMark
}

// spec makes a run's spec take the steps: each step's part gets its status and metrics (m's), and its line.
func (p *stepPlan) spec(spec *workload.Spec, m *workload.Meta, t *engine.Target, out io.Writer) {
	for _, load := range p.st.loads {
		if p.st.flag.Name == "rate" { // the run's users, at the step's rate
			spec.Steps = append(spec.Steps, workload.LoadStep{Rate: load, Rampup: p.st.rampup, Duration: p.st.duration})
			continue
		}
		spec.Steps = append(spec.Steps, workload.LoadStep{VUs: int(load), Rampup: p.st.rampup, Duration: p.st.duration})
	}
	spec.StepEdge = func(ctx context.Context, i int, end bool) {
		for len(p.edges) <= i {
			p.edges = append(p.edges, stepEdges{})
		}
		e := &p.edges[i]
		if p.ms == nil {
			return
		}
		if end {
			e.c1, e.w1 = p.ms.counters(ctx), p.ms.dbs.mark()
		} else {
			e.c0, e.w0 = p.ms.counters(ctx), p.ms.dbs.mark()
		}
	}
	spec.StepDone = func(i int, part *result.Result, err error) {
		part.Status = result.StatusOK
		if err == nil && m.Derive != nil {
			err = zeroHeadline(m.Derive(part))
		}
		if err != nil {
			part.Status, part.Error = result.StatusFailed, t.Scrub(err.Error())
			if errors.Is(err, workload.ErrAborted) {
				part.Status = result.StatusAborted
			}
		}
		if m.Derive != nil {
			part.Metrics = m.Derive(part)
		}
		p.parts = append(p.parts, part)
		fmt.Fprintln(out, p.st.line(i, part))
		if n := len(p.st.loads); err == nil && i+1 < n {
			kept := fmt.Sprintf("the %d users running kept", part.Measurement.VUs)
			if next := int(p.st.loads[i+1]); next < part.Measurement.VUs {
				kept = fmt.Sprintf("%d of the %d users running kept", next, part.Measurement.VUs)
			}
			fmt.Fprintf(out, "\n== step %d of %d: %s=%s, %s (%s ramp-up, %s measured)\n", i+2, n, p.st.flag.Name, loadText(p.st.loads[i+1]),
				kept, p.st.rampup, p.st.duration)
		}
	}
}

// finish gives each step's part its own system metrics (the samples within its window, the database host's
// too with an agent), counters (read at its window's edges) and waits (sampled between them), and what only
// the whole run has: the environment, the checks after it. The whole run's system metrics, counters and waits
// are kept for the stepped result (whole).
func (p *stepPlan) finish(res *result.Result, ms *measured, rec *agent.Recorder) {
	p.whole = &result.Result{System: res.System, ServerSystem: res.ServerSystem, DBCounters: res.DBCounters, Waits: res.Waits}
	for i, part := range p.parts {
		part.Environment, part.Checks = res.Environment, res.Checks
		part.System, part.ServerSystem, part.DBCounters, part.Waits = nil, nil, nil, nil
		m := part.Measurement
		if m == nil || m.MeasuredSecs <= 0 {
			continue // no window opened: nothing of its own
		}
		if ms != nil {
			part.System = ms.sampler.Window(m.MeasureStart, m.MeasureEnd)
		}
		if rec != nil && res.ServerSystem != nil {
			part.ServerSystem = rec.Window(res.StartedAt, m.MeasureStart, m.MeasureEnd)
		}
		if i >= len(p.edges) {
			continue
		}
		e := p.edges[i]
		if d := envinfo.Delta(e.c0, e.c1); d != nil {
			if w := res.DBCounters; w != nil {
				d.IntervalS, d.Source = w.IntervalS, w.Source
				from, to := ms.secs(m.MeasureStart), ms.secs(m.MeasureEnd)
				for _, x := range w.Series {
					if x.T-w.IntervalS >= from && x.T <= to {
						d.Series = append(d.Series, x)
					}
				}
			}
			part.DBCounters = d
		}
		if ms != nil {
			part.Waits = ms.dbs.between(e.w0, e.w1)
		}
	}
}

// wholeRun sets the stepped result's system metrics, counters and waits to the whole run's (each step has its
// own in Steps).
func (p *stepPlan) wholeRun(r *result.Result) {
	if p.whole != nil {
		r.System, r.ServerSystem, r.DBCounters, r.Waits = p.whole.System, p.whole.ServerSystem, p.whole.DBCounters, p.whole.Waits
	}
}

// run runs the steps in turn on every target (runTargets) and makes each target's stepped result; a step that
// fails or does not start ends the stepping (a heavier load would not do better). cr is the repeat's cold
// start, before the first step only. The steps are one run whose loop of virtual users each step grows or
// shrinks (by users) or sets the rate of (by rate); for a run that does not take steps in one loop, each step
// is a run of its own.
func (st *stepping) run(ctx context.Context, out io.Writer, v *workload.Values, targets int, cr *coldRound,
	runTargets func(v *workload.Values, cr *coldRound, plans []*stepPlan) ([]*result.Result, []error)) ([]*result.Result, []error) {
	if res, errs, ok := st.oneLoop(out, v, targets, cr, runTargets); ok {
		return res, errs
	}
	parts := make([][]*result.Result, targets)
	errs := make([]error, targets)
	for i, load := range st.loads {
		if ctx.Err() != nil {
			break
		}
		fmt.Fprintf(out, "\n== step %d of %d: %s=%s (%s ramp-up, %s measured)\n", i+1, len(st.loads), st.flag.Name, loadText(load), st.rampup, st.duration)
		if i > 0 {
			cr = nil
		}
		res, es := runTargets(st.values(v, load), cr, nil)
		stop := false
		for t := range res {
			if res[t] != nil {
				parts[t] = append(parts[t], res[t])
				fmt.Fprintln(out, st.line(i, res[t]))
			}
			if es[t] != nil {
				errs[t] = fmt.Errorf("step %d of %d (%s=%s): %w", i+1, len(st.loads), st.flag.Name, loadText(load), es[t])
				stop = true
			}
		}
		if stop {
			break
		}
	}
	out2 := make([]*result.Result, targets)
	for t := range parts {
		if len(parts[t]) > 0 {
			out2[t] = st.combine(parts[t], errs[t])
			st.table(out, out2[t])
		}
	}
	return out2, errs
}

// oneLoop runs the steps by users as one run on each target, its loop of virtual users grown or shrunk at each
// step's start (runner.RunSteps: surplus users stop after their unit in flight, before the step ramps up); ok is false when the command's run does not take steps so (each step then runs on its own: a
// workload not on the shared runner, none today; a --cold-cmd then runs again before its first step).
func (st *stepping) oneLoop(out io.Writer, v *workload.Values, targets int, cr *coldRound,
	runTargets func(v *workload.Values, cr *coldRound, plans []*stepPlan) ([]*result.Result, []error)) ([]*result.Result, []error, bool) {
	plans := make([]*stepPlan, targets)
	for t := range plans {
		plans[t] = &stepPlan{st: st}
	}
	most := 0.0
	for _, l := range st.loads {
		most = max(most, l)
	}
	how := "each adding to or stopping some of those running"
	if st.flag.Name == "rate" {
		how = "each setting the rate of their open-loop schedule"
	}
	fmt.Fprintf(out, "\n== step 1 of %d: %s=%s (%s ramp-up, %s measured); the steps are one loop of virtual users, %s\n",
		len(st.loads), st.flag.Name, loadText(st.loads[0]), st.rampup, st.duration, how)
	// the run holds the most users any step has (the driver's CPU share, a workload's sizing)
	_, es := runTargets(st.values(v, most), cr, plans)
	none := true // no target's run took the steps
	for _, err := range es {
		none = none && errors.Is(err, errNoSteps)
	}
	if none {
		return nil, nil, false
	}
	res := make([]*result.Result, targets)
	errs := make([]error, targets)
	for t, p := range plans {
		if es[t] != nil {
			n := len(p.parts)
			if n < len(st.loads) && (n == 0 || p.parts[n-1].Status == result.StatusOK) {
				n++ // the error ended the step after the last part (or came before the first)
			}
			n = max(n, 1)
			errs[t] = fmt.Errorf("step %d of %d (%s=%s): %w", n, len(st.loads), st.flag.Name, loadText(st.loads[n-1]), es[t])
		}
		if len(p.parts) > 0 {
			res[t] = st.combine(p.parts, errs[t])
			p.wholeRun(res[t])
			st.table(out, res[t])
		}
	}
	return res, errs, true
}

// line is a step's progress line: its throughput, p95 and headline.
func (st *stepping) line(i int, r *result.Result) string {
	s := fmt.Sprintf("step %d of %d: %s=%s: %s, %s/s", i+1, len(st.loads), st.flag.Name, loadText(st.loads[i]), r.Status, compare.Format(peak.Throughput(r)))
	if p := peak.P95(r); !math.IsNaN(p) {
		s += ", p95 " + compare.Format(p) + " ms"
	}
	if h, ok := r.Headline(); ok {
		s += ", " + h.Name + " " + results.WithUnit(h, h.Value)
	}
	return s
}

// best is the step whose headline is best among those that ended ok (the last step when none did).
func best(parts []*result.Result) int {
	at := -1
	var bv float64
	for i, p := range parts {
		h, ok := p.Headline()
		if p.Status != result.StatusOK || !ok {
			continue
		}
		if at < 0 || (h.Better == result.Lower && h.Value < bv) || (h.Better != result.Lower && h.Value > bv) {
			at, bv = i, h.Value
		}
	}
	if at < 0 {
		return len(parts) - 1
	}
	return at
}

// combine makes the stepped result of one target's steps: the best step's figures (measurement, metrics,
// system metrics) as the run's, every step in Steps, the whole span of the steps, and the status of the worst
// step; err is the step error that ended the stepping.
func (st *stepping) combine(parts []*result.Result, err error) *result.Result {
	hi := best(parts)
	r := *parts[hi]
	r.RunID = result.NewID("r")
	r.StartedAt, r.EndedAt = parts[0].StartedAt, parts[len(parts)-1].EndedAt
	r.ColdStart = parts[0].ColdStart
	r.Options = map[string]any{}
	for k, v := range parts[hi].Options {
		r.Options[k] = v
	}
	loads := make([]string, len(st.loads))
	for i, l := range st.loads {
		loads[i] = loadText(l)
	}
	r.Options["steps"], r.Options["steps_by"] = strings.Join(loads, ","), st.flag.Name
	r.Options["step_duration_s"], r.Options["step_rampup_s"] = (st.duration + st.rampup).Seconds(), st.rampup.Seconds()
	r.Options["headline_step"] = hi + 1
	r.Status, r.Error = result.StatusOK, ""
	r.Steps = nil
	for i, p := range parts {
		s := result.Step{By: st.flag.Name, Load: st.loads[i], Status: p.Status, Error: p.Error, StartedAt: p.StartedAt, EndedAt: p.EndedAt,
			RampupS: st.rampup.Seconds(), ThroughputPerS: peak.Throughput(p), Metrics: p.Metrics, Headline: i == hi,
			System: p.System, ServerSystem: p.ServerSystem, DBCounters: p.DBCounters, Waits: p.Waits}
		s.CPUBusyPct, s.ServerCPUBusyPct = cpuBusy(p.System), cpuBusy(p.ServerSystem)
		if m := p.Measurement; m != nil {
			s.MeasuredS, s.Committed, s.Errors = m.MeasuredSecs, m.Committed, m.Errors
			if v, ok := m.P95Millis(); ok {
				s.P95Ms = v
			}
			s.Transactions = map[string]result.StepTx{}
			for name, tx := range m.Transactions {
				s.Transactions[name] = result.StepTx{Count: tx.Count, Errors: tx.Errors, Latency: tx.Latency}
			}
		}
		r.Steps = append(r.Steps, s)
		switch {
		case p.Status == result.StatusAborted:
			r.Status, r.Error = result.StatusAborted, fmt.Sprintf("step %d of %d (%s=%s) was aborted", i+1, len(st.loads), st.flag.Name, loadText(st.loads[i]))
		case p.Status != result.StatusOK && r.Status == result.StatusOK:
			r.Status, r.Error = result.StatusFailed, fmt.Sprintf("step %d of %d (%s=%s): %s", i+1, len(st.loads), st.flag.Name, loadText(st.loads[i]), p.Error)
		}
	}
	if err != nil && r.Status == result.StatusOK {
		r.Status, r.Error = result.StatusFailed, err.Error()
	}
	if r.Status == result.StatusOK && len(parts) < len(st.loads) {
		r.Status, r.Error = result.StatusFailed, fmt.Sprintf("%d of %d steps ran", len(parts), len(st.loads))
	}
	return &r
}

// cpuBusy is a system's mean CPU busy % over its samples (0 without any).
func cpuBusy(m *result.SystemMetrics) float64 {
	if m == nil || len(m.Samples) == 0 {
		return 0
	}
	return m.Summary["cpu_busy_pct"].Mean
}

// table prints a stepped result's steps: load, throughput, p95, the CPU busy % over the step's window (this
// machine's, and the database host's with an agent) and headline, the headline step marked.
func (st *stepping) table(out io.Writer, r *result.Result) {
	h, _ := r.Headline()
	server := false
	for _, s := range r.Steps {
		server = server || s.ServerSystem != nil
	}
	cpu := "CPU busy % (" + scopeOf(r.System) + ")"
	if server {
		cpu += ", database host CPU busy %"
	}
	fmt.Fprintf(out, "\nsteps (%s): throughput/s, p95 ms, %s, %s\n", st.flag.Name, cpu, h.Name)
	for i, s := range r.Steps {
		hv := "-"
		for _, m := range s.Metrics {
			if m.Headline {
				hv = results.WithUnit(m, m.Value)
			}
		}
		mark := ""
		if s.Headline {
			mark = "  <- headline (the best step)"
		}
		busy := "CPU " + busyText(s.System, s.CPUBusyPct)
		if server {
			busy += ", database host CPU " + busyText(s.ServerSystem, s.ServerCPUBusyPct)
		}
		fmt.Fprintf(out, "  %d. %s=%s: %s/s, p95 %s ms, %s, %s, %s%s\n", i+1, s.By, loadText(s.Load), compare.Format(s.ThroughputPerS), compare.Format(s.P95Ms), busy, hv, s.Status, mark)
	}
}

// busyText is a step's CPU busy %, "-" without samples in its window.
func busyText(m *result.SystemMetrics, pct float64) string {
	if m == nil || len(m.Samples) == 0 {
		return "-"
	}
	return compare.Format(pct) + "%"
}

// scopeOf is whose load a machine's figures show ("this machine" when not said).
func scopeOf(m *result.SystemMetrics) string {
	if m == nil || m.Scope == "" {
		return "this machine"
	}
	return m.Scope
}

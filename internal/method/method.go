// Package method runs a workload's measured command the way a study needs it: a warm-up run, sweeps over a
// flag, repeats with medians, several targets at the same time with their aggregate, each run's result
// assembled (environment, system metrics, database counters, metrics) and kept in result files and the
// results store. It is the same for every workload.
package method

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/livepage"
	"github.com/dbdyno/dbdyno/internal/lib/metrics"
	"github.com/dbdyno/dbdyno/internal/lib/outfile"
	"github.com/dbdyno/dbdyno/internal/results"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/host/agent"
	"github.com/dbdyno/dbdyno/internal/method/peak"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Flags are the settings every measured command shares (workload.Measuring).
func Flags() []workload.Flag {
	return workload.FlagsOf(&workload.Measuring{Store: store.DefaultPath})
}

// Targeting are the options of a command that takes targets (--target's help is the command's: TargetFlags).
type Targeting struct {
	Target         []string      `flag:"target" plan:"-"`
	ConnectTimeout time.Duration `flag:"connect-timeout" help:"a connection to a server that is not made within this time fails"`
	Schema         string        `flag:"schema" help:"work in this schema of --target's database, so that several workloads' tables live side by side in one database (a build creates it): PostgreSQL's search_path; on MySQL a schema is a database, so this names the database; on SQL Server it must be the user's default schema"`
}

// Exposing is a user-driven run's --metrics-addr: its figures served to Prometheus while it runs (lib/metrics).
type Exposing struct {
	MetricsAddr      string `flag:"metrics-addr" help:"serve the run's live figures at http://HOST:PORT/metrics in Prometheus's format while it runs (per transaction completions by outcome, retries, latency histograms, virtual users, phase, schedule lag); loopback unless a token is given"`
	MetricsTokenFile string `flag:"metrics-token-file" help:"a file holding the bearer token every scrape of --metrics-addr must send (else from DBDYNO_METRICS_TOKEN); needed for an address that is not loopback"`
	Live             string `flag:"live" help:"serve a page of the running command at http://HOST:PORT/: each run's phase, users, throughput and latency interval by interval as they come, then the result's; loopback unless a token is given"`
	LiveTokenFile    string `flag:"live-token-file" help:"a file holding the token the --live page's address must carry (?token=...; else from DBDYNO_LIVE_TOKEN); needed for an address that is not loopback"`
}

// Creating is a build's --create-database: a server's missing database is created before the build, as
// HammerDB's schema build creates its own (a SQL Server user may have no T-SQL client to do it with).
type Creating struct {
	CreateDatabase bool `flag:"create-database" help:"create --target's database on its server when it is missing (CREATE DATABASE from the server's postgres or master database; embedded engines create their file anyway)"`
}

// ServesMetrics says whether a command takes --metrics-addr and --live: a user-driven measured command (its
// runner reports each unit of work as it ends), or one that reports itself (Command.Live: TPC-H's queries).
func ServesMetrics(c *workload.Command) bool { return c.Measured != nil && (userDriven(c) || c.Live) }

// builds says whether a command is a build: it makes its target's tables, so it may make the database too.
func builds(c *workload.Command) bool {
	return c.Name == "build" && c.Target != workload.NoTarget && c.Measured == nil && !c.Existing
}

// TargetFlags are a command's --target and --connect-timeout: the workload's default target, and the help
// saying whether several targets run at once or in turn.
func TargetFlags(m *workload.Meta, use workload.TargetUse) []workload.Flag {
	var proto Targeting
	if m.DefaultTarget != "" {
		proto.Target = []string{m.DefaultTarget}
	}
	proto.ConnectTimeout = engine.DefaultConnectTimeout
	flags := workload.FlagsOf(&proto)
	help := "database URL: " + engine.URLForms() + " (password also from " + engine.PasswordEnv + ")"
	if use == workload.ManyTargets {
		flags[0].Help = help + "; give it more than once to run every target at the same time"
	} else {
		flags[0].Help = help + "; give it more than once to do this on every target in turn"
	}
	return flags
}

// Agents are the options of a measured command on targets that read the database host's samples from its
// agent, and the database's wait events.
type Agents struct {
	Agent          []string      `flag:"agent" help:"a dbdyno agent on the database host (http://HOST:PORT): its CPU, memory, disk and network samples of the run go into the result; once for every target, or once per --target in order"`
	AgentTokenFile string        `flag:"agent-token-file"`
	AgentCA        string        `flag:"agent-ca" help:"CA certificates (PEM) that an https agent's certificate is checked against (default: the system's)"`
	WaitInterval   time.Duration `flag:"wait-interval" default:"100ms" help:"sample the database's active sessions' wait events this often during the run, on a connection of its own (0: not at all)"`
}

// CommandFlags are every flag of a command: its own, --target, and the method's for a measured command (marked
// Study).
func CommandFlags(m *workload.Meta, c *workload.Command) []workload.Flag {
	flags := append([]workload.Flag(nil), c.Flags...)
	if c.Target != workload.NoTarget {
		flags = append(flags, TargetFlags(m, c.Target)...)
	}
	if builds(c) {
		flags = append(flags, workload.FlagsOf(&Creating{})...)
	}
	own := len(flags) // the rest are the study's (Flag.Study): the help lists them after these
	if c.Measured != nil {
		flags = append(flags, Flags()...)
		cold := workload.FlagsOf(&workload.Cold{ColdTimeout: 2 * time.Minute})
		if c.Target == workload.NoTarget { // nothing to wait for: the command alone (a storage probe's cache drop)
			cold[0].Help = "a shell command run before each measured repeat to start cold (drop the OS caches, remount the disk); the run records what ran, its exit status and how long it took"
			cold[1].Help = "with a target's --cold-cmd, how long the target may take to answer again: this command has none, and refuses it"
		}
		flags = append(flags, cold...)
	}
	if ServesMetrics(c) {
		flags = append(flags, workload.FlagsOf(&Exposing{})...)
	}
	if c.Measured != nil && userDriven(c) {
		flags = append(flags, workload.FlagsOf(&peak.Flags{})...)
		flags = append(flags, workload.FlagsOf(&StepFlags{StepDuration: time.Minute})...)
	}
	if c.Measured != nil && c.Target != workload.NoTarget {
		af := workload.FlagsOf(&Agents{})
		af[1].Help = "the agent's token (else from " + agent.TokenEnv + ")"
		flags = append(flags, af...)
	}
	for i := own; i < len(flags); i++ {
		flags[i].Study = true
	}
	return flags
}

// Execute runs one of a workload's commands: its targets are parsed first (a bad URL is one line and nothing
// runs), then a plain command runs, and a measured one goes through Run.
func Execute(ctx context.Context, m *workload.Meta, c *workload.Command, v *workload.Values, env *workload.Env) error {
	to, _, err := workload.Group[Targeting](v)
	if err != nil {
		return err
	}
	for _, raw := range to.Target {
		t, err := engine.Parse(raw)
		if err != nil {
			return err
		}
		if t.ConnectTimeout = to.ConnectTimeout; t.ConnectTimeout <= 0 {
			return fmt.Errorf("--connect-timeout must be positive (got %s)", t.ConnectTimeout)
		}
		for _, o := range env.Targets {
			if sameTarget(o, t) {
				return fmt.Errorf("--target %s is given twice: one database would run two workloads and count twice in the aggregate", t)
			}
		}
		if err := t.SetSchema(to.Schema); err != nil {
			return err
		}
		t.Existing = c.Existing
		env.Targets = append(env.Targets, t)
	}
	if err := checkTargetsAreNotTheStore(v, env.Targets); err != nil {
		return err
	}
	if cr, _, err := workload.Group[Creating](v); err == nil && v.Holds(&Creating{}) && cr.CreateDatabase {
		for _, t := range env.Targets {
			made, err := t.CreateDatabase(ctx)
			if err != nil {
				return err
			}
			if made {
				fmt.Fprintf(env.Out, "created database %s on %s:%d (--create-database)\n", t.Database, t.Host, t.Port)
			}
		}
	}
	if !c.Existing && c.Target != workload.NoTarget { // a command that may make its tables (a build, a probe)
		for _, t := range env.Targets {
			made, err := t.EnsureSchema(ctx)
			if err != nil {
				return err
			}
			if made {
				fmt.Fprintf(env.Out, "created schema %s in database %s (--schema)\n", t.Schema, t.Database)
			}
		}
	}
	if c.Measured == nil && c.Target == workload.OneTarget && len(env.Targets) > 1 {
		// a command on one database (a build, a check) is done on each target in turn, stopping at the first
		// that fails
		all := env.Targets
		for i, t := range all {
			fmt.Fprintf(env.Out, "== target %d of %d: %s\n", i+1, len(all), t)
			one := *env
			one.Targets = []*engine.Target{t}
			if err := c.Do(ctx, &one, v); err != nil {
				if i > 0 {
					return fmt.Errorf("target %d of %d (%s): %w", i+1, len(all), t, err)
				}
				return err
			}
		}
		return nil
	}
	if c.Measured == nil {
		return c.Do(ctx, env, v)
	}
	return runCommand(ctx, m, c.Measured, c.ColdInStart, env, v)
}

// sameTarget reports whether two targets are one database: the same file, or the same server and database.
func sameTarget(a, b *engine.Target) bool {
	if a.Engine != b.Engine {
		return false
	}
	if a.Engine.Embedded {
		return outfile.SamePath(a.Path, b.Path)
	}
	return strings.EqualFold(a.Host, b.Host) && a.Port == b.Port && a.Database == b.Database && a.Schema == b.Schema
}

// settings are the method's flags, checked.
type settings struct {
	repeat   int
	labels   map[string]any
	store    string
	interval time.Duration
	result   string
	json     bool     // --output-format json: the summary on standard output, the progress lines on standard error
	agents   []string // --agent: one for every target, or one per target
	token    string   // the agents' token
	agentTLS *tls.Config
	// waitInterval: how often the database's active sessions' wait events are sampled (0: not at all)
	waitInterval time.Duration
	start        *startAt     // --start-at (nil: none)
	sla          []peak.Limit // --find-peak --sla: its transactions' names checked once a run knows them
	startFlags   workload.Measuring
	live         *metrics.Server  // --metrics-addr (nil: none)
	page         *livepage.Server // --live (nil: none)
}

// exposed reads one of a run's live addresses (--metrics-addr, --live) and its token: "" when the address is not
// given; the token from its file (read as the agent's) or else its environment variable. A token file without
// its address is refused.
func exposed(addr, tokenFile, addrFlag, fileFlag, env string) (string, string, error) {
	if addr == "" {
		if tokenFile != "" {
			return "", "", fmt.Errorf("--%s is the token of --%s: give --%s too, or drop it", fileFlag, addrFlag, addrFlag)
		}
		return "", "", nil
	}
	token := os.Getenv(env)
	if tokenFile != "" {
		var err error
		if token, err = agent.ReadToken(tokenFile); err != nil {
			return "", "", fmt.Errorf("--%s: %v", fileFlag, err)
		}
	}
	return addr, token, nil
}

// listenLive serves --metrics-addr and --live, each nil without its address.
func listenLive(v *workload.Values) (*metrics.Server, *livepage.Server, error) {
	e, ok, err := workload.Group[Exposing](v)
	if err != nil || !ok {
		return nil, nil, err
	}
	var ms *metrics.Server
	var page *livepage.Server
	addr, token, err := exposed(e.MetricsAddr, e.MetricsTokenFile, "metrics-addr", "metrics-token-file", metrics.TokenEnv)
	if err == nil && addr != "" {
		ms, err = metrics.Listen(addr, token)
	}
	if err != nil {
		return nil, nil, err
	}
	if addr, token, err = exposed(e.Live, e.LiveTokenFile, "live", "live-token-file", livepage.TokenEnv); err == nil && addr != "" {
		page, err = livepage.Listen(addr, token)
	}
	if err != nil {
		if ms != nil {
			ms.Close()
		}
		return nil, nil, err
	}
	return ms, page, nil
}

// lives is the run's live sinks at once (--metrics-addr and --live).
type lives []workload.Live

func (l lives) Done(tx string, d time.Duration, outcome string, retries int, measured bool) {
	for _, x := range l {
		x.Done(tx, d, outcome, retries, measured)
	}
}
func (l lives) Users(n int) {
	for _, x := range l {
		x.Users(n)
	}
}
func (l lives) Phase(p string) {
	for _, x := range l {
		x.Phase(p)
	}
}
func (l lives) Lag(d time.Duration) {
	for _, x := range l {
		x.Lag(d)
	}
}
func (l lives) Interval(elapsed time.Duration, perMinute float64, errors int64, p95ms float64, measured bool) {
	for _, x := range l {
		x.Interval(elapsed, perMinute, errors, p95ms, measured)
	}
}

// liveSinks are a run's live sinks (--metrics-addr, --live), nil without either, and its part of the page.
func (s *settings) liveSinks(runID, workloadName string, t *engine.Target, warm bool) (workload.Live, *livepage.Run) {
	target := ""
	if t != nil {
		target = t.String() // without its password
	}
	var sinks lives
	if s.live != nil {
		labels := map[string]string{}
		for k, l := range s.labels {
			labels[k] = fmt.Sprint(l)
		}
		if warm {
			labels["warmup"] = "true"
		}
		sinks = append(sinks, s.live.Run(runID, workloadName, target, labels))
	}
	var page *livepage.Run
	if s.page != nil {
		page = s.page.Run(runID, workloadName, target)
		sinks = append(sinks, page)
	}
	if len(sinks) == 0 {
		return nil, nil
	}
	return sinks, page
}

// pageFinal puts the result's own intervals and status on the --live page.
func pageFinal(p *livepage.Run, res *result.Result) {
	var ivs []livepage.Interval
	if m := res.Measurement; m != nil {
		for _, iv := range m.Intervals {
			ivs = append(ivs, livepage.Interval{ElapsedS: iv.ElapsedSeconds, PerMinute: iv.PerMinute, Errors: iv.Errors, P95ms: float64(iv.SlowestP95()) / 1000, Measured: iv.Measured})
		}
	}
	p.Final(res.Status, ivs)
}

func readSettings(v *workload.Values) (*settings, error) {
	o, err := workload.Options[workload.Measuring](v)
	if err != nil {
		return nil, err
	}
	s := &settings{repeat: o.Repeat, store: o.Store, interval: o.MetricsInterval, result: o.Result, startFlags: *o}
	switch o.OutputFormat {
	case "normal", "":
	case "json":
		s.json = true
	default:
		return nil, fmt.Errorf("--output-format %q is not known: use normal or json", o.OutputFormat)
	}
	if s.repeat < 1 {
		return nil, fmt.Errorf("--repeat must be at least 1 (got %d)", s.repeat)
	}
	if s.interval < 100*time.Millisecond {
		return nil, fmt.Errorf("--metrics-interval must be at least 100ms (got %s)", s.interval)
	}
	if s.labels, err = results.ParseLabels(o.Labels); err != nil {
		return nil, err
	}
	if a, ok, err := workload.Group[Agents](v); err != nil {
		return nil, err
	} else if ok {
		if s.waitInterval = a.WaitInterval; s.waitInterval != 0 && s.waitInterval < 10*time.Millisecond {
			return nil, fmt.Errorf("--wait-interval must be 0 (off) or at least 10ms (got %s)", s.waitInterval)
		}
		s.agents = a.Agent
		for _, a := range s.agents {
			if err := agent.CheckURL(a); err != nil {
				return nil, err
			}
		}
		if s.agentTLS, err = agent.ClientTLS(a.AgentCA); err != nil {
			return nil, err
		}
		switch f := a.AgentTokenFile; {
		case f != "":
			if s.token, err = agent.ReadToken(f); err != nil {
				return nil, fmt.Errorf("--agent-token-file: %v", err)
			}
		default:
			s.token = os.Getenv(agent.TokenEnv)
		}
	}
	return s, nil
}

// agentFor is the agent of the i-th of n targets, "" for none.
func (s *settings) agentFor(i, n int) (string, error) {
	switch len(s.agents) {
	case 0:
		return "", nil
	case 1:
		return s.agents[0], nil
	case n:
		return s.agents[i], nil
	}
	return "", fmt.Errorf("--agent is given %d times for %d targets: give it once for all, or once per --target", len(s.agents), n)
}

// Run runs a measured command with the method: the warm-up run, then for each point of a sweep its repeats,
// each repeat against every target at the same time (with an aggregate result when there are several).
func Run(ctx context.Context, m *workload.Meta, w workload.Measured, env *workload.Env, v *workload.Values) error {
	return runCommand(ctx, m, w, false, env, v)
}

// runCommand is Run; coldIn says the command runs --cold-cmd itself in Start (workload.Command.ColdInStart).
func runCommand(ctx context.Context, m *workload.Meta, w workload.Measured, coldIn bool, env *workload.Env, v *workload.Values) error {
	s, err := readSettings(v)
	if err != nil {
		return err
	}
	if s.live, s.page, err = listenLive(v); err != nil {
		return err
	}
	if s.live != nil {
		defer s.live.Close()
		fmt.Fprintf(env.Out, "live figures: http://%s/metrics (Prometheus's format)\n", s.live.Addr())
	}
	if s.page != nil {
		defer s.page.Close()
		fmt.Fprintf(env.Out, "live page: %s\n", s.page.URL()) // without its token
	}
	if s.json {
		// the machine reads standard output: one JSON object, written last; people read the progress elsewhere
		jsonOut, human := env.Out, env.Err
		if human == nil {
			human = io.Discard
		}
		e := *env
		e.Out = human
		env = &e
		var rs *runSet
		err = run(ctx, m, w, coldIn, env, v, s, func(r *runSet) { rs = r })
		if rs != nil {
			if werr := writeSummary(jsonOut, m, env, rs, err); werr != nil && err == nil {
				err = werr
			}
		}
		return err
	}
	return run(ctx, m, w, coldIn, env, v, s, nil)
}

// run is Run with its settings read; kept, when given, learns the command's run set as soon as it exists.
func run(ctx context.Context, m *workload.Meta, w workload.Measured, coldIn bool, env *workload.Env, v *workload.Values, s *settings, kept func(*runSet)) error {
	var err error
	if v, err = w.Prepare(v); err != nil {
		return err
	}
	swept, points, err := v.Swept()
	if err != nil {
		return err
	}
	if points == nil {
		points = []int{0} // no sweep
	}
	inputs, err := checkOutputs(w, v, env, s, len(points))
	if err != nil {
		return err
	}
	rs, err := newRunSet(ctx, env.Out, s)
	if err != nil {
		return err
	}
	if kept != nil {
		kept(rs)
	}
	rs.inputs = inputs
	targets := env.Targets
	if !m.NeedsDB && len(targets) == 0 {
		targets = []*engine.Target{nil}
	}
	agents := map[*engine.Target]string{}
	for i, t := range targets {
		if agents[t], err = s.agentFor(i, len(targets)); err != nil {
			return err
		}
	}
	search, by, err := newSearch(v, swept.Name)
	if err != nil {
		return err
	}
	if search != nil {
		s.sla = search.SLA
	}
	cold, err := readCold(v, w)
	if err != nil {
		return err
	}
	steps, err := readSteps(v, swept.Name)
	if err != nil {
		return err
	}
	if search != nil {
		swept = by
	}
	if s.startFlags.StartAt != "" && (s.repeat > 1 || len(points) > 1 || search != nil || steps != nil) {
		return fmt.Errorf("--start-at %s starts one measured run, and this command makes several (--repeat, a sweep, --find-peak or --steps): run one at a time", s.startFlags.StartAt)
	}
	if s.start, err = settleStartAt(ctx, &s.startFlags, s); err != nil {
		return err
	}
	groupID := result.NewID("g")
	var runErr error
	var pointRuns []*result.Result // the runs of the point under way (for the knee search)
	// --cold-cmd with a warm-up: each repeat starts cold, warms up, then measures (the studies' restart, one
	// warm-up stream, measure); without a cold start the warm-up runs once, before the first measured run
	warmEach := false
	if ok, _ := w.Warmup(v); ok && cold != nil {
		warmEach = true
	}
	round := func() *coldRound {
		if cold == nil {
			return nil
		}
		return cold.round(env.Out)
	}
	// one runs one point's repeat (warm: its warm-up run); cr is its cold start, warmed that a warm-up ran
	// after it
	one := func(point, rep int, warm bool, cr *coldRound, warmed bool) {
		pv := v
		if swept.Name != "" {
			pv = v.Set(swept.Name, []int{point})
		}
		if search != nil {
			pv = setLoad(v, swept, point)
		}
		runTargets := func(pv *workload.Values, cr *coldRound, plans []*stepPlan) ([]*result.Result, []error) {
			return onTargets(env.Out, targets, func(t *engine.Target, out io.Writer) (*result.Result, error) {
				var plan *stepPlan
				for i := range plans {
					if targets[i] == t {
						plan = plans[i]
					}
				}
				return once(ctx, m, w, env, t, pv, warm, out, s, agents[t], cr, warmed, coldIn, plan)
			})
		}
		var res []*result.Result
		var errs []error
		if steps != nil && !warm {
			res, errs = steps.run(ctx, env.Out, pv, len(targets), cr, runTargets)
		} else {
			res, errs = runTargets(pv, cr, nil)
		}
		var parts []*result.Result
		for i, r := range res {
			if errs[i] != nil && runErr == nil && (search == nil || r == nil) {
				// a knee search's point that failed is a point past the limit, not the command's failure
				runErr = errs[i]
			}
			if r == nil {
				continue
			}
			r.Group = &result.Group{ID: groupID, Repeat: rep, Repeats: s.repeat}
			if warm {
				// recorded, but in a group of its own so no median or comparison counts it
				r.Group = &result.Group{ID: groupID + "-warmup", Repeat: 1, Repeats: 1}
				r.Labels = map[string]any{"phase": "warmup"}
			}
			if swept.Name != "" {
				r.Group.Sweep, r.Group.Value = swept.Name, float64(point)
			}
			if len(targets) > 1 {
				r.Group.Target, r.Group.Targets = i+1, len(targets)
			}
			rs.add(r)
			parts = append(parts, r)
		}
		if len(targets) > 1 && len(parts) > 0 && !warm {
			agg := aggregate(w, parts, len(targets))
			rs.add(agg)
			fmt.Fprintln(env.Out, aggregateLine(agg, len(targets)))
			parts = []*result.Result{agg}
		}
		if !warm {
			pointRuns = append(pointRuns, parts...)
		}
	}
	if search != nil {
		points = []int{search.Start()}
	}
	if ok, what := w.Warmup(v); ok && !warmEach {
		fmt.Fprintf(env.Out, "warm-up run: %s\n", what)
		one(points[0], 1, true, nil, false)
	}
	if search != nil {
		if err := findPeak(ctx, env.Out, search, s.repeat, func(p, rep int) []*result.Result {
			pointRuns = nil
			one(p, rep, false, round(), false)
			return pointRuns
		}); err != nil && runErr == nil {
			runErr = err
		}
		search.Mark(rs.results, groupID)
		points = nil
	}
	for _, p := range points {
		for rep := 1; rep <= s.repeat && ctx.Err() == nil; rep++ {
			switch {
			case swept.Name != "":
				fmt.Fprintf(env.Out, "\n== %s=%d, run %d of %d\n", swept.Name, p, rep, s.repeat)
			case s.repeat > 1:
				fmt.Fprintf(env.Out, "\n== run %d of %d\n", rep, s.repeat)
			}
			if warmEach {
				cr := round()
				_, what := w.Warmup(v)
				fmt.Fprintf(env.Out, "cold start, then a warm-up run: %s\n", what)
				one(p, rep, true, cr, false)
				if runErr != nil || ctx.Err() != nil {
					break
				}
				one(p, rep, false, cr, true)
				continue
			}
			one(p, rep, false, round(), false)
		}
	}
	if err := rs.close(ctx); err != nil && runErr == nil {
		runErr = err
	}
	if runErr == nil && ctx.Err() != nil {
		// Ctrl-C between runs (or before the first): the runs not begun are not run, and the command ends aborted
		runErr = fmt.Errorf("%w before every run was done", workload.ErrAborted)
	}
	return runErr
}

// checkOutputs refuses, before any work is done, an output that would lose data: the results store, --result
// or --log-latency on one of the command's inputs (its targets' files, the files it works on) or on a file
// dbdyno did not write, and a latency log for more than one run (points: the sweep's points). It returns the
// inputs.
func checkOutputs(w workload.Measured, v *workload.Values, env *workload.Env, s *settings, points int) ([]string, error) {
	inputs := targetFiles(env.Targets)
	if err := CheckStore(s.store, inputs); err != nil {
		return nil, err
	}
	if in, ok := w.(workload.Inputs); ok {
		own, err := in.Inputs(v)
		if err != nil {
			return nil, err
		}
		for _, f := range own {
			if s.store != "" && outfile.SamePath(s.store, f) {
				return nil, fmt.Errorf("--store %s is one of the files this command works on (%s): the results store is a file of its own; choose another", s.store, f)
			}
		}
		inputs = append(inputs, own...)
	}
	if err := results.CheckOutput("--result", s.result, results.ResultJSON, append(inputs, s.store)...); err != nil {
		return nil, err
	}
	if u, _, err := workload.Group[runner.Users](v); err != nil {
		return nil, err
	} else if path := u.LogLatency; path != "" {
		// a virtual-user run's per-transaction log (runner.Users): one file, so one measured run
		if err := results.CheckOutput("--log-latency", path, results.LatencyLog, append(inputs, s.store, s.result)...); err != nil {
			return nil, err
		}
		if n := s.repeat * points * max(1, len(env.Targets)); n > 1 {
			return nil, fmt.Errorf("--log-latency %s holds one run's transactions and this command makes %d runs (--repeat, a sweep or several --target): run them one at a time", path, n)
		}
	}
	return inputs, nil
}

// once runs one measured run against one target and assembles its result (nil when it could not start).
// cr, when set, is the run's cold start: run here before Start, or by the command itself in Start (coldIn).
// warmed says the cold start ran before the warm-up run that came before this one: the run records it and
// leaves the warmed database as it is.
func once(ctx context.Context, m *workload.Meta, w workload.Measured, env *workload.Env, t *engine.Target, v *workload.Values, warm bool, out io.Writer, s *settings, agentURL string, cr *coldRound, warmed, coldIn bool, plan *stepPlan) (got *result.Result, _ error) {
	started := time.Now().UTC()
	// the run's own side statements, apart from other runs' in the process (the HammerDB figure takes them out)
	ctx = engine.WithSideTally(ctx)
	ctx = runner.WithEndClock(ctx)            // one deadline for the queries at the run's end (started by the runner, or below)
	sctx, changes := bulk.WithStartCheck(ctx) // what the dataset's start check finds without refusing the run
	runID := result.NewID("r")
	spec := workload.Spec{Target: t, Values: v, Warmup: warm, Out: out}
	var page *livepage.Run
	if spec.Live, page = s.liveSinks(runID, m.Name, t, warm); page != nil {
		defer func() {
			if got != nil {
				pageFinal(page, got)
			}
		}()
	}
	if s.start != nil && !warm {
		spec.StartAt = s.start.local
	}
	if cr != nil && !warmed {
		if coldIn {
			spec.Cold = func(ctx context.Context) error { return cr.target(ctx, t) }
		} else if err := cr.target(ctx, t); err != nil {
			return nil, err
		}
	}
	if plan != nil { // a stepped load by users in one loop: each step's part as its window ends
		plan.spec(&spec, m, t, out)
	}
	run, err := w.Start(sctx, spec)
	if _, ok := run.(workload.StepsRun); err == nil && plan != nil && !ok {
		run.Close()
		return nil, errNoSteps
	}
	if named, ok := run.(workload.TxNamed); err == nil && ok && len(s.sla) > 0 {
		if err = peak.CheckNames(s.sla, named.TransactionNames()); err != nil {
			run.Close()
			return nil, err
		}
	}
	if err == nil && cr != nil && !warmed && cr.record(t) == nil {
		run.Close()
		err = fmt.Errorf("the command did not run --cold-cmd before measuring: leave --cold-cmd out (a dbdyno fault: please report it)")
	}
	if err != nil {
		if ctx.Err() != nil && !errors.Is(err, workload.ErrAborted) {
			// Ctrl-C while the run was being set up: nothing was measured, and the command ends aborted
			return nil, fmt.Errorf("%w before measuring began (%v)", workload.ErrAborted, t.Scrub(err.Error()))
		}
		return nil, err
	}
	defer run.Close()
	res := &result.Result{
		SchemaVersion: result.SchemaVersion,
		Tool:          result.Tool{Name: "dbdyno", Version: env.Version, GoVersion: goVersion()},
		Workload:      m.Name,
		RunID:         runID,
		Command:       env.Args,
		StartedAt:     started,
		Options:       run.Options(),
		Target:        result.Target{ServerVersion: run.ServerVersion()},
	}
	if cr != nil {
		if res.ColdStart = cr.record(t); warmed && res.ColdStart != nil {
			c := *res.ColdStart
			c.WarmedUp = true
			res.ColdStart = &c
		}
	}
	if !warm {
		s.start.record(res.Options)
	}
	if t != nil {
		res.Target.URL, res.Target.Engine = t.String(), t.Engine.Name // the URL names the schema (?schema=)
	}
	if res.DatabaseChanges = changes.Differences(); len(res.DatabaseChanges) > 0 {
		fmt.Fprintf(out, "warning: the database changed since its build: %s; the result records it (database_changes), and compare refuses it unless given --allow-changed\n",
			strings.Join(res.DatabaseChanges, "; "))
	}
	if _, itself := run.(workload.StartsAt); s.start != nil && !warm && !itself {
		if err := s.start.wait(ctx, out); err != nil {
			return nil, err
		}
	}
	ms := startMeasured(ctx, t, res.Target.ServerVersion, s)
	if plan != nil {
		plan.ms = ms // the step edges read the counters from here on
	}
	var rec *agent.Recorder
	if agentURL != "" {
		rec = agent.Record(ctx, agentURL, s.token, s.agentTLS, out)
	}
	measured, runErr := run.Measure(ctx, res)
	if runErr != nil && ctx.Err() != nil && !errors.Is(runErr, workload.ErrAborted) {
		// Ctrl-C reached what the run was doing (a catalog read, a query) as that step's error: the run was
		// aborted, not failed
		if why := t.Scrub(runErr.Error()); measured {
			runErr = fmt.Errorf("%w (%s)", workload.ErrAborted, why)
		} else {
			runErr = fmt.Errorf("%w before measuring began (%s)", workload.ErrAborted, why)
		}
	}
	res.EndedAt = time.Now().UTC()
	runner.StartEnd(ctx)
	ms.finish(ctx, res)
	if rec != nil {
		serverMetrics(ctx, rec, res)
	}
	if !measured {
		return nil, runErr
	}
	res.Status = result.StatusOK
	if runErr == nil && m.Derive != nil {
		runErr = zeroHeadline(m.Derive(res))
	}
	if runErr != nil {
		res.Status = result.StatusFailed
		if errors.Is(runErr, workload.ErrAborted) {
			res.Status = result.StatusAborted
		}
		res.Error = t.Scrub(runErr.Error())
	}
	if h, ok := out.(interface{ Hold() }); ok { // one of several targets: its summary printed in target order
		h.Hold()
	}
	if err := run.Finish(ctx, res); err != nil && runErr == nil {
		runErr = err
	}
	if m.Derive != nil {
		res.Metrics = m.Derive(res)
	}
	if hc, ok := result.HostCPU(res); ok && len(res.Metrics) > 0 {
		res.Metrics = append(res.Metrics, hc)
	}
	if plan != nil {
		plan.finish(res, ms, rec)
	}
	return res, runErr
}

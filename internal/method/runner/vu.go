package runner

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Users are the run options every virtual-user workload shares, embedded in its options struct. A workload
// adjusts them for its command with the group's tags (see workload.FlagsOf), e.g.
// `vus.alias:"threads" rampup.default:"0s"`.
type Users struct {
	Timing
	Warmup           time.Duration `flag:"warmup" default:"0s" help:"a warm-up run of this length before the measured runs (recorded, not measured)"`
	Seed             uint64        `flag:"seed" help:"seed of every random choice (default: from the clock; always recorded)"`
	ReconnectTimeout time.Duration `flag:"reconnect-timeout" default:"30s" help:"a lost connection that is not back within this time fails the run"`
	MaxErrorRate     float64       `flag:"max-error-rate" unit:"%" default:"1" help:"percent of the measured transactions that may fail with errors of one class (e.g. lost connections) before the run is failed; 0: none may"`
	CPUProfile       string        `flag:"cpuprofile" hidden:"true" plan:"-" help:"write a Go CPU profile of the driver to this file"`
	Transactions     int           `flag:"transactions" min:"0" help:"end the measured window when this many transactions (all virtual users together, whatever their outcome) have finished in it, instead of after --duration (pgbench -t, which counts per client); 0: timed by --duration"`
	Rate             float64       `flag:"rate" unit:"/s" default:"0" help:"open loop (pgbench -R): start this many transactions per second over all virtual users on average (a decimal too: 0.5 is one every 2 s), at intended times of a Poisson schedule (from --seed); latency counts from the intended start, so queueing behind a slow server is in it; how late they start is reported as the schedule lag; with --shard I/N, the whole run's: each shard starts rate/N; 0: closed loop (each user starts its next transaction when the last ends); refused beside a think or keying time"`
	LatencyLimit     time.Duration `flag:"latency-limit" default:"0s" help:"count the transactions that take longer than this as late; with --rate, also skip (and count) those that would start more than this behind schedule (pgbench --latency-limit); 0: no limit"`
	PerUser          bool          `flag:"per-user" plan:"-" help:"print each virtual user's transactions, throughput and p50/p95 latency after the run (the result always holds them)"`
	LogLatency       string        `flag:"log-latency" plan:"-" help:"write one line per measured transaction to this file: client, its transaction number, latency in µs, name, outcome, start (epoch s and µs); see docs/flags.md"`
}

// Timing is how many users run for how long: the options of every user-driven run (runner.Run's Config).
type Timing struct {
	VUs      int           `flag:"vus" sweep:"" default:"1" help:"virtual users (one connection each); a list 1,2,4,8 or a range 1..8 sweeps them"`
	Rampup   time.Duration `flag:"rampup" default:"10s" help:"time before measuring starts"`
	Duration time.Duration `flag:"duration" default:"60s" help:"measured time"`
	Interval time.Duration `flag:"interval" default:"10s" help:"progress line interval"`
}

// Check refuses timings that cannot run.
func (u *Users) Check() error {
	if u.Duration <= 0 {
		return fmt.Errorf("--duration must be positive (got %s)", u.Duration)
	}
	if u.Rampup < 0 || u.Warmup < 0 {
		return fmt.Errorf("--rampup and --warmup cannot be negative")
	}
	if u.Warmup > 0 && u.Warmup < time.Second {
		return fmt.Errorf("--warmup %s is too short: give at least 1s, or 0 for none", u.Warmup)
	}
	if u.Interval <= 0 {
		return fmt.Errorf("--interval must be positive (got %s)", u.Interval)
	}
	if u.ReconnectTimeout <= 0 {
		return fmt.Errorf("--reconnect-timeout must be positive (got %s)", u.ReconnectTimeout)
	}
	if u.LatencyLimit < 0 {
		return fmt.Errorf("--latency-limit cannot be negative (got %s)", u.LatencyLimit)
	}
	if u.MaxErrorRate < 0 || u.MaxErrorRate > 100 {
		return fmt.Errorf("--max-error-rate is a percentage from 0 to 100 (got %g)", u.MaxErrorRate)
	}
	return nil
}

// Modes are the options of a workload that runs its transactions as client-side SQL or as stored procedures
// and checks its consistency after a run. The group's mode.help tag words the modes for the workload.
type Modes struct {
	Mode  string `flag:"mode" help:"sql (client-side statements) or procedures (one stored-procedure call per transaction; default where the engine has them)"`
	Check bool   `flag:"check" help:"run the consistency checks after the run"`
}

// Valid refuses an unknown mode.
func (m *Modes) Valid() error {
	switch m.Mode {
	case "", "sql", "procedures":
		return nil
	}
	return fmt.Errorf("--mode %q is not known: use sql or procedures", m.Mode)
}

// Session is one run of a virtual-user workload, opened on its target; VU drives it. Through Workload it
// opens each virtual user's session (NewWorker) and runs one unit of work at a time (Worker.Do).
type Session interface {
	Workload
	ServerVersion() string
	// Options are the run's settings for the result (Users.Options has the shared ones).
	Options() map[string]any
	// Configure sets what the runner shows and measures for this workload: the key transaction and its label,
	// the rate label, an open-loop rate, the measured window's edge hooks.
	Configure(cfg *Config)
	// Figures are the run's headline figures from its measurement.
	Figures(m *result.Measurement) map[string]any
	// Finish prints the run's summary after the status is set (and may add figures read from the database).
	Finish(ctx context.Context, res *result.Result)
	Close()
}

// CrossChecker is a Session that checks its client-side figures against the database's own count of the work
// done (tpcc: the new orders the districts handed out); a disagreement fails the run.
type CrossChecker interface {
	CrossCheck(m *result.Measurement, figures map[string]any) error
}

// Checker is a Session that checks its database's consistency after a run (--check).
type Checker interface {
	Check(ctx context.Context, w io.Writer) ([]result.Check, error)
}

// Setup is what VU hands a workload's Open: the run's settings, settled.
type Setup struct {
	workload.Spec
	Users    Users         // Duration is the warm-up's length for the warm-up run
	Mode     string        // "sql" or "procedures" for a workload with Modes ("" otherwise)
	Procs    func() int    // the driver's GOMAXPROCS share, settled when measuring starts
	Duration time.Duration // the run's measured time (the warm-up's length for the warm-up run)
	// Transactions, when positive, is the measured window's count of transactions instead of Duration (never
	// for the warm-up run, which is timed by --warmup).
	Transactions int
	// Pool is the run's --terminals and --connections when its options embed TerminalPool (zero otherwise, and
	// for virtual users): Users.VUs is then the connections.
	Pool TerminalPool
	// Shard is the run's --shard I/N when its options embed workload.Sharding (the zero Shard otherwise): the runner gives the
	// shard its share of the open-loop --rate (rate/N), whatever the workload splits (warehouses, customers,
	// users).
	Shard workload.Shard
}

// shardOf is the --shard the options hold when they embed workload.Sharding (the zero Shard otherwise).
func shardOf(o any) workload.Shard {
	if s, ok := o.(interface{ Sharded() workload.Shard }); ok {
		return s.Sharded()
	}
	return workload.Shard{}
}

// VU is the measured command of a virtual-user workload with options T: the workload supplies its options'
// groups and how a run opens; VU owns the users, warm-up, ramp-up, duration, intervals, the open-loop rate,
// histograms, reconnects, aborts, the driver's CPU share, the CPU profile, the result's measurement and
// figures, the summary and the consistency checks.
type VU[T any] struct {
	Users func(o *T) *Users // the shared options inside T (nil: the Users T embeds)
	Modes func(o *T) *Modes // nil: the Modes T embeds, if it does (a workload without modes and checks embeds none)
	// Check checks the workload's own options (nil: nothing to check).
	Check func(o *T) error
	// Open opens one run on its target and prints its banner.
	Open func(ctx context.Context, r *Setup, o *T) (Session, error)
}

// Prepare checks the options and draws the seed from the clock when none was given.
func (w VU[T]) Prepare(o *T, v *workload.Values) error {
	if w.Check != nil {
		if err := w.Check(o); err != nil {
			return err
		}
	}
	u := w.users(o)
	if err := u.Check(); err != nil {
		return err
	}
	if p := poolOf(o); p != nil {
		if err := p.check(u, v); err != nil {
			return err
		}
	}
	if u.Transactions > 0 && v.Given(u, &u.Duration) {
		return fmt.Errorf("--transactions %d and --duration %s both end the measured window: give one of them", u.Transactions, u.Duration)
	}
	if err := CheckRate(u.Rate, v.Given(u, &u.Rate)); err != nil {
		return err
	}
	if u.Rate > 0 {
		if err := RateWithThinking(fmt.Sprintf("--rate %g", u.Rate), v); err != nil {
			return err
		}
	}
	if m := w.modes(o); m != nil {
		if err := m.Valid(); err != nil {
			return err
		}
	}
	if !v.Given(u, &u.Seed) {
		u.Seed = uint64(time.Now().UnixNano())
	}
	return nil
}

// CheckRate refuses an open-loop --rate that is not a positive, finite number of transactions per second when
// it was given (pgbench -R refuses them too); left out, it is 0: a closed loop.
func CheckRate(rate float64, given bool) error {
	if given && !(rate > 0 && !math.IsInf(rate, 1)) {
		return fmt.Errorf("--rate %g: give a positive number of transactions per second (e.g. 0.5 or 200, as pgbench -R), or leave --rate out to run closed loop", rate)
	}
	return nil
}

// RateWithThinking refuses an open-loop rate (what: the flags that give it) beside a think or keying time the workload
// declares (the think tag): pgbench -R schedules each transaction's start, and a user that first waits its
// think time starts late, which would only inflate the schedule lag (TPC-C's keying and think times make a
// closed loop that paces itself: its throughput follows the users, not a rate).
func RateWithThinking(what string, v *workload.Values) error {
	f, ok := v.Thinking()
	if !ok {
		return nil
	}
	return fmt.Errorf("%s (open loop) and --%s (think time) both pace the users, and a think time before each scheduled start only shows up as schedule lag: drop --%s to run open loop, or the rate to run closed loop with think times (throughput then follows --vus)", what, f.Name, f.Name)
}

// Warmup: one warm-up run of --warmup when it is set.
func (w VU[T]) Warmup(o *T) (bool, string) {
	u := w.users(o)
	return u.Warmup > 0, u.Warmup.String()
}

// Start opens the run.
func (w VU[T]) Start(ctx context.Context, s workload.Spec, o *T) (workload.Run, error) {
	u := *w.users(o)
	m := w.modes(o)
	vr := &vuRun{check: m != nil && m.Check && !s.Warmup}
	r := &Setup{Spec: s, Users: u, Duration: u.Duration, Procs: func() int { return vr.procs }, Shard: shardOf(o)}
	if p := poolOf(o); p != nil && p.Terminals > 0 {
		r.Pool = *p
		r.Pool.settle()
		p = &r.Pool
		r.Users.VUs = p.Connections // Prepare set it too; a plan's or a sweep's copy of the values may not have
		u.VUs = p.Connections
	}
	if s.Warmup {
		r.Duration = u.Warmup
	} else {
		r.Transactions = u.Transactions
	}
	if m != nil {
		r.Mode = m.Mode
		if r.Mode == "" {
			r.Mode = "sql"
			if s.Target != nil && s.Target.Procedures(ctx) { // not on a distributed SQL database without them
				r.Mode = "procedures"
			}
		}
	}
	vr.r = r
	embedded := s.Target != nil && s.Target.Engine.Embedded
	vr.procs, vr.release = HoldDriverCPU(embedded, u.VUs)
	sess, err := w.Open(ctx, r, o)
	if err != nil {
		vr.release()
		return nil, err
	}
	vr.sess = sess
	return vr, nil
}

// Options are the shared options' entries of a run's result options.
func (r *Setup) Options() map[string]any {
	out := map[string]any{"vus": r.Users.VUs, "rampup_s": r.Users.Rampup.Seconds(), "duration_s": r.Duration.Seconds(),
		"interval_s": r.Users.Interval.Seconds(), "seed": fmt.Sprint(r.Users.Seed), "reconnect_timeout_s": r.Users.ReconnectTimeout.Seconds(),
		"driver_gomaxprocs": r.Procs(), "max_error_rate_pct": r.Users.MaxErrorRate}
	if r.Pool.Terminals > 0 {
		out["terminals"], out["connections"] = r.Pool.Terminals, r.Pool.Connections
	}
	counted(out, r.Transactions)
	openLoop(out, r.Users)
	if r.Mode != "" {
		out["mode"] = r.Mode
	}
	return out
}

// vuRun is one run of a VU workload, for the method.
type vuRun struct {
	r       *Setup
	sess    Session
	check   bool
	procs   int
	release func()
}

func (v *vuRun) ServerVersion() string { return v.sess.ServerVersion() }
func (v *vuRun) Options() map[string]any {
	return openLoop(counted(v.sess.Options(), v.r.Transactions), v.r.Users)
}

// openLoop makes an open-loop run's options say so: its rate and latency limit, when set.
func openLoop(o map[string]any, u Users) map[string]any {
	if o == nil {
		return o
	}
	if u.Rate > 0 {
		o["rate"] = u.Rate
	}
	if u.LatencyLimit > 0 {
		o["latency_limit_ms"] = float64(u.LatencyLimit.Microseconds()) / 1000
	}
	return o
}

// counted makes a count-based run's options say so: its planned transactions, and no planned duration.
func counted(o map[string]any, transactions int) map[string]any {
	if transactions > 0 && o != nil {
		delete(o, "duration_s")
		o["transactions"] = transactions
	}
	return o
}

func (v *vuRun) Measure(ctx context.Context, res *result.Result) (bool, error) {
	u := v.r.Users
	cfg := Config{VUs: u.VUs, Terminals: v.r.Pool.Terminals, Rampup: u.Rampup, Duration: v.r.Duration, Interval: u.Interval, Progress: v.r.Out,
		ReconnectTimeout: u.ReconnectTimeout, MaxErrorRate: u.MaxErrorRate, Transactions: int64(v.r.Transactions),
		Rate: u.Rate, Seed: u.Seed, LatencyLimit: u.LatencyLimit,
		MeasureAt: v.r.StartAt, Live: v.r.Live}
	if sh := v.r.Shard; sh.On() && cfg.Rate > 0 {
		cfg.Rate, cfg.WholeRate = cfg.Rate/float64(sh.N), cfg.Rate // N processes at rate/N: the run's rate in all
	}
	if !v.r.Warmup {
		cfg.LatencyLog = u.LogLatency
	}
	if cfg.MaxErrorRate == 0 {
		cfg.MaxErrorRate = -1 // --max-error-rate 0: none may fail
	}
	if t := v.r.Target; t != nil {
		cfg.Classify = t.Engine.Classify
	}
	v.sess.Configure(&cfg)
	start := cfg.AtMeasureStart
	cfg.AtMeasureStart = func(ctx context.Context) error {
		v.procs = runtime.GOMAXPROCS(0) // settled by then, with every target of a multi-target run started
		if start != nil {
			return start(ctx)
		}
		return nil
	}
	stop, err := Profile(u.CPUProfile)
	if err != nil {
		return false, err
	}
	defer stop()
	if len(v.r.Steps) > 0 && !v.r.Warmup {
		return v.measureSteps(ctx, res, cfg)
	}
	var sides []Side
	if sd, ok := v.sess.(Sided); ok && !v.r.Warmup {
		sides = sd.Sides()
		ran, err := runSides(ctx, v.sess, sides, cfg)
		res.Sides = ran
		if err != nil {
			// the run together did not happen: the result (aborted or failed) holds the sides that ran, and its
			// measurement and figures are the last measured part's (the one cut short, or the one before it
			// when it was cut before its users were connected)
			for i := len(ran) - 1; i >= 0; i-- {
				if ran[i].Measurement != nil {
					res.Options["driver_gomaxprocs"] = v.procs
					res.Measurement, res.Figures = ran[i].Measurement, ran[i].Figures
					return true, err
				}
			}
			return false, err
		}
	}
	m, err := Run(ctx, v.sess, cfg)
	if m == nil {
		return false, err
	}
	v.measured(cfg, m)
	res.Options["driver_gomaxprocs"] = v.procs
	res.Measurement = m
	res.Figures = v.sess.Figures(m)
	sideFigures(res.Figures, sides, res.Sides)
	if c, ok := v.sess.(CrossChecker); ok && err == nil {
		err = c.CrossCheck(m, res.Figures)
	}
	return true, err
}

// TakesSteps: a virtual-user run takes a stepped load by users as one loop (measureSteps).
func (v *vuRun) TakesSteps() bool { return true }

// measureSteps runs Spec.Steps as one loop of virtual users (MeasureSteps), each step's part with its figures
// (cross-checked) and the driver's CPU share.
func (v *vuRun) measureSteps(ctx context.Context, res *result.Result, cfg Config) (bool, error) {
	ok, err := MeasureSteps(ctx, v.sess, cfg, v.r.Spec, res, func(part *result.Result) error {
		v.measured(cfg, part.Measurement)
		part.Options["driver_gomaxprocs"] = v.procs
		part.Figures = v.sess.Figures(part.Measurement)
		if c, ok := v.sess.(CrossChecker); ok {
			return c.CrossCheck(part.Measurement, part.Figures)
		}
		return nil
	})
	res.Options["driver_gomaxprocs"] = v.procs
	return ok, err
}

// measured names a measurement's key transaction.
func (v *vuRun) measured(cfg Config, m *result.Measurement) {
	if name := keyTxName(cfg, v.sess.Transactions()); name != "" {
		m.KeyTx, m.KeyLabel = name, cfg.KeyLabel
	}
}

func (v *vuRun) Finish(ctx context.Context, res *result.Result) error {
	if last := v.r.Spec.LastStep(); last != "" && res.Measurement != nil {
		fmt.Fprintf(v.r.Out, "\n%s:", last) // the workload's summary that follows is the last step's, not the run's
	}
	v.sess.Finish(ctx, res)
	if m := res.Measurement; m != nil {
		PrintOpenLoop(v.r.Out, m)
		if v.r.Users.PerUser {
			PrintUsers(v.r.Out, m)
		}
	}
	c, ok := v.sess.(Checker)
	if !v.check || !ok || res.Status != result.StatusOK {
		return nil
	}
	checks, err := c.Check(ctx, v.r.Out) // Ctrl-C ends the checks too
	res.Checks = checks
	if err != nil && ctx.Err() != nil {
		res.Status = result.StatusAborted
		return fmt.Errorf("%w during the consistency checks", ErrAborted)
	}
	return err
}

func (v *vuRun) Close() {
	v.sess.Close()
	v.release()
}

package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Step is one step of a stepped run (RunSteps): its users (all of them, the earlier steps' included), its
// ramp-up (left out of its figures) and its measured time; for an open-loop run (Config.Rate), Rate is the
// step's rate per second, the whole run's as Config.Rate is (0: the run's).
type Step struct {
	VUs              int
	Rampup, Duration time.Duration
	Rate             float64
}

// StepLoad is a Workload whose stepped load by users (--steps N,...) is not its users' count: users of another
// kind run in every step (ch's analytic streams, the first users), and a step of load N runs StepUsers(N).
type StepLoad interface {
	StepUsers(load int) int
}

// RunSteps drives the workload through steps in one loop of virtual users, as HammerDB's stepped load does: the
// users of a step go on into the next. A step of more users connects only the users it adds; a step of fewer
// stops the surplus (the last added) at their next unit boundary and closes their connections before it
// starts: each finishes the unit of work it has in flight, starts no other, and the step's ramp-up (and so its
// window) begins only once they all stopped. The counting rule, growing or shrinking: a unit of work is counted
// in the window it ends in and in no other (the windows never overlap); one that ends outside every window (in
// a ramp-up, or in flight at a window's end) is counted in none, so a surplus user's last unit, in flight at
// the boundary, is counted in no step. Each step ramps up with all its users and measures a window of its own.
// Each step's measurement is its window's alone (its intervals, counts, histograms, per-user figures of the
// step's own users, open-loop figures, error classes and stall), shaped as Run's; each gets it as its window
// ends, with the step's error (the reason the stepping ends there: a failure, a stall, too many errors, Ctrl-C,
// surplus users that did not stop within ReconnectTimeout), and may end the stepping by returning false. cfg is
// as Run's, but for VUs, Rampup and Duration (the steps') and a count-based window, a latency log and
// --start-at, which a stepped run has not. The error is the one that ended the stepping early, nil when every
// step ran.
func RunSteps(parent context.Context, w Workload, cfg Config, steps []Step, each func(i int, m *result.Measurement, err error) bool) error {
	switch {
	case len(steps) == 0:
		return errors.New("a stepped run needs at least one step")
	case cfg.Terminals > 0:
		return errors.New("a stepped run steps virtual users: no --terminals")
	case cfg.Transactions > 0 || cfg.LatencyLog != "" || !cfg.MeasureAt.IsZero():
		return errors.New("a stepped run times its steps: no count-based window, latency log or start time")
	}
	for _, s := range steps {
		if s.VUs < 1 || s.Duration <= 0 || s.Rampup < 0 || s.Rate < 0 || s.Rate > 0 && cfg.Rate <= 0 {
			return fmt.Errorf("a step of %d users at %g/s, %s ramp-up and %s measured cannot run", s.VUs, s.Rate, s.Rampup, s.Duration)
		}
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Second
	}
	if cfg.ReconnectTimeout <= 0 {
		cfg.ReconnectTimeout = 30 * time.Second
	}
	if cfg.Progress == nil {
		cfg.Progress = io.Discard
	}
	cfg.VUs, cfg.Rampup, cfg.Duration = steps[0].VUs, steps[0].Rampup, steps[0].Duration
	names := w.Transactions()
	cfg.guard = newGuard(cfg)
	st := &stats{}
	for range names {
		st.interval = append(st.interval, newTxStat())
		st.total = append(st.total, newTxStat())
	}

	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var workers []Worker
	var users []*userStat
	var quits, dones []chan struct{} // each running user's: closed to stop it; closed when its loop returned
	var wg sync.WaitGroup
	defer func() {
		cancel()
		stopWorkers(&wg, workers)
		for _, wk := range workers {
			wk.Close()
		}
	}()

	var measuring atomic.Bool
	var phase atomic.Int32
	var atEdges, reconnects, disconnected atomic.Int64
	var gate sync.RWMutex
	var failMu sync.Mutex
	var failErr error
	fail := func(err error) {
		failMu.Lock()
		if failErr == nil {
			failErr = err
			cancel()
		}
		failMu.Unlock()
	}
	failed := func() error {
		failMu.Lock()
		defer failMu.Unlock()
		return failErr
	}
	var sched *schedule
	open := &openStats{}

	// grow connects the users a step adds and starts their loops, which run until the stepping ends
	grow := func(to int) error {
		from := len(workers)
		for vu := from; vu < to; vu++ {
			if parent.Err() != nil { // Ctrl-C or SIGTERM while users connect: stop connecting them
				return fmt.Errorf("%w while connecting virtual users", ErrAborted)
			}
			wk, err := w.NewWorker(parent, vu)
			if err != nil {
				return err
			}
			workers, users = append(workers, wk), append(users, newUserStat())
			quits, dones = append(quits, make(chan struct{})), append(dones, make(chan struct{}))
		}
		if sched == nil && cfg.Rate > 0 { // the schedule starts with the first users connected, as Run's
			sched = newSchedule(time.Now(), cfg.Rate, cfg.Seed, cfg.LatencyLimit)
		}
		for vu := from; vu < to; vu++ {
			wk := workers[vu]
			wg.Add(1)
			go func(vu int, wk Worker, user *userStat, quit, done chan struct{}) {
				defer wg.Done()
				defer close(done)
				vuLoop(ctx, &vuEnv{vu: vu, names: names, st: st, measuring: &measuring, phase: &phase, atEdges: &atEdges, reconnects: &reconnects,
					disconnected: &disconnected, cfg: cfg, sched: sched, fail: fail, open: open, user: user, gate: &gate, quit: quit}, wk)
			}(vu, wk, users[vu], quits[vu], dones[vu])
		}
		return nil
	}
	// shrink stops the users beyond the first to at their next unit boundary, waits for them (the next step's
	// ramp-up and window begin after) and closes their workers; their figures were their last window's
	shrink := func(to int) error {
		for vu := to; vu < len(workers); vu++ {
			close(quits[vu])
		}
		limit := time.NewTimer(cfg.ReconnectTimeout)
		defer limit.Stop()
		for vu := to; vu < len(workers); vu++ {
			select {
			case <-dones[vu]:
			case <-ctx.Done():
				return ctx.Err()
			case <-limit.C:
				return fmt.Errorf("%d virtual users told to stop did not finish their work in flight within %s (--reconnect-timeout): the server answers none of it", len(workers)-to, cfg.ReconnectTimeout)
			}
		}
		for vu := to; vu < len(workers); vu++ {
			workers[vu].Close()
		}
		workers, users, quits, dones = workers[:to], users[:to], quits[:to], dones[:to]
		return nil
	}

	tick := time.NewTicker(cfg.Interval)
	defer tick.Stop()
	for i, step := range steps {
		scfg := cfg
		scfg.VUs, scfg.Rampup, scfg.Duration = step.VUs, step.Rampup, step.Duration
		var err error
		switch running := len(workers); {
		case step.VUs < running:
			fmt.Fprintf(cfg.Progress, "stopping %d of the %d running virtual users (each after its unit of work in flight)\n", running-step.VUs, running)
			if err = shrink(step.VUs); err != nil && (ctx.Err() != nil || parent.Err() != nil) {
				err = fmt.Errorf("%w while stopping step %d's surplus users", ErrAborted, i+1)
			}
			if f := failed(); f != nil && err != nil {
				err = f // a user's failure ended the run meanwhile
			}
		default:
			if i > 0 {
				fmt.Fprintf(cfg.Progress, "adding %d virtual users to the %d running\n", step.VUs-running, running)
			}
			if err = grow(step.VUs); err != nil && (ctx.Err() != nil || parent.Err() != nil) {
				err = fmt.Errorf("%w while connecting step %d's users (%v)", ErrAborted, i+1, err)
			}
		}
		if err != nil {
			return err
		}
		if step.Rate > 0 { // the open-loop schedule takes the step's rate from its ramp-up on
			scfg.Rate = step.Rate
			if cfg.WholeRate > 0 { // a shard's share of the whole run's rate, as the run's own
				scfg.Rate, scfg.WholeRate = step.Rate*cfg.Rate/cfg.WholeRate, step.Rate
			}
			if i > 0 {
				fmt.Fprintf(cfg.Progress, "setting the rate to %g/s\n", scfg.Rate)
			}
			sched.setRate(time.Now(), scfg.Rate)
		}
		m, err := runStep(parent, ctx, scfg, names, st, users, open, &stepShared{measuring: &measuring, phase: &phase, atEdges: &atEdges,
			reconnects: &reconnects, disconnected: &disconnected, gate: &gate, tick: tick, slots: func() int { return inFlightSlots(cfg.guard) }},
			failed, i == len(steps)-1)
		if !each(i, m, err) || err != nil {
			return err
		}
	}
	return nil
}

// stepShared is what the steps of a stepped run share with its users' loops.
type stepShared struct {
	measuring                         *atomic.Bool
	phase                             *atomic.Int32
	atEdges, reconnects, disconnected *atomic.Int64
	gate                              *sync.RWMutex
	tick                              *time.Ticker
	slots                             func() int // the users with a unit of work in flight
}

// inFlightSlots counts the users with a unit of work in flight.
func inFlightSlots(g *guard) int {
	g.stall.mu.Lock()
	defer g.stall.mu.Unlock()
	n := 0
	for _, v := range g.stall.slots {
		if v.Load() != 0 {
			n++
		}
	}
	return n
}

// runStep is one step of a stepped run, its users running: its ramp-up, then its window, measured as Run
// measures its own. The last step ends the users' loops (phaseEnded); the others leave them running.
func runStep(parent, ctx context.Context, cfg Config, names []string, st *stats, users []*userStat, open *openStats, sh *stepShared,
	failed func() error, last bool) (*result.Measurement, error) {
	start := time.Now()
	st.mu.Lock()
	st.samples = nil // the intervals go on: work done between the steps is in this step's first (ramp-up) interval
	st.mu.Unlock()
	m := &result.Measurement{VUs: cfg.VUs, RampupSeconds: cfg.Rampup.Seconds(), PlannedSeconds: cfg.Duration.Seconds(), PerSecond: cfg.PerSecond,
		Transactions: map[string]result.TxStats{}, Intervals: []result.Interval{}}
	fmt.Fprintf(cfg.Progress, "running %d virtual users: ramp-up %s, measured %s\n", cfg.VUs, cfg.Rampup, cfg.Duration)

	var ru0, ru1 syscall.Rusage
	var measureStart, measureEnd time.Time
	var boundaryErr error
	var endTimer <-chan time.Time
	pg := progress{cfg: cfg, start: start}
	startCut := false
	var cut func(at time.Time) // as Run's: the ramp-up's last stretch an interval of its own
	openWindow := func() {
		// nothing of this window is counted yet (the last window's end took the gate): its counts start at 0
		st.mu.Lock()
		for _, s := range st.total {
			s.reset()
		}
		st.mu.Unlock()
		for i := range users {
			users[i] = resetUser(users[i])
		}
		open.started.Store(0)
		open.lagSum.Store(0)
		open.lagMax.Store(0)
		open.skipped.Store(0)
		open.late.Store(0)
		open.done.Store(0)
		cfg.guard.mu.Lock()
		clear(cfg.guard.counts)
		cfg.guard.mu.Unlock()
		cfg.guard.stall.mu.Lock()
		cfg.guard.stall.idle, cfg.guard.stall.inFlight, cfg.guard.stall.lost, cfg.guard.stall.longest = 0, 0, 0, 0
		cfg.guard.stall.mu.Unlock()
		sh.reconnects.Store(0)
		sh.disconnected.Store(0)
		sh.atEdges.Store(0)
		sh.phase.Store(phaseStartEdge)
		if cfg.AtMeasureStart != nil {
			if err := cfg.AtMeasureStart(ctx); err != nil {
				if ctx.Err() == nil {
					boundaryErr = err
				}
				startCut = ctx.Err() != nil
			}
		}
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		measureStart = time.Now()
		if cut != nil {
			cut(measureStart)
		}
		pg.measureStart = measureStart
		sh.measuring.Store(true)
		sh.phase.Store(phaseMeasuring)
		if cfg.Rampup > 0 {
			fmt.Fprintf(cfg.Progress, "%7.1fs ramp-up done, measuring\n", time.Since(start).Seconds())
		}
		endTimer = time.After(cfg.Duration)
	}
	var rampTimer <-chan time.Time
	if cfg.Rampup > 0 {
		rampTimer = time.After(cfg.Rampup)
	} else {
		openWindow()
	}
	sh.tick.Reset(cfg.Interval)
	lastTick := start
	cut = func(at time.Time) {
		lastTick = st.cutAt(cfg, names, &m.Intervals, start, lastTick, at, pg.at(at))
		sh.tick.Reset(cfg.Interval)
	}
	for done := false; !done; {
		select {
		case <-rampTimer:
			rampTimer = nil
			openWindow()
		case now := <-sh.tick.C:
			m.Intervals = append(m.Intervals, st.intervalLine(cfg, names, now.Sub(start), now.Sub(lastTick), sh.measuring.Load(), pg.at(now)))
			cfg.guard.stall.tick(lastTick, now, sh.measuring.Load())
			lastTick = now
		case <-endTimer:
			done = true
		case <-ctx.Done():
			done = true
		}
	}
	ended := last || ctx.Err() != nil
	if ended {
		sh.phase.Store(phaseEnded)
		StartEnd(parent)
	} else {
		sh.phase.Store(phaseBetween)
	}
	sh.gate.Lock() // every unit of work counted in the window is in
	wasMeasuring := sh.measuring.Swap(false)
	sh.gate.Unlock()
	if wasMeasuring {
		measureEnd = time.Now()
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		cfg.guard.stall.windowEnd(measureEnd)
	}
	inFlight := 0
	if !ended {
		inFlight = sh.slots() // the work in flight at the end edge goes on into the next step, uncounted
	}
	if now := time.Now(); now.Sub(lastTick) > cfg.Interval/10 || len(m.Intervals) == 0 || m.Intervals[len(m.Intervals)-1].Measured != wasMeasuring {
		m.Intervals = append(m.Intervals, st.intervalLine(cfg, names, now.Sub(start), now.Sub(lastTick), wasMeasuring, pg.at(now)))
	} else {
		quiet := cfg
		quiet.Progress = io.Discard
		tail := st.intervalLine(quiet, names, now.Sub(start), now.Sub(lastTick), wasMeasuring, pg.at(now))
		foldTail(m.Intervals, tail, now.Sub(lastTick))
	}
	if wasMeasuring && !startCut && cfg.AtMeasureEnd != nil {
		var end context.Context
		var cancelEnd context.CancelFunc
		if ended {
			end, cancelEnd = EndContext(parent)
		} else {
			end, cancelEnd = context.WithTimeout(ctx, EndTimeout)
		}
		if err := cfg.AtMeasureEnd(end); err != nil && boundaryErr == nil {
			boundaryErr = err
		}
		cancelEnd()
	}

	st.window(m, names, wasMeasuring, measureStart, measureEnd, &ru0, &ru1)
	m.Reconnects = sh.reconnects.Load()
	m.KeyAtEdges = sh.atEdges.Load() + int64(inFlight)
	m.OpenLoop = open.result(cfg)
	sh.gate.Lock() // the users' own figures: written by their loops under the gate
	m.Users = perUser(users, m.MeasuredSecs)
	sh.gate.Unlock()
	m.DisconnectedSecs = round1(time.Duration(sh.disconnected.Load()).Seconds())
	rates(m)
	guardErr := cfg.guard.finish(m, keyTxName(cfg, names), cfg.KeyLabel, wasMeasuring)
	switch {
	case failed() != nil:
		return m, failed()
	case parent.Err() != nil:
		return m, fmt.Errorf("%w after %.1fs of the step", ErrAborted, time.Since(start).Seconds())
	case boundaryErr != nil:
		return m, boundaryErr
	case guardErr != nil:
		return m, guardErr
	}
	return m, nil
}

// resetUser empties a user's figures for a new window (its loop writes them only while measuring, which is off).
func resetUser(u *userStat) *userStat {
	u.count, u.errors = 0, 0
	u.hist.Reset()
	return u
}

// MeasureSteps is a Run's Measure of spec.Steps (a stepped load by users, workload.StepsRun): one loop of w's
// virtual users (RunSteps) timed by the steps. Each step's part of the result goes to spec.StepDone as its
// window ends: res so far, with the step's measurement and its users, ramp-up and measured time in its
// options, after the Run's own additions (each: figures, a cross-check, whose error ends the stepping). res
// ends with the last step's measurement and figures; measured is false when no step measured. spec.StepEdge,
// when set, is called at each step's window edges, around the workload's own edge reads (cfg's AtMeasureStart
// and AtMeasureEnd).
func MeasureSteps(ctx context.Context, w Workload, cfg Config, spec workload.Spec, res *result.Result, each func(part *result.Result) error) (bool, error) {
	steps := make([]Step, len(spec.Steps))
	for i, s := range spec.Steps {
		steps[i] = Step{VUs: s.VUs, Rampup: s.Rampup, Duration: s.Duration, Rate: s.Rate}
		if s.VUs == 0 { // an open-loop step: the run's users at the step's rate
			steps[i].VUs = cfg.VUs
		} else if sl, ok := w.(StepLoad); ok {
			steps[i].VUs = sl.StepUsers(s.VUs)
		}
	}
	from := time.Now()
	var stepErr error // a step's own (each's), which ends the stepping too
	at := 0           // the step under way, for spec.StepEdge
	if spec.StepEdge != nil {
		start, end := cfg.AtMeasureStart, cfg.AtMeasureEnd
		cfg.AtMeasureStart = func(ctx context.Context) error {
			spec.StepEdge(ctx, at, false) // before the workload's own read: the step's edges enclose the workload's
			if start != nil {
				return start(ctx)
			}
			return nil
		}
		cfg.AtMeasureEnd = func(ctx context.Context) error {
			var err error
			if end != nil {
				err = end(ctx)
			}
			spec.StepEdge(ctx, at, true)
			return err
		}
	}
	err := RunSteps(ctx, w, cfg, steps, func(i int, m *result.Measurement, err error) bool {
		part := *res
		part.Options = map[string]any{}
		for k, o := range res.Options {
			part.Options[k] = o
		}
		part.Options["vus"], part.Options["rampup_s"], part.Options["duration_s"] = steps[i].VUs, steps[i].Rampup.Seconds(), steps[i].Duration.Seconds()
		if v := spec.Steps[i].VUs; v > 0 {
			part.Options["vus"] = v // the step's load as given (a StepLoad's users are more)
		}
		if r := steps[i].Rate; r > 0 {
			part.Options["rate"] = r
		}
		part.Measurement = m
		if each != nil {
			if e := each(&part); err == nil {
				err = e
			}
		}
		now := time.Now()
		part.StartedAt, part.EndedAt, from = from.UTC(), now.UTC(), now
		res.Measurement, res.Figures = m, part.Figures
		if spec.StepDone != nil {
			spec.StepDone(i, &part, err)
		}
		stepErr = err
		at = i + 1
		return err == nil
	})
	if err == nil {
		err = stepErr
	}
	return res.Measurement != nil, err
}

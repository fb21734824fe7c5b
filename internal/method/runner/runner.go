// Package runner owns virtual users, timing and progress: it drives any workload that can hand it workers,
// measures each transaction with a monotonic clock into HdrHistograms, prints a progress line every interval
// and returns the figures of the measured window (ramp-up excluded).
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Worker is one virtual user's view of a workload.
type Worker interface {
	// Next chooses the next transaction and the keying and think times around it (zero when off).
	Next() (tx int, keying, think time.Duration)
	// Do runs transaction tx.
	Do(ctx context.Context, tx int) Outcome
	// Reconnect replaces a lost connection.
	Reconnect(ctx context.Context) error
	Close()
}

// Outcome is how one transaction ended.
type Outcome struct {
	RolledBack bool  // an expected rollback, part of the workload's definition
	Retries    int   // serialization failures or deadlocks retried before the outcome
	Err        error // a failure; counted as an error
	ConnLost   bool  // with Err: the connection is gone and must be replaced
}

// Counter is a Worker told of each outcome the runner counts in the measured window, right after its Do and on
// its goroutine: a workload's own figures per outcome (e.g. errors by statement) then agree with the run's
// counts exactly, whatever happens at the window's edges.
type Counter interface {
	Counted(tx int, out Outcome)
}

// Workload hands out workers.
type Workload interface {
	Transactions() []string
	NewWorker(ctx context.Context, vu int) (Worker, error)
}

// Config is a run's timing.
type Config struct {
	VUs int
	// Terminals, when positive, makes the run one of that many emulated terminals sharing VUs connections (the
	// workload is a Terminals): each unit of work's latency counts from its terminal's submit, its wait for a
	// connection included, and the wait is reported apart (result.Terminals).
	Terminals        int
	Rampup           time.Duration
	Duration         time.Duration
	Interval         time.Duration
	ReconnectTimeout time.Duration // a VU that cannot reconnect for this long fails the run
	Progress         io.Writer
	// KeyTx is a transaction whose committed count per minute the progress lines show as KeyLabel (e.g. NOPM).
	KeyTx    int
	KeyLabel string
	// RateLabel names all transactions per minute in the progress lines (default "TPM"), per second with
	// PerSecond.
	RateLabel string
	// PerSecond and Micros make the progress lines show the rates (RateLabel's and KeyLabel's) per second and
	// latencies in µs, for a workload whose summary and metrics state them so (ping, probe mixed): one unit per
	// quantity from progress to report.
	PerSecond, Micros bool
	// AtMeasureStart and AtMeasureEnd run at the window's edges (e.g. to read a database counter).
	AtMeasureStart func(ctx context.Context) error
	AtMeasureEnd   func(ctx context.Context) error
	// Rate, when positive, makes the run an open loop (pgbench -R): transactions arrive at this many per second
	// over all virtual users on average, at intended starts of one shared Poisson schedule (exponential times
	// between them, drawn from Seed), and each one's latency counts from its intended start, so time spent
	// queued behind a slow server is in it (no coordinated omission). How late they start is the lag.
	Rate float64
	// WholeRate, for a shard of a run driven by several processes (--shard I/N), is the whole run's rate, of
	// which Rate is this shard's share (WholeRate/N); 0 for a run that is not a shard.
	WholeRate float64
	// Seed seeds the open-loop schedule.
	Seed uint64
	// LatencyLimit, when positive, counts completed units of work that took longer as late and, with Rate,
	// skips (and counts) intended starts already more than the limit behind when a user is free for them
	// (pgbench --latency-limit).
	LatencyLimit time.Duration
	// Live, when set (--metrics-addr), takes each unit of work's end, the users and the phase as they happen.
	Live workload.Live
	// Classify says what a failed unit of work's error means (the target engine's Classify; nil: every error is
	// of class Other). The first error of a fatal class (schema, read-only, corruption) ends the run as failed.
	Classify func(error) engine.Class
	// MaxErrorRate is the percentage of the measured window's units of work that may fail with errors of one
	// class before the run is failed (0: DefaultMaxErrorRate; negative: none may fail).
	MaxErrorRate float64
	// Transactions, when positive, ends the measured window when this many units of work (all virtual users
	// together, whatever their outcome) have finished in it, instead of after Duration: each unit of work
	// takes one of the window's Transactions tickets before it starts, so the window holds exactly that many.
	Transactions int64
	// MeasureAt, when set, is the instant the measured window starts (--start-at): the ramp-up ends then.
	MeasureAt time.Time
	// StallLimit, when positive, is how long work may be in flight with none completing before the run is
	// stalled, instead of StallLimit(Interval, Duration): for units of work that take long (analytic queries).
	StallLimit time.Duration
	// LatencyLog, when set, is a file that gets one line per unit of work finished in the measured window
	// (see latencyLog); it is written whole when the run ends, also when it fails or is cancelled.
	LatencyLog string

	guard *guard // set by Run: see errors.go and stall.go
}

// ErrAborted is returned (wrapped) when the parent context was cancelled, e.g. by Ctrl-C: every workload's.
var ErrAborted = workload.ErrAborted

const maxLatencyUS = 3600_000_000 // one hour

type txStat struct {
	count, rollbacks, errors, retries int64
	hist                              *hdrhistogram.Histogram
}

func newTxStat() *txStat { return &txStat{hist: hdrhistogram.New(1, maxLatencyUS, 3)} }

func (s *txStat) reset() {
	s.count, s.rollbacks, s.errors, s.retries = 0, 0, 0, 0
	s.hist.Reset()
}

// window is the measured window's count of units of work for a count-based run (Config.Transactions).
type window struct {
	tickets  atomic.Int64  // handed out: a unit of work takes one before it starts
	finished atomic.Int64  // units of work with a ticket that finished
	done     chan struct{} // closed when the last ticket's unit of work finished
}

type stats struct {
	mu       sync.Mutex
	interval []*txStat
	total    []*txStat
	samples  []string
	wait     *hdrhistogram.Histogram // a run of terminals': the interval's waits for a connection (nil otherwise)
}

// Run drives the workload and returns the measurement. The error is non-nil when the run did not complete:
// wrapped ErrAborted for a cancelled context, otherwise the reason it failed. The measurement holds the
// figures gathered until then in every case.
func Run(parent context.Context, w Workload, cfg Config) (*result.Measurement, error) {
	if cfg.VUs < 1 {
		return nil, errors.New("--vus must be at least 1")
	}
	cfg.defaults()
	names := w.Transactions()
	cfg.guard = newGuard(cfg)
	st := &stats{}
	for range names {
		st.interval = append(st.interval, newTxStat())
		st.total = append(st.total, newTxStat())
	}
	var workers []Worker
	var terms *pool
	var err error
	if cfg.Terminals > 0 {
		workers, terms, err = connectPool(parent, w, cfg)
	} else {
		workers, err = connectUsers(parent, w, cfg.VUs)
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, wk := range workers {
			wk.Close()
		}
	}()
	if terms != nil {
		st.wait = hdrhistogram.New(1, maxLatencyUS, 3)
	}

	if err := startAt(parent, &cfg); err != nil {
		return nil, err
	}
	var log *latencyLog
	if cfg.LatencyLog != "" {
		var err error
		if log, err = openLatencyLog(cfg.LatencyLog); err != nil {
			return nil, err
		}
	}
	var win *window
	if cfg.Transactions > 0 {
		win = &window{done: make(chan struct{})}
	}

	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var measuring atomic.Bool
	// phase is where the run is against the window's edges, for the key transactions in flight at them
	// (atEdges): a database's count read at an edge may hold them on either side of the client's
	var phase atomic.Int32
	var atEdges atomic.Int64
	var reconnects, disconnected atomic.Int64 // disconnected: nanoseconds virtual users spent without a connection while measuring
	var failOnce sync.Once
	var failErr error
	fail := func(err error) {
		failOnce.Do(func() { failErr = err; cancel() })
	}

	start := time.Now()
	m := &result.Measurement{VUs: cfg.VUs, RampupSeconds: cfg.Rampup.Seconds(), PlannedSeconds: cfg.Duration.Seconds(), PerSecond: cfg.PerSecond,
		Transactions: map[string]result.TxStats{}, Intervals: []result.Interval{}}
	who := fmt.Sprintf("%d virtual users", cfg.VUs)
	if terms != nil {
		terms.done = ctx.Done()
		who = fmt.Sprintf("%d terminals over %d connections", cfg.Terminals, cfg.VUs)
	}
	if win != nil {
		m.PlannedSeconds = 0
		fmt.Fprintf(cfg.Progress, "running %s: ramp-up %s, measured until %d transactions have finished (all users together)\n", who, cfg.Rampup.Round(time.Millisecond), cfg.Transactions)
	} else {
		fmt.Fprintf(cfg.Progress, "running %s: ramp-up %s, measured %s\n", who, cfg.Rampup.Round(time.Millisecond), cfg.Duration)
	}

	var sched *schedule
	if cfg.Rate > 0 {
		sched = newSchedule(start, cfg.Rate, cfg.Seed, cfg.LatencyLimit)
	}
	open := &openStats{}
	users := make([]*userStat, len(workers))

	var ru0, ru1 syscall.Rusage
	var measureStart, measureEnd time.Time
	var boundaryErr error
	var endTimer <-chan time.Time
	// windowDue is when a window of --duration is due to end; dueTick the tick that came at or after it, which
	// ends the window before its interval is told (zero: none)
	var windowDue, dueTick time.Time
	var allDone <-chan struct{}
	pg := progress{cfg: cfg, start: start, win: win}
	startCut := false
	// cut, once the intervals are ticking, closes the ramp-up's last stretch as an interval of its own at the
	// window's start (nil before)
	var cut func(at time.Time)
	// openWindow opens the measured window: the start edge's read, then the client's CPU and the clock.
	openWindow := func() {
		phase.Store(phaseStartEdge)
		if cfg.AtMeasureStart != nil {
			if err := cfg.AtMeasureStart(ctx); err != nil {
				if ctx.Err() == nil {
					boundaryErr = err
				}
				startCut = ctx.Err() != nil // cut short by the end of the run: the window's end has no start to pair with
			}
		}
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		measureStart = time.Now()
		if cut != nil {
			cut(measureStart)
		}
		pg.measureStart = measureStart
		measuring.Store(true)
		phase.Store(phaseMeasuring)
		if cfg.Live != nil {
			cfg.Live.Phase("measure")
		}
		if cfg.Rampup > 0 {
			fmt.Fprintf(cfg.Progress, "%7.1fs ramp-up done, measuring\n", time.Since(start).Seconds())
		}
		if win != nil {
			allDone = win.done
		} else {
			endTimer = time.After(cfg.Duration)
			windowDue = measureStart.Add(cfg.Duration)
		}
	}
	var rampTimer <-chan time.Time
	if cfg.Rampup > 0 {
		rampTimer = time.After(cfg.Rampup)
	} else {
		// No ramp-up: the window opens before the first user starts, so every unit of work is inside it (opened
		// by the run's goroutine after the users started, work finished before it was the intervals' alone).
		openWindow()
	}

	if cfg.Live != nil {
		cfg.Live.Users(len(workers))
		if !measuring.Load() {
			cfg.Live.Phase("ramp-up")
		}
	}
	var wg sync.WaitGroup
	for i, wk := range workers {
		users[i] = newUserStat()
		wg.Add(1)
		go func(vu int, wk Worker) {
			defer wg.Done()
			vuLoop(ctx, &vuEnv{vu: vu, names: names, st: st, measuring: &measuring, phase: &phase, atEdges: &atEdges, reconnects: &reconnects, disconnected: &disconnected,
				cfg: cfg, sched: sched, fail: fail, win: win, log: log, open: open, user: users[vu]}, wk)
		}(i, wk)
	}

	if terms != nil {
		// the terminals begin keying one after another over the ramp-up (all at once without one)
		terms.start(time.Now(), cfg.Rampup)
		defer terms.halt()
	}
	tick := time.NewTicker(cfg.Interval)
	defer tick.Stop()
	lastTick := start
	done := false
	// No interval straddles the window's start: the ramp-up's last stretch is one of its own, unmeasured (or,
	// shorter than a tenth of --interval, added to the one before), and the intervals tick from the window's
	// start. One that straddled it was marked measured with the ramp-up's work in it (the first progress line
	// "measure" counted work the run's totals did not hold).
	cut = func(at time.Time) {
		lastTick = st.cutAt(cfg, names, &m.Intervals, start, lastTick, at, pg.at(at))
		tick.Reset(cfg.Interval)
	}
	for !done {
		select {
		case <-rampTimer:
			rampTimer = nil
			openWindow()
		case now := <-tick.C:
			if endTimer != nil && !now.Before(windowDue) {
				// the window's last interval: the window ends first and the line is told after, so that whoever
				// acts on it (a test thawing a frozen server) acts on a closed window. Told first, the units its
				// action finished counted as completions at the window's end, and the stall's work in flight
				// at the end read 0 (TestFrozenServerStallFailsTheRun under stress-ng)
				dueTick, done = now, true
				continue
			}
			m.Intervals = append(m.Intervals, st.intervalLine(cfg, names, now.Sub(start), now.Sub(lastTick), measuring.Load(), pg.at(now)))
			cfg.guard.stall.tick(lastTick, now, measuring.Load())
			lastTick = now
		case now := <-endTimer:
			done = true
			if now.Sub(lastTick) > cfg.Interval/10 {
				// the window's end came before the tick due with it (both fire at the same instant, and either
				// may come first): the same last interval, judged before it is told (1 run in 15 on a quiet
				// machine told it after, unjudged, in TestTheWindowEndsBeforeItsLastIntervalIsTold)
				dueTick = now
			}
		case <-allDone:
			done = true
		case <-ctx.Done():
			done = true
		}
	}
	phase.Store(phaseEnded)
	if cfg.Live != nil {
		cfg.Live.Phase("ended")
		cfg.Live.Users(0)
	}
	StartEnd(parent) // the queries at the run's end from here on share one deadline
	wasMeasuring := measuring.Swap(false)
	if wasMeasuring {
		measureEnd = time.Now()
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		cfg.guard.stall.windowEnd(measureEnd)
	}
	if !dueTick.IsZero() {
		// judged before it is told: what its reader does (a thaw) is not the interval's
		stalled := cfg.guard.stall.judge(lastTick, dueTick, wasMeasuring)
		m.Intervals = append(m.Intervals, st.intervalLine(cfg, names, dueTick.Sub(start), dueTick.Sub(lastTick), wasMeasuring, pg.at(dueTick)))
		fmt.Fprint(cfg.Progress, stalled)
		lastTick = dueTick
	}
	cancel()
	stopWorkers(&wg, workers)
	if terms != nil {
		terms.halt()
	}
	if now := time.Now(); now.Sub(lastTick) > cfg.Interval/10 || len(m.Intervals) == 0 || m.Intervals[len(m.Intervals)-1].Measured != wasMeasuring {
		m.Intervals = append(m.Intervals, st.intervalLine(cfg, names, now.Sub(start), now.Sub(lastTick), wasMeasuring, pg.at(now)))
	} else { // a tail too short for a rate of its own: its work added to the last interval, so they sum to the run's
		quiet := cfg
		quiet.Progress = io.Discard
		tail := st.intervalLine(quiet, names, now.Sub(start), now.Sub(lastTick), wasMeasuring, pg.at(now))
		foldTail(m.Intervals, tail, now.Sub(lastTick))
	}
	var logErr error
	if log != nil {
		logErr = log.close()
	}
	if wasMeasuring && !startCut && cfg.AtMeasureEnd != nil {
		end, cancelEnd := EndContext(parent)
		if err := cfg.AtMeasureEnd(end); err != nil && boundaryErr == nil {
			boundaryErr = err
		}
		cancelEnd()
	}

	st.window(m, names, wasMeasuring, measureStart, measureEnd, &ru0, &ru1)
	m.Reconnects = reconnects.Load()
	m.KeyAtEdges = atEdges.Load()
	m.OpenLoop = open.result(cfg)
	m.Users = perUser(users, m.MeasuredSecs)
	m.DisconnectedSecs = round1(time.Duration(disconnected.Load()).Seconds())
	if terms != nil {
		m.Terminals = terms.result(workers, names)
	}
	rates(m)
	guardErr := cfg.guard.finish(m, keyTxName(cfg, names), cfg.KeyLabel, wasMeasuring)
	if parent.Err() != nil && failErr == nil {
		failErr = fmt.Errorf("%w after %.1fs", ErrAborted, time.Since(start).Seconds())
	}
	// the first of: a user's failure (which ended the run), the run's abort, the window's edges, the guards
	// (errors by class, stalls, time without a connection), the latency log
	return m, first(failErr, boundaryErr, guardErr, logErr)
}

// first is the first error that is not nil.
func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// defaults fills what a Config leaves at zero: 10 s intervals, a 30 s reconnect timeout, no progress.
func (cfg *Config) defaults() {
	if cfg.Interval <= 0 {
		cfg.Interval = 10 * time.Second
	}
	if cfg.ReconnectTimeout <= 0 {
		cfg.ReconnectTimeout = 30 * time.Second
	}
	if cfg.Progress == nil {
		cfg.Progress = io.Discard
	}
}

// connectUsers opens the run's n virtual users, each its own Worker (its connection): all of them, or none
// (those opened are closed again) when one fails or the run is stopped (Ctrl-C, SIGTERM) while they connect.
func connectUsers(parent context.Context, w Workload, n int) ([]Worker, error) {
	workers := make([]Worker, n)
	for i := range workers {
		wk, err := w.NewWorker(parent, i)
		if err == nil && parent.Err() != nil { // stopped while users connect: stop connecting them
			wk.Close()
			err = fmt.Errorf("%w while connecting virtual users", ErrAborted)
		}
		if err != nil {
			for _, o := range workers[:i] {
				o.Close()
			}
			return nil, err
		}
		workers[i] = wk
	}
	return workers, nil
}

// cutAt ends the interval begun at last at the window's start (at), unmeasured: an interval of its own, or,
// shorter than a tenth of the interval, added to the one before. It returns the next interval's start.
func (st *stats) cutAt(cfg Config, names []string, ivs *[]result.Interval, start, last, at time.Time, where string) time.Time {
	span := at.Sub(last)
	if span <= cfg.Interval/10 && len(*ivs) > 0 {
		quiet := cfg
		quiet.Progress = io.Discard
		foldTail(*ivs, st.intervalLine(quiet, names, at.Sub(start), span, false, where), span)
	} else {
		*ivs = append(*ivs, st.intervalLine(cfg, names, at.Sub(start), span, false, where))
	}
	return at
}

// window sets m's measured window (its edges, seconds and the client's CPU over it; an empty window at now
// where none opened) and its totals by transaction, with the error samples so far.
func (st *stats) window(m *result.Measurement, names []string, opened bool, from, to time.Time, ru0, ru1 *syscall.Rusage) {
	if opened {
		m.MeasureStart, m.MeasureEnd = from.UTC(), to.UTC()
		m.MeasuredSecs = to.Sub(from).Seconds()
		m.ClientCPU.UserSeconds = tvSeconds(ru1.Utime) - tvSeconds(ru0.Utime)
		m.ClientCPU.SystemSeconds = tvSeconds(ru1.Stime) - tvSeconds(ru0.Stime)
	} else {
		m.MeasureStart, m.MeasureEnd = time.Now().UTC(), time.Now().UTC()
	}
	minutes := m.MeasuredSecs / 60
	st.mu.Lock()
	defer st.mu.Unlock()
	for i, n := range names {
		t := st.total[i]
		ts := result.TxStats{Count: t.count, Rollbacks: t.rollbacks, Errors: t.errors, Retries: t.retries, Latency: latency(t.hist),
			Histogram: result.EncodeHistogram(t.hist)}
		if minutes > 0 {
			ts.PerMinute = float64(t.count) / minutes
		}
		m.Transactions[n] = ts
		m.Committed += t.count
		m.Rollbacks += t.rollbacks
		m.Errors += t.errors
		m.Retries += t.retries
	}
	m.ErrorSamples = append([]string(nil), st.samples...)
}

// rates sets m's committed rate and the client's CPU per committed unit of work.
func rates(m *result.Measurement) {
	if m.MeasuredSecs > 0 {
		m.PerMinute = float64(m.Committed) / (m.MeasuredSecs / 60)
	}
	if m.Committed > 0 {
		m.ClientCPU.MicrosPerTx = (m.ClientCPU.UserSeconds + m.ClientCPU.SystemSeconds) * 1e6 / float64(m.Committed)
	}
}

// outcomeOf names a unit of work's outcome for the live figures: committed, rolled_back, or its error's class.
func outcomeOf(out Outcome, classify func(error) engine.Class) string {
	switch {
	case out.Err == nil && out.RolledBack:
		return "rolled_back"
	case out.Err == nil:
		return "committed"
	case classify != nil:
		return classify(out.Err).String()
	}
	return engine.Other.String()
}

// keyTxName is the key transaction's name, "" where the run has none.
func keyTxName(cfg Config, names []string) string {
	if cfg.KeyLabel != "" && cfg.KeyTx >= 0 && cfg.KeyTx < len(names) {
		return names[cfg.KeyTx]
	}
	return ""
}

// The run's phases against the measured window's edges. A key transaction is in flight at an edge when it
// ends in or after the phase of the start edge (between the beginning of AtMeasureStart, whose database read
// may come at any moment of it, and the start of the client's counting) having begun in or before it, or when
// it ends after the window's end (the client's counting stopped, AtMeasureEnd's read to come): its commit may
// fall on one side of the database's read and the client's count of it on the other. Their number is exact,
// however long an edge takes (a loaded machine's scheduler stops the runner between its read and its count
// for many transactions).
const (
	phaseRampup int32 = iota
	phaseStartEdge
	phaseMeasuring
	phaseEnded
	// phaseBetween is a stepped run's (RunSteps) from a step's window's end to the next step's start edge: the
	// users go on, and the work in flight at the end edge counts as at it, as after phaseEnded.
	phaseBetween
)

func tvSeconds(tv syscall.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)/1e6 }

// vuEnv is what one virtual user's loop shares with the run.
type vuEnv struct {
	vu                       int
	names                    []string
	st                       *stats
	measuring                *atomic.Bool
	phase                    *atomic.Int32 // phaseRampup .. phaseEnded
	atEdges                  *atomic.Int64 // key transactions in flight at the window's edges
	reconnects, disconnected *atomic.Int64 // disconnected: nanoseconds spent without a connection while measuring
	cfg                      Config
	sched                    *schedule
	fail                     func(error)
	win                      *window     // nil: the window is timed
	log                      *latencyLog // nil: no latency log
	open                     *openStats
	user                     *userStat
	// gate, in a stepped run (RunSteps), is held (read) from a unit of work's reading of measuring to the end of
	// its counting, so that the run's goroutine, taking it to end a step's window, reads a window whose counts
	// are all in; nil in Run.
	gate *sync.RWMutex
	// quit, in a stepped run, is closed to stop this user at its next unit boundary (a step of fewer users): a
	// unit of work in flight finishes and is counted as any other (in the window it ends in, if any), and no
	// other starts; its keying, think or schedule wait ends at once. nil in Run.
	quit <-chan struct{}
}

// stopped says whether the user was told to quit (quit closed).
func (e *vuEnv) stopped() bool {
	select {
	case <-e.quit:
		return true
	default:
		return false
	}
}

// sleep waits d, false when the run ended or the user was told to quit meanwhile.
func (e *vuEnv) sleep(ctx context.Context, d time.Duration) bool {
	return sleep(ctx, d, e.quit) && !e.stopped()
}

func vuLoop(ctx context.Context, e *vuEnv, wk Worker) {
	cfg := e.cfg
	inFlight, offline := cfg.guard.stall.slot()
	sub, _ := wk.(submitter) // a pool's connection: its units start at their terminal's submit
	var logged int64
	// no unit of work starts once the window has ended: between the window's end and the workers' cancel the
	// run's goroutine can wait its turn for tens of milliseconds on a loaded machine, and work begun then
	// committed uncounted (script's tpcb-like on SQLite: 17 history rows beyond the window's count, 4 users)
	for ctx.Err() == nil && e.phase.Load() != phaseEnded && !e.stopped() {
		tx, keying, think := wk.Next()
		if !e.sleep(ctx, keying) {
			return
		}
		// the phase before the window's place is decided: a unit refused a place because the window had not
		// opened, and begun after the start edge's read (open-loop, it waits for its start time in between),
		// is at that edge (it was counted by neither side before: the database's 5 against the client's 4)
		p0 := e.phase.Load()
		ticket := false
		if e.win != nil && e.measuring.Load() {
			if e.win.tickets.Add(1) > cfg.Transactions {
				return // the window's units of work are all handed out
			}
			ticket = true
		}
		t0 := time.Now()
		if sub != nil {
			t0 = sub.submitted() // a terminal's transaction: from its submit, its wait for a connection included
		}
		if e.sched != nil {
			var skipped int64
			t0, skipped = e.sched.take(t0)
			if skipped > 0 && e.measuring.Load() {
				e.open.skipped.Add(skipped)
			}
			if !e.sleep(ctx, time.Until(t0)) {
				return // the run ended, or the user quits between two steps' windows: its intended start is no window's
			}
		}
		began := time.Now()
		inFlight.Store(began.UnixNano())
		out := wk.Do(ctx, tx)
		elapsed := time.Since(t0)
		if ctx.Err() != nil {
			if tx == cfg.KeyTx {
				e.atEdges.Add(1) // may have committed before the window's end read: not counted, the database's may hold it
			}
			return // the run ended while this transaction was in flight: it is not counted
		}
		inFlight.Store(0)
		if e.gate != nil {
			e.gate.RLock()
		}
		measured := e.measuring.Load()
		if p1 := e.phase.Load(); tx == cfg.KeyTx && ((p0 <= phaseStartEdge || p0 == phaseBetween) && p1 >= phaseStartEdge || p1 >= phaseEnded) {
			e.atEdges.Add(1)
		}
		if e.win != nil {
			measured = ticket // a unit of work begun in the ramp-up is not the window's
		}
		e.st.record(tx, elapsed, out, measured)
		if sub != nil {
			e.st.waited(sub.waited())
		}
		if cfg.Live != nil {
			cfg.Live.Done(e.names[tx], elapsed, outcomeOf(out, cfg.Classify), out.Retries, measured)
		}
		if measured {
			if c, ok := wk.(Counter); ok {
				c.Counted(tx, out)
			}
			e.user.add(elapsed.Microseconds(), out)
			if e.sched != nil {
				e.open.lag(began.Sub(t0))
				if cfg.Live != nil {
					cfg.Live.Lag(began.Sub(t0))
				}
			}
			if out.Err == nil {
				e.open.done.Add(1)
				if cfg.LatencyLimit > 0 && elapsed.Microseconds() > cfg.LatencyLimit.Microseconds() { // as the latency log states it
					e.open.late.Add(1)
				}
			}
		}
		if measured && e.log != nil {
			e.log.line(e.vu, logged, elapsed, e.names[tx], out, t0)
			logged++
		}
		err := cfg.guard.done(out, measured)
		if e.gate != nil {
			e.gate.RUnlock()
		}
		if err != nil {
			e.fail(err)
			return
		}
		if ticket && e.win.finished.Add(1) == cfg.Transactions {
			close(e.win.done)
			return
		}
		if out.ConnLost {
			lost := time.Now()
			offline.Store(lost.UnixNano())
			ok := reconnect(ctx, wk, cfg.ReconnectTimeout, e.reconnects, e.fail)
			if ok {
				offline.Store(0)
			}
			if e.measuring.Load() {
				e.disconnected.Add(int64(time.Since(lost)))
			}
			if !ok {
				return
			}
		}
		if !e.sleep(ctx, think) {
			return
		}
	}
}

func reconnect(ctx context.Context, wk Worker, limit time.Duration, reconnects *atomic.Int64, fail func(error)) bool {
	// the connection that reported itself lost is closed under the worker first: were it alive after all (an
	// error taken for a lost connection), a transaction left open on it would go back to the pool with it, and
	// the next BEGIN there would commit it half done (MySQL and MariaDB commit an open transaction at BEGIN)
	if i, ok := wk.(Interrupter); ok {
		i.Interrupt()
	}
	deadline := time.Now().Add(limit)
	backoff := 100 * time.Millisecond
	var last error
	for time.Now().Before(deadline) {
		if !sleep(ctx, backoff, nil) {
			return false
		}
		if last = wk.Reconnect(ctx); last == nil {
			reconnects.Add(1)
			return true
		}
		if backoff *= 2; backoff > 2*time.Second {
			backoff = 2 * time.Second
		}
	}
	fail(fmt.Errorf("connection lost and not re-established within %s: %v", limit, last))
	return false
}

// sleep waits d, false when ctx ended or quit was closed meanwhile (a nil quit never is).
func sleep(ctx context.Context, d time.Duration, quit <-chan struct{}) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-quit:
		return false
	}
}

func (s *txStat) add(us int64, out Outcome) {
	s.retries += int64(out.Retries)
	switch {
	case out.Err != nil:
		s.errors++
	case out.RolledBack:
		s.rollbacks++
		s.hist.RecordValue(min(us, maxLatencyUS))
	default:
		s.count++
		s.hist.RecordValue(min(us, maxLatencyUS))
	}
}

func (st *stats) record(tx int, d time.Duration, out Outcome, measured bool) {
	us := d.Microseconds()
	if us < 1 {
		us = 1
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.interval[tx].add(us, out)
	if measured {
		st.total[tx].add(us, out)
	}
	if out.Err != nil && len(st.samples) < 10 {
		st.samples = append(st.samples, out.Err.Error())
	}
}

// waited adds a unit of work's wait for a connection to the interval's (a run of terminals).
func (st *stats) waited(d time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.wait != nil {
		st.wait.RecordValue(min(max(1, d.Microseconds()), maxLatencyUS))
	}
}

// progressTypes is the most transaction types whose percentiles each progress line shows.
const progressTypes = 6

func (st *stats) intervalLine(cfg Config, names []string, elapsed, span time.Duration, measured bool, where string) result.Interval {
	st.mu.Lock()
	// to the millisecond: an interval's rate is its count over its span, and a span of 0.25 s kept as 0.3 s or
	// 0.2 s would move that rate by a fifth
	iv := result.Interval{ElapsedSeconds: round3(elapsed.Seconds()), Measured: measured, Transactions: map[string]result.IntervalTxStat{}}
	var committed, keyCount int64
	var b strings.Builder
	lat := ms
	if cfg.Micros {
		lat = func(us int64) string { return strconv.FormatInt(us, 10) }
	}
	// every type's percentiles while they fit a line; beyond progressTypes (the web store's 14 steps made a line
	// of 300 characters) the key type's and the slowest p95's, the rest in the result and the summary
	few := len(names) <= progressTypes
	slowest := -1
	for i, n := range names {
		s := st.interval[i]
		its := result.IntervalTxStat{Count: s.count, P50: s.hist.ValueAtQuantile(50), P95: s.hist.ValueAtQuantile(95), P99: s.hist.ValueAtQuantile(99)}
		iv.Transactions[n] = its
		committed += s.count
		iv.Errors += s.errors
		if i == cfg.KeyTx {
			keyCount = s.count
		}
		if few || i == cfg.KeyTx {
			fmt.Fprintf(&b, "  %s %s/%s/%s", abbrev(n), lat(its.P50), lat(its.P95), lat(its.P99))
		}
		if s.count > 0 && (slowest < 0 || its.P95 > iv.Transactions[names[slowest]].P95) {
			slowest = i
		}
		s.reset()
	}
	if !few && slowest >= 0 && slowest != cfg.KeyTx {
		fmt.Fprintf(&b, "  slowest p95 %s %s", abbrev(names[slowest]), lat(iv.Transactions[names[slowest]].P95))
	}
	if st.wait != nil { // a run of terminals: their wait for a connection, part of the latencies before it
		w := result.IntervalTxStat{Count: st.wait.TotalCount(), P50: st.wait.ValueAtQuantile(50), P95: st.wait.ValueAtQuantile(95), P99: st.wait.ValueAtQuantile(99)}
		iv.ConnectionWait = &w
		fmt.Fprintf(&b, "  wait %s/%s/%s", lat(w.P50), lat(w.P95), lat(w.P99))
		st.wait.Reset()
	}
	st.mu.Unlock()
	minutes := span.Minutes()
	if minutes > 0 {
		iv.PerMinute = float64(committed) / minutes
	}
	phase := "measure"
	if !measured {
		phase = "ramp-up"
	}
	key := ""
	if cfg.KeyLabel != "" && minutes > 0 {
		k := float64(keyCount) / minutes
		if cfg.PerSecond {
			k /= 60
		}
		key = fmt.Sprintf(" %s %8.0f", cfg.KeyLabel, k)
	}
	rate := cfg.RateLabel
	if rate == "" {
		rate = "TPM"
	}
	perUnit, latUnit := iv.PerMinute, "ms"
	if cfg.PerSecond {
		perUnit = iv.PerMinute / 60
	}
	if cfg.Micros {
		latUnit = "µs"
	}
	fmt.Fprintf(cfg.Progress, "%7.1fs%s %s %s %8.0f%s  err %d |%s (p50/p95/p99 %s)\n", elapsed.Seconds(), where, phase, rate, perUnit, key, iv.Errors, b.String(), latUnit)
	if cfg.Live != nil {
		cfg.Live.Interval(elapsed, iv.PerMinute, iv.Errors, float64(iv.SlowestP95())/1000, measured)
	}
	return iv
}

// foldTail adds a run's last stretch, too short for an interval of its own (a tenth of --interval or less), to
// the last interval ivs holds: counts and errors added, the rate over both spans, percentiles the larger of
// the two (an upper bound: intervals keep no histograms), the interval's end moved to the run's.
func foldTail(ivs []result.Interval, tail result.Interval, span time.Duration) {
	last := &ivs[len(ivs)-1]
	lastSpan := last.ElapsedSeconds
	if len(ivs) > 1 {
		lastSpan -= ivs[len(ivs)-2].ElapsedSeconds
	}
	if both := lastSpan + span.Seconds(); both > 0 {
		last.PerMinute = (last.PerMinute*lastSpan + tail.PerMinute*span.Seconds()) / both
	}
	last.ElapsedSeconds = tail.ElapsedSeconds
	last.Errors += tail.Errors
	for n, t := range tail.Transactions {
		l := last.Transactions[n]
		if t.Count > 0 {
			l.P50, l.P95, l.P99 = max(l.P50, t.P50), max(l.P95, t.P95), max(l.P99, t.P99)
		}
		l.Count += t.Count
		last.Transactions[n] = l
	}
	if w := tail.ConnectionWait; w != nil && w.Count > 0 {
		if last.ConnectionWait == nil {
			last.ConnectionWait = &result.IntervalTxStat{}
		}
		l := last.ConnectionWait
		l.P50, l.P95, l.P99, l.Count = max(l.P50, w.P50), max(l.P95, w.P95), max(l.P99, w.P99), l.Count+w.Count
	}
}

func abbrev(name string) string {
	parts := strings.Split(name, "_")
	var b strings.Builder
	for _, p := range parts {
		r, _ := utf8.DecodeRuneInString(p)
		switch {
		case p == "":
		case unicode.IsDigit(r): // a number is kept whole: step_13 is S13 (a byte's arithmetic made it "S\x11")
			b.WriteString(p)
		case len(p) > 1 && strings.Trim(p[1:], "0123456789") == "": // a letter and its number (Q9) too
			b.WriteString(strings.ToUpper(p))
		default:
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

func ms(us int64) string {
	v := float64(us) / 1000
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func round1(v float64) float64 { return float64(int64(v*10+0.5)) / 10 }
func round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }

func latency(h *hdrhistogram.Histogram) result.Latency {
	if h.TotalCount() == 0 {
		return result.Latency{}
	}
	return result.Latency{Min: h.Min(), Mean: float64(int64(h.Mean()*10)) / 10, P50: h.ValueAtQuantile(50), P90: h.ValueAtQuantile(90),
		P95: h.ValueAtQuantile(95), P99: h.ValueAtQuantile(99), Max: h.Max()}
}

// driverProcs is how many OS threads may run the driver's Go code at once. Against a server, virtual users
// spend nearly all their time waiting on the network; more Ps than needed only make Go's scheduler spin looking
// for work, CPU that a database on the same machine would otherwise have. One P per 16 VUs is ample (one P
// drives several thousand transactions per second). An embedded engine runs inside this process and gets every
// CPU (machine, the Ps before any run). GOMAXPROCS in the environment overrides both.
func driverProcs(embedded bool, vus, machine int) int {
	if os.Getenv("GOMAXPROCS") != "" || embedded {
		return machine
	}
	return max(1, min(machine, (vus+15)/16))
}

// driverCPU is the process-wide GOMAXPROCS and GC setting, shared by the runs going on at once (the targets of
// a multi-target run): they are set for all their virtual users together; the first run saves the settings
// and the last one restores them.
var driverCPU struct {
	sync.Mutex
	runs, vus, embedded int
	procs, gc           int // before the first run
}

// HoldDriverCPU adds a run's virtual users to the driver's CPU settings; release takes them out again.
func HoldDriverCPU(embedded bool, vus int) (procs int, release func()) {
	d := &driverCPU
	set := func() int {
		p := driverProcs(d.embedded > 0, d.vus, d.procs)
		runtime.GOMAXPROCS(p)
		return p
	}
	emb := 0
	if embedded {
		emb = 1
	}
	d.Lock()
	defer d.Unlock()
	if d.runs == 0 {
		d.procs = runtime.GOMAXPROCS(0)
		d.gc = debug.SetGCPercent(400) // the driver's heap is small: collect it less often
	}
	d.runs, d.vus, d.embedded = d.runs+1, d.vus+vus, d.embedded+emb
	procs = set()
	return procs, sync.OnceFunc(func() {
		d.Lock()
		defer d.Unlock()
		d.runs, d.vus, d.embedded = d.runs-1, d.vus-vus, d.embedded-emb
		if d.runs > 0 {
			set()
			return
		}
		runtime.GOMAXPROCS(d.procs)
		debug.SetGCPercent(d.gc)
	})
}

// progress is where a run is, for its progress lines: elapsed/total and the time left for a timed run
// ("/1m10s ETA 58s" after the elapsed time), the units of work finished of the window's and the time left at the
// window's rate so far for a count-based one (" 150/200 tx ETA 3s").
type progress struct {
	cfg          Config
	start        time.Time
	measureStart time.Time // zero in the ramp-up
	win          *window
}

func (p *progress) at(now time.Time) string {
	if p.win == nil {
		total := p.cfg.Rampup + p.cfg.Duration
		return fmt.Sprintf("/%s ETA %s", roundS(total), roundS(max(0, total-now.Sub(p.start))))
	}
	done := min(p.win.finished.Load(), p.cfg.Transactions)
	eta := "-"
	if span := now.Sub(p.measureStart); !p.measureStart.IsZero() && done > 0 && span > 0 {
		eta = roundS(time.Duration(float64(p.cfg.Transactions-done) * float64(span) / float64(done)))
	}
	return fmt.Sprintf(" %d/%d tx ETA %s", done, p.cfg.Transactions, eta)
}

// roundS is a time for a progress line: to the second, to the tenth below 10 s.
func roundS(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

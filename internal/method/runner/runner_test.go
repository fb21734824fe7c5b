package runner

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// sleeper is a synthetic workload: transaction 0 takes 2 ms, transaction 1 takes 1 ms and rolls back every
// tenth time; a worker can be told to lose its connection.
type sleeper struct {
	loseAt     int64 // the nth transaction of VU 0 reports a lost connection
	reconnects atomic.Int64
	canConnect atomic.Bool
	calls      atomic.Int64
	at         func(n int64) // called with each call's number (a test acts on the run's events)
}

type sleeperWorker struct {
	w  *sleeper
	vu int
	n  int64
}

func (s *sleeper) Transactions() []string { return []string{"slow", "fast"} }
func (s *sleeper) NewWorker(ctx context.Context, vu int) (Worker, error) {
	return &sleeperWorker{w: s, vu: vu}, nil
}
func (w *sleeperWorker) Next() (int, time.Duration, time.Duration) { return int(w.n % 2), 0, 0 }
func (w *sleeperWorker) Do(ctx context.Context, tx int) Outcome {
	w.n++
	if n := w.w.calls.Add(1); w.w.at != nil {
		w.w.at(n)
	}
	if w.vu == 0 && w.n == w.w.loseAt {
		return Outcome{Err: errors.New("server closed the connection"), ConnLost: true}
	}
	time.Sleep(time.Duration(2-tx) * time.Millisecond)
	return Outcome{RolledBack: tx == 1 && w.n%10 == 0}
}
func (w *sleeperWorker) Reconnect(ctx context.Context) error {
	if !w.w.canConnect.Load() {
		return errors.New("connection refused")
	}
	w.w.reconnects.Add(1)
	return nil
}
func (w *sleeperWorker) Close() {}

func TestRunMeasuresOnlyAfterRampup(t *testing.T) {
	wl := &sleeper{}
	var out bytes.Buffer
	var startCalls, endCalls int
	m, err := Run(context.Background(), wl, Config{VUs: 2, Rampup: 300 * time.Millisecond, Duration: time.Second, Interval: 250 * time.Millisecond,
		Progress: &out, KeyLabel: "SPM", KeyTx: 0,
		AtMeasureStart: func(context.Context) error { startCalls++; return nil },
		AtMeasureEnd:   func(context.Context) error { endCalls++; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if startCalls != 1 || endCalls != 1 {
		t.Fatalf("measure hooks called %d/%d times", startCalls, endCalls)
	}
	// the window is the duration, and the transactions under way at its end (a loaded machine may take a
	// while to end them: the upper bound is a watchdog)
	if m.MeasuredSecs < 0.95 || m.MeasuredSecs > 5 {
		t.Fatalf("measured %.2fs, want ~1s", m.MeasuredSecs)
	}
	slow, fast := m.Transactions["slow"], m.Transactions["fast"]
	// 2 VUs alternating 2 ms and 1 ms transactions: at most ~1000 of each in a second, however fast the machine
	// (a sleep takes at least its time); the two kinds alternate, so their counts differ by at most one a VU.
	// No lower bound: a loaded machine lengthens the sleeps
	all := fast.Count + fast.Rollbacks
	if slow.Count == 0 || float64(slow.Count) > 1000*m.MeasuredSecs || all == 0 || slow.Count-all > 2 || all-slow.Count > 2 {
		t.Fatalf("counts slow %d fast %d+%d in %.2fs", slow.Count, fast.Count, fast.Rollbacks, m.MeasuredSecs)
	}
	total := wl.calls.Load()
	if m.Committed+m.Rollbacks >= total {
		t.Fatalf("ramp-up transactions were counted: %d measured of %d run", m.Committed+m.Rollbacks, total)
	}
	if slow.Latency.P50 < 2000 || fast.Latency.P50 < 1000 || fast.Latency.P50 >= slow.Latency.P50 {
		t.Fatalf("latencies: slow p50 %dµs fast p50 %dµs", slow.Latency.P50, fast.Latency.P50)
	}
	if fast.Rollbacks == 0 || slow.Rollbacks != 0 {
		t.Fatalf("rollbacks: fast %d slow %d", fast.Rollbacks, slow.Rollbacks)
	}
	if want := float64(m.Committed) / (m.MeasuredSecs / 60); m.PerMinute < want*0.999 || m.PerMinute > want*1.001 {
		t.Fatalf("per minute %.1f, want %.1f", m.PerMinute, want)
	}
	measured := 0
	for _, iv := range m.Intervals {
		if iv.Measured {
			measured++
		}
	}
	if len(m.Intervals) < 4 || measured < 3 || m.Intervals[0].Measured {
		t.Fatalf("intervals: %d (%d measured, first measured=%v)", len(m.Intervals), measured, m.Intervals[0].Measured)
	}
	if !strings.Contains(out.String(), "ramp-up done") || !strings.Contains(out.String(), "SPM") {
		t.Fatalf("progress output lacks phases or key figure:\n%s", out.String())
	}
}

func TestRunAbortedKeepsPartialFigures(t *testing.T) {
	// Ctrl-C at the 100th transaction after the window opened (an event, not a time: with no ramp-up, a loaded
	// machine once had the first transaction done before the runner opened the window, and 98 were measured)
	ctx, cancel := context.WithCancel(context.Background())
	var c0 atomic.Int64
	c0.Store(-1)
	wl := &sleeper{}
	wl.at = func(n int64) {
		if s := c0.Load(); s >= 0 && n == s+100 {
			cancel()
		}
	}
	progress := writerFunc(func(p []byte) {
		if bytes.Contains(p, []byte("measuring")) {
			c0.CompareAndSwap(-1, wl.calls.Load())
		}
	})
	t0 := time.Now()
	m, err := Run(ctx, wl, Config{VUs: 1, Rampup: time.Nanosecond, Duration: time.Minute, Interval: time.Second, Progress: progress})
	took := time.Since(t0).Seconds()
	if !errors.Is(err, ErrAborted) {
		t.Fatalf("err %v, want ErrAborted", err)
	}
	// the 99 transactions after the window opened and before Ctrl-C were measured, over the time the run took
	if m == nil || m.Committed+m.Rollbacks < 99 || m.Committed+m.Rollbacks > wl.calls.Load() || m.MeasuredSecs < 0.099 || m.MeasuredSecs > took {
		t.Fatalf("partial measurement missing: %+v (the run took %.2fs)", m, took)
	}
}

func TestLostConnectionReconnects(t *testing.T) {
	wl := &sleeper{loseAt: 20}
	wl.canConnect.Store(true)
	m, err := Run(context.Background(), wl, Config{VUs: 1, Duration: 2 * time.Second, Interval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if m.Reconnects != 1 || m.Errors != 1 || wl.reconnects.Load() != 1 {
		t.Fatalf("reconnects %d errors %d", m.Reconnects, m.Errors)
	}
	// the gap is recorded: the first reconnection attempt waits 100 ms
	// (the upper bound only tells one gap from the whole run: a loaded machine lengthens the wait)
	if m.DisconnectedSecs < 0.1 || m.DisconnectedSecs > 1 {
		t.Fatalf("disconnected %.1fs, want the gap of one reconnection", m.DisconnectedSecs)
	}
	if m.Committed < 20 {
		t.Fatalf("the run did not go on after reconnecting: %d committed", m.Committed)
	}
}

func TestServerThatDoesNotComeBackFailsTheRun(t *testing.T) {
	wl := &sleeper{loseAt: 5}
	m, err := Run(context.Background(), wl, Config{VUs: 2, Duration: 10 * time.Second, Interval: time.Second, ReconnectTimeout: 400 * time.Millisecond})
	if err == nil || errors.Is(err, ErrAborted) || !strings.Contains(err.Error(), "not re-established") {
		t.Fatalf("err %v, want a failure naming the lost connection", err)
	}
	// it stops after the reconnection timeout (400 ms), long before the 10 s duration
	if m == nil || m.MeasuredSecs > 5 || m.Committed == 0 {
		t.Fatalf("partial figures not kept, or the run did not stop early: %+v", m)
	}
}

// A run ended (Ctrl-C) while the window's start hook is still reading its counters does not call the end hook:
// it has no start to pair with (tpcc's end hook dereferenced the reader its start had not yet made, and the
// process crashed).
func TestEndHookNotCalledWhenTheStartWasCutShort(t *testing.T) {
	wl := &sleeper{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ended atomic.Bool
	_, _ = Run(ctx, wl, Config{VUs: 1, Rampup: 50 * time.Millisecond, Duration: time.Minute, Interval: time.Second,
		Progress: &bytes.Buffer{}, KeyTx: 0,
		AtMeasureStart: func(ctx context.Context) error {
			cancel() // the run ends while the start edge is being read
			<-ctx.Done()
			return ctx.Err()
		},
		AtMeasureEnd: func(context.Context) error { ended.Store(true); return nil }})
	if ended.Load() {
		t.Fatal("the end hook ran though its start was cut short")
	}
}

// The intervals hold all the run's work: a last stretch too short for an interval of its own (a tenth of
// --interval or less) is added to the last one, not dropped (the runner once left it out: a script run's
// intervals summed to 41 transactions fewer than its window under stress-ng --cpu 4).
func TestIntervalsSumToTheRun(t *testing.T) {
	for i := 0; i < 3; i++ {
		wl := &sleeper{}
		m, err := Run(context.Background(), wl, Config{VUs: 2, Duration: 505 * time.Millisecond, Interval: 100 * time.Millisecond,
			Progress: &bytes.Buffer{}, KeyTx: 0})
		if err != nil {
			t.Fatal(err)
		}
		sum := map[string]int64{}
		for _, iv := range m.Intervals {
			for n, tx := range iv.Transactions {
				sum[n] += tx.Count
			}
		}
		// at least the run's: units in flight at the window's end finish in the intervals, after the window
		for n, tx := range m.Transactions {
			if sum[n] < tx.Count {
				t.Fatalf("%s: the intervals count %d, the run %d (%d intervals, the last ending at %.1f s of %.2f s)",
					n, sum[n], tx.Count, len(m.Intervals), m.Intervals[len(m.Intervals)-1].ElapsedSeconds, m.MeasuredSecs)
			}
		}
	}
}

// With no ramp-up the window opens before the first user starts: its start edge (a database's count) is read
// before any unit of work began, so none is in the intervals and not in the run (the runner's goroutine once
// opened it after the users started: 201 units in the intervals, 200 in the run, under stress-ng).
func TestNoRampupOpensTheWindowFirst(t *testing.T) {
	wl := &sleeper{}
	var before int64 = -1
	m, err := Run(context.Background(), wl, Config{VUs: 2, Duration: 300 * time.Millisecond, Interval: 100 * time.Millisecond,
		Progress: &bytes.Buffer{}, KeyTx: 0,
		AtMeasureStart: func(context.Context) error {
			time.Sleep(20 * time.Millisecond) // users already started would have begun work by now
			before = wl.calls.Load()
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if before != 0 || m.Committed == 0 {
		t.Fatalf("%d units of work began before the window opened (%d committed)", before, m.Committed)
	}
}

// No interval straddles the window's start: with a ramp-up as long as --interval, the ramp-up's end and the
// first tick come together, and an interval marked measured once held the ramp-up's work (tpcc's tests that act
// at the first "measure" progress line with work in it acted before the window had counted any). The measured
// intervals hold the window's work: at least the run's count, and no more than the units in flight at its end.
func TestNoIntervalStraddlesTheWindowStart(t *testing.T) {
	for i := 0; i < 8; i++ {
		wl := &sleeper{}
		m, err := Run(context.Background(), wl, Config{VUs: 2, Rampup: 200 * time.Millisecond, Duration: 300 * time.Millisecond,
			Interval: 200 * time.Millisecond, Progress: &bytes.Buffer{}, KeyTx: 0})
		if err != nil {
			t.Fatal(err)
		}
		var measured, ramp int64
		for _, iv := range m.Intervals {
			for _, tx := range iv.Transactions {
				if iv.Measured {
					measured += tx.Count
				} else {
					ramp += tx.Count
				}
			}
		}
		if ramp == 0 || measured < m.Committed || measured > m.Committed+int64(m.VUs) {
			t.Fatalf("run %d: the measured intervals hold %d units, the window %d (+ up to %d in flight at its end), the ramp-up's %d",
				i, measured, m.Committed, m.VUs, ramp)
		}
	}
}

// foldTail: counts and errors added, the rate over both spans, the larger percentiles, the end moved.
func TestFoldTail(t *testing.T) {
	ivs := []result.Interval{
		{ElapsedSeconds: 1, Measured: true, PerMinute: 600, Transactions: map[string]result.IntervalTxStat{"a": {Count: 10, P50: 5, P95: 9, P99: 9}}},
		{ElapsedSeconds: 2, Measured: true, PerMinute: 1200, Errors: 1, Transactions: map[string]result.IntervalTxStat{"a": {Count: 20, P50: 4, P95: 8, P99: 30}}},
	}
	foldTail(ivs, result.Interval{ElapsedSeconds: 2.1, Measured: true, PerMinute: 3000, Errors: 2,
		Transactions: map[string]result.IntervalTxStat{"a": {Count: 5, P50: 6, P95: 7, P99: 8}, "b": {}}}, 100*time.Millisecond)
	got := ivs[1]
	if got.ElapsedSeconds != 2.1 || got.Errors != 3 || got.Transactions["a"] != (result.IntervalTxStat{Count: 25, P50: 6, P95: 8, P99: 30}) ||
		got.PerMinute < 1363.6 || got.PerMinute > 1363.7 || ivs[0].Transactions["a"].Count != 10 {
		t.Fatalf("%+v", got)
	}
}

// The database's count over a window of N units of work agrees with the client's within the key transactions
// at the edges, also open-loop, where a user waits for its start time between taking its place in the window
// and starting: a unit whose place was decided before the window opened and that began after the start edge's
// read was counted by neither the client nor the edges (3 database commits beyond the client's, one user).
func TestWindowOfUnitsAgreesWithTheDatabase(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		c := &committer{committed: make(chan struct{}, 1)}
		var at0, at1 int64
		m, err := Run(context.Background(), c, Config{VUs: 2, Rampup: 150 * time.Millisecond, Transactions: 12, Interval: time.Second,
			Rate: 40, Seed: seed, Progress: &bytes.Buffer{}, KeyTx: 0,
			AtMeasureStart: func(context.Context) error { at0 = c.db.Load(); return nil },
			AtMeasureEnd:   func(context.Context) error { at1 = c.db.Load(); return nil }})
		if err != nil {
			t.Fatal(err)
		}
		client := m.Transactions["order"].Count
		if ok, tol := CountsAgree(client, at1-at0, m.KeyAtEdges); !ok {
			t.Fatalf("seed %d: the database counted %d, the client %d, allowed %d", seed, at1-at0, client, tol)
		}
	}
}

// freezer is a synthetic server that can freeze: its units of work wait until thawed, then fail as a lost
// connection (what a frozen network's connections do once it passes traffic again).
type freezer struct {
	frozen atomic.Bool
	thaw   chan struct{}
}

type freezerWorker struct{ f *freezer }

func (f *freezer) Transactions() []string { return []string{"unit"} }
func (f *freezer) NewWorker(ctx context.Context, vu int) (Worker, error) {
	return &freezerWorker{f}, nil
}
func (w *freezerWorker) Next() (int, time.Duration, time.Duration) { return 0, 0, 0 }
func (w *freezerWorker) Do(ctx context.Context, tx int) Outcome {
	if !w.f.frozen.Load() {
		time.Sleep(time.Millisecond)
		return Outcome{}
	}
	select {
	case <-w.f.thaw:
		return Outcome{Err: errors.New("unexpected EOF"), ConnLost: true}
	case <-ctx.Done():
		return Outcome{Err: ctx.Err()}
	}
}
func (w *freezerWorker) Reconnect(ctx context.Context) error { return nil }
func (w *freezerWorker) Close()                              {}

// lineWriter calls at with each whole line written, on the writing goroutine.
type lineWriter struct {
	buf []byte
	at  func(line string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		w.at(string(w.buf[:i]))
		w.buf = w.buf[i+1:]
	}
}

// The window ends before its last interval is told: a server frozen from the first measured interval and
// thawed at the line of the interval that ends the window (as tpcc's frozen-network test does) leaves its work
// in flight at the window's end, recorded as such. The line was told first, when the tick and the window's end
// came together: the thawed units failed at once, counted as completions at the end, and the stall's work in
// flight read 0 (TestFrozenServerStallFailsTheRun, under stress-ng). The thaw here waits a moment for them.
func TestTheWindowEndsBeforeItsLastIntervalIsTold(t *testing.T) {
	f := &freezer{thaw: make(chan struct{})}
	measured := 0
	var thawedAt []string
	progress := &lineWriter{at: func(line string) {
		if !strings.Contains(line, " measure ") {
			return
		}
		switch measured++; measured {
		case 1:
			f.frozen.Store(true)
		case 3: // the line at the window's end (1.5, 2.5, 3.5 s: ramp-up 0.5 s, 3 s measured)
			thawedAt = append(thawedAt, line)
			close(f.thaw)
			time.Sleep(200 * time.Millisecond) // the thawed units fail meanwhile
		}
	}}
	m, err := Run(context.Background(), f, Config{VUs: 2, Rampup: 500 * time.Millisecond, Duration: 3 * time.Second,
		Interval: time.Second, Progress: progress, KeyTx: 0})
	if len(thawedAt) != 1 {
		t.Fatalf("%d measured interval lines; the thaw's %q", measured, thawedAt)
	}
	if err == nil || !strings.Contains(err.Error(), "stalled") {
		t.Errorf("a run frozen for two thirds of its window: %v", err)
	}
	if s := m.Stall; s == nil || s.InFlight != 2 || s.IdleIntervals < 1 {
		t.Errorf("stall %+v: the two users' units frozen at the window's end are not in flight", s)
	}
}

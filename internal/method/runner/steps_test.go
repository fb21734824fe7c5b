package runner

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// counting is the sleeper workload, counting the workers it made and closed.
type counting struct {
	sleeper
	made, closed atomic.Int64
}

type countingWorker struct {
	Worker
	w *counting
}

func (c *counting) NewWorker(ctx context.Context, vu int) (Worker, error) {
	c.made.Add(1)
	wk, err := c.sleeper.NewWorker(ctx, vu)
	return &countingWorker{Worker: wk, w: c}, err
}
func (w *countingWorker) Close() { w.w.closed.Add(1); w.Worker.Close() }

// A stepped run by users is one loop: the step from 2 to 4 users keeps the first 2 connected and adds 2 (4
// workers made in all, none closed before the end), and each step is a window of its own after its ramp-up:
// its users' figures add up to its counts exactly (nothing of another window in them), every user of the step
// worked in it, and the windows follow each other, each after its own ramp-up.
func TestRunStepsAddsUsersToTheRunningLoop(t *testing.T) {
	wl := &counting{}
	var out bytes.Buffer
	steps := []Step{{VUs: 2, Rampup: 200 * time.Millisecond, Duration: 600 * time.Millisecond}, {VUs: 4, Rampup: 200 * time.Millisecond, Duration: 600 * time.Millisecond}}
	var ms []*result.Measurement
	var madeAt []int64
	err := RunSteps(context.Background(), wl, Config{Interval: 250 * time.Millisecond, Progress: &out}, steps, func(i int, m *result.Measurement, err error) bool {
		if err != nil {
			t.Errorf("step %d: %v", i+1, err)
		}
		if c := wl.closed.Load(); c != 0 {
			t.Errorf("%d workers closed by the end of step %d, want none: the users go on", c, i+1)
		}
		ms, madeAt = append(ms, m), append(madeAt, wl.made.Load())
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || madeAt[0] != 2 || madeAt[1] != 4 || wl.made.Load() != 4 || wl.closed.Load() != 4 {
		t.Fatalf("%d steps; workers made %v by each step's end, %d in all, %d closed: want 2 steps, 2 then 4 made, 4 closed", len(ms), madeAt, wl.made.Load(), wl.closed.Load())
	}
	if !strings.Contains(out.String(), "adding 2 virtual users to the 2 running") {
		t.Fatalf("no line saying users were added:\n%s", out.String())
	}
	for i, m := range ms {
		s := steps[i]
		if m.VUs != s.VUs || m.RampupSeconds != s.Rampup.Seconds() || m.MeasuredSecs < s.Duration.Seconds() || m.Committed == 0 {
			t.Fatalf("step %d: %d users, ramp-up %gs, measured %gs, %d committed; want %d users, %s, at least %s, some work", i+1, m.VUs, m.RampupSeconds, m.MeasuredSecs, m.Committed, s.VUs, s.Rampup, s.Duration)
		}
		var n, e int64
		for u := range m.Users.Transactions {
			if m.Users.Transactions[u] == 0 {
				t.Fatalf("step %d: user %d did nothing in the window", i+1, u)
			}
			n, e = n+m.Users.Transactions[u], e+m.Users.Errors[u]
		}
		if len(m.Users.Transactions) != s.VUs || n != m.Committed+m.Rollbacks || e != m.Errors {
			t.Fatalf("step %d: %d users' figures, %d transactions and %d errors; the window's %d committed, %d rolled back, %d errors", i+1, len(m.Users.Transactions), n, e, m.Committed, m.Rollbacks, m.Errors)
		}
		var iv int64
		for _, x := range m.Intervals {
			if x.Measured {
				for _, tx := range x.Transactions {
					iv += tx.Count
				}
			}
		}
		if iv < m.Committed {
			t.Fatalf("step %d: its measured intervals count %d, its window %d", i+1, iv, m.Committed)
		}
	}
	if gap := ms[1].MeasureStart.Sub(ms[0].MeasureEnd); gap < steps[1].Rampup {
		t.Fatalf("step 2's window began %s after step 1's ended, within its %s ramp-up", gap, steps[1].Rampup)
	}
}

// A step that fails ends the stepping: the steps after it do not run, and its error is the run's.
func TestRunStepsEndsAtAFailedStep(t *testing.T) {
	wl := &counting{}
	wl.loseAt = 1 // user 0's first transaction loses its connection, which never comes back
	steps := []Step{{VUs: 1, Duration: 2 * time.Second}, {VUs: 2, Duration: time.Second}}
	var got []error
	err := RunSteps(context.Background(), wl, Config{Interval: 100 * time.Millisecond, ReconnectTimeout: 300 * time.Millisecond}, steps,
		func(i int, m *result.Measurement, err error) bool { got = append(got, err); return true })
	if err == nil || len(got) != 1 || got[0] == nil || !strings.Contains(err.Error(), "connection lost") || wl.made.Load() != 1 {
		t.Fatalf("error %v, steps' errors %v, %d workers made; want one step failed with its lost connection, 1 worker", err, got, wl.made.Load())
	}
}

// tracing is the sleeper workload keeping when each virtual user's units of work ended, which of them the
// runner counted (Counter) and when each worker was closed.
type tracing struct {
	sleeper
	mu      sync.Mutex
	counted []unitAt // the units the runner counted, as it counted them
	lastEnd map[Worker]time.Time
	closed  []closedAt
	made    atomic.Int64
}

type unitAt struct {
	vu int
	at time.Time
}

type closedAt struct {
	vu           int
	at, lastUnit time.Time
}

type tracingWorker struct {
	Worker
	w  *tracing
	vu int
}

func (c *tracing) NewWorker(ctx context.Context, vu int) (Worker, error) {
	c.made.Add(1)
	wk, err := c.sleeper.NewWorker(ctx, vu)
	return &tracingWorker{Worker: wk, w: c, vu: vu}, err
}

func (w *tracingWorker) Do(ctx context.Context, tx int) Outcome {
	out := w.Worker.Do(ctx, tx)
	w.w.mu.Lock()
	w.w.lastEnd[w] = time.Now()
	w.w.mu.Unlock()
	return out
}

func (w *tracingWorker) Counted(tx int, out Outcome) {
	w.w.mu.Lock()
	w.w.counted = append(w.w.counted, unitAt{w.vu, time.Now()})
	w.w.mu.Unlock()
}

func (w *tracingWorker) Close() {
	w.w.mu.Lock()
	w.w.closed = append(w.w.closed, closedAt{w.vu, time.Now(), w.w.lastEnd[w]})
	w.w.mu.Unlock()
	w.Worker.Close()
}

// Steps that go down run in the same loop: 4, then 1, then 3 users. At the step to 1 the 3 surplus users stop
// after their unit in flight and are closed before step 2's window opens; step 3 connects 2 again. Each step's
// own figures are checked against what the workload saw: every unit the runner counted (Counter, called as it
// counts) lies in exactly one step's window and each window's count is its measurement's (no unit counted in
// two steps, the windows apart), the users that completed work in a window are exactly the step's users, each
// step's per-user figures are its own users' and add up to its counts, and no stopped user's work ended in a
// later window.
func TestRunStepsDownAndUpInOneLoop(t *testing.T) {
	wl := &tracing{lastEnd: map[Worker]time.Time{}}
	var out bytes.Buffer
	step := func(vus int) Step {
		return Step{VUs: vus, Rampup: 150 * time.Millisecond, Duration: 500 * time.Millisecond}
	}
	steps := []Step{step(4), step(1), step(3)}
	var ms []*result.Measurement
	var made, closed []int
	err := RunSteps(context.Background(), wl, Config{Interval: 200 * time.Millisecond, Progress: &out}, steps, func(i int, m *result.Measurement, err error) bool {
		if err != nil {
			t.Errorf("step %d: %v", i+1, err)
		}
		wl.mu.Lock()
		ms, made, closed = append(ms, m), append(made, int(wl.made.Load())), append(closed, len(wl.closed))
		wl.mu.Unlock()
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	// 4 made; the step to 1 closes 3; the step to 3 makes 2 more; all 6 closed at the end
	if len(ms) != 3 || made[0] != 4 || closed[0] != 0 || made[1] != 4 || closed[1] != 3 || made[2] != 6 || closed[2] != 3 || len(wl.closed) != 6 {
		t.Fatalf("%d steps; workers made %v and closed %v by each step's end, %d closed in all: want made 4,4,6, closed 0,3,3, then 6", len(ms), made, closed, len(wl.closed))
	}
	if !strings.Contains(out.String(), "stopping 3 of the 4 running virtual users") || !strings.Contains(out.String(), "adding 2 virtual users to the 1 running") {
		t.Fatalf("no lines saying users were stopped and added:\n%s", out.String())
	}
	in := make([]int, len(ms))            // units counted in each window
	users := make([]map[int]int, len(ms)) // each window's users and their counted units
	for i := range users {
		users[i] = map[int]int{}
	}
	for _, u := range wl.counted {
		n := 0
		for i, m := range ms {
			if !u.at.Before(m.MeasureStart) && !u.at.After(m.MeasureEnd) {
				in[i]++
				users[i][u.vu]++
				n++
			}
		}
		if n != 1 {
			t.Fatalf("a unit of user %d counted at %s lies in %d steps' windows, want 1", u.vu, u.at.Format(time.RFC3339Nano), n)
		}
	}
	for i, m := range ms {
		s := steps[i]
		if i > 0 && !m.MeasureStart.After(ms[i-1].MeasureEnd) {
			t.Fatalf("step %d's window opened at %s, before step %d's closed (%s)", i+1, m.MeasureStart, i, ms[i-1].MeasureEnd)
		}
		if all := m.Committed + m.Rollbacks + m.Errors; int64(in[i]) != all || all == 0 {
			t.Fatalf("step %d: %d units counted in its window, its measurement %d", i+1, in[i], all)
		}
		if len(users[i]) != s.VUs || m.VUs != s.VUs || len(m.Users.Transactions) != s.VUs {
			t.Fatalf("step %d: %d users completed work in its window (%v), its measurement says %d users with %d users' figures; want %d", i+1, len(users[i]), users[i], m.VUs, len(m.Users.Transactions), s.VUs)
		}
		for vu, n := range users[i] {
			if vu >= s.VUs || m.Users.Transactions[vu] != int64(n) {
				t.Fatalf("step %d: user %d counted %d units, its figures %v", i+1, vu, n, m.Users.Transactions)
			}
		}
	}
	// the stopped users' last work ended, and their connections were closed, before step 2's window opened
	for _, c := range wl.closed[:3] {
		if c.vu < 1 || !c.at.Before(ms[1].MeasureStart) || !c.lastUnit.Before(c.at) {
			t.Fatalf("user %d closed at %s (its last unit ended %s), step 2's window opened at %s", c.vu, c.at, c.lastUnit, ms[1].MeasureStart)
		}
	}
}

// thinker is the sleeper workload whose users but the first think an hour after each unit of work.
type thinker struct{ counting }

type thinkingWorker struct {
	Worker
	vu int
}

func (c *thinker) NewWorker(ctx context.Context, vu int) (Worker, error) {
	wk, err := c.counting.NewWorker(ctx, vu)
	return &thinkingWorker{wk, vu}, err
}
func (w *thinkingWorker) Next() (int, time.Duration, time.Duration) {
	if w.vu == 0 {
		return 0, 0, 0
	}
	return 0, 0, time.Hour
}

// A surplus user stops at once when it is thinking (or keying, or waiting for its scheduled start): the step
// of fewer users does not wait out its think time (an hour here, beyond the 5 s the surplus users are given).
func TestRunStepsStopsAThinkingUserAtOnce(t *testing.T) {
	wl := &thinker{}
	steps := []Step{{VUs: 2, Duration: 300 * time.Millisecond}, {VUs: 1, Duration: 300 * time.Millisecond}}
	var vus []int
	err := RunSteps(context.Background(), wl, Config{Interval: 100 * time.Millisecond, ReconnectTimeout: 5 * time.Second}, steps,
		func(i int, m *result.Measurement, err error) bool { vus = append(vus, m.VUs); return err == nil })
	if err != nil || len(vus) != 2 || vus[1] != 1 || wl.closed.Load() != 2 {
		t.Fatalf("error %v, steps' users %v, %d workers closed: want both steps run, the second with 1 user, 2 closed", err, vus, wl.closed.Load())
	}
}

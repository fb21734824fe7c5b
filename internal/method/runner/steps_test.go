package runner

import (
	"bytes"
	"context"
	"strings"
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

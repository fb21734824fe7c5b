package runner

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// The queries at a run's end share one deadline once its window has ended: a server that stopped answering
// holds the end for about EndTimeout, not EndTimeout per query (28 s on a frozen SQL Server before: the
// window's last count, the counters and a cross-check each waited 10 s).
func TestEndQueriesShareOneDeadline(t *testing.T) {
	ctx := WithEndClock(context.Background())
	// before the run's end, an end query (a rollback mid-run) has a whole EndTimeout of its own
	q, cancel := EndContext(ctx)
	d, _ := q.Deadline()
	cancel()
	if left := time.Until(d); left < EndTimeout-time.Second {
		t.Fatalf("before the end: %v left of %v", left, EndTimeout)
	}
	// a run whose end-of-window read waits on a server that does not answer until its context ends
	wl := &sleeper{}
	var waited time.Duration
	_, err := Run(ctx, wl, Config{VUs: 1, Duration: 50 * time.Millisecond, Interval: time.Second, Progress: &bytes.Buffer{},
		AtMeasureEnd: func(q context.Context) error {
			d, _ := q.Deadline()
			waited = time.Until(d)
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if waited > EndTimeout || waited < EndTimeout-5*time.Second {
		t.Fatalf("the window's last read had %v (EndTimeout %v)", waited, EndTimeout)
	}
	// the queries after it (the counters, a cross-check) have what is left, not EndTimeout again
	time.Sleep(200 * time.Millisecond)
	q, cancel = EndContext(ctx)
	d, _ = q.Deadline()
	cancel()
	if left := time.Until(d); left > waited-150*time.Millisecond {
		t.Fatalf("a later end query had %v, the first %v: not one deadline", left, waited)
	}
	// and once it has passed, each still gets AbortedEndTimeout (a server back in time gives its figure)
	c := ctx.Value(endClockKey{}).(*endClock)
	c.mu.Lock()
	c.deadline = time.Now().Add(-time.Second)
	c.mu.Unlock()
	q, cancel = EndContext(ctx)
	d, _ = q.Deadline()
	cancel()
	if left := time.Until(d); left <= 0 || left > AbortedEndTimeout {
		t.Fatalf("past the deadline: %v left, want up to %v", left, AbortedEndTimeout)
	}
}

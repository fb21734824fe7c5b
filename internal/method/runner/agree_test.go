package runner

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// committer is a synthetic workload whose transaction 0 commits to a counter (the database's own count of the
// key work, as tpcc's sum(d_next_o_id)) and whose transaction 1 commits nothing.
type committer struct {
	db        atomic.Int64
	committed chan struct{} // a commit happened
	holdAt    atomic.Int64  // the commit that, once made, waits for release (once)
	held      atomic.Bool
	release   chan struct{}
	open      chan struct{} // closed when the window is measuring: the released commit waits for it
	blockAt   atomic.Int64  // the commit that, once made, waits for the run's end before returning
}

type committerWorker struct {
	c *committer
	n int
}

func (c *committer) Transactions() []string { return []string{"order", "browse"} }
func (c *committer) NewWorker(context.Context, int) (Worker, error) {
	return &committerWorker{c: c}, nil
}
func (w *committerWorker) Next() (int, time.Duration, time.Duration) {
	w.n++
	return min(w.n%3, 1), 0, 0
}
func (w *committerWorker) Do(ctx context.Context, tx int) Outcome {
	if tx == 1 {
		return Outcome{}
	}
	n := w.c.db.Add(1)
	select {
	case w.c.committed <- struct{}{}:
	default:
	}
	if h := w.c.holdAt.Load(); h > 0 && n >= h && !w.c.held.Swap(true) {
		<-w.c.release
		select { // held until the window is open, however long the runner takes to open it after the edge
		case <-w.c.open:
		case <-ctx.Done():
		}
	}
	if b := w.c.blockAt.Load(); b > 0 && n >= b {
		<-ctx.Done() // committed, and still in flight at the window's end
	}
	return Outcome{}
}
func (w *committerWorker) Reconnect(context.Context) error { return nil }
func (w *committerWorker) Close()                          {}

// The key transactions in flight at the window's edges are counted, however long an edge lasts: here the start
// edge's database read comes 5 commits before the client starts counting (a loaded machine's scheduler stopped
// the runner between the two; the cross-check once saw 50 new orders against the client's 46 with one user) and
// one commit is still in flight at the end. The cross-check's margin is that count, not a constant per user.
func TestCountsAgreeAllowsTheTransactionsInFlightAtTheEdges(t *testing.T) {
	c := &committer{committed: make(chan struct{}, 1), release: make(chan struct{}), open: make(chan struct{})}
	var db0, db1 int64
	// the progress line saying the window has begun: the client counts from there, and the third commit after
	// it stays in flight until the window's end. The user waits for this line after its release, so a runner
	// descheduled between the edge and the window cannot let it commit thousands of times at the edge (once:
	// database 4943, client 2)
	var opened atomic.Bool
	progress := writerFunc(func(p []byte) {
		if bytes.Contains(p, []byte("measuring")) && !opened.Swap(true) {
			c.blockAt.Store(c.db.Load() + 3)
			close(c.open)
		}
	})
	m, err := Run(context.Background(), c, Config{VUs: 1, Rampup: time.Nanosecond, Duration: 200 * time.Millisecond, Interval: time.Second, Progress: progress,
		KeyTx: 0, KeyLabel: "OPM",
		AtMeasureStart: func(ctx context.Context) error {
			db0 = c.db.Load()
			c.holdAt.Store(db0 + 5)
			for c.db.Load() < db0+5 { // the runner held up after its read while the user commits on
				select {
				case <-c.committed:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			close(c.release)
			return nil
		},
		AtMeasureEnd: func(context.Context) error { db1 = c.db.Load(); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	client, db := m.Transactions["order"].Count, db1-db0
	d := max(db-client, client-db)
	t.Logf("database %d, client %d, in flight at the edges %d", db, client, m.KeyAtEdges)
	if d <= 2 {
		t.Fatalf("the edges held %d commits the client did not count, want more than one user's 2: the test does not test", d)
	}
	if m.KeyAtEdges < d || m.KeyAtEdges > d+2 {
		t.Fatalf("%d key transactions counted in flight at the edges, the database counted %d and the client %d", m.KeyAtEdges, db, client)
	}
	if ok, tol := CountsAgree(client, db, m.KeyAtEdges); !ok {
		t.Fatalf("the database's %d and the client's %d do not agree within %d", db, client, tol)
	}
	if client+db >= 100 {
		t.Fatalf("the database counted %d and the client %d: the user was not held at the edges", db, client)
	}
	if ok, _ := CountsAgree(client, client+m.KeyAtEdges+1, m.KeyAtEdges); ok {
		t.Fatalf("a difference beyond the transactions in flight at the edges agrees: client %d, database %d, at edges %d", client, db, m.KeyAtEdges)
	}
}

type writerFunc func(p []byte)

func (f writerFunc) Write(p []byte) (int, error) { f(p); return len(p), nil }

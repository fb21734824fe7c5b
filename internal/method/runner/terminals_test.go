package runner

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// desk is a synthetic workload of terminals: each keys 3 ms and thinks 2 ms around a transaction of 2 ms, which
// counts how many run at once and which terminals ran.
type desk struct {
	inDo, most atomic.Int64
	mu         sync.Mutex
	ran        map[int]int
}

type deskTerminal struct {
	i, n int
}

type deskConn struct{ d *desk }

func (d *desk) Transactions() []string { return []string{"a", "b"} }
func (d *desk) NewWorker(ctx context.Context, vu int) (Worker, error) {
	panic("a run of terminals opens connections, not virtual users")
}
func (d *desk) NewTerminal(i int) Terminal { return &deskTerminal{i: i} }
func (d *desk) NewConnection(ctx context.Context, i int) (Connection, error) {
	return &deskConn{d: d}, nil
}

func (t *deskTerminal) Next() (int, time.Duration, time.Duration) {
	t.n++
	return t.n % 2, 3 * time.Millisecond, 2 * time.Millisecond
}

func (c *deskConn) Do(ctx context.Context, t Terminal, tx int) Outcome {
	n := c.d.inDo.Add(1)
	for {
		m := c.d.most.Load()
		if n <= m || c.d.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(2 * time.Millisecond)
	c.d.mu.Lock()
	c.d.ran[t.(*deskTerminal).i]++
	c.d.mu.Unlock()
	c.d.inDo.Add(-1)
	return Outcome{}
}
func (c *deskConn) Reconnect(ctx context.Context) error { return nil }
func (c *deskConn) Close()                              {}

// Terminals share the pool's connections: never more transactions at once than connections, every terminal
// runs, each transaction's wait for a connection is measured and its response time, from the terminal's submit,
// holds it.
func TestTerminalsShareConnections(t *testing.T) {
	d := &desk{ran: map[int]int{}}
	m, err := Run(context.Background(), d, Config{VUs: 3, Terminals: 40, Rampup: 100 * time.Millisecond, Duration: 700 * time.Millisecond,
		Interval: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if most := d.most.Load(); most > 3 || most < 1 {
		t.Fatalf("%d transactions ran at once over 3 connections", most)
	}
	if len(d.ran) != 40 {
		t.Fatalf("%d of the 40 terminals ran a transaction", len(d.ran))
	}
	tm := m.Terminals
	if tm == nil || tm.Terminals != 40 || tm.Connections != 3 || m.VUs != 3 {
		t.Fatalf("the measurement's terminals: %+v (VUs %d)", tm, m.VUs)
	}
	var counted int64
	var resp float64
	for _, n := range d.Transactions() {
		s := m.Transactions[n]
		counted += s.Count
		resp += s.Latency.Mean * float64(s.Count)
		p := tm.Pacing[n]
		if p.Count != s.Count || p.KeyingMeanS != 0.003 || p.ThinkMeanS != 0.002 {
			t.Fatalf("%s: pacing %+v for %d transactions counted", n, p, s.Count)
		}
	}
	if counted == 0 || tm.ConnectionWait.Max == 0 {
		t.Fatalf("%d transactions counted, wait %+v", counted, tm.ConnectionWait)
	}
	// each response time is its wait and its transaction: the mean response time is at least the mean wait (and
	// the transaction's 2 ms); hdr's buckets hold 3 significant digits
	if mean := resp / float64(counted); mean < 0.999*(tm.ConnectionWait.Mean+2000) {
		t.Fatalf("mean response time %.0f µs below the mean wait %.0f µs and the transaction's 2 ms", mean, tm.ConnectionWait.Mean)
	}
	for _, n := range d.Transactions() {
		if s := m.Transactions[n]; s.Latency.Min < 2000 {
			t.Fatalf("%s: latency %+v", n, s.Latency)
		}
	}
	// each interval tells its waits apart: one wait for each transaction that completed (a transaction at an
	// interval's edge may have its wait in the next one)
	var txs, waits int64
	for i, iv := range m.Intervals {
		if iv.ConnectionWait == nil {
			t.Fatalf("interval %d has no connection wait", i+1)
		}
		for _, tx := range iv.Transactions {
			txs += tx.Count
		}
		waits += iv.ConnectionWait.Count
	}
	if txs == 0 || waits != txs {
		t.Fatalf("the intervals hold %d transactions and %d waits for a connection", txs, waits)
	}
}

// A run of terminals stops when its context ends, however many terminals are keying or waiting.
func TestTerminalsStopOnCancel(t *testing.T) {
	d := &desk{ran: map[int]int{}}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(300 * time.Millisecond)
		cancel()
	}()
	m, err := Run(ctx, d, Config{VUs: 2, Terminals: 5000, Rampup: 0, Duration: time.Hour, Interval: time.Second})
	if err == nil || m == nil || m.Terminals == nil || m.Terminals.Terminals != 5000 {
		t.Fatalf("cancelled run: %v, %+v", err, m)
	}
}

// A workload without terminals cannot run them; a stepped run does not step terminals.
func TestTerminalsNeedATerminalsWorkload(t *testing.T) {
	if _, err := Run(context.Background(), &sleeper{}, Config{VUs: 1, Terminals: 2, Duration: time.Second}); err == nil {
		t.Fatal("virtual users ran as terminals")
	}
	err := RunSteps(context.Background(), &desk{}, Config{Terminals: 2}, []Step{{VUs: 1, Duration: time.Second}}, func(int, *result.Measurement, error) bool { return true })
	if err == nil {
		t.Fatal("terminals ran stepped")
	}
}

package runner

import (
	"context"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Terminals is a workload whose users are emulated terminals sharing a pool of connections (--terminals N
// --connections M), a transaction monitor's shape: a terminal is its state alone (its random stream, its home,
// its deck), keying and thinking without a connection; a connection runs the transaction a terminal submitted
// and hands the terminal back. A run of terminals (Config.Terminals) needs its workload to be one.
type Terminals interface {
	Transactions() []string
	// NewTerminal is terminal i (from 0): no connection.
	NewTerminal(i int) Terminal
	// NewConnection opens connection i (from 0) of the pool.
	NewConnection(ctx context.Context, i int) (Connection, error)
}

// Terminal is one emulated terminal's state.
type Terminal interface {
	// Next chooses the terminal's next transaction, the keying time before its submit and the think time after
	// its response.
	Next() (tx int, keying, think time.Duration)
}

// Connection is one connection of the pool: it runs a terminal's transaction, the terminal's input on the
// connection's session. It may be a Counter and an Interrupter as a Worker may.
type Connection interface {
	Do(ctx context.Context, t Terminal, tx int) Outcome
	Reconnect(ctx context.Context) error
	Close()
}

// TerminalPool are the options of a workload that emulates terminals over a pool of connections, embedded in
// its options struct next to Users.
type TerminalPool struct {
	Terminals   int `flag:"terminals" min:"0" max:"1000000" help:"emulate this many terminals, each with its own keying and think times and home, sharing --connections connections (the specification's transaction monitor); a terminal that has keyed its input waits for a free connection, a wait reported apart and counted in the response time; needs the keying and think times; 0: virtual users (--vus), each its own connection"`
	Connections int `flag:"connections" min:"0" max:"1000" help:"the connections --terminals share, the sessions that run their transactions (the run holds a few of its own besides, as many whatever the terminals: its readers of counters); default: one per 10 terminals, at most 1000"`
}

// Pooled is the terminal pool's options (for the runner to find them in any options struct that embeds them).
func (p *TerminalPool) Pooled() *TerminalPool { return p }

// poolOf is the TerminalPool the options embed (nil when none).
func poolOf(o any) *TerminalPool {
	if p, ok := o.(interface{ Pooled() *TerminalPool }); ok {
		return p.Pooled()
	}
	return nil
}

// settle fills --connections' default for the terminals: one per 10 terminals (a TPC-C terminal submits a
// transaction every 20 s or so), at most workload.MaxCount.
func (p *TerminalPool) settle() {
	if p.Terminals > 0 && p.Connections == 0 {
		p.Connections = max(1, min(workload.MaxCount, (p.Terminals+9)/10))
	}
}

// check settles the pool's options against the users' and the values given: terminals key and think, and are
// neither virtual users nor an open loop.
func (p *TerminalPool) check(u *Users, v *workload.Values) error {
	if p.Terminals == 0 {
		if p.Connections > 0 {
			return fmt.Errorf("--connections %d is the pool --terminals share: give --terminals N too, or --vus %d for that many virtual users with a connection each", p.Connections, p.Connections)
		}
		return nil
	}
	switch {
	case v.Given(&u.Timing, &u.VUs):
		return fmt.Errorf("--terminals %d and --vus %d both say who runs: give --terminals N --connections M (terminals sharing connections) or --vus N (each user its own connection)", p.Terminals, u.VUs)
	case u.Rate > 0:
		return fmt.Errorf("--terminals %d and --rate %g both pace the transactions: terminals pace themselves with their keying and think times; drop --rate", p.Terminals, u.Rate)
	}
	p.settle()
	if _, on := v.Thinking(); !on {
		name := "the keying and think times"
		if f, ok := v.ThinkFlag(); ok {
			name = "--" + f.Name
		}
		return fmt.Errorf("--terminals %d emulates terminals that key and think: add %s (without them %d terminals over %d connections are just %d busy virtual users: use --vus %d)", p.Terminals, name, p.Terminals, p.Connections, p.Connections, p.Connections)
	}
	if p.Connections > p.Terminals {
		return fmt.Errorf("--connections %d is more than the %d terminals: at most one connection per terminal is ever busy; give at most --connections %d", p.Connections, p.Terminals, p.Terminals)
	}
	u.VUs = p.Connections
	return nil
}

// term is one terminal of a run, as the pool holds it: small (an idle terminal is its state and a place in the
// pool's heap).
type term struct {
	t      Terminal
	tx     int           // the transaction it keys or has submitted
	keying time.Duration // before tx's submit
	think  time.Duration // after tx's response
	submit time.Time     // tx's intended submit: the end of its keying
	at     int           // its index in the heap; -1 while a connection holds it
}

// pool is a run's terminals and the transaction monitor's queue: one heap of the terminals by their submit
// instant. A terminal keying or thinking is in the heap with its coming submit; a submitted one is in it with
// its submit past, first come first served before those still keying. A free connection takes the earliest
// submitted terminal; when there is none, one free connection (the leader) sleeps until the earliest submit
// (on its own timer, woken early when an earlier one comes), the others wait to lead in turn. No goroutine and
// no runtime timer per terminal: a transaction costs a heap push and pop, and no goroutine more wakes for it
// than a virtual user's own think time does.
type pool struct {
	terms  []term
	mu     sync.Mutex
	heap   []*term
	leader bool          // a free connection sleeps until the heap's earliest submit
	until  time.Time     // the leader's wake-up (zero: none due, it sleeps until woken)
	wake   chan struct{} // tells the leader an earlier submit came (room for one)
	follow chan struct{} // tells a waiting connection to lead (room for one)
	done   <-chan struct{}
	stop   bool
}

func newPool(w Terminals, n int) *pool {
	p := &pool{terms: make([]term, n), heap: make([]*term, 0, n), wake: make(chan struct{}, 1), follow: make(chan struct{}, 1)}
	for i := range p.terms {
		p.terms[i] = term{t: w.NewTerminal(i), at: -1}
	}
	return p
}

func (p *pool) less(i, j int) bool { return p.heap[i].submit.Before(p.heap[j].submit) }

func (p *pool) swap(i, j int) {
	p.heap[i], p.heap[j] = p.heap[j], p.heap[i]
	p.heap[i].at, p.heap[j].at = i, j
}

func (p *pool) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !p.less(i, parent) {
			return
		}
		p.swap(i, parent)
		i = parent
	}
}

func (p *pool) down(i int) {
	n := len(p.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && p.less(r, l) {
			c = r
		}
		if !p.less(c, i) {
			return
		}
		p.swap(i, c)
		i = c
	}
}

// push puts t in the heap (p.mu held) and wakes the leader when t submits before the leader would wake.
func (p *pool) push(t *term) {
	t.at = len(p.heap)
	p.heap = append(p.heap, t)
	p.up(t.at)
	if p.leader && (p.until.IsZero() || t.submit.Before(p.until)) {
		signal(p.wake)
	}
}

// pop takes the heap's earliest terminal (p.mu held).
func (p *pool) pop() *term {
	t := p.heap[0]
	last := len(p.heap) - 1
	p.swap(0, last)
	p.heap = p.heap[:last]
	if last > 0 {
		p.down(0)
	}
	t.at = -1
	return t
}

// signal leaves a token on c unless one is there.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// due hands t back to the heap, to submit at at.
func (p *pool) due(t *term, at time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t.submit = at
	if !p.stop {
		p.push(t)
	}
}

// take is the earliest submitted terminal, waiting for one (timer is the connection's own); nil when the run
// ended meanwhile.
func (p *pool) take(timer *time.Timer) *term {
	p.mu.Lock()
	for {
		if p.stop {
			p.mu.Unlock()
			return nil
		}
		now := time.Now()
		if len(p.heap) > 0 && !p.heap[0].submit.After(now) {
			t := p.pop()
			p.mu.Unlock()
			return t
		}
		if p.leader { // another free connection waits for the earliest: wait to lead
			p.mu.Unlock()
			select {
			case <-p.follow:
			case <-p.done:
				return nil
			}
			p.mu.Lock()
			continue
		}
		p.leader, p.until = true, time.Time{}
		d := time.Hour
		if len(p.heap) > 0 {
			p.until = p.heap[0].submit
			d = p.until.Sub(now)
		}
		p.mu.Unlock()
		timer.Reset(d)
		select {
		case <-timer.C:
		case <-p.wake:
		case <-p.done:
			timer.Stop()
			return nil
		}
		timer.Stop()
		p.mu.Lock()
		p.leader = false
		signal(p.follow) // the next free connection leads while this one takes its terminal (or leads again)
	}
}

// start puts every terminal in the heap, terminal i going from at + spread·i/N (the terminals begin one after
// another over the ramp-up): each first thinks (as after a response: its first transaction's think time, drawn
// again after that transaction) and keys its first transaction. Begun by keying, the terminals' first cycles were
// shorter than the others by a think time, and a short window held more transactions than its terminals could
// keep up.
func (p *pool) start(at time.Time, spread time.Duration) {
	n := len(p.terms)
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.terms {
		t := &p.terms[i]
		t.tx, t.keying, t.think = t.t.Next()
		t.submit = at.Add(time.Duration(float64(spread)*float64(i)/float64(n)) + t.think + t.keying)
		p.push(t)
	}
}

// halt ends the pool: no terminal is taken any more.
func (p *pool) halt() {
	p.mu.Lock()
	p.stop = true
	p.mu.Unlock()
}

// poolWorker is one connection of the pool as the virtual-user loop (vuLoop) sees a Worker: its Next takes the
// first submitted terminal (waiting for one), its Do runs that terminal's transaction on the connection, and the
// next Next hands the terminal back, thinking and keying its next transaction. The loop's counting, edges,
// guards, retries and reconnects are every run's.
type poolWorker struct {
	p            *pool
	c            Connection
	timer        *time.Timer // the connection's, to wait for the next submit when it leads
	cur          *term
	picked, end  time.Time
	wait         *hdrhistogram.Histogram // the measured window's waits for a connection, µs
	count        []int64                 // by transaction, the measured window's
	keying, thnk []time.Duration
}

func newPoolWorker(p *pool, c Connection, txs int) *poolWorker {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	return &poolWorker{p: p, c: c, timer: timer, wait: hdrhistogram.New(1, maxLatencyUS, 3), count: make([]int64, txs),
		keying: make([]time.Duration, txs), thnk: make([]time.Duration, txs)}
}

// Next hands back the terminal whose transaction ended (it thinks, then keys its next one) and takes the next
// submitted one. When the run ends while it waits it returns at once (the loop sees the run's end).
func (w *poolWorker) Next() (int, time.Duration, time.Duration) {
	if t := w.cur; t != nil {
		w.cur = nil
		think := t.think
		t.tx, t.keying, t.think = t.t.Next()
		w.p.due(t, w.end.Add(think+t.keying))
	}
	if t := w.p.take(w.timer); t != nil {
		w.cur, w.picked = t, time.Now()
		return t.tx, 0, 0
	}
	return 0, 0, 0
}

// submitted is the unit of work's start for its latency: the terminal's submit (so the wait is in it).
func (w *poolWorker) submitted() time.Time { return w.cur.submit }

// waited is the unit of work's wait for its connection: pick-up minus submit.
func (w *poolWorker) waited() time.Duration { return w.picked.Sub(w.cur.submit) }

func (w *poolWorker) Do(ctx context.Context, tx int) Outcome {
	out := w.c.Do(ctx, w.cur.t, tx)
	w.end = time.Now()
	return out
}

// Counted records the transaction's wait for its connection and the terminal's keying and think times around
// it, for the transactions the run counts in its window (and tells the connection, if it counts too).
func (w *poolWorker) Counted(tx int, out Outcome) {
	t := w.cur
	w.wait.RecordValue(min(max(1, w.waited().Microseconds()), maxLatencyUS))
	w.count[tx]++
	w.keying[tx] += t.keying
	w.thnk[tx] += t.think
	if c, ok := w.c.(Counter); ok {
		c.Counted(tx, out)
	}
}

func (w *poolWorker) Reconnect(ctx context.Context) error { return w.c.Reconnect(ctx) }
func (w *poolWorker) Close()                              { w.c.Close() }

// Interrupt implements Interrupter when the connection does.
func (w *poolWorker) Interrupt() {
	if i, ok := w.c.(Interrupter); ok {
		i.Interrupt()
	}
}

// submitter is a Worker whose units of work start before their Do (a terminal's submit): their latency counts
// from then, and their wait for a connection is part of it.
type submitter interface {
	submitted() time.Time
	waited() time.Duration
}

// connectPool opens the pool's connections (all of them or none) and makes its terminals, idle until started.
func connectPool(parent context.Context, w Workload, cfg Config) ([]Worker, *pool, error) {
	tw, ok := w.(Terminals)
	if !ok {
		return nil, nil, fmt.Errorf("--terminals: this workload runs virtual users only (--vus)")
	}
	if cfg.Rate > 0 {
		return nil, nil, fmt.Errorf("--terminals pace themselves: no open-loop --rate")
	}
	p := newPool(tw, cfg.Terminals)
	names := tw.Transactions()
	workers := make([]Worker, cfg.VUs)
	for i := range workers {
		c, err := tw.NewConnection(parent, i)
		if err == nil && parent.Err() != nil {
			c.Close()
			err = fmt.Errorf("%w while opening connections", ErrAborted)
		}
		if err != nil {
			for _, o := range workers[:i] {
				o.Close()
			}
			return nil, nil, err
		}
		workers[i] = newPoolWorker(p, c, len(names))
	}
	return workers, p, nil
}

// result is the pool's figures of the measured window, from its connections' (read after their loops ended).
func (p *pool) result(workers []Worker, names []string) *result.Terminals {
	out := &result.Terminals{Terminals: len(p.terms), Connections: len(workers), Pacing: map[string]result.Pacing{}}
	h := hdrhistogram.New(1, maxLatencyUS, 3)
	count := make([]int64, len(names))
	keying, think := make([]time.Duration, len(names)), make([]time.Duration, len(names))
	for _, wk := range workers {
		w := wk.(*poolWorker)
		h.Merge(w.wait)
		for i := range names {
			count[i] += w.count[i]
			keying[i] += w.keying[i]
			think[i] += w.thnk[i]
		}
	}
	out.ConnectionWait = latency(h)
	for i, n := range names {
		if count[i] > 0 {
			out.Pacing[n] = result.Pacing{Count: count[i], KeyingMeanS: round3(keying[i].Seconds() / float64(count[i])),
				ThinkMeanS: round3(think[i].Seconds() / float64(count[i]))}
		}
	}
	return out
}

// PacingTolerance is how far below a required mean a measured mean of n samples of exponential think times may
// fall by chance: three standard errors (the standard deviation of an exponential is its mean) or 5%, whichever
// is larger.
func PacingTolerance(n int64) float64 {
	if n <= 0 {
		return 1
	}
	return max(0.05, 3/math.Sqrt(float64(n)))
}

// PrintTerminals prints a run of terminals' wait for a connection (in ms, as the transactions' latencies),
// nothing for a run of virtual users.
func PrintTerminals(w io.Writer, m *result.Measurement) {
	t := m.Terminals
	if t == nil {
		return
	}
	l := t.ConnectionWait
	fmt.Fprintf(w, "terminals: %d over %d connections; wait for a connection (ms, part of the response times above): min %.2f avg %.2f p50 %.2f p90 %.2f p95 %.2f p99 %.2f max %.2f\n",
		t.Terminals, t.Connections, msf(l.Min), l.Mean/1000, msf(l.P50), msf(l.P90), msf(l.P95), msf(l.P99), msf(l.Max))
}

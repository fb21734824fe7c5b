package runner

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// Interrupter is a Worker whose unit of work in flight can be cut short from another goroutine: Interrupt closes
// the worker's connection (its socket), so that a statement waiting on a server that stopped answering fails at
// once. It is safe to call concurrently with Do and more than once; the worker then reports its connection
// lost, and Close still releases it.
type Interrupter interface {
	Interrupt()
}

// InterruptGrace is how long virtual users still inside Do get to return after the run ends or is cancelled (the
// context's cancellation reaches most drivers) before the runner interrupts them.
var InterruptGrace = time.Second

// EndTimeout bounds a query at a run's end (a cross-check, a counter, a probe's last count): it runs even after
// Ctrl-C, for a figure of the partial result, but for at most AbortedEndTimeout once the run's context is
// cancelled (before or during the query).
var (
	EndTimeout        = 10 * time.Second
	AbortedEndTimeout = 500 * time.Millisecond
)

// endClock is one run's deadline for the queries at its end, once its window has ended.
type endClock struct {
	mu       sync.Mutex
	deadline time.Time
}

type endClockKey struct{}

// WithEndClock gives the run of ctx one deadline for all the queries at its end: once StartEnd is called,
// each EndContext has what is left of EndTimeout (at least AbortedEndTimeout), not a whole EndTimeout of its
// own. A server that stopped answering then holds the run's end for about EndTimeout, not EndTimeout for
// each query (the window's last count, the counters, a cross-check: 28 s on a frozen server).
func WithEndClock(ctx context.Context) context.Context {
	return context.WithValue(ctx, endClockKey{}, &endClock{})
}

// StartEnd starts the end clock of ctx's run (see WithEndClock), once: later calls keep the first deadline. A
// context without a clock is left as it is.
func StartEnd(ctx context.Context) {
	if c, ok := ctx.Value(endClockKey{}).(*endClock); ok {
		c.mu.Lock()
		if c.deadline.IsZero() {
			c.deadline = time.Now().Add(EndTimeout)
		}
		c.mu.Unlock()
	}
}

// endTimeout is what an end query of ctx's run may take: EndTimeout, or what is left of its run's end clock.
func endTimeout(ctx context.Context) time.Duration {
	c, ok := ctx.Value(endClockKey{}).(*endClock)
	if !ok {
		return EndTimeout
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.deadline.IsZero() {
		return EndTimeout
	}
	return max(time.Until(c.deadline), AbortedEndTimeout)
}

// EndContext is the context of a query at a run's end, bounded by EndTimeout or what is left of the run's end
// clock (AbortedEndTimeout once ctx is cancelled, whenever that happens). Call the cancel function when the
// query is done.
func EndContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx.Err() != nil {
		return context.WithTimeout(context.WithoutCancel(ctx), AbortedEndTimeout)
	}
	end, cancel := context.WithTimeout(context.WithoutCancel(ctx), endTimeout(ctx))
	var mu sync.Mutex
	var timer *time.Timer
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		timer = time.AfterFunc(AbortedEndTimeout, cancel)
	})
	return end, func() {
		stop()
		mu.Lock()
		if timer != nil {
			timer.Stop()
		}
		mu.Unlock()
		cancel()
	}
}

// stopWorkers waits for the virtual users' loops to return once the run's context is cancelled; those still
// inside Do after InterruptGrace (a driver that does not honour the context, a server that stopped answering)
// are interrupted when they can be.
func stopWorkers(wg *sync.WaitGroup, workers []Worker) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(InterruptGrace)
	defer t.Stop()
	select {
	case <-done:
		return
	case <-t.C:
	}
	for _, wk := range workers {
		if i, ok := wk.(Interrupter); ok {
			i.Interrupt()
		}
	}
	<-done
}

// Cut is a worker's Interrupter, embedded in the worker: it holds how to interrupt the worker's current
// connection (Set on each connect and reconnect; nil when there is no way). Its zero value interrupts nothing.
type Cut struct{ f atomic.Pointer[func()] }

// Set replaces the interrupt of the worker's connection.
func (c *Cut) Set(f func()) {
	if f == nil {
		c.f.Store(nil)
		return
	}
	c.f.Store(&f)
}

// Reopen replaces a worker's lost session *s: the old one closed, one opened by open and its interrupt set. When
// the open fails, *s is nil (engine.ErrClosed until a reconnect succeeds) and nothing is interrupted.
func (c *Cut) Reopen(ctx context.Context, s **engine.Session, open func(context.Context) (*engine.Session, error)) error {
	(*s).Close()
	n, err := open(ctx)
	if err != nil {
		*s = nil
		c.Set(nil)
		return err
	}
	*s = n
	c.Set(n.Interrupter())
	return nil
}

// Interrupt implements Interrupter.
func (c *Cut) Interrupt() {
	if f := c.f.Load(); f != nil {
		(*f)()
	}
}

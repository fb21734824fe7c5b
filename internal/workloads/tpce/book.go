package tpce

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method/runner"
)

// The book of pending limit orders, warmed before the measured window.
//
// The specification measures in steady state: the market exchange emulator holds the limit orders of the last
// price period (900 s) whose price has not come yet, and they trigger as fast as new ones arrive, so that
// Trade-Results follow Trade-Orders one for one. A run starts with none (Trade-Cleanup cancels an earlier run's,
// as the specification's MEE starts empty), and its own limit orders would take the 900 s swing of the price to
// fill the book: a 60 s window then held a fifth of its Trade-Orders still pending and read Trade-Result at 7.8%
// of the mix, not 10%. So in the ramp-up the book is warmed to its steady state: at half the ramp-up the rate of
// Trade-Orders so far (the customer emulator's choices, of which its deck makes a tenth committed Trade-Orders)
// says how many orders the 900 s before the run would have held; they are drawn
// as the customer emulator draws its Trade-Orders, each at a uniform time of those 900 s, and those whose price
// the path has not met by now (Crossing) are placed as real Trade-Orders (frames 1-4, submitted at their time)
// and watched by the MEE like any other. Their price comes at the rate the run's own limit orders' does in steady
// state, so the window's Trade-Results and Market-Feeds are the specification's shares from its first second.
// With no ramp-up there is nothing to measure the rate by: the book starts empty and the run says its mix is out.

// bookBatch is the warm-up's Trade-Orders in one transaction.
const bookBatch = 50

// warmVU is the warm-up's virtual-user number (its random stream), above any run's users.
const warmVU = 1 << 20

// bookOrder is a limit order of the warmed book: the Trade-Order's inputs, when it was submitted (before the
// run) and when its price comes.
type bookOrder struct {
	o  toOrder
	at time.Time
	l  limitOrder // its trade id set when it is placed
}

// planBook is the book at now of a run that started at start and has committed Trade-Orders at rate a second:
// rate·900 Trade-Orders drawn by draw (the customer emulator's inputs; none rolls back, as rate counts the
// committed), each submitted at a uniform time of the 900 s before start, and of them the limit orders whose
// price the path has not met by now, in the order their price comes.
func planBook(r *rand.Rand, start, now time.Time, rate float64, draw func() toOrder) []bookOrder {
	n := int(math.Round(rate * PricePeriod.Seconds()))
	var out []bookOrder
	for i := 0; i < n; i++ {
		o := draw()
		at := start.Add(-time.Duration(1 + r.Int64N(int64(PricePeriod))))
		if o.market {
			continue // completed within 5 s of its submission, before the run
		}
		o.rollback = false
		sym := Symbol(o.sec)
		when, price, ok := Crossing(sym, o.tt, o.bid, at)
		if !ok || !when.After(now) {
			continue // triggered before now (or never: a limit outside the path's range, which the draw does not make)
		}
		out = append(out, bookOrder{o: o, at: at, l: limitOrder{symb: sym, at: when, price: price}})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].l.at.Before(out[j].l.at) })
	return out
}

// warmup is the book's warm-up in a run: started once, at half the ramp-up (or at the window's start if that
// comes first), waited for at the window's start.
type warmup struct {
	after  time.Duration // from the run's first unit of work to the warm-up (0: none)
	ctx    context.Context
	cancel context.CancelFunc
	once   sync.Once
	done   chan struct{} // closed when it has ended (nil: never started)
	mu     sync.Mutex
	res    warmResult
	err    error
}

// warmResult is what the warm-up did.
type warmResult struct {
	Orders      int           // limit orders placed
	Planned     int           // of the plan's
	Cut         bool          // cut short at the window's fixed start (--start-at), the rest not placed
	Rate        float64       // committed Trade-Orders a second it was sized by
	Over        time.Duration // the part of the run the rate was measured over
	Took        time.Duration // placing them
	Outstanding int           // the pending limit orders the MEE watched after it
}

// warmAfter readies the warm-up to start after d of the run's work (none when d is 0).
func (w *Workload) warmAfter(d time.Duration) {
	w.warm.after = d
	w.warm.ctx, w.warm.cancel = context.WithCancel(context.Background())
}

// begin marks the run's first unit of work and schedules the warm-up.
func (w *Workload) begin(now time.Time) {
	if !w.started.CompareAndSwap(0, now.UnixNano()) || w.warm.after <= 0 {
		return
	}
	time.AfterFunc(w.warm.after, w.startWarmup)
}

// startWarmup starts the warm-up once, on a goroutine of its own.
func (w *Workload) startWarmup() {
	w.warm.once.Do(func() {
		w.warm.mu.Lock()
		w.warm.done = make(chan struct{})
		w.warm.mu.Unlock()
		go func() {
			defer close(w.warm.done)
			res, err := w.warmBook(w.warm.ctx, time.Now())
			w.warm.mu.Lock()
			w.warm.res, w.warm.err = res, err
			w.warm.mu.Unlock()
		}()
	})
}

// awaitWarmup is the measured window's start: the warm-up started if it has not (a ramp-up whose users came late)
// and waited for, or, when the window's start is fixed (cut: --start-at, as a sharded run's shards start
// together), cut short there, the orders placed so far kept; false when the run has none (no ramp-up, or no work
// before the window).
func (w *Workload) awaitWarmup(ctx context.Context, cut bool) (warmResult, bool, error) {
	if w.warm.after <= 0 || w.started.Load() == 0 {
		return warmResult{}, false, nil
	}
	w.startWarmup()
	w.warm.mu.Lock()
	done := w.warm.done
	w.warm.mu.Unlock()
	if cut {
		select {
		case <-done:
		default:
			w.warm.cancel()
		}
	}
	select {
	case <-done:
	case <-ctx.Done():
		return warmResult{}, true, ctx.Err()
	}
	w.warm.mu.Lock()
	defer w.warm.mu.Unlock()
	return w.warm.res, true, w.warm.err
}

// stopWarmup ends a warm-up under way and waits for it (the run's end).
func (w *Workload) stopWarmup() {
	if w.warm.cancel == nil {
		return
	}
	w.warm.cancel()
	w.warm.once.Do(func() {}) // none starts after the run
	w.warm.mu.Lock()
	done := w.warm.done
	w.warm.mu.Unlock()
	if done != nil {
		<-done
	}
}

// orderRate is the committed Trade-Orders a second over the run's first d: the customer emulator's choices so
// far, of which its deck makes Trade-Orders their share (101 of 890 cards), less Trade-Order's 1 rollback in 101.
// The deck holds the share exactly, so this counts every choice rather than the tenth that were Trade-Orders.
func (w *Workload) orderRate(d time.Duration) float64 {
	cards := w.cards
	if cards == nil {
		cards = Levels[:]
	}
	var all int
	for _, n := range cards {
		all += n
	}
	w.mu.Lock()
	var ce int64
	for _, n := range w.ceCount {
		ce += n
	}
	w.mu.Unlock()
	if all == 0 {
		return 0
	}
	return float64(ce) * float64(cards[TO]) / float64(all) * (RollbackEvery - 1) / RollbackEvery / d.Seconds()
}

// warmBook places the book (planBook) at now, for the rate of Trade-Orders since the run's first unit of work
// (orderRate): each order Trade-Order's frames 1-4 submitted at its time, bookBatch of them a transaction, on a
// connection of its own, the earliest to trigger first; the MEE watches each once committed.
func (w *Workload) warmBook(ctx context.Context, now time.Time) (warmResult, error) {
	start := time.Unix(0, w.started.Load())
	res := warmResult{Over: now.Sub(start)}
	if res.Over <= 0 {
		return res, nil
	}
	res.Rate = w.orderRate(res.Over)
	wr, err := w.NewWorker(ctx, warmVU)
	if err != nil {
		return res, fmt.Errorf("the limit orders' warm-up: %w", err)
	}
	defer wr.Close()
	wk := wr.(*worker)
	wk.trips = &tripCount{} // not the run's transactions
	plan := planBook(wk.r, start, now, res.Rate, wk.drawOrder)
	res.Planned = len(plan)
	retry := runner.Retry{Engine: w.db.T.Engine}
	for i := 0; i < len(plan); i += bookBatch {
		batch := plan[i:min(len(plan), i+bookBatch)]
		for j := range batch {
			batch[j].l.tid = w.newTID()
		}
		out := retry.Unit(ctx, "the limit orders' warm-up (Trade-Order)", func() (bool, error) {
			return wk.txn(ctx, false, func(tx engine.Queryer) (bool, error) {
				for _, b := range batch {
					if err := wk.orderFrames(ctx, tx, b.o, b.l.tid, stamp(b.at)); err != nil {
						return false, err
					}
				}
				return false, nil
			})
		})
		if out.Err != nil && ctx.Err() != nil {
			res.Cut = true // the window's start (or the run's end) came first
			break
		}
		if out.Err != nil {
			return res, out.Err
		}
		for _, b := range batch {
			w.mee.watch(b.l)
		}
		res.Orders += len(batch)
	}
	res.Took = time.Since(now)
	res.Outstanding = w.mee.watching()
	return res, nil
}

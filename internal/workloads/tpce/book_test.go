package tpce

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// inTheMoney is Market-Feed's trigger rule, the specification's (trade_request against a ticker price): a
// stop-loss and a limit-buy when the price is at or below the order's limit, a limit-sell when at or above.
func inTheMoney(tt int, bid, price int64) bool {
	if tt == ttLS {
		return price >= bid
	}
	return price <= bid
}

// Crossing is the first millisecond from the order's submission at which the symbol's price (Price, the path
// the Trade-Results and the ticker use) meets the order's limit by Market-Feed's rule, found here by walking
// the path a millisecond at a time; the limits at the path's ends and one step inside them among the cases, and
// a limit outside $20-$30 is never met.
func TestCrossingIsWhenThePriceFirstMeetsTheLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(47, 4))
	bids := []int64{2000, 2001, 2999, 3000, 2500}
	for i := 0; i < 19; i++ {
		bids = append(bids, 2000+r.Int64N(1001))
	}
	for i, bid := range bids {
		symb := Symbol(r.Int64N(685))
		tt := []int{ttSL, ttLS, ttLB}[i%3]
		from := time.UnixMilli(1_800_000_000_000 + r.Int64N(1_000_000_000)).Add(time.Duration(r.Int64N(1e6)))
		at, price, ok := Crossing(symb, tt, bid, from)
		if !ok {
			t.Fatalf("%s %s at %d: never met", symb, TradeTypes[tt].ID, bid)
		}
		if inTheMoney(tt, bid, Price(symb, from)) {
			if !at.Equal(from) || price != Price(symb, from) {
				t.Errorf("%s %s at %d, in the money at once: crossing %v (%d), want its submission %v (%d)", symb, TradeTypes[tt].ID, bid, at, price, from, Price(symb, from))
			}
			continue
		}
		ms := from.UnixMilli() + 1
		for !inTheMoney(tt, bid, Price(symb, time.UnixMilli(ms))) {
			ms++
			if ms-from.UnixMilli() > int64(PricePeriod/time.Millisecond) {
				t.Fatalf("%s %s at %d: the path never met it in a period", symb, TradeTypes[tt].ID, bid)
			}
		}
		if at.UnixMilli() != ms || price != Price(symb, at) || !inTheMoney(tt, bid, price) {
			t.Errorf("%s %s at %d from %v: crossing %v at %d, want %v at %d", symb, TradeTypes[tt].ID, bid, from, at, price,
				time.UnixMilli(ms), Price(symb, time.UnixMilli(ms)))
		}
	}
	for _, c := range []struct {
		tt  int
		bid int64
	}{{ttLB, 1999}, {ttSL, 1500}, {ttLS, 3001}, {ttMB, 2500}} {
		if _, _, ok := Crossing("AAAAA", c.tt, c.bid, time.Now()); ok {
			t.Errorf("%s at %d: met, though the path is $20-$30 (or it is no limit order)", TradeTypes[c.tt].ID, c.bid)
		}
	}
}

// The MEE keeps a limit order until its price comes: no ticker entry for it before, then one at the crossing's
// price with the next completed trade (a limit already in the money at once), so that the next Market-Feed
// triggers it; one a Market-Feed has triggered already is not put on the ticker again.
func TestMEEPutsALimitOrderOnTheTickerWhenItsPriceComes(t *testing.T) {
	m := newMEE(1)
	from := time.UnixMilli(1_800_000_000_000)
	// a limit-buy $1 under the price, and a limit-sell in the money at once
	var symb string
	var at time.Time
	for i := int64(0); ; i++ {
		symb = Symbol(i)
		if p := Price(symb, from); p >= 2200 {
			var ok bool
			at, _, ok = Crossing(symb, ttLB, p-100, from)
			if !ok {
				t.Fatal("never met")
			}
			m.post(1, symb, ttLB, p-100, from)
			break
		}
	}
	other := Symbol(600)
	m.post(2, other, ttLS, Price(other, from)-1, from)
	entries := func(now time.Time) []tick {
		n := len(m.ticker)
		m.completed("ZZZZZ", 2500, 100, now)
		return m.ticker[n:]
	}
	if e := entries(from); len(e) != 2 || e[1].symb != other || !inTheMoney(ttLS, Price(other, from)-1, e[1].price) {
		t.Fatalf("the limit-sell in the money at once: entries %v", e)
	}
	if e := entries(at.Add(-time.Millisecond)); e[1].symb == symb {
		t.Fatalf("the limit-buy on the ticker before its price came (%v): %v", at, e)
	}
	if m.watching() != 1 {
		t.Fatalf("%d limit orders watched, want the limit-buy", m.watching())
	}
	e := entries(at.Add(time.Second))
	if e[1].symb != symb || e[1].price != Price(symb, at) || e[1].price > Price(symb, from)-100 {
		t.Fatalf("after its price came at %v: entries %v, want %s at %d", at, e, symb, Price(symb, at))
	}
	// triggered by a feed before its time: not put on the ticker
	m.post(3, symb, ttLB, Price(symb, at)-50, at)
	m.triggered(3)
	if e := entries(at.Add(PricePeriod)); e[1].symb == symb || m.watching() != 0 {
		t.Fatalf("a triggered order on the ticker: %v (%d watched)", e, m.watching())
	}
}

// The warmed book is the steady state's: with Trade-Orders arriving at a steady rate from the run's start, the
// limit orders whose price comes in a 60 s window after a 10 s ramp-up (the book planned at half the ramp-up
// from the rate so far, the ramp-up's own orders and the window's) are as many as the window's own limit
// orders, as in steady state, where orders complete as fast as they come. Without the book about half as many
// came (limit orders are 40% of the Trade-Orders: a fifth of the Trade-Results short, the 60 s runs'
// Trade-Result at 7.8% of the mix).
func TestWarmedBookTriggersAsFastAsOrdersCome(t *testing.T) {
	r := rand.New(rand.NewPCG(47, 5))
	const rate = 200.0 // committed Trade-Orders a second
	draw := func() toOrder {
		o := toOrder{sec: r.Int64N(685), market: r.IntN(100) < 60, sell: r.IntN(2) == 0, bid: 2000 + r.Int64N(1001)}
		switch {
		case o.market:
			o.tt = ttMB
		case !o.sell:
			o.tt = ttLB
		case r.IntN(2) == 0:
			o.tt = ttSL
		default:
			o.tt = ttLS
		}
		return o
	}
	start := time.UnixMilli(1_800_000_000_000)
	rampup, window := 10*time.Second, 60*time.Second
	w0, w1 := start.Add(rampup), start.Add(rampup+window)
	var ramp, inWindow, rampTriggered, windowOrders int
	var warmed []bookOrder
	planned := false
	for at := start; at.Before(w1); at = at.Add(time.Duration(r.ExpFloat64() / rate * float64(time.Second))) {
		if !planned && !at.Before(start.Add(rampup/2)) {
			warmed, planned = planBook(r, start, at, float64(ramp)/at.Sub(start).Seconds(), draw), true
		}
		o := draw()
		if at.Before(w0) {
			ramp++
		} else if !o.market {
			windowOrders++
		}
		if o.market {
			continue
		}
		if when, _, _ := Crossing(Symbol(o.sec), o.tt, o.bid, at); !when.Before(w0) && when.Before(w1) {
			inWindow++
			if at.Before(w0) {
				rampTriggered++
			}
		}
	}
	book := 0
	for _, b := range warmed {
		if !b.l.at.Before(w0) && b.l.at.Before(w1) {
			book++
		}
	}
	got := float64(book + inWindow)
	if math.Abs(got-float64(windowOrders)) > MixTolerance*float64(windowOrders) {
		t.Errorf("%v limit orders' prices came in the window (book %d, ramp-up's %d, window's own %d) for its %d limit orders: not within %v",
			got, book, rampTriggered, inWindow-rampTriggered, windowOrders, MixTolerance)
	}
	if cold := float64(inWindow); cold > 0.6*float64(windowOrders) {
		t.Errorf("with no book %v limit orders' prices came in the window for its %d: the cold start this test is about is not there", cold, windowOrders)
	}
	t.Logf("window: %d limit orders; their prices came for %d (book %d, ramp-up %d, the window's own %d); warmed %d", windowOrders,
		book+inWindow, book, rampTriggered, inWindow-rampTriggered, len(warmed))
}

// The warm-up's rate is the customer emulator's choices' committed Trade-Orders: 101 of the deck's 890 cards
// less 1 rollback in 101, so 100 a second for 890 choices a second (a custom mix: its own cards' share).
func TestWarmupRateIsTheDecksTradeOrders(t *testing.T) {
	w := &Workload{}
	w.ceCount[BV], w.ceCount[TS] = 4450, 4450 // 8,900 choices in 10 s
	if got := w.orderRate(10 * time.Second); math.Abs(got-100) > 1e-9 {
		t.Errorf("standard mix: %v Trade-Orders a second, want 100", got)
	}
	w.cards = []int{0, 0, 0, 0, 0, 1, 1, 0} // trade_order=1,trade_status=1
	if got := w.orderRate(10 * time.Second); math.Abs(got-445*100.0/101) > 1e-9 {
		t.Errorf("custom mix: %v Trade-Orders a second, want %v", got, 445*100.0/101)
	}
}

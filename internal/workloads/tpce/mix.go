package tpce

import (
	"container/heap"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/workload"
)

// The transactions, in the order of their names.
const (
	BV = iota // Broker-Volume
	CP        // Customer-Position
	MW        // Market-Watch
	SD        // Security-Detail
	TL        // Trade-Lookup
	TO        // Trade-Order
	TS        // Trade-Status
	TU        // Trade-Update
	TR        // Trade-Result (from the market exchange emulator)
	MF        // Market-Feed (from the market exchange emulator)
	DM        // Data-Maintenance (once a minute)
)

// TxNames are the transactions' names in results.
var TxNames = []string{"broker_volume", "customer_position", "market_watch", "security_detail", "trade_lookup",
	"trade_order", "trade_status", "trade_update", "trade_result", "market_feed", "data_maintenance"}

// Levels are the customer emulator's mix levels out of 1,000 (the specification's percentages: BV 4.9, CP 13,
// MW 18, SD 14, TL 8, TO 10.1, TS 19, TU 2); the other 110 are Trade-Result and Market-Feed, which the market
// exchange emulator starts.
var Levels = [8]int{49, 130, 180, 140, 80, 101, 190, 20}

// RequiredMix is the specification's mix in percent of all transactions, TR and MF included.
var RequiredMix = map[int]float64{BV: 4.9, CP: 13, MW: 18, SD: 14, TL: 8, TO: 10.1, TS: 19, TU: 2, TR: 10, MF: 1}

// Limits are the specification's 90th-percentile response-time limits (seconds).
var Limits = map[int]float64{BV: 3, CP: 3, MF: 2, MW: 3, SD: 3, TL: 3, TO: 2, TR: 2, TS: 1, TU: 3}

// RollbackEvery: Trade-Order rolls back on purpose 1 time in 101.
const RollbackEvery = 101

// CENames are the customer emulator's transactions, the ones --mix weighs (in Levels' order).
var CENames = TxNames[BV : TU+1]

// ParseMix reads --mix over the customer emulator's eight transactions ("" is the standard mix, Levels).
// Trade-Result and Market-Feed are refused as weights: the market exchange emulator starts them, one
// Trade-Result per committed Trade-Order and one Market-Feed per 20 ticker entries, so trade_order's weight sets
// them. tpsE counts Trade-Results, so trade_order needs a weight.
func ParseMix(s string) (workload.Mix, error) {
	for _, term := range strings.Split(s, ",") {
		name, _, _ := strings.Cut(term, "=")
		switch name = strings.TrimSpace(name); name {
		case TxNames[TR], TxNames[MF], TxNames[DM]:
			return workload.Mix{}, fmt.Errorf("--mix %q: %s is not the customer emulator's to weigh (%s): weigh %s", s, name, emulated[name], strings.Join(CENames, ", "))
		}
	}
	std := make([]float64, len(Levels))
	for i, n := range Levels {
		std[i] = float64(n)
	}
	m, err := workload.ParseMix(s, CENames, std)
	if err == nil && m.Weights[TO] == 0 {
		return m, fmt.Errorf("--mix %q gives trade_order no weight: tpsE counts Trade-Results, which complete Trade-Orders; give it one, e.g. trade_order=1,%s", s, s)
	}
	return m, err
}

// emulated says why a transaction --mix refuses is not a weight.
var emulated = map[string]string{
	TxNames[TR]: "the market exchange emulator completes each committed Trade-Order with one, so trade_order's weight sets its share",
	TxNames[MF]: "the market exchange emulator sends one per 20 ticker entries of completed trades, so trade_order's weight sets its share",
	TxNames[DM]: "it runs once a minute, whatever the mix",
}

// deck is the customer emulator's card-deck shuffle: the 890 slots of Levels, or a custom mix's cards.
type deck struct {
	cards []int8
	next  int
}

// newDeck is a deck of the given cards per transaction (nil: Levels).
func newDeck(counts []int) *deck {
	if counts == nil {
		counts = Levels[:]
	}
	d := &deck{}
	for tx, n := range counts {
		for i := 0; i < n; i++ {
			d.cards = append(d.cards, int8(tx))
		}
	}
	d.next = len(d.cards)
	return d
}

func (d *deck) draw(r *rand.Rand) int {
	if d.next == len(d.cards) {
		r.Shuffle(len(d.cards), func(i, j int) { d.cards[i], d.cards[j] = d.cards[j], d.cards[i] })
		d.next = 0
	}
	d.next++
	return int(d.cards[d.next-1])
}

// NURnd is the specification's non-uniform random number in [p, q].
func NURnd(r *rand.Rand, p, q, a int64, s uint) int64 {
	return ((p+r.Int64N(q-p+1))|(r.Int64N(a+1)<<s))%(q-p+1) + p
}

// PickCustomer chooses a customer non-uniformly: a load unit uniformly, then a tier (10/60/30%) and a position
// in it with a probability rising with the position, scrambled into the customer id.
func PickCustomer(r *rand.Rand, customers int64) int64 {
	return PickCustomerIn(r, 0, customers/LoadUnit)
}

// PickCustomerIn is PickCustomer within the load units [lo, hi) (a shard's customers: --shard).
func PickCustomerIn(r *rand.Rand, lo, hi int64) int64 {
	high := lo + r.Int64N(hi-lo)
	u := float64(r.Int64N(2000) + 1)
	var low float64
	switch {
	case u <= 200:
		low = math.Ceil(math.Sqrt(22500+500*u) - 151)
	case u <= 1400:
		low = math.Ceil(math.Sqrt(290000+1000*u) - 501)
	default:
		low = math.Ceil(149 + math.Sqrt(500*u-277500))
	}
	return Scramble(high, int64(min(max(low, 0), 999)))
}

// ---- the market exchange emulator ----

// order is a trade the MEE completes with a Trade-Result at its due time.
type order struct {
	tid  int64
	symb string
	due  time.Time
}

type orders []order

func (o orders) Len() int           { return len(o) }
func (o orders) Less(i, j int) bool { return o[i].due.Before(o[j].due) }
func (o orders) Swap(i, j int)      { o[i], o[j] = o[j], o[i] }
func (o *orders) Push(x any)        { *o = append(*o, x.(order)) }
func (o *orders) Pop() any {
	old := *o
	x := old[len(old)-1]
	*o = old[:len(old)-1]
	return x
}

// tick is a ticker entry: a symbol's price and a traded quantity.
type tick struct {
	symb  string
	price int64
	qty   int64
}

// FeedLen is the ticker entries a Market-Feed carries.
const FeedLen = 20

// limitOrder is a pending limit order the MEE watches, as the specification's MEE does: its price path says when
// the symbol's price first meets the order's limit (at once when it already does), and then the MEE puts the
// symbol on the ticker at that price, so that the next Market-Feed triggers the order.
type limitOrder struct {
	tid   int64
	symb  string
	at    time.Time // when the price meets the limit
	price int64     // the price then (cents)
}

type limitOrders []limitOrder

func (o limitOrders) Len() int           { return len(o) }
func (o limitOrders) Less(i, j int) bool { return o[i].at.Before(o[j].at) }
func (o limitOrders) Swap(i, j int)      { o[i], o[j] = o[j], o[i] }
func (o *limitOrders) Push(x any)        { *o = append(*o, x.(limitOrder)) }
func (o *limitOrders) Pop() any {
	old := *o
	x := old[len(old)-1]
	*o = old[:len(old)-1]
	return x
}

// mee is the in-process market exchange emulator: submitted orders complete after a delay (negative
// exponential, mean 1 s, at most 5 s) with a Trade-Result at the symbol's current price; each completion puts
// two entries on the ticker (the trade's, and the next pending limit order whose price has come, or an
// artificial entry: a security at its current price), and every 20 entries make a Market-Feed, which triggers
// the limit orders the prices cross.
type mee struct {
	mu         sync.Mutex
	due        orders
	ticker     []tick
	book       limitOrders    // the pending limit orders, by the time their price comes
	pending    map[int64]bool // the book's orders not yet triggered (a Market-Feed that triggers one takes it out)
	securities int64          // the securities artificial entries are drawn from (0: the trade's own symbol)
	r          *rand.Rand
	noDelay    bool // tests: orders are due at once
}

func newMEE(seed uint64) *mee {
	return &mee{pending: map[int64]bool{}, r: rand.New(rand.NewPCG(seed, 0x3ee))}
}

// submit queues a market order (or a triggered limit order) for its Trade-Result.
func (m *mee) submit(tid int64, symb string, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := time.Duration(0)
	if !m.noDelay {
		d = time.Duration(min(5, m.r.ExpFloat64()) * float64(time.Second))
	}
	heap.Push(&m.due, order{tid: tid, symb: symb, due: now.Add(d)})
}

// post takes a committed limit order of trade type tt at limit bid (cents), submitted at: the MEE watches the
// symbol's price for the time it meets the limit (Crossing). A limit its price never meets (outside $20-$30)
// stays pending until Trade-Cleanup.
func (m *mee) post(tid int64, symb string, tt int, bid int64, at time.Time) {
	if when, price, ok := Crossing(symb, tt, bid, at); ok {
		m.watch(limitOrder{tid: tid, symb: symb, at: when, price: price})
	}
}

// watch puts a limit order whose trigger time is known in the book.
func (m *mee) watch(l limitOrder) {
	m.mu.Lock()
	heap.Push(&m.book, l)
	m.pending[l.tid] = true
	m.mu.Unlock()
}

// triggered takes a limit order a Market-Feed submitted out of the book (its price need not be put on the
// ticker again).
func (m *mee) triggered(tid int64) {
	m.mu.Lock()
	delete(m.pending, tid)
	m.mu.Unlock()
}

// watching is the pending limit orders the MEE holds.
func (m *mee) watching() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.pending)
}

// completed puts a finished trade's ticker entries: its own, and the next limit order whose price has come by
// now (at that price), or else an artificial entry.
func (m *mee) completed(symb string, price, qty int64, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ticker = append(m.ticker, tick{symb, price, qty})
	for len(m.book) > 0 && !m.book[0].at.After(now) {
		l := heap.Pop(&m.book).(limitOrder)
		if m.pending[l.tid] {
			delete(m.pending, l.tid)
			m.ticker = append(m.ticker, tick{l.symb, l.price, 0})
			return
		}
	}
	pad := symb
	if m.securities > 0 {
		pad = Symbol(m.r.Int64N(m.securities))
	}
	m.ticker = append(m.ticker, tick{pad, Price(pad, now), 0})
}

// next hands out work that is due: a Trade-Result, else a Market-Feed's 20 entries.
func (m *mee) next(now time.Time) (o order, feed []tick, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.due) > 0 && !m.due[0].due.After(now) {
		return heap.Pop(&m.due).(order), nil, true
	}
	if len(m.ticker) >= FeedLen {
		feed = append([]tick(nil), m.ticker[:FeedLen]...)
		m.ticker = append(m.ticker[:0], m.ticker[FeedLen:]...)
		return order{}, feed, true
	}
	return order{}, nil, false
}

// PricePeriod is the MEE's price path's period: each symbol's price swings from $20.00 up to $30.00 and back.
const PricePeriod = 900 * time.Second

const periodMS, halfMS = int64(PricePeriod / time.Millisecond), int64(PricePeriod/time.Millisecond) / 2

// phaseOf is a symbol's own offset on the price path (ms).
func phaseOf(symb string) int64 {
	h := mix(0, kSecurity, uint64(len(symb)))
	for _, c := range symb {
		h = mix(h, uint64(c))
	}
	return int64(h % uint64(periodMS))
}

// Price is a symbol's price at a time: it swings between $20.00 and $30.00 over 900 s, each symbol at its own
// phase (cents). The phase follows the wall clock, so the path goes on across runs.
func Price(symb string, t time.Time) int64 {
	return priceAt((t.UnixMilli() + phaseOf(symb)) % periodMS)
}

// priceAt is the price at a phase of the path (ms): rising by a cent every 450 ms to $30.00 at half the period,
// then falling.
func priceAt(ph int64) int64 {
	if ph > halfMS {
		ph = periodMS - ph
	}
	return 2000 + ph*1000/halfMS
}

// Crossing is when a limit order of trade type tt (stop-loss, limit-sell or limit-buy) at limit bid (cents),
// submitted at from, is first in the money on the symbol's price path, and the price then: a limit-buy or a
// stop-loss when the price is at or below its limit, a limit-sell when at or above (Market-Feed's trigger rule);
// from itself when it already is. Each period covers $20.00-$30.00, so a limit in that range is met within one;
// one outside it never is (false).
func Crossing(symb string, tt int, bid int64, from time.Time) (time.Time, int64, bool) {
	ms := from.UnixMilli()
	ph := (ms + phaseOf(symb)) % periodMS
	var d int64 // ms from from to the crossing
	switch tt {
	case ttLS: // price >= bid on the phases [c, period-c]
		c := (bid - 2000) * halfMS / 1000
		switch {
		case bid > 3000:
			return time.Time{}, 0, false
		case bid <= 2000 || ph >= c && ph <= periodMS-c:
		case ph < c:
			d = c - ph
		default:
			d = periodMS - ph + c
		}
	case ttLB, ttSL: // price <= bid on the phases [0, a] and [period-a, period)
		a := (bid-1999)*halfMS/1000 - 1
		switch {
		case bid < 2000:
			return time.Time{}, 0, false
		case bid >= 3000 || ph <= a || ph >= periodMS-a:
		default:
			d = periodMS - a - ph
		}
	default:
		return time.Time{}, 0, false
	}
	if d == 0 {
		return from, Price(symb, from), true
	}
	at := time.UnixMilli(ms + d)
	return at, Price(symb, at), true
}

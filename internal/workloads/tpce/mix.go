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

// mee is the in-process market exchange emulator: submitted orders complete after a delay (negative
// exponential, mean 1 s, at most 5 s) with a Trade-Result at the symbol's current price; each completion puts
// two entries on the ticker (the trade's and one for a symbol with limit orders pending, or the trade's again),
// and every 20 entries make a Market-Feed, which triggers the limit orders the prices cross.
type mee struct {
	mu      sync.Mutex
	due     orders
	ticker  []tick
	limits  map[string]int // pending limit orders by symbol
	r       *rand.Rand
	noDelay bool // tests: orders are due at once
}

func newMEE(seed uint64) *mee {
	return &mee{limits: map[string]int{}, r: rand.New(rand.NewPCG(seed, 0x3ee))}
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

// pending records a limit order waiting for its price; triggered removes one.
func (m *mee) pending(symb string) {
	m.mu.Lock()
	m.limits[symb]++
	m.mu.Unlock()
}

func (m *mee) triggered(symb string) {
	m.mu.Lock()
	if m.limits[symb]--; m.limits[symb] <= 0 {
		delete(m.limits, symb)
	}
	m.mu.Unlock()
}

// completed puts a finished trade's ticker entries.
func (m *mee) completed(symb string, price, qty int64, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ticker = append(m.ticker, tick{symb, price, qty})
	pad := symb
	for s := range m.limits { // one symbol with pending limit orders, so that their prices move
		pad = s
		break
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

// Price is a symbol's price at a time: it swings between $20.00 and $30.00 over 900 s, each symbol at its own
// phase (cents).
func Price(symb string, t time.Time) int64 {
	h := mix(0, kSecurity, uint64(len(symb)))
	for _, c := range symb {
		h = mix(h, uint64(c))
	}
	ph := (t.UnixMilli() + int64(h%900_000)) % 900_000
	if ph > 450_000 {
		ph = 900_000 - ph
	}
	return 2000 + ph*1000/450_000
}

package tpce

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// The emulated mix, with no database: the customer emulator's deck, Trade-Order's rollbacks, and the market
// exchange emulator turning committed orders into Trade-Results and their ticker into Market-Feeds (limit orders
// triggered at once), is within ±1 point of the specification's over 100,000 choices.
func TestMixWithinOnePercent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	d := newDeck(nil)
	m := newMEE(7)
	m.noDelay = true
	now := time.Unix(1_700_000_000, 0)
	counts := map[int]int{}
	const n = 100_000
	tid := int64(0)
	for i := 0; i < n; i++ {
		tx := TR
		o, feed, ok := m.next(now)
		switch {
		case ok && feed != nil:
			tx = MF
		case ok:
			m.completed(o.symb, Price(o.symb, now), 100, now)
		default:
			tx = d.draw(r)
			if tx == TO && r.IntN(RollbackEvery) != 0 {
				tid++
				m.submit(tid, Symbol(r.Int64N(685)), now)
			}
		}
		counts[tx]++
	}
	for tx, want := range RequiredMix {
		got := 100 * float64(counts[tx]) / n
		if math.Abs(got-want) > 1 {
			t.Errorf("%s: %.2f%% of the mix, want %.1f%% ±1", TxNames[tx], got, want)
		}
	}
	if math.Abs(100*float64(counts[MF])/n-1) > 0.2 || math.Abs(100*float64(counts[TR])/n-10) > 0.3 {
		t.Errorf("the MEE's share: TR %.2f%%, MF %.2f%%", 100*float64(counts[TR])/n, 100*float64(counts[MF])/n)
	}
}

// The non-uniform selection picks tier 1 about half as often as the average customer, tier 3 about 1.5 times.
func TestPickCustomerTiers(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	picks := map[int]int{}
	const n = 200_000
	for i := 0; i < n; i++ {
		c := PickCustomer(r, 5000)
		if c < 1 || c > 5000 {
			t.Fatalf("customer %d out of range", c)
		}
		picks[Tier(c)]++
	}
	for tier, want := range map[int]float64{1: 0.10, 2: 0.60, 3: 0.30} {
		if got := float64(picks[tier]) / n; math.Abs(got-want) > 0.01 {
			t.Errorf("tier %d: %.3f of the picks, want %.2f", tier, got, want)
		}
	}
}

// tpsE is the completed Trade-Results a second; above customers/500 the run carries the sizing warning; each
// p90 stands beside its limit.
func TestFiguresTpsEAndSizingWarning(t *testing.T) {
	m := &result.Measurement{MeasuredSecs: 100, Transactions: map[string]result.TxStats{
		TxNames[TR]: {Count: 250, Latency: result.Latency{P90: 2_500_000}},
		TxNames[TO]: {Count: 250, Rollbacks: 3, Latency: result.Latency{P90: 1_000_000}},
	}}
	fig := figures(m, 1000)
	if fig["tpse"] != 2.5 {
		t.Fatalf("tpsE %v, want 2.5", fig["tpse"])
	}
	if w, _ := fig["warning"].(string); !strings.Contains(w, "exceeds customers/500 = 2.00") || !strings.Contains(w, "at least 2000 customers") {
		t.Fatalf("warning %q", fig["warning"])
	}
	if fig["p90_within_limit_trade_result"] != false || fig["p90_within_limit_trade_order"] != true {
		t.Fatalf("limits: %v %v", fig["p90_within_limit_trade_result"], fig["p90_within_limit_trade_order"])
	}
	if _, ok := figures(m, 2000)["warning"]; ok {
		t.Fatal("a warning at tpsE 2.5 for 2,000 customers (nominal 4)")
	}
}

// A mix outside the required one is said, naming the transactions, why and the fix: a 60 s run's Trade-Result
// at 7.79% stood beside "required 10" without a word.
func TestMixOutsideIsFlagged(t *testing.T) {
	m := &result.Measurement{MeasuredSecs: 60, Transactions: map[string]result.TxStats{}}
	for tx, share := range RequiredMix {
		m.Transactions[TxNames[tx]] = result.TxStats{Count: int64(share * 1000)}
	}
	if _, ok := figures(m, 5000)["mix_outside"]; ok {
		t.Fatalf("the required mix flagged: %v", figures(m, 5000)["mix_outside"])
	}
	m.Transactions[TxNames[TR]] = result.TxStats{Count: 7790}
	m.Transactions[TxNames[MF]] = result.TxStats{Count: 780}
	w, _ := figures(m, 5000)["mix_outside"].(string)
	for _, want := range []string{"trade_result 7.98% (required 10%)", "market_feed 0.8% (required 1%)", "900 s", "--duration"} {
		if !strings.Contains(w, want) {
			t.Errorf("the flag lacks %q: %q", want, w)
		}
	}
	if strings.Contains(w, "trade_order") {
		t.Errorf("trade_order flagged: %q", w)
	}
}

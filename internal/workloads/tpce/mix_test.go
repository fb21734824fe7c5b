package tpce

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// The emulated mix, with no database: the customer emulator's deck, Trade-Order's rollbacks, and the market
// exchange emulator turning committed orders into Trade-Results and their ticker into Market-Feeds (limit orders
// triggered at once), is within ±1 point of the specification's over 100,000 choices.
func TestMixWithinOnePercent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	d := newDeck()
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

package webstore

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Over 10,000 orders the order plan keeps its settings: new customers at their share, line counts uniform over
// the range, browse kinds uniform, products distinct, sorted and in the catalogue, quantities 1..3.
func TestPlanDistributions(t *testing.T) {
	s := Sizes["S"]
	o := Options{NewCustomers: 0.2, Searches: 3, Batch: 5, MinLines: 1, MaxLines: 9}
	r := rand.New(rand.NewPCG(7, 0))
	const n = 10_000
	var newc, browses int
	lines, searches, batches := make([]int, 10), make([]int, 10), make([]int, 11)
	kinds := map[int]int{}
	for i := 0; i < n; i++ {
		p := NextPlan(r, s, o)
		if p.New {
			newc++
		} else if p.Customer < 1 || p.Customer > s.Customers {
			t.Fatalf("customer %d outside 1..%d", p.Customer, s.Customers)
		}
		lines[len(p.Prods)]++
		searches[len(p.Browse)]++
		if len(p.Batches) != len(p.Browse) {
			t.Fatalf("%d batches for %d browse steps", len(p.Batches), len(p.Browse))
		}
		for _, k := range p.Browse {
			kinds[k]++
			browses++
		}
		for _, b := range p.Batches {
			batches[b]++
		}
		if p.Think != 0 {
			t.Fatalf("think time %s with --think 0", p.Think)
		}
		for j, prod := range p.Prods {
			if prod < 1 || prod > s.Products || j > 0 && prod <= p.Prods[j-1] || p.Qtys[j] < 1 || p.Qtys[j] > 3 {
				t.Fatalf("plan %+v: products must be distinct, sorted, in the catalogue, quantities 1..3", p)
			}
		}
	}
	within := func(what string, got, want float64) {
		if math.Abs(got-want) > 0.02 {
			t.Errorf("%s: %.4f, want %.4f ± 0.02", what, got, want)
		}
	}
	within("new customers", float64(newc)/n, 0.2)
	for k := 1; k <= 9; k++ {
		within("orders of "+string(rune('0'+k))+" lines", float64(lines[k])/n, 1.0/9)
	}
	if lines[0] != 0 {
		t.Errorf("%d orders with no line", lines[0])
	}
	for _, k := range []int{BrowseCategory, BrowseActor, BrowseTitle} {
		within(StepNames[k], float64(kinds[k])/float64(browses), 1.0/3)
	}
	// DVD Store 3's n_searches 3 and search_batch_size 5: 1..5 searches an order, 1..9 results asked, uniformly
	for k := 1; k <= 5; k++ {
		within("orders of "+string(rune('0'+k))+" searches", float64(searches[k])/n, 1.0/5)
	}
	if searches[0]+searches[6]+searches[7]+searches[8]+searches[9] != 0 {
		t.Errorf("searches an order outside 1..5: %v", searches)
	}
	for k := 1; k <= 9; k++ {
		within("browses asking "+string(rune('0'+k))+" results", float64(batches[k])/float64(browses), 1.0/9)
	}
	if batches[0]+batches[10] != 0 {
		t.Errorf("results asked outside 1..9: %v", batches)
	}
}

// The think time is DVD Store 3's: drawn once per order, uniform in [0, 2x the setting).
func TestThinkTimeDistribution(t *testing.T) {
	o := Options{Searches: 3, Batch: 5, MinLines: 1, MaxLines: 9, Think: 100 * time.Millisecond}
	r := rand.New(rand.NewPCG(11, 0))
	const n = 20_000
	var sum time.Duration
	deciles := make([]int, 10)
	for i := 0; i < n; i++ {
		d := NextPlan(r, Sizes["S"], o).Think
		if d < 0 || d >= 2*o.Think {
			t.Fatalf("think time %s outside [0, %s)", d, 2*o.Think)
		}
		sum += d
		deciles[int(d*10/(2*o.Think))]++
	}
	if mean := sum / n; mean < 98*time.Millisecond || mean > 102*time.Millisecond {
		t.Errorf("mean think time %s, want 100ms ± 2ms", mean)
	}
	for i, c := range deciles {
		if f := float64(c) / n; math.Abs(f-0.1) > 0.01 {
			t.Errorf("think times in the %d. tenth of [0, 200ms): %.4f, want 0.1 ± 0.01", i+1, f)
		}
	}
}

// A worker hands the think time out once per order, after the order's last step, and none after the others.
func TestThinkTimeOncePerOrder(t *testing.T) {
	o := Options{NewCustomers: 0.2, Searches: 3, Batch: 5, MinLines: 1, MaxLines: 9, Think: 50 * time.Millisecond}
	wk := &worker{w: &Workload{meta: &Meta{Size: Sizes["S"]}, opts: o}, r: rand.New(rand.NewPCG(3, 1))}
	var orders, thinks, steps int
	var want time.Duration
	for i := 0; i < 5000; i++ {
		step, keying, think := wk.Next()
		if step == Login || step == NewCustomer {
			orders++
			want = wk.plan.Think
			steps = 0
		}
		steps++
		if keying != 0 {
			t.Fatalf("keying time %s", keying)
		}
		last := len(wk.steps) == 0
		switch {
		case last && think != want:
			t.Fatalf("order %d: think %s after its last step, want the order's %s", orders, think, want)
		case !last && think != 0:
			t.Fatalf("order %d: think %s after step %d of %d", orders, think, steps, steps+len(wk.steps))
		case think > 0:
			thinks++
		}
	}
	if orders < 500 || thinks < orders*9/10-1 {
		t.Fatalf("%d orders, %d think times", orders, thinks)
	}
}

// Hot sellers (every 10,000th product) are picked ten times as often as the others, as in DVD Store 3.
func TestPickHotSellers(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	const products, n = 20_000, 2_000_000
	counts := map[int64]int{}
	for i := 0; i < n; i++ {
		p := Pick(r, products)
		if p < 1 || p > products {
			t.Fatalf("product %d outside 1..%d", p, products)
		}
		counts[p]++
	}
	per := float64(n) / (products + 18) // each ordinary product's expected picks
	for _, hot := range []int64{10_000, 20_000} {
		if got := float64(counts[hot]) / per; got < 8.5 || got > 11.5 {
			t.Errorf("hot seller %d picked %.1f times as often as the others, want 10", hot, got)
		}
	}
	if Stock(1, 10_000)%10 != 0 || Stock(1, 10_000) > 5000 {
		t.Errorf("a hot seller's loaded stock %d is not ten times 0..500", Stock(1, 10_000))
	}
}

// DVD Store 3's opm counts every finished order, rolled back or not; the committed OPM beside it only the
// committed ones.
func TestOPMCountsRollbacks(t *testing.T) {
	m := &result.Measurement{MeasuredSecs: 30, Transactions: map[string]result.TxStats{"purchase": {Count: 45, Rollbacks: 5}}}
	f := figures(m)
	if f["opm"] != 100.0 || f["opm_committed"] != 90.0 || f["orders"] != int64(50) || f["rollback_pct"] != 10.0 {
		t.Fatalf("figures %v: want opm 100 (45 committed + 5 rolled back in 30 s), committed OPM 90, 10%% rolled back", f)
	}
}

// DVD Store 3's response figures: the mean order's total response time, and the largest of the last 100 orders
// (an early slow order drops out); nothing is counted outside the measured window.
func TestOrderResponseFigures(t *testing.T) {
	var tm orderTimes
	tm.add(time.Second) // before the window
	tm.start()
	tm.add(500 * time.Millisecond)
	for i := 0; i < 149; i++ {
		tm.add(time.Duration(10+i%7) * time.Millisecond)
	}
	tm.stop()
	tm.add(time.Second) // after it
	n, avg, lastMax, ok := tm.figures()
	want := (500.0 + float64(149*10) + float64(21*(0+1+2+3+4+5+6)) + float64(0+1)) / 150
	if !ok || n != 150 || math.Abs(avg-want) > 0.01 || lastMax != 16 {
		t.Fatalf("orders %d, mean %.3f ms (want %.3f), max of the last 100 %.1f ms (want 16)", n, avg, want, lastMax)
	}
}

// The loaded orders' amounts are their lines' quantities times the products' prices, tax 8.25% rounded half up.
func TestAmounts(t *testing.T) {
	net, tax, total := Amounts(1, []int64{1, 2}, []int64{2, 1})
	want := 2*Price(1, 1) + Price(1, 2)
	if net != want || tax != (want*825+5000)/10000 || total != net+tax {
		t.Fatalf("amounts %d %d %d for net %d", net, tax, total, want)
	}
	if _, tax, _ := Amounts(1, []int64{0}, []int64{0}); tax != 0 {
		t.Fatal("tax on nothing")
	}
	// an exact half cent rounds up, as the databases' ROUND does (prices of 2 mod 4 dollars and cents, like 10.00:
	// 0.825)
	for p := int64(1); p < 20000; p++ {
		if net := Price(1, p); net*825%10000 == 5000 {
			if _, tax, _ := Amounts(1, []int64{p}, []int64{1}); tax*10000 != net*825+5000 {
				t.Fatalf("tax on %d cents is %d cents: the half cent was not rounded up", net, tax)
			}
			return
		}
	}
	t.Fatal("no product priced at an exact half cent of tax among the first 20,000")
}

// DVD Store 3's additions at its default rates: 1% new members, 5% new reviews, 10% helpfulness ratings, drawn
// from the number that chose the new customer (so a member's order also reviews and rates, and is a new
// customer's); 1-5 review searches by actor or title and 1-5 reads of a product's reviews an order.
func TestDS3AdditionsDistribution(t *testing.T) {
	o := Options{NewCustomers: 0.2, NewMembers: 0.01, NewReviews: 0.05, NewHelpfulness: 0.1, Searches: 3, ReviewSearches: 3, Batch: 5, MinLines: 1, MaxLines: 9}
	r := rand.New(rand.NewPCG(13, 0))
	const n = 40_000
	var members, reviews, ratings int
	byReviews, reads := make([]int, 10), make([]int, 10)
	for i := 0; i < n; i++ {
		p := NextPlan(r, Sizes["S"], o)
		if p.Member && !(p.Review && p.Helpfulness && p.New) || p.Review && !p.Helpfulness || p.Helpfulness && !p.New {
			t.Fatalf("plan %+v: a member's order must also review and rate, a review's also rate, a rating's be a new customer's", p)
		}
		members, reviews, ratings = members+b2i(p.Member), reviews+b2i(p.Review), ratings+b2i(p.Helpfulness)
		var rb, gr int
		for _, k := range p.Browse {
			switch k {
			case BrowseReviewsActor, BrowseReviewsTitle:
				rb++
			case GetReviews, GetReviewsStars, GetReviewsDate:
				gr++
			}
		}
		byReviews[rb]++
		reads[gr]++
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{{"new members", float64(members) / n, 0.01}, {"new reviews", float64(reviews) / n, 0.05}, {"new ratings", float64(ratings) / n, 0.1}} {
		if math.Abs(c.got-c.want) > c.want/5 {
			t.Errorf("%s: %.4f of the orders, want %.2f", c.what, c.got, c.want)
		}
	}
	for k := 1; k <= 5; k++ {
		for _, c := range [][]int{byReviews, reads} {
			if f := float64(c[k]) / n; math.Abs(f-0.2) > 0.02 {
				t.Errorf("orders of %d review searches or reads: %.4f, want 0.2", k, f)
			}
		}
	}
	if byReviews[0]+reads[0]+byReviews[6]+reads[6] != 0 {
		t.Errorf("review searches outside 1..5: %v %v", byReviews, reads)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

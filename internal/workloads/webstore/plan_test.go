package webstore

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Over 10,000 orders the order plan keeps its settings: new customers at their share, line counts uniform over
// the range, browse kinds uniform, products distinct, sorted and in the catalogue, quantities 1..3.
func TestPlanDistributions(t *testing.T) {
	s := Sizes["S"]
	o := Options{NewCustomers: 0.2, Searches: 3, Batch: 5, MinLines: 1, MaxLines: 9}
	r := rand.New(rand.NewPCG(7, 0))
	const n = 10_000
	var newc int
	lines := make([]int, 10)
	kinds := map[int]int{}
	for i := 0; i < n; i++ {
		p := NextPlan(r, s, o)
		if p.New {
			newc++
		} else if p.Customer < 1 || p.Customer > s.Customers {
			t.Fatalf("customer %d outside 1..%d", p.Customer, s.Customers)
		}
		lines[len(p.Prods)]++
		if len(p.Browse) != 3 {
			t.Fatalf("%d browse steps, want 3", len(p.Browse))
		}
		for _, k := range p.Browse {
			kinds[k]++
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
		within(StepNames[k], float64(kinds[k])/(3*n), 1.0/3)
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

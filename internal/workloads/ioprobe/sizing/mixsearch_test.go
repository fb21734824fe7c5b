package sizing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// bruteCheapest is the cheapest priced plan by brute force: every VM, every tier, every count of every priced
// disk size of that tier (1 to the VM's slots in all), uncached and cached, judged by meetsParts.
func bruteCheapest(c *Catalog, need Need) (Money, bool) {
	var best Money
	found := false
	for _, v := range c.VMs {
		if !v.Priced {
			continue
		}
		var tiers []string
		for _, d := range c.Disks {
			if d.Priced && v.Attaches(d) && !contains(tiers, d.Tier) {
				tiers = append(tiers, d.Tier)
			}
		}
		for _, tier := range tiers {
			var ds []Disk
			for _, d := range c.Disks {
				if d.Priced && d.Tier == tier && v.Attaches(d) {
					ds = append(ds, d)
				}
			}
			counts := make([]int, len(ds))
			var rec func(i, used int)
			rec = func(i, used int) {
				if i == len(ds) {
					if used == 0 {
						return
					}
					var parts []Part
					cost := v.Price
					for j, n := range counts {
						if n > 0 {
							parts = append(parts, Part{ds[j], n})
							cost += Money(n) * ds[j].Price
						}
					}
					for _, cached := range []bool{false, true} {
						if cached && !caches(v, need) {
							continue
						}
						if meetsParts(v, parts, need, cached) && (!found || cost < best) {
							best, found = cost, true
						}
					}
					return
				}
				for n := 0; used+n <= v.MaxDisks; n++ {
					counts[i] = n
					rec(i+1, used+n)
				}
				counts[i] = 0
			}
			rec(0, 0)
		}
	}
	return best, found
}

// randomCatalog is a small catalogue: 2 to 4 disk sizes of up to two tiers (some without an MB/s cap, a few
// unpriced), 1 to 3 VMs of 1 to 7 slots, some with caps and a host cache.
func randomCatalog(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("disks:\n")
	nd := 2 + r.Intn(4)
	for i := 0; i < nd; i++ {
		tier := "premium"
		if r.Intn(6) == 0 {
			tier = "standard"
		}
		// a size, and caps and a price that grow with it at varying rates (so that no size is best at all)
		gib := 32 << r.Intn(8)
		f := float64(gib) / 32
		fmt.Fprintf(&b, "  - {name: D%d, tier: %s, size_gib: %d, iops: %d", i, tier, gib, int(120*math.Pow(f, 0.3+0.6*r.Float64())))
		if r.Intn(5) != 0 {
			fmt.Fprintf(&b, ", mbps: %d", int(25*math.Pow(f, 0.2+0.5*r.Float64())))
		}
		if r.Intn(10) != 0 {
			fmt.Fprintf(&b, ", price_month: %.3f", 5*math.Pow(f, 0.5+0.5*r.Float64()))
		}
		b.WriteString("}\n")
	}
	b.WriteString("vms:\n")
	for i, nv := 0, 1+r.Intn(3); i < nv; i++ {
		fmt.Fprintf(&b, "  - {name: V%d, max_data_disks: %d, price_month: %d.%02d", i, 1+r.Intn(8), 50+r.Intn(2000), r.Intn(100))
		if r.Intn(3) != 0 {
			fmt.Fprintf(&b, ", uncached_iops: %d, uncached_mbps: %d", 1000*(1+r.Intn(40)), 32*(1+r.Intn(20)))
		}
		if r.Intn(3) == 0 {
			fmt.Fprintf(&b, ", caching: ReadOnly, cache_iops: %d, cache_mbps: %d", 1000*(1+r.Intn(10)), 16*(1+r.Intn(10)))
		}
		if r.Intn(4) == 0 {
			b.WriteString(", disk_tiers: [premium]")
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// The mixes' search is exact: on 3,000 random small catalogues and needs (request sizes, MB/s, capacity, a host
// cache), Size's cheapest priced plan costs what a brute force over every count of every disk size finds, and
// meets the need; where the brute force finds none, Size has no priced plan either.
func TestMixSearchMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewSource(32))
	kbs := []float64{0, 4, 8, 64, 256, 1024}
	mixes := 0
	for i := 0; i < 3000; i++ {
		doc := randomCatalog(r)
		c, err := Parse("random.yaml", []byte(doc))
		if err != nil {
			t.Fatalf("%v\n%s", err, doc)
		}
		need := Need{IOSizeKB: kbs[r.Intn(len(kbs))]}
		if r.Intn(4) != 0 {
			need.IOPS = float64(100 * (1 + r.Intn(100)))
		}
		if r.Intn(2) == 0 {
			need.MBps = float64(10 * (1 + r.Intn(50)))
		}
		if r.Intn(2) == 0 || need.IOPS == 0 && need.MBps == 0 {
			need.GiB = float64(64 * (1 + r.Intn(128)))
		}
		if r.Intn(3) == 0 {
			need.ReadPct, need.CacheHit = float64(r.Intn(101)), float64(r.Intn(11))/10
		}
		want, ok := bruteCheapest(c, need)
		p := candidates(c, need)
		var got *Candidate
		for j := range p.Candidates {
			if p.Candidates[j].Priced {
				got = &p.Candidates[j]
				break
			}
		}
		switch {
		case !ok && got != nil:
			t.Fatalf("case %d, need %+v: Size found %s at %s, the brute force nothing\n%s", i, need, got, got.Cost, doc)
		case ok && got == nil:
			t.Fatalf("case %d, need %+v: the brute force found %s, Size nothing\n%s", i, need, want, doc)
		case ok && got.Cost != want:
			t.Fatalf("case %d, need %+v: Size's cheapest %s costs %s, the brute force's %s\n%s", i, need, got, got.Cost, want, doc)
		}
		if got != nil {
			if !meetsParts(got.VM, got.parts(), need, got.Cached) {
				t.Fatalf("case %d: %s does not meet %+v", i, got, need)
			}
			if len(got.Mix) > 1 {
				mixes++
			}
		}
	}
	if mixes < 30 {
		t.Errorf("only %d of the cheapest plans mix three or more sizes: the cases do not exercise the search", mixes)
	}
	t.Logf("%d cheapest plans of three or more sizes", mixes)
}

// solveMix alone against a brute force: random sizes (some free, some with no MB/s cap), any slots up to 9.
func TestSolveMixMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 3000; i++ {
		n := 1 + r.Intn(4)
		types := make([]mixType, n)
		for j := range types {
			types[j] = mixType{a: mixDim{float64(r.Intn(5000)), float64(r.Intn(300)), float64(r.Intn(4096))}, price: Money(r.Intn(3000000))}
			if r.Intn(6) == 0 {
				types[j].a[1] = math.Inf(1)
			}
			if r.Intn(20) == 0 {
				types[j].price = 0
			}
		}
		slots := 1 + r.Intn(9)
		need := mixDim{float64(r.Intn(20000)), float64(r.Intn(1000)), float64(r.Intn(10000))}
		if r.Intn(4) == 0 {
			need[r.Intn(3)] = 0
		}
		var bound *Money
		if r.Intn(3) == 0 {
			b := Money(r.Intn(10000000))
			bound = &b
		}
		// brute force
		var best Money
		found := false
		counts := make([]int, n)
		var rec func(j, used int)
		rec = func(j, used int) {
			if j == n {
				if used == 0 {
					return
				}
				var got mixDim
				var cost Money
				for k, c := range counts {
					for d := range got {
						if c > 0 {
							got[d] += float64(c) * types[k].a[d]
						}
					}
					cost += Money(c) * types[k].price
				}
				for d := range got {
					if got[d] < need[d] {
						return
					}
				}
				if (bound == nil || cost < *bound) && (!found || cost < best) {
					best, found = cost, true
				}
				return
			}
			for c := 0; used+c <= slots; c++ {
				counts[j] = c
				rec(j+1, used+c)
			}
			counts[j] = 0
		}
		rec(0, 0)
		got, cost, _, ok := solveMix(types, slots, need, bound)
		if ok != found || ok && cost != best {
			t.Fatalf("case %d: types %+v slots %d need %v bound %v: solveMix %v %v %v, brute force %v %v", i, types, slots, need, bound, got, cost, ok, best, found)
		}
		if ok {
			var sum mixDim
			var c Money
			used := 0
			for k, m := range got {
				used += m
				c += Money(m) * types[k].price
				for d := range sum {
					if m > 0 {
						sum[d] += float64(m) * types[k].a[d]
					}
				}
			}
			for d := range sum {
				if sum[d] < need[d] {
					t.Fatalf("case %d: %v does not cover %v", i, got, need)
				}
			}
			if c != cost || used < 1 || used > slots {
				t.Fatalf("case %d: %v costs %v (said %v), %d disks of %d slots", i, got, c, cost, used, slots)
			}
		}
	}
}

// pricedCatalog is the example catalogue's premium disks (P4-P80) and the provider's standard HDDs (S4-S80:
// 500 IOPS up to 4 TiB, prices nearly proportional to size), every one priced (about the provider's list
// prices, for this test), on its DS13 (16 slots), DS14 (32) and GS5 (64), priced too.
const pricedCatalog = `disks:
  - {name: P4,  tier: premium, size_gib: 32,    iops: 120,   mbps: 25,  price_month: 5.28}
  - {name: P6,  tier: premium, size_gib: 64,    iops: 240,   mbps: 50,  price_month: 10.21}
  - {name: P10, tier: premium, size_gib: 128,   iops: 500,   mbps: 100, price_month: 19.71}
  - {name: P15, tier: premium, size_gib: 256,   iops: 1100,  mbps: 125, price_month: 38.02}
  - {name: P20, tier: premium, size_gib: 512,   iops: 2300,  mbps: 150, price_month: 73.22}
  - {name: P30, tier: premium, size_gib: 1024,  iops: 5000,  mbps: 200, price_month: 135.17}
  - {name: P40, tier: premium, size_gib: 2048,  iops: 7500,  mbps: 250, price_month: 259.05}
  - {name: P50, tier: premium, size_gib: 4095,  iops: 7500,  mbps: 250, price_month: 495.57}
  - {name: P60, tier: premium, size_gib: 8192,  iops: 12500, mbps: 480, price_month: 946.08}
  - {name: P70, tier: premium, size_gib: 16384, iops: 15000, mbps: 750, price_month: 1802.06}
  - {name: P80, tier: premium, size_gib: 32767, iops: 20000, mbps: 750, price_month: 3604.11}
  - {name: S4,  tier: standard, size_gib: 32,    iops: 500,  mbps: 60,  price_month: 1.54}
  - {name: S6,  tier: standard, size_gib: 64,    iops: 500,  mbps: 60,  price_month: 3.01}
  - {name: S10, tier: standard, size_gib: 128,   iops: 500,  mbps: 60,  price_month: 5.89}
  - {name: S15, tier: standard, size_gib: 256,   iops: 500,  mbps: 60,  price_month: 11.33}
  - {name: S20, tier: standard, size_gib: 512,   iops: 500,  mbps: 60,  price_month: 21.76}
  - {name: S30, tier: standard, size_gib: 1024,  iops: 500,  mbps: 60,  price_month: 40.96}
  - {name: S40, tier: standard, size_gib: 2048,  iops: 500,  mbps: 60,  price_month: 77.83}
  - {name: S50, tier: standard, size_gib: 4096,  iops: 500,  mbps: 60,  price_month: 143.36}
  - {name: S60, tier: standard, size_gib: 8192,  iops: 1300, mbps: 300, price_month: 262.14}
  - {name: S70, tier: standard, size_gib: 16384, iops: 2000, mbps: 500, price_month: 524.29}
  - {name: S80, tier: standard, size_gib: 32767, iops: 2000, mbps: 500, price_month: 1048.58}
vms:
  - {name: Standard_DS13, uncached_iops: 25600, uncached_mbps: 256, max_data_disks: 16, disk_tiers: [premium, standard], price_month: 1003.66}
  - {name: Standard_DS14, uncached_iops: 50000, uncached_mbps: 512, max_data_disks: 32, disk_tiers: [premium, standard], price_month: 2007.32}
  - {name: Standard_GS5, uncached_iops: 80000, uncached_mbps: 2000, max_data_disks: 64, disk_tiers: [premium, standard], price_month: 7000}
`

// The search stays small on a real catalogue (eleven priced sizes, up to 64 slots): over a sweep of needs
// (IOPS to 80,000, MB/s to 2,000, capacity to 1,000,000 GiB, beyond what 64 disks hold, at 8 and 64 KB requests)
// no Size call explores more than 100,000 branches, counted, not timed (38,167 at most when written, for 40,000
// IOPS and 50,000 GiB, the standard disks' 64 slots binding; a brute force over 11 sizes and 64 slots would
// judge C(75, 11), some 4.9 x 10^12 sets, per VM and tier).
func TestMixSearchStaysSmall(t *testing.T) {
	c, err := Parse("priced.yaml", []byte(pricedCatalog))
	if err != nil {
		t.Fatal(err)
	}
	worst, total, calls, mixes := 0, 0, 0, 0
	var worstNeed Need
	for _, kb := range []float64{8, 64} {
		for _, iops := range []float64{0, 1000, 4000, 16000, 25000, 40000, 60000, 80000} {
			for _, mbps := range []float64{0, 100, 250, 500, 1000, 2000} {
				for _, gib := range []float64{0, 500, 2000, 10000, 50000, 200000, 1000000} {
					need := Need{IOPS: iops, MBps: mbps, GiB: gib, IOSizeKB: kb}
					if iops == 0 && mbps == 0 && gib == 0 {
						continue
					}
					p := candidates(c, need)
					calls++
					total += p.states
					if p.states > worst {
						worst, worstNeed = p.states, need
					}
					if len(p.Candidates) > 0 && len(p.Candidates[0].Mix) > 0 {
						mixes++
					}
				}
			}
		}
	}
	t.Logf("%d needs, %d of them cheapest as a mix: %d branches in all, the most %d (%+v)", calls, mixes, total, worst, worstNeed)
	if worst > 100000 {
		t.Errorf("a need took %d branches of the search (%+v), more than 100,000", worst, worstNeed)
	}
	if mixes == 0 {
		t.Error("no need is cheapest as a mix: the sweep does not exercise the search")
	}
}

// proportional is eleven disk sizes priced exactly in proportion to their capacity (4 units a GiB), at 500
// IOPS and 60 MB/s each: a tier priced per GiB, where a need of capacity leaves the search's linear bound no
// room to cut.
func proportional() []mixType {
	var types []mixType
	for i := 0; i < 11; i++ {
		gib := float64(int(32) << i)
		types = append(types, mixType{a: mixDim{500, 60, gib}, price: Money(gib * 4)})
	}
	return types
}

// The search's work is bounded: on sizes priced exactly in proportion to the capacity a need asks for, it
// once took 87,679,598 branches (a minute) for 777,777 GiB over 64 slots. Cut short at mixBudget it keeps
// the cheapest set found and says how far it may be from the cheapest: never below the floor it gives, and
// at most the gap it gives above it. Checked against the whole search where that is small enough to run (a
// budget of 2,000 branches on needs whose whole search takes more), counted, not timed.
func TestMixSearchCutShortSaysHowFar(t *testing.T) {
	types := proportional()
	defer func(b int) { mixBudget = b }(mixBudget)
	checked := 0
	for _, gib := range []float64{5000, 9999, 20001, 33333} {
		need := mixDim{2000, 0, gib}
		mixBudget = 100_000_000
		_, best, whole, ok, cut := solveMixCut(types, 16, need, nil)
		if !ok || cut != nil {
			t.Fatalf("%v GiB: the whole search: ok %v, cut %+v", gib, ok, cut)
		}
		mixBudget = 2000
		counts, got, states, ok, cut := solveMixCut(types, 16, need, nil)
		if whole <= mixBudget {
			if cut != nil {
				t.Errorf("%v GiB: a search of %d branches was cut at %d", gib, whole, mixBudget)
			}
			continue
		}
		checked++
		if cut == nil || states > mixBudget || !ok || !cut.Found {
			t.Fatalf("%v GiB: %d branches of %d allowed (the whole search %d): ok %v, cut %+v", gib, states, mixBudget, whole, ok, cut)
		}
		if cut.Floor > best || got < best || got-best > cut.Gap || cut.Gap != got-cut.Floor {
			t.Errorf("%v GiB: cut short at %s (floor %s, gap %s), the cheapest %s", gib, got, cut.Floor, cut.Gap, best)
		}
		var carried float64
		for i, c := range counts {
			carried += float64(c) * types[i].a[2]
		}
		if carried < gib {
			t.Errorf("%v GiB: the set found carries %v GiB", gib, carried)
		}
	}
	if checked == 0 {
		t.Fatal("no need's whole search outgrew the budget: the test does not cut any")
	}
	// the case that took a minute: now at most mixBudget branches, and said
	mixBudget = 1_000_000
	_, _, states, ok, cut := solveMixCut(types, 64, mixDim{5000, 300, 777777}, nil)
	if states > mixBudget || cut == nil || !ok || cut.Gap < 0 {
		t.Fatalf("777,777 GiB: %d branches, ok %v, cut %+v", states, ok, cut)
	}
	t.Logf("777,777 GiB: cut at %d branches, %+v", states, cut)
}

// A plan whose mixes' search was cut short says so in its text, its JSON and its page: the mix it lists is
// marked with how far it may be from the cheapest.
func TestPlanSaysWhereTheMixSearchWasCut(t *testing.T) {
	c, err := Parse("prop.yaml", []byte(`disks:
  - {name: S4,  tier: standard, size_gib: 32,    iops: 500, mbps: 60, price_month: 0.128}
  - {name: S6,  tier: standard, size_gib: 64,    iops: 500, mbps: 60, price_month: 0.256}
  - {name: S10, tier: standard, size_gib: 128,   iops: 500, mbps: 60, price_month: 0.512}
  - {name: S15, tier: standard, size_gib: 256,   iops: 500, mbps: 60, price_month: 1.024}
  - {name: S20, tier: standard, size_gib: 512,   iops: 500, mbps: 60, price_month: 2.048}
  - {name: S30, tier: standard, size_gib: 1024,  iops: 500, mbps: 60, price_month: 4.096}
  - {name: S40, tier: standard, size_gib: 2048,  iops: 500, mbps: 60, price_month: 8.192}
vms:
  - {name: V16, uncached_iops: 80000, uncached_mbps: 2000, max_data_disks: 16, disk_tiers: [standard], price_month: 100}
`))
	if err != nil {
		t.Fatal(err)
	}
	defer func(b int) { mixBudget = b }(mixBudget)
	mixBudget = 50
	p, err := Size(c, Need{IOPS: 2000, GiB: 9999, IOSizeKB: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Notes) == 0 || !strings.Contains(p.Notes[0], "mixes of standard disks on V16: the search stopped after 50 branches") {
		t.Fatalf("notes %q", p.Notes)
	}
	var text, js bytes.Buffer
	p.Write(&text, 0)
	p.WriteJSON(&js, 0)
	var html strings.Builder
	if err := p.WriteHTML(&html, 0); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "json": js.String(), "html": html.String()} {
		if !strings.Contains(out, "the search stopped after 50 branches") {
			t.Errorf("%s does not say the search was cut:\n%s", name, out)
		}
	}
	var j PlanJSON
	if err := json.Unmarshal(js.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	marked := false
	for _, cj := range j.Candidates {
		marked = marked || cj.Placed && cj.UnprovenBy != nil
	}
	if strings.Contains(p.Notes[0], "the mix it found") != marked {
		t.Errorf("the notes %q and the candidates' marks (%v) disagree", p.Notes, marked)
	}
	mixBudget = 1_000_000
	if p, _ := Size(c, Need{IOPS: 2000, GiB: 9999, IOSizeKB: 8}); len(p.Notes) != 0 {
		t.Errorf("a search within its budget noted %q", p.Notes)
	}
}

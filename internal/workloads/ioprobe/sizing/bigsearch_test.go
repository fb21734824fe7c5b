package sizing

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/abort"
)

// bigCatalog is a generated catalogue of nd disk sizes of one tier and nv VMs, in the catalogue's own YAML: the
// sizes grow 32 GiB at a time, their IOPS as the root of the size, their MB/s and price as its 0.4th and 0.8th
// powers (with a few cents of noise, so that no two are priced alike): no size is best at everything, every
// one is priced, and no size matches or beats another at no more cost, so none is dropped as dominated. The
// VMs have 2 to 64 slots, IOPS and MB/s caps that grow with their price, some a ReadOnly host cache.
func bigCatalog(nd, nv int, seed int64) string {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	b.WriteString("disks:\n")
	for i := 0; i < nd; i++ {
		gib := 32 * (1 + i)
		f := float64(gib) / 32
		fmt.Fprintf(&b, "  - {name: D%d, tier: premium, size_gib: %d, iops: %d, mbps: %d, price_month: %.3f}\n",
			i, gib, int(120*math.Sqrt(f))+i, int(25*math.Pow(f, 0.4))+1, 5*math.Pow(f, 0.8)+r.Float64())
	}
	b.WriteString("vms:\n")
	for i := 0; i < nv; i++ {
		fmt.Fprintf(&b, "  - {name: V%d, uncached_iops: %d, uncached_mbps: %d, max_data_disks: %d, disk_tiers: [premium]", i, 1000*(1+i), 32*(1+i%40), 2+i%63)
		if i%3 == 0 {
			fmt.Fprintf(&b, ", caching: ReadOnly, cache_iops: %d, cache_mbps: %d", 2000*(1+i%20), 16*(1+i%30))
		}
		fmt.Fprintf(&b, ", price_month: %d.50}\n", 100+i*7)
	}
	return b.String()
}

// loadBig writes a generated catalogue to the test's directory and loads it as io size does.
func loadBig(t *testing.T, nd, nv int) *Catalog {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, []byte(bigCatalog(nd, nv, 300)), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// cheapestIdentical is, by brute force, the cheapest priced set of identical disks on every VM: every disk it
// attaches at every count up to its slots.
func cheapestIdentical(c *Catalog, need Need) (Money, string) {
	best, name := Money(math.MaxInt64), ""
	for _, v := range c.VMs {
		for _, d := range c.Disks {
			if !v.Attaches(d) || !v.Priced || !d.Priced {
				continue
			}
			for n := 1; n <= v.MaxDisks; n++ {
				if cost := v.Price + Money(n)*d.Price; cost < best && meetsParts(v, []Part{{d, n}}, need, false) {
					best, name = cost, fmt.Sprintf("%s + %d x %s", v.Name, n, d.Name)
					break
				}
			}
		}
	}
	return best, name
}

// cheapestPair is, by brute force, the cheapest set of two sizes on v: every pair of its disks, every count
// of the first and the fewest of the second that meet the need beside it.
func cheapestPair(v VM, disks []Disk, need Need) Money {
	best := Money(math.MaxInt64)
	for i, a := range disks {
		for _, b := range disks[i+1:] {
			for na := 1; na < v.MaxDisks; na++ {
				if !meetsParts(v, []Part{{a, na}, {b, v.MaxDisks - na}}, need, false) {
					continue
				}
				lo, hi := 1, v.MaxDisks-na // the fewest of b (meeting grows with them)
				for lo < hi {
					if mid := (lo + hi) / 2; meetsParts(v, []Part{{a, na}, {b, mid}}, need, false) {
						hi = mid
					} else {
						lo = mid + 1
					}
				}
				best = min(best, v.Price+Money(na)*a.Price+Money(hi)*b.Price)
			}
		}
	}
	return best
}

// io size over a catalogue of 300 disk sizes and 300 VMs, which ran for ten minutes and more at 2 GB without
// an answer, finishes (its work is bounded: counted, not timed), and its answer meets the need and is no dearer
// than what a brute force finds: every identical set on every VM, and every mix of two sizes (all 44,850 pairs,
// every count) on the answer's VM.
func TestBigCatalogFinishesWithTheCheapest(t *testing.T) {
	c := loadBig(t, 300, 300)
	need := Need{IOPS: 16000}
	p, err := Size(c, need)
	if err != nil {
		t.Fatal(err)
	}
	if p.states > sizeBudget {
		t.Errorf("the mixes' searches took %d branches, more than the %d of one io size", p.states, sizeBudget)
	}
	got := p.Candidates[0]
	if !got.Priced || !meetsParts(got.VM, got.parts(), need, got.Cached) {
		t.Fatalf("the cheapest, %s, does not meet %s", got, needString(need))
	}
	ident, identName := cheapestIdentical(c, need)
	if got.Cost > ident {
		t.Errorf("the cheapest, %s at %s, is dearer than %s at %s", got, got.Cost, identName, ident)
	}
	if pair := cheapestPair(got.VM, c.Disks, need); got.Cost > pair {
		t.Errorf("the cheapest, %s at %s, is dearer than a mix of two sizes on %s at %s", got, got.Cost, got.VM.Name, pair)
	}
	t.Logf("%s at %s (identical sets: %s at %s); %d branches; notes %q", got, got.Cost, identName, ident, p.states, p.Notes)
}

// The reductions that keep a big tier's search within maxMixSizes sizes are exact where the plan does not say
// otherwise: on 2,000 random catalogues of 5 to 9 sizes (some repeated at a higher price, some matched by a
// cheaper one) with the search held to 3 sizes, Size's cheapest costs what the brute force finds unless a note
// says the search took only some of the sizes, and is never cheaper than it (it always meets the need).
func TestReducedSearchMatchesBruteForce(t *testing.T) {
	defer func(m int) { maxMixSizes = m }(maxMixSizes)
	maxMixSizes = 3
	r := rand.New(rand.NewSource(44))
	exact, reduced, capped := 0, 0, 0
	for i := 0; i < 2000; i++ {
		doc := randomCatalog(r)
		// more sizes: some copied at a higher price (the same caps: dominated)
		lines := strings.Split(doc, "\n")
		var disks []string
		for _, l := range lines {
			if strings.HasPrefix(l, "  - {name: D") {
				disks = append(disks, l)
			}
		}
		extra := ""
		for j, l := range disks {
			if r.Intn(2) == 0 && strings.Contains(l, "price_month") {
				extra += strings.Replace(strings.Replace(l, fmt.Sprintf("name: D%d,", j), fmt.Sprintf("name: X%d,", j), 1), "price_month: ", "price_month: 1", 1) + "\n"
			}
		}
		doc = strings.Replace(doc, "vms:\n", extra+"vms:\n", 1)
		c, err := Parse("random.yaml", []byte(doc))
		if err != nil {
			t.Fatalf("%v\n%s", err, doc)
		}
		need := Need{IOSizeKB: []float64{0, 8, 64}[r.Intn(3)]}
		if r.Intn(4) != 0 {
			need.IOPS = float64(100 * (1 + r.Intn(100)))
		}
		if r.Intn(2) == 0 {
			need.MBps = float64(10 * (1 + r.Intn(50)))
		}
		if r.Intn(2) == 0 || need.IOPS == 0 && need.MBps == 0 {
			need.GiB = float64(64 * (1 + r.Intn(128)))
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
		took := false
		for _, n := range p.Notes {
			took = took || strings.Contains(n, "each search took the 3")
		}
		priced := 0
		for _, d := range c.Disks {
			if d.Priced {
				priced++
			}
		}
		if priced > maxMixSizes {
			reduced++
		}
		if took {
			capped++
		}
		switch {
		case !ok && got != nil:
			t.Fatalf("case %d, need %+v: Size found %s at %s, the brute force nothing\n%s", i, need, got, got.Cost, doc)
		case ok && got == nil && !took:
			t.Fatalf("case %d, need %+v: the brute force found %s, Size nothing\n%s", i, need, want, doc)
		case ok && got != nil && got.Cost < want:
			t.Fatalf("case %d, need %+v: Size's cheapest %s costs %s, less than the brute force's %s\n%s", i, need, got, got.Cost, want, doc)
		case ok && got != nil && got.Cost != want && !took:
			t.Fatalf("case %d, need %+v: Size's cheapest %s costs %s, the brute force's %s, and no note says the search took some sizes only\n%s\nnotes %q", i, need, got, got.Cost, want, doc, p.Notes)
		}
		if got != nil && !meetsParts(got.VM, got.parts(), need, got.Cached) {
			t.Fatalf("case %d: %s does not meet %+v", i, got, need)
		}
		if ok && !took {
			exact++
		}
	}
	t.Logf("%d cases with more priced sizes than the search takes, %d of them noted as cut to 3; %d exact", reduced, capped, exact)
	if reduced < 500 || exact < 800 || capped == 0 {
		t.Errorf("only %d cases with more sizes than the search takes, %d exact: the cases do not exercise the reductions", reduced, exact)
	}
}

// countdown is a context that is cancelled at its n-th look (Err or Done): a search that looks at it
// regularly is stopped at a point of its work fixed by n, not by the machine's speed.
type countdown struct {
	context.Context
	cancel context.CancelFunc
	left   atomic.Int64
}

func newCountdown(n int64) *countdown {
	ctx, cancel := context.WithCancel(context.Background())
	c := &countdown{Context: ctx, cancel: cancel}
	c.left.Store(n)
	return c
}

func (c *countdown) tick() {
	if c.left.Add(-1) <= 0 {
		c.cancel()
	}
}

func (c *countdown) Err() error            { c.tick(); return c.Context.Err() }
func (c *countdown) Done() <-chan struct{} { c.tick(); return c.Context.Done() }

// within runs f, failing the test if it has not returned in a minute (a generous bound: a search that does not
// look at its context runs for many minutes).
func within[T any](t *testing.T, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case x := <-done:
		return x
	case <-time.After(time.Minute):
		t.Fatal("not stopped within a minute of its context's cancel")
	}
	var zero T
	return zero
}

// A cancelled context (Ctrl-C, SIGTERM: the command's context) stops io size wherever its search is: in the
// identical sets, the mixes' floors, their duals or their branches, and on the host cache's rates of a need no
// VM meets. It returns the context's error, wrapped in abort.ErrAborted with how far it got, and no plan.
// Counted, not timed: a whole run's looks at its context are counted, and runs cancelled at its first, its
// middle and its last look each end so.
func TestSizeStopsWhenCancelled(t *testing.T) {
	defer func(a, b int) { sizeBudget, mixBudget = a, b }(sizeBudget, mixBudget)
	sizeBudget = 2_000_000 // the same phases, a tenth of the work
	c := loadBig(t, 100, 60)
	for _, need := range []Need{{IOPS: 16000}, {IOPS: 16000, MBps: 500, GiB: 10000, IOSizeKB: 8}, {IOPS: 150000, MBps: 2000, ReadPct: 90}} {
		whole := newCountdown(math.MaxInt64)
		_, err := SizeContext(whole, c, need)
		if err != nil && !errors.As(err, new(*UnmetError)) {
			t.Fatal(err)
		}
		looks := math.MaxInt64 - whole.left.Load()
		for _, n := range []int64{1, looks / 2, looks} {
			ctx := newCountdown(n)
			type out struct {
				p   *Plan
				err error
			}
			o := within(t, func() out { p, err := SizeContext(ctx, c, need); return out{p, err} })
			if !errors.Is(o.err, context.Canceled) || !errors.Is(o.err, abort.ErrAborted) || o.p != nil {
				t.Fatalf("%s, cancelled at look %d of %d: plan %v, error %v", needString(need), n, looks, o.p != nil, o.err)
			}
			if !strings.Contains(o.err.Error(), "of the 60 VMs of") || strings.Contains(o.err.Error(), "\n") ||
				n == looks && need.ReadPct > 0 && !strings.Contains(o.err.Error(), "while finding what a host cache would do for the need no VM meets (at --cache-hit ") {
				t.Errorf("the error %q does not say how far it got in one line", o.err)
			}
		}
		t.Logf("%s: %d looks at the context", needString(need), looks)
	}
	// the budgets lifted, so that only the context can end the search early: it still ends at once
	sizeBudget, mixBudget = math.MaxInt, math.MaxInt
	ctx := newCountdown(3000)
	if err := within(t, func() error { _, err := SizeContext(ctx, c, Need{IOPS: 16000}); return err }); !errors.Is(err, context.Canceled) {
		t.Errorf("no budget, cancelled at look 3,000: %v", err)
	}
	// an already cancelled context: nothing is searched
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SizeContext(done, c, Need{IOPS: 16000}); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "after sizing 0 of the 60 VMs") {
		t.Errorf("a cancelled context: %v", err)
	}
}

// The mixes' search alone looks at its context as it branches: on the sizes priced in proportion to the
// capacity asked (its worst case: 87,679,598 branches, a minute, for 777,777 GiB over 64 slots), with no
// budget, a context cancelled at its tenth look stops it at once with the context's error and nothing found.
func TestMixSearchStopsWhenCancelled(t *testing.T) {
	ctx := newCountdown(10)
	type out struct {
		states int
		ok     bool
		err    error
	}
	o := within(t, func() out {
		_, _, states, ok, _, err := solveMixCtx(ctx, proportional(), 64, mixDim{5000, 300, 777777}, nil, math.MaxInt)
		return out{states, ok, err}
	})
	if !errors.Is(o.err, context.Canceled) || o.ok {
		t.Fatalf("cancelled: ok %v, error %v", o.ok, o.err)
	}
	if o.states > 10*ctxEvery {
		t.Errorf("it explored %d branches after ten looks at its context, one every %d", o.states, ctxEvery)
	}
}

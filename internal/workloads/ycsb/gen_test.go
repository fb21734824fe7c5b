package ycsb

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"testing"
)

// FNV-1a 64 against published test vectors (the FNV authors' list: "", "a", "foobar") and against Go's own
// hash/fnv from the definition; YCSB's hash of a key number is FNV-1a over the number's eight bytes, lowest
// first, made non-negative.
func TestFNV1a64KnownVectors(t *testing.T) {
	for in, want := range map[string]uint64{"": 0xcbf29ce484222325, "a": 0xaf63dc4c8601ec8c, "foobar": 0x85944171f73967e8} {
		if got := FNV1a64([]byte(in)); got != want {
			t.Errorf("FNV-1a64(%q) = %#x, want %#x", in, got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		v := int64(r.Uint64())
		if i < 1000 {
			v = int64(i)
		}
		h := fnv.New64a()
		var le [8]byte
		for j := range le {
			le[j] = byte(uint64(v) >> (8 * j))
		}
		h.Write(le[:])
		want := int64(h.Sum64())
		if want < 0 && want != math.MinInt64 {
			want = -want
		}
		if got := FNVHash64(v); got != want {
			t.Fatalf("FNVHash64(%d) = %d, want %d (FNV-1a of its little-endian bytes, made non-negative)", v, got, want)
		}
	}
}

// YCSB's key names: "user" and the hashed key number (user6284781860667377211 is YCSB's first record, key
// number 0), or the number itself with insertorder=ordered, zero-padded to zeropadding digits.
func TestKeyNameAsYCSBBuildsIt(t *testing.T) {
	for _, c := range []struct {
		n       int64
		pad     int
		ordered bool
		want    string
	}{
		{0, 1, false, "user6284781860667377211"},
		{1, 1, false, "user8517097267634966620"},
		{5, 1, true, "user5"},
		{5, 8, true, "user00000005"},
		{123, 2, true, "user123"},
		{0, 25, false, "user0000006284781860667377211"},
	} {
		if got := KeyName(c.n, c.pad, c.ordered); got != c.want {
			t.Errorf("KeyName(%d, %d, %v) = %s, want %s", c.n, c.pad, c.ordered, got, c.want)
		}
	}
	// every hashed key is user and the decimal of FNVHash64
	for n := int64(0); n < 100; n++ {
		if got, want := KeyName(n, 1, false), "user"+strconv.FormatInt(FNVHash64(n), 10); got != want {
			t.Fatalf("KeyName(%d) = %s, want %s", n, got, want)
		}
	}
}

// within fails when a count strays more than 5 standard deviations (binomial) from its expectation.
func within(t *testing.T, what string, got int, n int, p float64) {
	t.Helper()
	exp := float64(n) * p
	sd := math.Sqrt(float64(n) * p * (1 - p))
	if math.Abs(float64(got)-exp) > 5*sd+1 {
		t.Errorf("%s: %d of %d draws, want %.1f (p=%.5f, sd %.1f)", what, got, n, exp, p, sd)
	}
}

// zipfCDF is the probability that YCSB's ZipfianGenerator (Gray et al.'s method, with zetan and eta as YCSB
// computes them) draws an item below k+1 of n: 1/zetan for item 0, 0.5^theta/zetan more for item 1, and above
// them the inverse of n*(eta*u-eta+1)^alpha.
func zipfCDF(k int64, n int64, theta float64) float64 {
	zetan := 0.0
	for i := int64(1); i <= n; i++ {
		zetan += 1 / math.Pow(float64(i), theta)
	}
	zeta2 := 1 + math.Pow(0.5, theta)
	eta := (1 - math.Pow(2/float64(n), 1-theta)) / (1 - zeta2/zetan)
	alpha := 1 / (1 - theta)
	switch {
	case k < 0:
		return 0
	case k == 0:
		return 1 / zetan
	case k >= n-1:
		return 1
	}
	u := (math.Pow(float64(k+1)/float64(n), 1/alpha) - 1 + eta) / eta
	return max(u, zeta2/zetan)
}

// The zipfian generator's item frequencies are Gray et al.'s formula as YCSB computes it: the first two items
// exactly 1/zetan and 0.5^theta/zetan, the rest as its inverse gives them; and the whole is close to the
// zipfian law 1/(i+1)^theta / zeta(n) it approximates.
func TestZipfianFrequenciesFollowTheFormula(t *testing.T) {
	const n, draws = 100, 400_000
	z := NewZipfian(0, n-1, ZipfianConstant, -1)
	if want := Zeta(0, n, ZipfianConstant, 0); math.Abs(z.zetan-want) > 1e-12 {
		t.Fatalf("zetan %v, want %v", z.zetan, want)
	}
	if got, want := Zeta(0, 2, 0.99, 0), 1+math.Pow(2, -0.99); math.Abs(got-want) > 1e-15 {
		t.Fatalf("zeta(2) = %v, want %v", got, want)
	}
	r := rand.New(rand.NewPCG(7, 7))
	counts := make([]int, n)
	for i := 0; i < draws; i++ {
		v := z.Value(r)
		if v < 0 || v >= n {
			t.Fatalf("draw %d out of [0, %d)", v, n)
		}
		counts[v]++
	}
	for k := int64(0); k < n; k++ {
		p := zipfCDF(k, n, ZipfianConstant) - zipfCDF(k-1, n, ZipfianConstant)
		within(t, "item "+strconv.FormatInt(k, 10), counts[k], draws, p)
	}
	// the law it approximates, which the first two items follow exactly: 1/(i+1)^theta / zeta(n)
	zeta := Zeta(0, n, ZipfianConstant, 0)
	for k := 0; k < 2; k++ {
		within(t, "the zipfian law at item "+strconv.Itoa(k), counts[k], draws, 1/math.Pow(float64(k+1), ZipfianConstant)/zeta)
	}
	if counts[0] < counts[1] || counts[1] < counts[5] || counts[5] < counts[50] {
		t.Errorf("not decreasing: %d %d %d %d", counts[0], counts[1], counts[5], counts[50])
	}
}

// A zipfian asked for more items than it was made with grows zeta by their terms, as YCSB's does.
func TestZipfianGrowsZetaIncrementally(t *testing.T) {
	z := NewZipfian(0, 99, ZipfianConstant, -1)
	r := rand.New(rand.NewPCG(1, 1))
	z.Next(r, 150)
	if want := Zeta(0, 150, ZipfianConstant, 0); math.Abs(z.zetan-want) > 1e-9 || z.countForZeta != 150 {
		t.Fatalf("zetan after growing to 150 items: %v (count %d), want %v", z.zetan, z.countForZeta, want)
	}
}

// Scrambled zipfian: a zipfian rank over 10^10 items (zeta YCSB's ZETAN), hashed into the key space: the most
// popular key is the one rank 0 hashes to, drawn at least 1/ZETAN of the time, the next rank's at least
// 0.5^0.99/ZETAN; every key within [min, max].
func TestScrambledZipfianSpreadsTheHotKeys(t *testing.T) {
	const lo, hi, draws = 1000, 1999, 400_000
	s := NewScrambled(lo, hi)
	r := rand.New(rand.NewPCG(3, 4))
	counts := map[int64]int{}
	for i := 0; i < draws; i++ {
		v := s.Next(r)
		if v < lo || v > hi {
			t.Fatalf("draw %d out of [%d, %d]", v, lo, hi)
		}
		counts[v]++
	}
	hot0, hot1 := lo+FNVHash64(0)%(hi-lo+1), lo+FNVHash64(1)%(hi-lo+1)
	p0, p1 := 1/scrambledZetan, math.Pow(0.5, ZipfianConstant)/scrambledZetan
	// other ranks hash to the same keys too: the hot keys get at least their rank's share, and not much more
	// than the average key's beside it
	avg := float64(draws) / (hi - lo + 1)
	for _, c := range []struct {
		key int64
		p   float64
	}{{hot0, p0}, {hot1, p1}} {
		got := float64(counts[c.key])
		if got < float64(draws)*c.p-5*math.Sqrt(float64(draws)*c.p) || got > float64(draws)*c.p+4*avg {
			t.Errorf("key %d: %v draws, want about %.0f (its rank) plus the others hashed to it", c.key, got, float64(draws)*c.p)
		}
	}
	var top int64
	for k, n := range counts {
		if n > counts[top] {
			top = k
		}
	}
	if top != hot0 {
		t.Errorf("the most drawn key is %d (%d), want rank 0's %d (%d)", top, counts[top], hot0, counts[hot0])
	}
	if len(counts) < 900 {
		t.Errorf("only %d of 1000 keys drawn: not spread", len(counts))
	}
}

// Latest: the newest acknowledged record is the most popular, by the zipfian law counted back from it; an
// acknowledged insert moves the newest on.
func TestLatestFavoursTheNewestRecords(t *testing.T) {
	ack := NewAckCounter(1000)
	if ack.Last() != 999 {
		t.Fatalf("Last %d before any insert, want 999", ack.Last())
	}
	l := NewLatest(ack)
	r := rand.New(rand.NewPCG(5, 6))
	const draws = 200_000
	counts := map[int64]int{}
	for i := 0; i < draws; i++ {
		v := l.Next(r)
		if v < 0 || v > 999 {
			t.Fatalf("draw %d out of [0, 999]", v)
		}
		counts[v]++
	}
	zeta := Zeta(0, 999, ZipfianConstant, 0)
	within(t, "newest record 999", counts[999], draws, 1/zeta)
	within(t, "record 998", counts[998], draws, math.Pow(0.5, ZipfianConstant)/zeta)
	if counts[999] <= counts[900] {
		t.Errorf("record 999 drawn %d times, 900 %d times", counts[999], counts[900])
	}
	k := ack.Next()
	if k != 1000 {
		t.Fatalf("the first insert key is %d, want 1000", k)
	}
	if err := ack.Ack(k); err != nil || ack.Last() != 1000 {
		t.Fatalf("after acknowledging 1000: Last %d, %v", ack.Last(), err)
	}
	c := l.Clone()
	newest := 0
	for i := 0; i < 50_000; i++ {
		if c.Next(r) == 1000 {
			newest++
		}
	}
	within(t, "the new newest record 1000", newest, 50_000, 1/Zeta(0, 1000, ZipfianConstant, 0))
}

// The acknowledged counter's limit moves only over keys acknowledged in a row (YCSB's
// AcknowledgedCounterGenerator): reads never choose a record whose insert has not finished.
func TestAckCounterMovesOverContiguousAcks(t *testing.T) {
	c := NewAckCounter(10)
	a, b, d := c.Next(), c.Next(), c.Next()
	if a != 10 || b != 11 || d != 12 || c.Handed() != 13 {
		t.Fatalf("handed %d %d %d, next %d", a, b, d, c.Handed())
	}
	c.Ack(b)
	if c.Last() != 9 {
		t.Fatalf("Last %d after acknowledging 11 alone, want 9", c.Last())
	}
	c.Ack(a)
	if c.Last() != 11 {
		t.Fatalf("Last %d after 10 and 11, want 11", c.Last())
	}
	c.Ack(d)
	if c.Last() != 12 {
		t.Fatalf("Last %d, want 12", c.Last())
	}
}

// Hotspot: hotspotopnfraction of the draws fall uniformly in the first hotspotdatafraction of the keys.
func TestHotspotFractions(t *testing.T) {
	h := NewHotspot(100, 1099, 0.2, 0.8)
	r := rand.New(rand.NewPCG(8, 9))
	const draws = 200_000
	hot, lowHalf := 0, 0
	for i := 0; i < draws; i++ {
		v := h.Next(r)
		if v < 100 || v > 1099 {
			t.Fatalf("draw %d out of [100, 1099]", v)
		}
		if v < 300 {
			hot++
			if v < 200 {
				lowHalf++
			}
		}
	}
	within(t, "hot set (the first 20% of the keys)", hot, draws, 0.8)
	within(t, "the hot set's first half", lowHalf, hot, 0.5)
}

// Uniform and sequential choosers over [lo, hi]; exponential counted back from the newest record, with
// exponential.percentile of the draws within the newest range.
func TestUniformSequentialExponential(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 3))
	u := Uniform{Lo: 5, Hi: 9}
	seen := map[int64]int{}
	for i := 0; i < 50_000; i++ {
		seen[u.Next(r)]++
	}
	for k := int64(5); k <= 9; k++ {
		within(t, "uniform key "+strconv.FormatInt(k, 10), seen[k], 50_000, 0.2)
	}
	if len(seen) != 5 {
		t.Fatalf("uniform drew %v", seen)
	}
	shared := Sequential{lo: 3, n: 4, counter: &atomic.Int64{}}
	var got []int64
	for i := 0; i < 6; i++ {
		got = append(got, shared.Next(r))
	}
	if want := []int64{3, 4, 5, 6, 3, 4}; !equal(got, want) {
		t.Fatalf("sequential %v, want %v", got, want)
	}
	ack := NewAckCounter(10_000)
	e := NewExponential(ack, 95, 1000)
	in := 0
	for i := 0; i < 100_000; i++ {
		v := e.Next(r)
		if v < 0 || v > 9999 {
			t.Fatalf("exponential drew %d", v)
		}
		if v > 9999-1000 {
			in++
		}
	}
	within(t, "exponential: within the newest 1000", in, 100_000, 0.95)
}

// The operation chooser draws the operations of positive proportion in their shares, normalised by their sum
// (YCSB's DiscreteGenerator).
func TestOpChooserShares(t *testing.T) {
	c := newOpChooser([numOps]float64{opRead: 0.5, opScan: 1.5})
	if len(c.ops) != 2 || c.ops[0] != opRead || c.ops[1] != opScan {
		t.Fatalf("operations %v", c.ops)
	}
	r := rand.New(rand.NewPCG(2, 2))
	reads := 0
	for i := 0; i < 100_000; i++ {
		switch c.next(r) {
		case opRead:
			reads++
		case opScan:
		default:
			t.Fatal("drew an operation of proportion 0")
		}
	}
	within(t, "reads", reads, 100_000, 0.25)
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

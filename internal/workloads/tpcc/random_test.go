package tpcc

import (
	"math"
	"strings"
	"testing"
)

func TestNURandMatchesDefinition(t *testing.T) {
	// NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x: compute the exact
	// distribution by enumerating both uniform draws, and compare it with 2M samples.
	const a, x, y, c = 255, 0, 999, 123
	want := make([]float64, y-x+1)
	for r1 := 0; r1 <= a; r1++ {
		for r2 := x; r2 <= y; r2++ {
			want[(((r1 | r2) + c) % (y - x + 1))] += 1.0 / float64((a+1)*(y-x+1))
		}
	}
	r := NewRand(42, 1)
	const n = 2_000_000
	got := make([]float64, y-x+1)
	for i := 0; i < n; i++ {
		v := r.NURand(a, x, y, c)
		if v < x || v > y {
			t.Fatalf("NURand out of range: %d", v)
		}
		got[v-x]++
	}
	// chi-square against the exact distribution, 999 degrees of freedom: mean 999, sd ~45
	chi := 0.0
	for i := range want {
		e := want[i] * n
		chi += (got[i] - e) * (got[i] - e) / e
	}
	if chi > 999+6*math.Sqrt(2*999) {
		t.Fatalf("NURand distribution differs from the definition: chi-square %.0f", chi)
	}
	// and it is really non-uniform: the most likely value is several times the least likely
	lo, hi := want[0], want[0]
	for _, p := range want {
		lo, hi = math.Min(lo, p), math.Max(hi, p)
	}
	if hi/lo < 3 {
		t.Fatalf("expected skew, got max/min %.2f", hi/lo)
	}
}

func TestIntIsUniformAndInclusive(t *testing.T) {
	r := NewRand(1, 2)
	seen := map[int]int{}
	for i := 0; i < 60000; i++ {
		seen[r.Int(5, 15)]++
	}
	if len(seen) != 11 {
		t.Fatalf("Int(5,15) produced %d distinct values, want 11", len(seen))
	}
	for v, n := range seen {
		if v < 5 || v > 15 || n < 5000 || n > 6000 {
			t.Fatalf("value %d seen %d times (want ~5455)", v, n)
		}
	}
}

func TestStringsFollowClause4_3_2(t *testing.T) {
	r := NewRand(7, 7)
	minL, maxL, total := 100, 0, 0
	for i := 0; i < 20000; i++ {
		s := r.AString(26, 50)
		if len(s) < 26 || len(s) > 50 {
			t.Fatalf("a-string length %d outside [26, 50]", len(s))
		}
		for _, ch := range s {
			if !strings.ContainsRune(alnum, ch) {
				t.Fatalf("a-string has %q", ch)
			}
		}
		minL, maxL, total = min(minL, len(s)), max(maxL, len(s)), total+len(s)
	}
	if minL != 26 || maxL != 50 {
		t.Fatalf("a-string lengths span [%d, %d], want [26, 50]", minL, maxL)
	}
	if mean := float64(total) / 20000; math.Abs(mean-38) > 0.3 {
		t.Fatalf("a-string mean length %.2f, want 38", mean)
	}
	for i := 0; i < 1000; i++ {
		n := r.NString(16, 16)
		if len(n) != 16 || strings.Trim(n, "0123456789") != "" {
			t.Fatalf("bad n-string %q", n)
		}
		z := r.Zip()
		if len(z) != 9 || !strings.HasSuffix(z, "11111") || strings.Trim(z, "0123456789") != "" {
			t.Fatalf("bad zip %q", z)
		}
	}
}

func TestDataHasOriginalInTenPercent(t *testing.T) {
	r := NewRand(3, 3)
	const n = 100000
	orig := 0
	for i := 0; i < n; i++ {
		d := r.Data()
		if len(d) < 26 || len(d) > 50 {
			t.Fatalf("data length %d", len(d))
		}
		if strings.Contains(d, "ORIGINAL") {
			orig++
		}
	}
	if p := float64(orig) / n; p < 0.095 || p > 0.105 {
		t.Fatalf("ORIGINAL in %.3f of rows, want 0.10", p)
	}
}

func TestLastName(t *testing.T) {
	for num, want := range map[int]string{0: "BARBARBAR", 371: "PRICALLYOUGHT", 999: "EINGEINGEING", 40: "BARPRESBAR"} {
		if got := LastName(num); got != want {
			t.Errorf("LastName(%d) = %s, want %s", num, got, want)
		}
	}
}

func TestRunConstantDelta(t *testing.T) {
	r := NewRand(9, 9)
	for load := 0; load <= 255; load++ {
		c := NewRunConstants(r, Constants{CLast: load})
		d := c.CLast - load
		if d < 0 {
			d = -d
		}
		if d < 65 || d > 119 || d == 96 || d == 112 {
			t.Fatalf("load %d run %d: delta %d breaks clause 2.1.6.1", load, c.CLast, d)
		}
		if c.CLast < 0 || c.CLast > 255 || c.CID > 1023 || c.OLIID > 8191 {
			t.Fatalf("constant out of range: %+v", c)
		}
	}
	if ValidCLastDelta(100, 4) || !ValidCLastDelta(170, 100) || ValidCLastDelta(212, 100) {
		t.Fatal("ValidCLastDelta disagrees with clause 2.1.6.1")
	}
}

func TestExpThinkTime(t *testing.T) {
	r := NewRand(5, 5)
	sum, n := 0.0, 200000
	for i := 0; i < n; i++ {
		v := r.Exp(12)
		if v < 0 || v > 120 {
			t.Fatalf("think time %f outside [0, 120]", v)
		}
		sum += v
	}
	if mean := sum / float64(n); math.Abs(mean-12) > 0.15 {
		t.Fatalf("mean think time %.2f, want ~12", mean)
	}
}

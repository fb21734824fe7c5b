package tpch

import (
	"math"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/workloads/tpch/dbgen"
)

func TestStreamOrdersArePermutations(t *testing.T) {
	for s := 0; s <= 40; s++ {
		seen := map[int]bool{}
		for _, q := range StreamOrder(s) {
			if q < 1 || q > 22 || seen[q] {
				t.Fatalf("stream %d: order %v is not a permutation of 1..22", s, StreamOrder(s))
			}
			seen[q] = true
		}
	}
	// Appendix A: stream 0 (the power test) and stream 1
	if got := StreamOrder(0); got[0] != 14 || got[1] != 2 || got[21] != 12 {
		t.Fatalf("stream 0 order %v", got)
	}
	if got := StreamOrder(1); got[0] != 21 || got[21] != 4 {
		t.Fatalf("stream 1 order %v", got)
	}
}

func TestParametersFollowClause2_4(t *testing.T) {
	months := map[string]bool{}
	for s := 0; s < 2000; s++ {
		g := NewParamGen(7, s, 1)
		p := map[int]Params{}
		for q := 1; q <= 22; q++ {
			p[q] = g.Query(q)
			if len(p[q]) != len(ValidationParams(q, 1)) {
				t.Fatalf("Q%d: %d parameters, validation has %d", q, len(p[q]), len(ValidationParams(q, 1)))
			}
		}
		if d := p[1][0].(int); d < 60 || d > 120 {
			t.Fatalf("Q1 DELTA %d outside [60, 120]", d)
		}
		if d := p[3][1].(string); d < "1995-03-01" || d > "1995-03-31" {
			t.Fatalf("Q3 DATE %s outside March 1995", d)
		}
		d4 := p[4][0].(string)
		if d4 < "1993-01-01" || d4 > "1997-10-01" || !strings.HasSuffix(d4, "-01") {
			t.Fatalf("Q4 DATE %s", d4)
		}
		months[d4] = true
		if disc := p[6][1].(float64); disc < 0.02 || disc > 0.09 {
			t.Fatalf("Q6 DISCOUNT %v", disc)
		}
		if p[7][0] == p[7][1] {
			t.Fatal("Q7 nations must differ")
		}
		if nationRegion()[p[8][0].(string)] != p[8][1] {
			t.Fatalf("Q8 REGION %v is not the region of %v", p[8][1], p[8][0])
		}
		if d := p[10][0].(string); d < "1993-02-01" || d > "1995-01-01" {
			t.Fatalf("Q10 DATE %s", d)
		}
		if p[12][0] == p[12][1] {
			t.Fatal("Q12 ship modes must differ")
		}
		sizes := map[any]bool{}
		for _, v := range p[16][2:] {
			if n := v.(int); n < 1 || n > 50 || sizes[v] {
				t.Fatalf("Q16 sizes %v: eight different values in [1, 50]", p[16][2:])
			}
			sizes[v] = true
		}
		if q := p[18][0].(int); q < 312 || q > 315 {
			t.Fatalf("Q18 QUANTITY %d", q)
		}
		if a, b, c := p[19][0].(int), p[19][1].(int), p[19][2].(int); a < 1 || a > 10 || b < 10 || b > 20 || c < 20 || c > 30 {
			t.Fatalf("Q19 quantities %d %d %d", a, b, c)
		}
		codes := map[any]bool{}
		for _, v := range p[22] {
			if c := v.(string); c < "10" || c > "34" || codes[v] {
				t.Fatalf("Q22 codes %v: seven different country codes 10..34", p[22])
			}
			codes[v] = true
		}
	}
	if len(months) != 58 {
		t.Fatalf("Q4 used %d months, want all 58 from 1993-01 to 1997-10", len(months))
	}
	a, b := NewParamGen(9, 3, 1), NewParamGen(9, 3, 1)
	for q := 1; q <= 22; q++ {
		if a.Query(q).String() != b.Query(q).String() {
			t.Fatal("the same seed and stream must give the same parameters")
		}
	}
	if ValidationParams(11, 0.01)[1].(float64) != 0.01 {
		t.Fatal("Q11 FRACTION must be 0.0001/SF")
	}
}

func nationRegion() map[string]string {
	regions := []string{"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"}
	m := map[string]string{}
	for _, n := range dbgen.NationNames() {
		m[n.Name] = regions[n.Region]
	}
	return m
}

// Stream s of a run with seed S binds qgen's parameters for seed S+s (dbgen's test holds qgen's own log for
// seed 1122034512), converted to the statements' order and types.
func TestStreamParametersAreQgens(t *testing.T) {
	g := NewParamGen(1122034510, 2, 1)
	for q, want := range map[int]string{
		1: "116", 2: "48, BRASS, AMERICA", 6: "1997-01-01, 0.04, 24", 8: "ETHIOPIA, AFRICA, MEDIUM BURNISHED TIN",
		11: "JORDAN, 0.0001", 16: "Brand#44, LARGE PLATED, 18, 32, 11, 6, 19, 8, 42, 21",
		19: "9, 13, 28, Brand#24, Brand#11, Brand#21", 22: "11, 18, 13, 30, 20, 12, 22",
	} {
		if got := g.Query(q).String(); got != want {
			t.Errorf("Q%d: %s, want %s", q, got, want)
		}
	}
	if _, ok := NewParamGen(1, 0, 1).Query(1)[0].(int); !ok {
		t.Error("Q1's DELTA must bind as an integer")
	}
}

func TestMetricMaths(t *testing.T) {
	if g := Geomean([]float64{1, 10, 100}); math.Abs(g-10) > 1e-9 {
		t.Fatalf("geomean %v, want 10", g)
	}
	adj := PowerAdjust([]float64{0.001, 5, 2000})
	if adj[0] != 2 || adj[1] != 5 || adj[2] != 2000 {
		t.Fatalf("clause 5.4.1.4 adjustment: %v, want [2 5 2000]", adj)
	}
	if adj := PowerAdjust([]float64{1, 2}); adj[0] != 1 {
		t.Fatalf("no adjustment below a 1000x ratio: %v", adj)
	}
	if MinStreams(0.01) != 2 || MinStreams(10) != 3 || MinStreams(100) != 5 || MinStreams(1000) != 7 {
		t.Fatal("minimum stream counts of clause 5.3.4")
	}
}

func TestCompareTolerances(t *testing.T) {
	want := &QueryResult{Rows: [][]string{{"A", "1.00", "1995-01-02"}, {"B", "505822441.4861", "x"}}}
	got := &QueryResult{Rows: [][]string{{"A ", "1.004", "1995-01-02"}, {"B", "505822441.48609996", "x"}}}
	if d := Compare(got, want); d != "" {
		t.Fatalf("within tolerance, got %q", d)
	}
	got.Rows[0][1] = "1.02"
	if Compare(got, want) == "" {
		t.Fatal("1.02 vs 1.00 must differ")
	}
	got.Rows[0][1] = "1.00"
	got.Rows[1][0] = "b"
	if Compare(got, want) == "" {
		t.Fatal("strings compare exactly")
	}
	swapped := &QueryResult{Rows: [][]string{want.Rows[1], want.Rows[0]}}
	if d := Compare(swapped, want); d != "" {
		t.Fatalf("rows that tie may come in another order: %q", d)
	}
	if Compare(&QueryResult{Rows: want.Rows[:1]}, want) == "" {
		t.Fatal("a missing row must fail")
	}
}

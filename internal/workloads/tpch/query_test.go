package tpch

import "testing"

// The answer comparison follows the reference answers' rule: integers exact, other numbers within 0.01 or a
// millionth, strings exact. Q17's official SF 1 value is the exact one rounded (clause 2.1.3.5 accepts it).
func TestSameValue(t *testing.T) {
	for _, c := range []struct {
		got, want string
		same      bool
	}{
		{"348406.0542857143", "348406.02", true}, // Q17 at SF 1
		{"348406.4", "348406.02", false},
		{"1234.567", "1234.56", true},
		{"1234.58", "1234.56", false},
		{"1234567", "1234568", false}, // a key off by one, though within a millionth
		{"1234567", "1234567.00", true},
		{"25.575154611454693", "25.58", true},
		{"BRASS ", " BRASS", true},
		{"BRASS", "BRAS", false},
		{"NULL", "NULL", true},
	} {
		if got := sameValue(c.got, c.want); got != c.same {
			t.Errorf("sameValue(%q, %q) = %v, want %v", c.got, c.want, got, c.same)
		}
	}
}

// Clause 2.1.3.5, the rule for the official SF 1 answers: counts and keys exact, sums within 100, averages and
// ratios within 1% after rounding to 1/100.
func TestSpecRule(t *testing.T) {
	q1 := specRule(1) // l_returnflag, l_linestatus, 4 sums, 3 averages, count
	for _, c := range []struct {
		col       int
		got, want string
		same      bool
	}{
		{2, "37734107.00", "37734107", true},
		{2, "37734197.00", "37734107", true},  // a sum within 100
		{2, "37734208.00", "37734107", false}, // beyond 100
		{6, "25.7", "25.52", true},            // an average within 1%
		{6, "26.0", "25.52", false},           // beyond 1%
		{9, "1478494", "1478493", false},      // a count exactly
		{0, "A", "A", true}, {0, "A", "N", false},
	} {
		if got := q1(c.col, c.got, c.want); got != c.same {
			t.Errorf("Q1 column %d: %q vs %q = %v, want %v", c.col+1, c.got, c.want, got, c.same)
		}
	}
	if !specRule(17)(0, "348406.0542857143", "348406.02") {
		t.Error("Q17's exact value against the official answer")
	}
	for q := 1; q <= 22; q++ {
		if specKinds[q] == "" {
			t.Errorf("Q%d has no column kinds", q)
		}
	}
}

// The official answers' headers are cut to the column's width or generic: a shape check takes them as such.
func TestSameColumnTakesCutAndGenericNames(t *testing.T) {
	for _, c := range []struct {
		got, want string
		same      bool
	}{{"o_orderdate", "o_orderdat", true}, {"l_returnflag", "l", true}, {"sum_qty", "col6", true}, {"revenue", "revenue", true},
		{"o_totalprice", "o_orderdat", false}, {"c_name", "c_custkey", false}} {
		if got := sameColumn(c.got, c.want); got != c.same {
			t.Errorf("sameColumn(%q, %q) = %v", c.got, c.want, got)
		}
	}
}

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

package compare

import "testing"

// One metric's figures side by side read at one precision: the TPC-H sweep's summary said 0.29 s, 0.6641 s and
// 1.241 s.
func TestFormatAlike(t *testing.T) {
	set := []float64{0.29, 0.6641, 1.241}
	for i, want := range []string{"0.290", "0.664", "1.241"} {
		if got := FormatAlike(set[i], set); got != want {
			t.Errorf("%v among %v: %q, want %q", set[i], set, got, want)
		}
	}
	for _, c := range []struct {
		v    float64
		set  []float64
		want string
	}{{12345.6, []float64{12345.6, 9000}, "12346"}, {42.25, []float64{42.25, 310}, "42.2"}, {0, []float64{0, 0}, "0"}, {3, []float64{0.00012, 3}, "3.000000"}} {
		if got := FormatAlike(c.v, c.set); got != c.want {
			t.Errorf("%v among %v: %q, want %q", c.v, c.set, got, c.want)
		}
	}
}

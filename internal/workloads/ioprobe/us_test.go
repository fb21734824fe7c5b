package ioprobe

import "testing"

// A latency prints to the precision it has: a sub-microsecond completion is 0.42 µs, not "min=0".
func TestLatencyPrintsItsPrecision(t *testing.T) {
	for v, want := range map[float64]string{0.42: "0.42", 0: "0", 3.456: "3.46", 45.67: "45.7", 1129.04: "1129", 99.94: "99.9"} {
		if got := us(v); got != want {
			t.Errorf("%v µs printed %q, want %q", v, got, want)
		}
	}
}

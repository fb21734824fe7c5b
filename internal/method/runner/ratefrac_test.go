package runner

import (
	"math"
	"testing"
	"time"
)

// A fractional rate (pgbench -R 0.5) is a Poisson schedule of that rate: a mean gap of 2 s, exponential
// (variance the mean squared); a rate so low that a draw overflows a duration gives the longest gap, never a
// negative one (a start in the past, taken at once).
func TestFractionalRateSchedule(t *testing.T) {
	const rate, n = 0.5, 40000
	start := time.Unix(1_700_000_000, 0)
	s := newSchedule(start, rate, 9, 0)
	prev := start
	var sum, sum2 float64
	for range n {
		at, _ := s.take(start)
		g := at.Sub(prev).Seconds()
		sum, sum2, prev = sum+g, sum2+g*g, at
	}
	mean := sum / n
	// the mean's standard error at n = 40000 is 0.5% of it: 5 of them
	if want := 1 / rate; math.Abs(mean-want)/want > 0.025 {
		t.Fatalf("mean gap %.4fs at --rate %g, want %.4fs", mean, rate, want)
	}
	if cv2 := (sum2/n - mean*mean) / (mean * mean); cv2 < 0.9 || cv2 > 1.1 {
		t.Fatalf("variance/mean² %.3f at --rate %g, want 1 (exponential)", cv2, rate)
	}
	tiny := newSchedule(start, 1e-300, 9, 0)
	for range 100 {
		if at, _ := tiny.take(start); !at.After(start) {
			t.Fatalf("--rate 1e-300 scheduled a start at %s, not after the run's start %s", at, start)
		}
	}
}

package peak

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// point is a constructed run at a load: its throughput (per second) and its transaction's p95.
func point(tput float64, p95 time.Duration) *result.Result {
	return &result.Result{Status: result.StatusOK, Measurement: &result.Measurement{PerMinute: tput * 60, MeasuredSecs: 10,
		Transactions: map[string]result.TxStats{"pay": {Count: 10, Latency: result.Latency{P95: p95.Microseconds(), P90: p95.Microseconds()}}}}}
}

// drive runs a search against a system whose throughput and p95 are functions of the load, and returns the
// loads it asked for.
func drive(t *testing.T, s *Search, f func(load float64) []*result.Result) []float64 {
	t.Helper()
	var asked []float64
	for {
		load, ok := s.Next()
		if !ok {
			return asked
		}
		if len(asked) > 40 {
			t.Fatalf("the search does not end: %v", asked)
		}
		asked = append(asked, load)
		if err := s.Observe(load, f(load)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSearchUnderAnSLA(t *testing.T) {
	// throughput grows linearly, p95 is 2 ms per user: p95<45ms holds up to 22 users
	sla, err := ParseSLA("pay.p95<45ms")
	if err != nil {
		t.Fatal(err)
	}
	s := New("users", 1, 0.03, 1, 1000, sla)
	asked := drive(t, s, func(u float64) []*result.Result {
		return []*result.Result{point(10*u, time.Duration(u*2)*time.Millisecond)}
	})
	if s.Knee == nil || s.Knee.Load != 22 || s.Why != "sla" {
		t.Fatalf("knee %+v (%s), asked %v", s.Knee, s.Why, asked)
	}
	if l := s.Limiting(); !strings.HasPrefix(l, "latency (pay p95") {
		t.Fatalf("limiting factor %q", l)
	}
}

func TestSearchOnAPlateau(t *testing.T) {
	// throughput saturates at 13 users (a 3% band below it starts at 12.61)
	s := New("users", 1, 0.03, 1, 1000, nil)
	asked := drive(t, s, func(u float64) []*result.Result {
		return []*result.Result{point(100*math.Min(u, 13), time.Millisecond)}
	})
	if s.Knee == nil || s.Knee.Load != 13 || s.Why != "plateau" {
		t.Fatalf("knee %+v (%s), asked %v", s.Knee, s.Why, asked)
	}
	// by rate: loads are rates, the default resolution a tenth of the last good one
	s = New("rate", 100, 0.03, 0, 1e7, nil)
	drive(t, s, func(r float64) []*result.Result { return []*result.Result{point(math.Min(r, 1500), time.Millisecond)} })
	// the highest rate it keeps up with (within --min-gain) is 1500/0.97 = 1546/s
	if s.Knee == nil || s.Knee.Load > 1546 || s.Knee.Load < 1546-80 || s.Why != "behind" || !strings.Contains(s.Limiting(), "fell behind") {
		t.Fatalf("rate knee %+v (%s, %s)", s.Knee, s.Why, s.Limiting())
	}
}

// A step whose gain exceeds --min-gain but lies within the repeats' spread has reached the plateau.
func TestSearchStopsWithinNoise(t *testing.T) {
	s := New("users", 1, 0.03, 1, 1000, nil)
	drive(t, s, func(u float64) []*result.Result {
		base := 100 * math.Min(u, 4)
		if u >= 8 {
			base *= 1.05 // 5% more than at 4 users, while the repeats spread by 20%
		}
		return []*result.Result{point(base*0.9, time.Millisecond), point(base, time.Millisecond), point(base*1.1, time.Millisecond)}
	})
	if s.Why != "plateau" || !strings.Contains(s.Note, "within run-to-run noise") || s.Knee == nil || s.Knee.Load > 4 {
		t.Fatalf("%s: %s; knee %+v", s.Why, s.Note, s.Knee)
	}
}

// A point that failed is past the limit, and a first point past it leaves no knee.
func TestSearchFailedPoints(t *testing.T) {
	s := New("users", 4, 0.03, 1, 1000, nil)
	drive(t, s, func(u float64) []*result.Result {
		r := point(10*u, time.Millisecond)
		if u > 6 {
			r.Status, r.Error = result.StatusFailed, "too many errors"
		}
		return []*result.Result{r}
	})
	if s.Knee == nil || s.Knee.Load != 6 || !strings.HasPrefix(s.Limiting(), "errors") {
		t.Fatalf("knee %+v, limit %q", s.Knee, s.Limiting())
	}
	sla, _ := ParseSLA("p95<1ms")
	s = New("users", 4, 0.03, 1, 1000, sla)
	drive(t, s, func(u float64) []*result.Result { return []*result.Result{point(10*u, 5*time.Millisecond)} })
	if s.Knee != nil || !strings.Contains(s.Note, "already past the limit") {
		t.Fatalf("knee %+v, note %q", s.Knee, s.Note)
	}
}

package compare

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// oneRun is a single run with a headline rate over its measured intervals and a p95 from a histogram of
// latencies (µs) drawn around lat.
func oneRun(rate float64, intervals int, lat float64, samples int, seed uint64) *result.Result {
	rng := rand.New(rand.NewPCG(seed, 1))
	h := hdrhistogram.New(1, 10_000_000, 3)
	for i := 0; i < samples; i++ {
		h.RecordValue(int64(lat * (0.5 + rng.Float64())))
	}
	m := &result.Measurement{MeasuredSecs: float64(intervals), Transactions: map[string]result.TxStats{
		"t": {Count: int64(samples), Histogram: result.EncodeHistogram(h), Latency: result.LatencyOf(h)}}}
	prev := 0.0
	for i := 0; i < intervals; i++ {
		v := rate * (0.97 + 0.06*rng.Float64())
		m.Intervals = append(m.Intervals, result.Interval{ElapsedSeconds: prev + 1, Measured: true, PerMinute: v * 60,
			Transactions: map[string]result.IntervalTxStat{"t": {Count: int64(v)}}})
		prev++
	}
	return &result.Result{Workload: "w", Status: result.StatusOK, Measurement: m, Metrics: []result.Metric{
		{Name: "rate", Unit: "1/s", Better: result.Higher, Value: rate, Headline: true, Noise: result.TxNoise("t")},
		{Name: "t p95 latency", Unit: "ms", Better: result.Lower, Value: float64(h.ValueAtQuantile(95)) / 1000, Noise: result.LatencyNoise("t", 95)},
		{Name: "cpu", Unit: "µs", Better: result.Lower, Value: 10}}}
}

func row(t *testing.T, rows []Row, name string) Row {
	t.Helper()
	for _, r := range rows {
		if r.Metric == name {
			return r
		}
	}
	t.Fatalf("no row %q", name)
	return Row{}
}

// One run has its own estimate only where its samples give one: a rate over 5 or more measured intervals (a
// bootstrap), a percentile from enough samples (its order statistics); else the change is neither better nor
// worse and says why and how to get an estimate.
func TestOneRunIsJudgedOnlyWithItsOwnEstimate(t *testing.T) {
	a, b := Summarise("A", []*result.Result{oneRun(1000, 12, 2000, 5000, 1)}), Summarise("B", []*result.Result{oneRun(1300, 12, 3000, 5000, 2)})
	rows := Table([]Summary{a, b})
	if r := row(t, rows, "rate"); r.Verdict(1) != Better || !strings.HasPrefix(r.Words(1), "30.00% higher (better)") {
		t.Errorf("a 30%% higher rate over 12 intervals: %q", r.Words(1))
	}
	if r := row(t, rows, "t p95 latency"); r.Verdict(1) != Worse {
		t.Errorf("a p95 50%% higher from 5000 samples each: %q %+v %+v", r.Words(1), r.Noise[0], r.Noise[1])
	}
	if r := row(t, rows, "cpu"); r.Verdict(1) != Same {
		t.Errorf("equal figures: %q", r.Words(1))
	}
	// the same configuration twice: within noise
	same := Table([]Summary{a, Summarise("C", []*result.Result{oneRun(1005, 12, 2000, 5000, 3)})})
	for _, name := range []string{"rate", "t p95 latency"} {
		if r := row(t, same, name); r.Verdict(1) != Same || !strings.Contains(r.Words(1), "within noise") {
			t.Errorf("%s of the same configuration: %q", name, r.Words(1))
		}
	}
	// 4 intervals and a p95 of 18 samples: no estimate, said so, neither better nor worse
	few := Table([]Summary{Summarise("A", []*result.Result{oneRun(1000, 4, 2000, 18, 4)}), Summarise("B", []*result.Result{oneRun(1300, 4, 3000, 18, 5)})})
	if r := row(t, few, "rate"); r.Verdict(1) != NoiseUnknown || r.Words(1) != "30.00% higher (noise unknown: one run of 4 intervals; --repeat 3)" {
		t.Errorf("4 intervals: %q", r.Words(1))
	}
	r := row(t, few, "t p95 latency")
	if r.Verdict(1) != NoiseUnknown || !r.Noise[0].Few || !strings.Contains(r.Words(1), "a percentile from too few samples") || r.Noise[0].How != "p95 of 18 samples" {
		t.Errorf("p95 of 18 samples: %q %+v", r.Words(1), r.Noise[0])
	}
	var notes Notes
	if m := notes.Mark(r.Noise[0]); m != " [1]" || !strings.Contains(notes.List()[0], "too few") {
		t.Errorf("a percentile from too few samples is marked: %q %q", m, notes.List())
	}
}

// The order statistics' interval of a percentile: for p95 of 10,000 uniform samples on 1..10000 it is about
// ranks 9457..9543 (n*q -+ 1.96*sqrt(n*q*(1-q)) = 9500 -+ 42.7); of 100 samples p99 has none.
func TestPercentileIntervalFromItsSampleCount(t *testing.T) {
	at := func(q float64) float64 { return math.Ceil(q / 100 * 10000) }
	n := percentileNoise(9500, 10000, 95, at)
	if !n.Known || math.Abs(n.Lo-9457) > 1 || math.Abs(n.Hi-9544) > 1 {
		t.Errorf("p95 of 10000: %+v", n)
	}
	if n := percentileNoise(99, 100, 99, func(q float64) float64 { return q }); n.Known || !n.Few {
		t.Errorf("p99 of 100: %+v", n)
	}
}

// A bound is shown, never judged; a time to complete changes by the time ratio, in the study's words.
func TestBoundsAreNotComparedAndTimesAreFaster(t *testing.T) {
	mem := func(v float64, bound string) *result.Result {
		return &result.Result{Workload: "probe", Status: result.StatusOK, Metrics: []result.Metric{{Name: "cached data estimate", Unit: "MB", Better: result.Higher, Value: v, Headline: true, Bound: bound}}}
	}
	r := Table([]Summary{Summarise("A", []*result.Result{mem(1000, "at least"), mem(1000, "at least")}), Summarise("B", []*result.Result{mem(500, ""), mem(510, "")})})[0]
	if r.Verdict(1) != NotComparable || strings.Contains(r.Words(1), "worse") || !strings.Contains(r.Words(1), "a bound") {
		t.Errorf("a bound against a measurement: %q", r.Words(1))
	}
	tc := func(vs ...float64) Summary {
		var rs []*result.Result
		for _, v := range vs {
			rs = append(rs, &result.Result{Workload: "tpch", Status: result.StatusOK, Metrics: []result.Metric{{Name: "time to complete", Unit: "s", Better: result.Lower, Value: v, Headline: true, Elapsed: true}}})
		}
		return Summarise("x", rs)
	}
	r = Table([]Summary{tc(74, 73, 75), tc(56, 57, 55)})[0]
	if r.Words(1) != "32.14% faster (better)" {
		t.Errorf("74 s against 56 s: %q", r.Words(1))
	}
	if s := Ratio(56, 74, r.Desc); s != "32.14% slower" {
		t.Errorf("56 s against 74 s: %q", s)
	}
}

package compare

import (
	"math/rand/v2"
	"sort"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Run-to-run noise: a difference between two configurations counts only when it exceeds what repeating one
// configuration varies by. With repeats that is their spread (min to max); a single run of a user-driven
// workload has its own estimate, the bootstrap interval of the median of its measured intervals' throughput.

// minIntervals is the fewest measured intervals a bootstrap interval is drawn from.
const minIntervals = 5

// BootstrapBand is the 95% bootstrap interval of the median of a run's measured per-interval throughput, as
// fractions of that median (0.95, 1.04): how far the run's rate could have come out by chance. ok is false
// when the run has fewer than five measured intervals or no throughput.
func BootstrapBand(r *result.Result) (lo, hi float64, ok bool) {
	if r == nil || r.Measurement == nil {
		return 0, 0, false
	}
	var xs []float64
	for _, iv := range r.Measurement.Intervals {
		if iv.Measured {
			xs = append(xs, iv.PerMinute)
		}
	}
	if len(xs) < minIntervals {
		return 0, 0, false
	}
	med := Median(xs)
	if med <= 0 {
		return 0, 0, false
	}
	// a fixed seed: the same result gives the same interval every time it is compared
	rng := rand.New(rand.NewPCG(uint64(len(xs)), 0x5eed))
	const draws = 2000
	meds := make([]float64, draws)
	s := make([]float64, len(xs))
	for d := range meds {
		for i := range s {
			s[i] = xs[rng.IntN(len(xs))]
		}
		meds[d] = Median(s)
	}
	sort.Float64s(meds)
	return meds[draws*25/1000] / med, meds[draws*975/1000-1] / med, true
}

// Noise is the band a configuration's metric varies within from run to run (Min to Max around its median) and
// how it was found; Known is false when there is no estimate (one run without enough intervals).
type Noise struct {
	Min, Max float64
	How      string // "the repeats' spread" or "a bootstrap interval of the run's per-interval throughput"
	Known    bool
}

// NoiseOf is the noise of one configuration's metric: the spread of its repeats when it has several, else for
// the headline (a rate, in a run with intervals) the bootstrap band scaled to the metric's value.
func NoiseOf(runs []*result.Result, metric string) Noise {
	var vals []float64
	for _, r := range runs {
		for _, m := range Metrics(r) {
			if m.Name == metric {
				vals = append(vals, m.Value)
			}
		}
	}
	switch {
	case len(vals) > 1:
		mn, mx := vals[0], vals[0]
		for _, v := range vals {
			mn, mx = min(mn, v), max(mx, v)
		}
		return Noise{mn, mx, "the repeats' spread", true}
	case len(vals) == 1 && len(runs) == 1:
		if h, ok := runs[0].Headline(); ok && h.Name == metric {
			if lo, hi, ok := BootstrapBand(runs[0]); ok {
				return Noise{vals[0] * lo, vals[0] * hi, "a bootstrap interval of the run's per-interval throughput", true}
			}
		}
	}
	return Noise{}
}

// WithinNoise says whether b differs from a by no more than run-to-run noise: their bands overlap. known is
// false when neither has an estimate of its noise.
func WithinNoise(a, b Noise, va, vb float64) (within, known bool) {
	if !a.Known && !b.Known {
		return false, false
	}
	if !a.Known {
		a.Min, a.Max = va, va
	}
	if !b.Known {
		b.Min, b.Max = vb, vb
	}
	return a.Min <= b.Max && b.Min <= a.Max, true
}

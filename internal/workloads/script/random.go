package script

import (
	"math"
	"math/rand/v2"
)

// The parameters' bounds of pgbench's random functions (MIN_GAUSSIAN_PARAM, MIN_ZIPFIAN_PARAM,
// MAX_ZIPFIAN_PARAM in pgbench.c).
const (
	minGaussian = 2.0
	minZipfian  = 1.001
	maxZipfian  = 1000.0
)

// randSource draws the random functions' values the way pgbench defines them (its getrand,
// getExponentialRand, getGaussianRand and getZipfianRand): the same distributions, another generator.
type randSource struct {
	r   *rand.Rand
	pcg *rand.PCG // its state, saved and restored to run a transaction again alike (--max-tries)
}

func newRand(seed, stream uint64) *randSource {
	p := rand.NewPCG(seed, stream)
	return &randSource{r: rand.New(p), pcg: p}
}

// uniform: every integer of [lo, hi] with the same probability.
func (s *randSource) uniform(lo, hi int64) int64 {
	return lo + int64(s.r.Uint64N(uint64(hi-lo)+1))
}

// unit is uniform in (0, 1], as pgbench's 1.0 - pg_prng_double.
func (s *randSource) unit() float64 { return 1 - s.r.Float64() }

// exponential: P(x) = (exp(-p*(x-lo)/n) - exp(-p*(x-lo+1)/n)) / (1 - exp(-p)), n = hi-lo+1: the value
// -ln(cut + (1-cut)*u)/p for u uniform in (0, 1] and cut = exp(-p) falls in [0, 1) and is scaled onto the range.
func (s *randSource) exponential(lo, hi int64, p float64) int64 {
	cut := math.Exp(-p)
	r := -math.Log(cut+(1-cut)*s.unit()) / p
	return lo + int64(float64(hi-lo+1)*r)
}

// gaussian: a standard normal draw (Box-Muller) kept when it falls in [-p, p), mapped onto the range, so that
// the mean is the range's middle and p is how many standard deviations the half range spans.
func (s *randSource) gaussian(lo, hi int64, p float64) int64 {
	var z float64
	for {
		r1, r2 := s.unit(), s.r.Float64()
		z = math.Sqrt(-2*math.Log(r1)) * math.Sin(2*math.Pi*r2)
		if z >= -p && z < p {
			break
		}
	}
	r := (z + p) / (2 * p)
	return lo + int64(float64(hi-lo+1)*r)
}

// zipfian: P(lo+k-1) proportional to 1/k^p for k in 1..n, by Devroye's rejection method (Non-Uniform Random
// Variate Generation, p. 550-551), as pgbench's computeIterativeZipfian (p in [1.001, 1000]).
func (s *randSource) zipfian(lo, hi int64, p float64) int64 {
	n := float64(hi - lo + 1)
	if n <= 1 {
		return lo
	}
	b := math.Pow(2, p-1)
	for {
		u, v := s.r.Float64(), s.r.Float64()
		x := math.Floor(math.Pow(u, -1/(p-1)))
		t := math.Pow(1+1/x, p-1)
		if v*x*(t-1)/(b-1) <= t/b && x <= n {
			return lo + int64(x) - 1
		}
	}
}

package tpcc

import (
	"math"
	"math/rand/v2"
)

// Rand holds the TPC-C random functions of clause 2.1 and 4.3.2 over a seeded generator, so that a seed makes
// every choice repeatable.
type Rand struct {
	r   *rand.Rand
	buf []byte
}

// NewRand returns a generator seeded from (seed, stream); different streams give independent sequences.
func NewRand(seed, stream uint64) *Rand {
	return &Rand{r: rand.New(rand.NewPCG(seed, stream^0x9e3779b97f4a7c15)), buf: make([]byte, 0, 512)}
}

// Int returns a uniform integer in [lo, hi] (clause 2.1.4 "random within [x .. y]").
func (r *Rand) Int(lo, hi int) int {
	return lo + int(r.r.Uint64N(uint64(hi-lo+1)))
}

// Float64 returns a uniform float in [0, 1).
func (r *Rand) Float64() float64 { return r.r.Float64() }

// Perm returns a random permutation of 1..n.
func (r *Rand) Perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i + 1
	}
	r.r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// NURand is the non-uniform random function of clause 2.1.6:
// NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x.
func (r *Rand) NURand(a, x, y, c int) int {
	return (((r.Int(0, a) | r.Int(x, y)) + c) % (y - x + 1)) + x
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// AString is a random a-string of random length in [lo, hi] (clause 4.3.2.2): letters and digits.
func (r *Rand) AString(lo, hi int) string {
	return string(r.appendAString(r.buf[:0], r.Int(lo, hi)))
}

func (r *Rand) appendAString(b []byte, n int) []byte {
	// One 64-bit draw gives ten 6-bit indexes; 62 symbols, so reject the two spare values.
	for n > 0 {
		v := r.r.Uint64()
		for k := 0; k < 10 && n > 0; k++ {
			i := v & 63
			v >>= 6
			if i < 62 {
				b = append(b, alnum[i])
				n--
			}
		}
	}
	return b
}

// NString is a random n-string of random length in [lo, hi]: digits only.
func (r *Rand) NString(lo, hi int) string {
	n := r.Int(lo, hi)
	b := r.buf[:0]
	for i := 0; i < n; i++ {
		b = append(b, byte('0'+r.r.IntN(10)))
	}
	return string(b)
}

// Zip is a zip code per clause 4.3.2.7: a random n-string of 4 digits followed by "11111".
func (r *Rand) Zip() string {
	b := r.buf[:0]
	for i := 0; i < 4; i++ {
		b = append(b, byte('0'+r.r.IntN(10)))
	}
	return string(append(b, "11111"...))
}

// Data is I_DATA/S_DATA per clause 4.3.3.1: a random a-string [26 .. 50]; for 10% of rows, "ORIGINAL"
// stands at a random position in it.
func (r *Rand) Data() string {
	n := r.Int(26, 50)
	b := r.appendAString(r.buf[:0], n)
	if r.Int(1, 10) == 1 {
		pos := r.Int(0, n-8)
		copy(b[pos:], "ORIGINAL")
	}
	return string(b)
}

// Decimal returns a uniform value in [lo, hi] with the given number of decimals, as an integer count of
// 10^-scale units (e.g. Decimal(100, 10000, 2) is a price 1.00..100.00 in cents).
func (r *Rand) Decimal(lo, hi int) int64 { return int64(r.Int(lo, hi)) }

// Exp returns a negative-exponential think time with the given mean, truncated at 10 times the mean
// (clause 5.2.5.4).
func (r *Rand) Exp(mean float64) float64 {
	u := r.r.Float64()
	if u == 0 {
		u = math.SmallestNonzeroFloat64
	}
	t := -math.Log(u) * mean
	if t > 10*mean {
		t = 10 * mean
	}
	return t
}

var syllables = [10]string{"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"}

// LastName is C_LAST for a number in [0 .. 999] (clause 4.3.2.3): the syllables of its three digits.
func LastName(num int) string {
	return syllables[num/100] + syllables[(num/10)%10] + syllables[num%10]
}

// Constants are the NURand run-time constants C (clause 2.1.6): one for C_LAST, C_ID and OL_I_ID.
type Constants struct {
	CLast int `json:"c_last"`
	CID   int `json:"c_id"`
	OLIID int `json:"ol_i_id"`
}

// NewLoadConstants draws the constants used to populate the database.
func NewLoadConstants(r *Rand) Constants {
	return Constants{CLast: r.Int(0, 255), CID: r.Int(0, 1023), OLIID: r.Int(0, 8191)}
}

// NewRunConstants draws run-time constants. C_LAST for the run must differ from the load value by a delta in
// [65 .. 119], excluding 96 and 112 (clause 2.1.6.1); C_ID and OL_I_ID are drawn afresh.
func NewRunConstants(r *Rand, load Constants) Constants {
	for {
		c := r.Int(0, 255)
		if ValidCLastDelta(c, load.CLast) {
			return Constants{CLast: c, CID: r.Int(0, 1023), OLIID: r.Int(0, 8191)}
		}
	}
}

// ValidCLastDelta reports whether run and load C_LAST values satisfy clause 2.1.6.1.
func ValidCLastDelta(run, load int) bool {
	d := run - load
	if d < 0 {
		d = -d
	}
	return d >= 65 && d <= 119 && d != 96 && d != 112
}

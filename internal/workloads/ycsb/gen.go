package ycsb

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
)

// The generators of YCSB's CoreWorkload, written from YCSB's definitions (site.ycsb.generator; its code read,
// none of it used). Each virtual user has its own copy of a generator and its own random source; what YCSB's
// threads share (the insert key sequence, a sequential chooser's counter) is shared here too.

// FNV-1a's 64-bit constants (YCSB's Utils.FNV_OFFSET_BASIS_64 and FNV_PRIME_64).
const (
	fnvOffset64 uint64 = 0xCBF29CE484222325
	fnvPrime64  uint64 = 1099511628211
)

// FNVHash64 is YCSB's Utils.fnvhash64: FNV-1a over the eight bytes of v, lowest first, made non-negative as
// Java's Math.abs does (which leaves math.MinInt64 as it is).
func FNVHash64(v int64) int64 {
	var b [8]byte
	for i := range b {
		b[i] = byte(uint64(v) >> (8 * i))
	}
	s := int64(FNV1a64(b[:]))
	if s < 0 && s != math.MinInt64 {
		s = -s
	}
	return s
}

// FNV1a64 is the 64-bit FNV-1a hash of b: each byte XORed into the hash, then multiplied by the prime.
func FNV1a64(b []byte) uint64 {
	h := fnvOffset64
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime64
	}
	return h
}

// KeyName is YCSB's CoreWorkload.buildKeyName: "user", the key number (its FNV-1a hash unless the inserts are
// ordered) in decimal, left-padded with zeros to zeropadding digits.
func KeyName(keynum int64, zeropadding int, ordered bool) string {
	return string(appendKey(nil, keynum, zeropadding, ordered))
}

func appendKey(b []byte, keynum int64, zeropadding int, ordered bool) []byte {
	if !ordered {
		keynum = FNVHash64(keynum)
	}
	var digits [24]byte
	d := strconv.AppendInt(digits[:0], keynum, 10)
	b = append(b, "user"...)
	for i := len(d); i < zeropadding; i++ {
		b = append(b, '0')
	}
	return append(b, d...)
}

// ZipfianConstant is YCSB's ZipfianGenerator.ZIPFIAN_CONSTANT.
const ZipfianConstant = 0.99

// Scrambled zipfian's fixed item space and its zeta (YCSB's ScrambledZipfianGenerator.ITEM_COUNT and ZETAN).
const (
	scrambledItems = 10_000_000_000
	scrambledZetan = 26.46902820178302
)

// Zeta is the generalized harmonic number sum_{i=1..n} 1/i^theta, from start terms with sum so far (YCSB's
// zetastatic, incremental when st > 0).
func Zeta(st, n int64, theta, sum float64) float64 {
	for i := st; i < n; i++ {
		sum += 1 / math.Pow(float64(i+1), theta)
	}
	return sum
}

// Zipfian is YCSB's ZipfianGenerator over [base, base+items-1] (Gray et al., "Quickly Generating
// Billion-Record Synthetic Databases", SIGMOD 1994): item base+i drawn with probability about
// 1/(i+1)^theta / zeta(items, theta). Next with a larger item count grows zeta incrementally, as YCSB does;
// eta keeps the item count it was made with, as YCSB's does.
type Zipfian struct {
	items, base              int64
	theta, alpha, zetan, eta float64
	zeta2theta, half         float64
	countForZeta             int64
}

// NewZipfian is ZipfianGenerator(min, max, theta) with zetan computed (zetan < 0) or given.
func NewZipfian(min, max int64, theta, zetan float64) *Zipfian {
	z := &Zipfian{items: max - min + 1, base: min, theta: theta}
	z.zeta2theta = Zeta(0, 2, theta, 0)
	z.alpha = 1 / (1 - theta)
	if zetan < 0 {
		zetan = Zeta(0, z.items, theta, 0)
	}
	z.zetan = zetan
	z.countForZeta = z.items
	z.eta = (1 - math.Pow(2/float64(z.items), 1-theta)) / (1 - z.zeta2theta/z.zetan)
	z.half = 1 + math.Pow(0.5, theta)
	return z
}

// Clone is a copy for another user (its incremental zeta its own).
func (z *Zipfian) Clone() *Zipfian { c := *z; return &c }

// Next draws from the first items items.
func (z *Zipfian) Next(r *rand.Rand, items int64) int64 {
	if items > z.countForZeta { // more items since: zeta grows by their terms
		z.zetan = Zeta(z.countForZeta, items, z.theta, z.zetan)
		z.countForZeta = items
		z.eta = (1 - math.Pow(2/float64(z.items), 1-z.theta)) / (1 - z.zeta2theta/z.zetan)
	}
	u := r.Float64()
	uz := u * z.zetan
	if uz < 1 {
		return z.base
	}
	if uz < z.half {
		return z.base + 1
	}
	return z.base + int64(float64(items)*math.Pow(z.eta*u-z.eta+1, z.alpha))
}

// Value draws from all its items (YCSB's nextValue).
func (z *Zipfian) Value(r *rand.Rand) int64 { return z.Next(r, z.items) }

// Chooser draws key numbers (and lengths): one virtual user's copy.
type Chooser interface {
	Next(r *rand.Rand) int64
}

// Uniform is YCSB's UniformLongGenerator over [lo, hi].
type Uniform struct{ Lo, Hi int64 }

func (u Uniform) Next(r *rand.Rand) int64 { return u.Lo + r.Int64N(u.Hi-u.Lo+1) }

// Constant is YCSB's ConstantIntegerGenerator.
type Constant int64

func (c Constant) Next(*rand.Rand) int64 { return int64(c) }

// ZipfianChooser draws from a Zipfian over all its items (YCSB's ZipfianGenerator(min, max)).
type ZipfianChooser struct{ Z *Zipfian }

func (z ZipfianChooser) Next(r *rand.Rand) int64 { return z.Z.Value(r) }

// Scrambled is YCSB's ScrambledZipfianGenerator over [min, max]: a zipfian draw over 10^10 items (zeta
// precomputed as YCSB's ZETAN), hashed with FNV-1a and taken modulo the item count, so that the popular keys are
// spread over the key space instead of clustered at its start.
type Scrambled struct {
	min, count int64
	z          *Zipfian
}

// NewScrambled is ScrambledZipfianGenerator(min, max) with YCSB's zipfian constant.
func NewScrambled(min, max int64) *Scrambled {
	return &Scrambled{min: min, count: max - min + 1, z: NewZipfian(0, scrambledItems, ZipfianConstant, scrambledZetan)}
}

func (s *Scrambled) Next(r *rand.Rand) int64 {
	return s.min + FNVHash64(s.z.Value(r))%s.count
}

// Hotspot is YCSB's HotspotIntegerGenerator over [lo, hi]: a share opn of the draws go uniformly to the hot
// set, the first (hi-lo+1) x data of the items, the rest uniformly to the others.
type Hotspot struct {
	lo, hot, cold int64
	opn           float64
}

// NewHotspot is HotspotIntegerGenerator(lo, hi, hotsetfraction, hotopnfraction).
func NewHotspot(lo, hi int64, data, opn float64) *Hotspot {
	n := hi - lo + 1
	hot := int64(float64(n) * data)
	return &Hotspot{lo: lo, hot: hot, cold: n - hot, opn: opn}
}

func (h *Hotspot) Next(r *rand.Rand) int64 {
	if r.Float64() < h.opn {
		return h.lo + r.Int64N(h.hot)
	}
	return h.lo + h.hot + r.Int64N(h.cold)
}

// Sequential is YCSB's SequentialGenerator over [lo, hi]: one counter shared by every user, cycling.
type Sequential struct {
	lo, n   int64
	counter *atomic.Int64
}

func (s Sequential) Next(*rand.Rand) int64 { return s.lo + (s.counter.Add(1)-1)%s.n }

// Latest is YCSB's SkewedLatestGenerator: a zipfian draw back from the newest acknowledged insert, so that
// the most recent records are the most popular.
type Latest struct {
	basis *AckCounter
	z     *Zipfian
}

// NewLatest is SkewedLatestGenerator(basis): its zipfian over the records acknowledged so far.
func NewLatest(basis *AckCounter) *Latest {
	return &Latest{basis: basis, z: NewZipfian(0, max(1, basis.Last())-1, ZipfianConstant, -1)}
}

// Clone is a copy for another user.
func (l *Latest) Clone() *Latest { return &Latest{basis: l.basis, z: l.z.Clone()} }

func (l *Latest) Next(r *rand.Rand) int64 {
	last := l.basis.Last()
	return last - l.z.Next(r, last)
}

// Exponential is YCSB's ExponentialGenerator(percentile, range) counted back from the newest acknowledged
// insert (CoreWorkload.nextKeynum's exponential case).
type Exponential struct {
	basis *AckCounter
	gamma float64
}

// NewExponential: percentile per cent of the draws fall within the newest rangeN records.
func NewExponential(basis *AckCounter, percentile, rangeN float64) *Exponential {
	return &Exponential{basis: basis, gamma: -math.Log(1-percentile/100) / rangeN}
}

func (e *Exponential) Next(r *rand.Rand) int64 {
	for {
		// ThreadLocalRandom.nextDouble is in [0, 1): 1-u keeps the logarithm finite
		k := e.basis.Last() - int64(-math.Log(1-r.Float64())/e.gamma)
		if k >= 0 {
			return k
		}
	}
}

// AckCounter is YCSB's AcknowledgedCounterGenerator: the insert key sequence of a run, handed out in order,
// whose Last is the highest key below which every key handed out has been acknowledged (inserted or failed):
// the newest record a read may choose.
type AckCounter struct {
	next  atomic.Int64
	limit atomic.Int64
	mu    sync.Mutex
	win   []bool
}

// ackWindow is YCSB's WINDOW_SIZE: the keys that may be handed out and not yet acknowledged.
const ackWindow = 1 << 20

// NewAckCounter starts the sequence at start; Last is start-1 until start is acknowledged.
func NewAckCounter(start int64) *AckCounter {
	c := &AckCounter{win: make([]bool, ackWindow)}
	c.next.Store(start)
	c.limit.Store(start - 1)
	return c
}

// Next hands out the next key.
func (c *AckCounter) Next() int64 { return c.next.Add(1) - 1 }

// Handed is the next key Next would hand out.
func (c *AckCounter) Handed() int64 { return c.next.Load() }

// Last is the acknowledged limit.
func (c *AckCounter) Last() int64 { return c.limit.Load() }

// Ack acknowledges key v and moves the limit over the keys acknowledged in a row.
func (c *AckCounter) Ack(v int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	slot := v & (ackWindow - 1)
	if c.win[slot] {
		return fmt.Errorf("more than %d insert keys handed out and not acknowledged", ackWindow)
	}
	c.win[slot] = true
	l := c.limit.Load()
	i := l + 1
	for ; i < l+1+ackWindow; i++ { // at most the window once, as YCSB's
		s := i & (ackWindow - 1)
		if !c.win[s] {
			break
		}
		c.win[s] = false
	}
	c.limit.Store(i - 1)
	return nil
}

// Op chooser: YCSB's DiscreteGenerator over the operations whose proportion is positive, the weights
// normalised by their sum, in CoreWorkload's order.
type opChooser struct {
	ops []int
	cum []float64 // cumulative shares
}

func newOpChooser(props [numOps]float64) opChooser {
	var c opChooser
	sum := 0.0
	for _, p := range props {
		if p > 0 {
			sum += p
		}
	}
	acc := 0.0
	for op, p := range props {
		if p > 0 {
			acc += p / sum
			c.ops = append(c.ops, op)
			c.cum = append(c.cum, acc)
		}
	}
	return c
}

func (c opChooser) next(r *rand.Rand) int {
	u := r.Float64()
	for i, a := range c.cum {
		if u < a {
			return c.ops[i]
		}
	}
	return c.ops[len(c.ops)-1] // rounding: the shares add up to just under 1
}

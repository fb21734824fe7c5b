// Package dbgen generates the TPC-H population: the same rows, byte for byte, as the TPC's reference generator
// (dbgen) at any scale factor, for any split of a table into parts. Every column has its own random stream
// (a Park-Miller generator, seeded per column as in dbgen), advanced by a fixed number of draws per row, so any
// row range can be generated on its own: parts generate in parallel and concatenate to the whole table.
package dbgen

const (
	prngMultiplier = 16807
	prngModulus    = 2147483647
)

// rowRand is one column's stream: a Park-Miller generator that uses exactly seedsPerRow draws per row.
type rowRand struct {
	seed        int64
	usage       int32
	seedsPerRow int32
}

func newRowRand(seed int64, seedsPerRow int32) rowRand {
	return rowRand{seed: seed, seedsPerRow: seedsPerRow}
}

func (r *rowRand) next() int64 {
	r.seed = (r.seed * prngMultiplier) % prngModulus
	r.usage++
	return r.seed
}

// intn is dbgen's RANDOM(lo, hi): a draw scaled into [lo, hi] through a double, with dbgen's 32-bit range
// arithmetic (which wraps for the full int32 range).
func (r *rowRand) intn(lo, hi int32) int32 {
	r.next()
	rng := float64(int32(uint32(hi-lo) + 1))
	return lo + int32((float64(r.seed)/prngModulus)*rng)
}

func (r *rowRand) rowFinished() {
	r.advance(int64(r.seedsPerRow - r.usage))
	r.usage = 0
}

func (r *rowRand) advanceRows(rows int64) {
	if r.usage != 0 {
		r.rowFinished()
	}
	r.advance(int64(r.seedsPerRow) * rows)
}

// advance skips count draws in O(log count): seed * multiplier^count mod modulus.
func (r *rowRand) advance(count int64) {
	m := int64(prngMultiplier)
	for count > 0 {
		if count%2 != 0 {
			r.seed = (m * r.seed) % prngModulus
		}
		count /= 2
		m = (m * m) % prngModulus
	}
}

// rowRand64 is dbgen's 64-bit stream, used for keys at scale factors of 30,000 and more. Skipping rows uses the
// 32-bit generator's arithmetic, as dbgen does.
type rowRand64 struct {
	seed        int64
	usage       int32
	seedsPerRow int32
}

func (r *rowRand64) next() int64 {
	r.seed = r.seed*6364136223846793005 + 1
	r.usage++
	return r.seed
}

func (r *rowRand64) int64n(lo, hi int64) int64 {
	r.next()
	s := r.seed
	if s < 0 {
		s = -s
	}
	return lo + s%(hi-lo+1)
}

func (r *rowRand64) rowFinished() {
	r.advance(int64(r.seedsPerRow - r.usage))
	r.usage = 0
}

func (r *rowRand64) advanceRows(rows int64) {
	if r.usage != 0 {
		r.rowFinished()
	}
	r.advance(int64(r.seedsPerRow) * rows)
}

func (r *rowRand64) advance(count int64) {
	m := int64(prngMultiplier)
	for count > 0 {
		if count%2 != 0 {
			r.seed = (m * r.seed) % prngModulus
		}
		count /= 2
		m = (m * m) % prngModulus
	}
}

// boundedInt draws integers in a fixed range.
type boundedInt struct {
	lo, hi int32
	r      rowRand
}

func newBoundedInt(seed int64, lo, hi int32, seedsPerRow int32) boundedInt {
	return boundedInt{lo: lo, hi: hi, r: newRowRand(seed, seedsPerRow)}
}

func (b *boundedInt) next() int32         { return b.r.intn(b.lo, b.hi) }
func (b *boundedInt) rowFinished()        { b.r.rowFinished() }
func (b *boundedInt) advanceRows(n int64) { b.r.advanceRows(n) }

// boundedLong draws keys: through the 32-bit stream below SF 30,000, the 64-bit one from there on.
type boundedLong struct {
	lo, hi int64
	wide   bool
	r      rowRand
	r64    rowRand64
}

func newBoundedLong(seed int64, wide bool, lo, hi int64, seedsPerRow int32) boundedLong {
	return boundedLong{lo: lo, hi: hi, wide: wide, r: newRowRand(seed, seedsPerRow), r64: rowRand64{seed: seed, seedsPerRow: seedsPerRow}}
}

func (b *boundedLong) next() int64 {
	if b.wide {
		return b.r64.int64n(b.lo, b.hi)
	}
	return int64(b.r.intn(int32(b.lo), int32(b.hi)))
}

func (b *boundedLong) rowFinished() {
	if b.wide {
		b.r64.rowFinished()
	} else {
		b.r.rowFinished()
	}
}

func (b *boundedLong) advanceRows(n int64) {
	if b.wide {
		b.r64.advanceRows(n)
	} else {
		b.r.advanceRows(n)
	}
}

// alnumRand is dbgen's random v-string (addresses): a length in [0.4, 1.6] x the mean, then characters from a
// 64-symbol alphabet, five 6-bit symbols per draw. It reserves nine draws per row.
type alnumRand struct {
	r        rowRand
	min, max int32
}

const alphaNumeric = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,"

func newAlnumRand(seed int64, mean int32) alnumRand {
	return alnumRand{r: newRowRand(seed, 9), min: int32(float64(mean) * 0.4), max: int32(float64(mean) * 1.6)}
}

func (a *alnumRand) appendNext(b []byte) []byte {
	n := int(a.r.intn(a.min, a.max))
	g := a.r // the characters come from a copy: the row's draws are realigned by rowFinished
	var idx int64
	for i := 0; i < n; i++ {
		if i%5 == 0 {
			idx = int64(g.intn(0, 2147483647))
		}
		b = append(b, alphaNumeric[idx&0x3f])
		idx >>= 6
	}
	return b
}

func (a *alnumRand) rowFinished()        { a.r.rowFinished() }
func (a *alnumRand) advanceRows(n int64) { a.r.advanceRows(n) }

// phoneRand is a phone number: country code from the nation, three random groups.
type phoneRand struct{ r rowRand }

func newPhoneRand(seed int64) phoneRand { return phoneRand{r: newRowRand(seed, 3)} }

func (p *phoneRand) appendNext(b []byte, nation int64) []byte {
	cc := 10 + nation%90
	l1, l2, l3 := p.r.intn(100, 999), p.r.intn(100, 999), p.r.intn(1000, 9999)
	b = appendPadded(b, cc, 2)
	b = append(b, '-')
	b = appendPadded(b, int64(l1), 3)
	b = append(b, '-')
	b = appendPadded(b, int64(l2), 3)
	b = append(b, '-')
	return appendPadded(b, int64(l3), 4)
}

func (p *phoneRand) rowFinished()        { p.r.rowFinished() }
func (p *phoneRand) advanceRows(n int64) { p.r.advanceRows(n) }

// stringRand picks a value of a weighted distribution.
type stringRand struct {
	r rowRand
	d *distribution
}

func newStringRand(seed int64, d *distribution, seedsPerRow int32) stringRand {
	return stringRand{r: newRowRand(seed, seedsPerRow), d: d}
}

func (s *stringRand) next() string        { return s.d.random(&s.r) }
func (s *stringRand) rowFinished()        { s.r.rowFinished() }
func (s *stringRand) advanceRows(n int64) { s.r.advanceRows(n) }

// textRand is a comment: a substring of the text pool at a random offset with a random length in
// [0.4, 1.6] x the mean, copied into the textRand's buffer (valid until its next comment).
type textRand struct {
	r        rowRand
	pool     *Pool
	min, max int32
	buf      []byte
}

func newTextRand(seed int64, pool *Pool, mean float64, rowsPerRow int32) textRand {
	return textRand{r: newRowRand(seed, 2*rowsPerRow), pool: pool, min: int32(mean * 0.4), max: int32(mean * 1.6)}
}

func (t *textRand) next() []byte {
	off := t.r.intn(0, int32(t.pool.Size())-t.max)
	n := t.r.intn(t.min, t.max)
	t.buf = t.pool.Append(t.buf[:0], int(off), int(n))
	return t.buf
}

func (t *textRand) rowFinished()        { t.r.rowFinished() }
func (t *textRand) advanceRows(n int64) { t.r.advanceRows(n) }

func appendPadded(b []byte, v int64, width int) []byte {
	var tmp [20]byte
	i := len(tmp)
	for v >= 10 {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	i--
	tmp[i] = byte('0' + v)
	for pad := width - (len(tmp) - i); pad > 0; pad-- {
		b = append(b, '0')
	}
	return append(b, tmp[i:]...)
}

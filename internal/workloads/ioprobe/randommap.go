package ioprobe

import (
	"math/bits"
	"math/rand/v2"
	"slices"
)

// randomMap is fio's random map: a bit per block of the job's region, set when an IO of the pass covered it.
// A block is the job's smallest block size over both directions (fio's rw_min_bs); full keeps a bit per word
// of the map, set when the word is, so that the next free block is found without reading every word.
type randomMap struct {
	words []uint64
	full  []uint64
	n     uint64 // blocks
}

func newRandomMap(n uint64) *randomMap {
	w := (n + 63) / 64
	return &randomMap{words: make([]uint64, w), full: make([]uint64, (w+63)/64), n: n}
}

func (m *randomMap) isSet(b uint64) bool { return b >= m.n || m.words[b/64]&(1<<(b%64)) != 0 }

// mark sets up to nr blocks from b, up to the first one already set or the map's end, and says how many it
// set (fio's axmap_set_nr): an IO covers the run of free blocks from its start, no more.
func (m *randomMap) mark(b, nr uint64) uint64 {
	set := uint64(0)
	for set < nr && b+set < m.n {
		x := b + set
		w, bit := x/64, x%64
		free := ^m.words[w] >> bit // the word's free blocks from x on, as ones (zeros shifted in above)
		run := min(uint64(bits.TrailingZeros64(^free)), nr-set, m.n-x)
		if run == 0 {
			break
		}
		m.words[w] |= (^uint64(0) >> (64 - run)) << bit
		if m.words[w] == ^uint64(0) {
			m.full[w/64] |= 1 << (w % 64)
		}
		set += run
		if bit+run < 64 {
			break // stopped inside the word: at a set block, or done
		}
	}
	return set
}

// nextFree is the first free block after b, from the map's start when none is after it (fio's
// axmap_next_free); ok is false when every block is set.
func (m *randomMap) nextFree(b uint64) (uint64, bool) {
	if x, ok := m.freeFrom(b + 1); ok {
		return x, true
	}
	return m.freeFrom(0)
}

// freeFrom is the first free block at b or after it.
func (m *randomMap) freeFrom(b uint64) (uint64, bool) {
	if b >= m.n {
		return 0, false
	}
	w := b / 64
	if free := ^m.words[w] &^ (1<<(b%64) - 1); free != 0 {
		return m.below(w*64 + uint64(bits.TrailingZeros64(free)))
	}
	// the next word not full, by the summary
	nw := uint64(len(m.words))
	for w++; w < nw; {
		f := ^m.full[w/64] &^ (1<<(w%64) - 1)
		if f == 0 {
			w = (w/64 + 1) * 64
			continue
		}
		if w = w/64*64 + uint64(bits.TrailingZeros64(f)); w >= nw {
			break
		}
		return m.below(w*64 + uint64(bits.TrailingZeros64(^m.words[w])))
	}
	return 0, false
}

// below is block x if the map has it (the last word's bits past the map's end are never set).
func (m *randomMap) below(x uint64) (uint64, bool) {
	if x < m.n {
		return x, true
	}
	return 0, false
}

// reset starts a new pass: every block free.
func (m *randomMap) reset() {
	clear(m.words)
	clear(m.full)
}

// randomIOs picks a random job's IOs as fio does (io_u.c: get_next_rand_offset, get_next_buflen,
// mark_random_map). A direction's offset is a block drawn uniformly below the region's end, in units of
// the direction's smallest block size (fio's blockalign); with the random map, a block already done this pass
// gives way to the next free one, and the IO's length, drawn so that the IO fits in the region, is trimmed
// to the run of free blocks from its start, which it marks done. Without the map (norandommap) the draw is
// all, and blocks may repeat.
type randomIOs struct {
	size  int64         // the job's region
	unit  [2]int64      // per direction: its smallest block size
	sizes [2]blockSizes // with a split in fio's order: by share, the smallest first
	m     *randomMap    // nil: norandommap
	rng   *rand.Rand
}

func newRandomIOs(j *Job, rng *rand.Rand) *randomIOs {
	r := &randomIOs{size: j.Size, rng: rng}
	for d := range 2 {
		b := j.sizes(d)
		if len(b.split) > 0 {
			b.split = slices.Clone(b.split)
			slices.SortStableFunc(b.split, func(x, y bsShare) int { return x.pct - y.pct })
		}
		r.sizes[d], r.unit[d] = b, int64(b.min)
	}
	if !j.NoRandomMap {
		// a bit per block of the smallest size either direction uses; each direction reads the bits in its own
		// unit (fio's map is sized by rw_min_bs and marked by each direction's min_bs)
		r.m = newRandomMap(uint64(j.Size / int64(j.minBS())))
	}
	return r
}

// next is direction d's next IO: its offset in the region and its length. ok is false when the random map
// has no free block left for the direction: the pass is over (fio ends the job's IO, or with time_based
// resets the map and goes on).
func (r *randomIOs) next(d int) (off int64, n int, ok bool) {
	u := r.unit[d]
	b := uint64(r.rng.Int64N(r.size / u))
	if r.m != nil && r.m.isSet(b) {
		if b, ok = r.m.nextFree(b); !ok {
			return 0, 0, false
		}
	}
	off = int64(b) * u
	if off+u > r.size {
		// a free block of the map beyond the direction's last whole block (reads and writes of different
		// smallest sizes share the map): fio's offset "exceeds the file", and its pass ends there
		return 0, 0, false
	}
	n = r.sizes[d].drawFit(r.rng, r.size-off)
	if r.m != nil {
		if set := int64(r.m.mark(b, uint64((int64(n)+u-1)/u))); set*u < int64(n) {
			n = int(set * u)
		}
	}
	return off, n, true
}

// reset starts a new pass over the region.
func (r *randomIOs) reset() {
	if r.m != nil {
		r.m.reset()
	}
}

// drawFit is one IO's size no longer than room (at least the smallest size), as fio's get_next_buflen: a
// split's entry by share, walked in the split's order (fio's is by share), the first covering the draw that
// fits; a range's size uniform from its smallest; each rounded down to a multiple of the smallest and capped
// at the largest, drawn again until it fits.
func (b *blockSizes) drawFit(rng *rand.Rand, room int64) int {
	if b.max == b.min {
		return b.min
	}
	fits := func(n int) bool { return int64(n) <= room }
	round := func(n int) int {
		n -= n % b.min
		return min(n, b.max)
	}
	if len(b.split) > 0 {
		fitting := false
		for _, s := range b.split {
			fitting = fitting || s.pct > 0 && fits(round(s.size))
		}
		if !fitting {
			return b.min
		}
	}
	for {
		var n int
		if len(b.split) > 0 {
			r, cum := rng.IntN(100), 0
			for _, s := range b.split {
				if s.pct == 0 {
					continue
				}
				n, cum = s.size, cum+s.pct
				if r < cum && fits(n) {
					break
				}
			}
		} else {
			n = b.min + int(float64(b.max)*rng.Float64())
		}
		if n = round(n); fits(n) {
			return n
		}
	}
}

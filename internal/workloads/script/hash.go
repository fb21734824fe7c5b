package script

import "math/bits"

// pgbench's hash functions and permute, defined as pgbench defines them (getHashFnv1a, getHashMurmur2 and
// permute in pgbench.c, the generator of src/common/pg_prng.c), so that a script gives the same values as
// under pgbench: a hash or permutation of a key is part of what the script's SQL touches.

const (
	fnvPrime       = 0x100000001b3
	fnvOffsetBasis = 0xcbf29ce484222325
	mm2Mul         = 0xc6a4a7935bd1e995
	mm2MulTimes8   = 0x35253c9ade8f4ca8 // mm2Mul * 8 (the key's size in bytes)
	mm2Rot         = 47
)

// hashFNV1a is FNV-1a over the value's eight bytes, lowest first, from the offset basis xor the seed.
func hashFNV1a(val int64, seed uint64) int64 {
	h := uint64(fnvOffsetBasis) ^ seed
	for i := 0; i < 8; i++ {
		h ^= uint64(val>>(8*i)) & 0xff
		h *= fnvPrime
	}
	return int64(h)
}

// hashMurmur2 is MurmurHash64A of the value as one 8-byte block.
func hashMurmur2(val int64, seed uint64) int64 {
	h := seed ^ mm2MulTimes8
	k := uint64(val)
	k *= mm2Mul
	k ^= k >> mm2Rot
	k *= mm2Mul
	h ^= k
	h *= mm2Mul
	h ^= h >> mm2Rot
	h *= mm2Mul
	h ^= h >> mm2Rot
	return int64(h)
}

// pgPrng is PostgreSQL's pg_prng: xoroshiro128**, its state seeded from a 64-bit seed by splitmix64.
type pgPrng struct{ s0, s1 uint64 }

func splitmix64(state *uint64) uint64 {
	*state += 0x9E3779B97F4A7C15
	z := *state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func newPgPrng(seed uint64) *pgPrng {
	p := &pgPrng{}
	p.s0 = splitmix64(&seed)
	p.s1 = splitmix64(&seed)
	if p.s0 == 0 && p.s1 == 0 { // an all-zero state would stay zero
		p.s0 = 0x5851F42D4C957F2D
	}
	return p
}

func (p *pgPrng) uint64() uint64 {
	s0 := p.s0
	sx := p.s1 ^ s0
	v := bits.RotateLeft64(s0*5, 7) * 9
	p.s0 = bits.RotateLeft64(s0, 24) ^ sx ^ (sx << 16)
	p.s1 = bits.RotateLeft64(sx, 37)
	return v
}

// uint64Range is uniform in [lo, hi] by bitmask rejection (pg_prng_uint64_range).
func (p *pgPrng) uint64Range(lo, hi uint64) uint64 {
	if hi <= lo {
		return lo
	}
	span := hi - lo
	shift := uint(63 - (bits.Len64(span) - 1))
	for {
		if v := p.uint64() >> shift; v <= span {
			return lo + v
		}
	}
}

// permute is pgbench's permute(val, size, seed): a pseudorandom permutation of [0, size) chosen by the seed,
// applied to val mod size (size > 0). Six rounds of a random odd multiply, xor and rotate of the overlapping
// lower and upper power-of-two halves of the range, then a random offset.
func permute(val, size int64, seed uint64) int64 {
	if size < 2 {
		return 0
	}
	p := newPgPrng(seed)
	n := uint64(size)
	v := uint64(val) % n
	masklen := uint(bits.Len64(n) - 1)
	mask := uint64(1)<<masklen - 1
	for i := 0; i < 6; i++ {
		m := p.uint64()&mask | 1
		r := p.uint64() & mask
		if v <= mask {
			v = (v*m ^ r) & mask
			v = (v<<1)&mask | v>>(masklen-1)
		}
		m = p.uint64()&mask | 1
		r = p.uint64() & mask
		if t := n - 1 - v; t <= mask {
			t = (t*m ^ r) & mask
			t = (t<<1)&mask | t>>(masklen-1)
			v = n - 1 - t
		}
		v = (v + p.uint64Range(0, n-1)) % n
	}
	return int64(v)
}

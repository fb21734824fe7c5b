package dbgen

import "testing"

// BenchmarkPoolAppend copies comments of lineitem's lengths out of the pool at random offsets, as the generators
// do (about 300 ns on the 2-core machine: two dependent cache misses, the index entry and the tokens).
func BenchmarkPoolAppend(b *testing.B) {
	p := TextPool()
	r := newRowRand(1, 2)
	var buf []byte
	b.ResetTimer()
	for range b.N {
		off := r.intn(0, int32(p.Size())-44)
		n := r.intn(10, 43)
		buf = p.Append(buf[:0], int(off), int(n))
	}
}

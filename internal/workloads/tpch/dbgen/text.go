package dbgen

import (
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"syscall"
	"unsafe"
)

// The text pool: 300 MiB of sentences generated from the specification's grammar (clause 4.2.2.14) with
// dbgen's seed. Every comment column is a substring of it at a random offset.
//
// The pool is held as tokens, not as text: a token is one entry of the grammar's word lists with what follows
// it (a space, or a comma or a terminator and a space), two bytes each, about 80 MiB for the 300 MiB of text,
// with an index giving the token at every 128th byte of the text. A comment is copied out of the tokens
// (Pool.Append): a few tokens skipped from the index entry, a few copied.

const textPoolSize = 300 * 1024 * 1024

// poolBlock is the text's bytes per index entry.
const poolBlock = 128

// Pool is the text pool as tokens.
type Pool struct {
	toks  []uint16 // word id << 3 | suffix
	index []uint32 // per poolBlock bytes of text: the token holding the block's first byte << 6 | its offset in it
}

// A token's suffix: what follows the word, in the text.
var suffixes = [8]string{" ", ", ", ". ", "; ", ": ", "? ", "! ", "-- "}

const suffixComma = 1

// tokText and tokLen are each token value's text and its length.
var (
	tokText  []string
	tokLen   []uint8
	tokSlots [][tokSlot]byte
)

// tokSlot is the room a token's text has in tokSlots: more than the longest token.
const tokSlot = 32

// theID is the word "the" that follows a preposition; terminatorSuffix maps distTerminators' entries to suffixes.
var (
	theID            uint16
	terminatorSuffix []uint16
)

func initTokens() {
	ids := map[string]uint16{}
	var words []string
	id := func(w string) uint16 {
		if i, ok := ids[w]; ok {
			return i
		}
		ids[w] = uint16(len(words))
		words = append(words, w)
		return ids[w]
	}
	for _, d := range []*distribution{distNouns, distVerbs, distAdjectives, distAdverbs, distAuxiliaries, distArticles, distPrepositions} {
		d.ids = make([]uint16, len(d.expand))
		for i, w := range d.expand {
			d.ids[i] = id(w)
		}
	}
	theID = id("the")
	for _, t := range distTerminators.expand {
		for k, s := range suffixes {
			if k > suffixComma && s == t+" " {
				terminatorSuffix = append(terminatorSuffix, uint16(k))
			}
		}
	}
	if len(terminatorSuffix) != len(distTerminators.expand) {
		panic("dbgen: a terminator without its suffix")
	}
	tokText = make([]string, len(words)*len(suffixes))
	tokLen = make([]uint8, len(tokText))
	tokSlots = make([][tokSlot]byte, len(tokText))
	for w, word := range words {
		for s, suf := range suffixes {
			t := w<<3 | s
			tokText[t] = word + suf
			if len(tokText[t]) >= tokSlot {
				panic("dbgen: a token longer than its slot")
			}
			tokLen[t] = uint8(len(tokText[t]))
			copy(tokSlots[t][:], tokText[t])
		}
	}
}

// poolMemory is memory mapped outside the Go heap where it can be, so that the collector neither scans nor
// counts the pool as live heap (the heap would be let grow by as much again before each collection).
func poolMemory[T any](n int) []T {
	size := n * int(unsafe.Sizeof(*new(T)))
	if b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON); err == nil {
		// huge pages where the kernel has them: comments are read at random offsets of the whole pool, and with
		// 4 KiB pages nearly every read would miss the TLB
		syscall.Madvise(b, 14) // MADV_HUGEPAGE
		return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)[:0]
	}
	return make([]T, 0, n)
}

var (
	poolOnce sync.Once
	pool     *Pool
)

// TextPool returns the shared text pool, generating it on first use (about a second).
func TextPool() *Pool {
	poolOnce.Do(func() {
		initTokens()
		// 41.8 million tokens; the mapping is only touched as far as it is used
		g := poolGen{p: &Pool{toks: poolMemory[uint16](textPoolSize / 4), index: poolMemory[uint32](textPoolSize/poolBlock + 64)}}
		r := newRowRand(933588178, 2147483647)
		for g.bytes() < textPoolSize {
			g.sentence(&r)
		}
		g.commit()
		pool = g.p
	})
	return pool
}

// poolGen writes the pool's tokens as the grammar draws its words. A comma or terminator changes the suffix of
// the last token, so a token is indexed once the next one starts.
type poolGen struct {
	p   *Pool
	pos int // the text's bytes before the last token
}

func (g *poolGen) bytes() int {
	if len(g.p.toks) == 0 {
		return 0
	}
	return g.pos + int(tokLen[g.p.toks[len(g.p.toks)-1]])
}

// commit indexes the last token: the block boundary it holds, if any (a token is shorter than a block).
func (g *poolGen) commit() {
	n := len(g.p.toks)
	if n == 0 {
		return
	}
	l := int(tokLen[g.p.toks[n-1]])
	if b := len(g.p.index) * poolBlock; b >= g.pos && b < g.pos+l {
		g.p.index = append(g.p.index, uint32(n-1)<<6|uint32(b-g.pos))
	}
	g.pos += l
}

func (g *poolGen) word(d *distribution, r *rowRand) {
	g.add(d.ids[r.intn(0, int32(len(d.expand))-1)])
}

func (g *poolGen) add(id uint16) {
	g.commit()
	g.p.toks = append(g.p.toks, id<<3)
}

func (g *poolGen) suffix(s uint16) {
	t := &g.p.toks[len(g.p.toks)-1]
	*t = *t&^7 | s
}

func (g *poolGen) sentence(r *rowRand) {
	syntax := distGrammar.random(r)
	for i := 0; i < len(syntax); i += 2 {
		switch syntax[i] {
		case 'V':
			g.verbPhrase(r)
		case 'N':
			g.nounPhrase(r)
		case 'P':
			g.word(distPrepositions, r)
			g.add(theID)
			g.nounPhrase(r)
		case 'T':
			g.suffix(terminatorSuffix[r.intn(0, int32(len(distTerminators.expand))-1)])
		}
	}
}

func (g *poolGen) verbPhrase(r *rowRand) {
	syntax := distVerbPhrase.random(r)
	for i := 0; i < len(syntax); i += 2 {
		switch syntax[i] {
		case 'D':
			g.word(distAdverbs, r)
		case 'V':
			g.word(distVerbs, r)
		case 'X':
			g.word(distAuxiliaries, r)
		}
	}
}

func (g *poolGen) nounPhrase(r *rowRand) {
	syntax := distNounPhrase.random(r)
	for i := 0; i < len(syntax); i++ {
		switch syntax[i] {
		case 'A':
			g.word(distArticles, r)
		case 'J':
			g.word(distAdjectives, r)
		case 'D':
			g.word(distAdverbs, r)
		case 'N':
			g.word(distNouns, r)
		case ',':
			g.suffix(suffixComma)
		}
	}
}

// Size is the pool's length as text.
func (p *Pool) Size() int { return textPoolSize }

// Append appends the pool's text [off, off+n) to b.
func (p *Pool) Append(b []byte, off, n int) []byte {
	e := p.index[off/poolBlock]
	toks := p.toks[e>>6:]
	skip := off%poolBlock + int(e&63)
	t := 0
	for l := int(tokLen[toks[0]]); skip >= l; l = int(tokLen[toks[t]]) {
		skip -= l
		t++
	}
	start := len(b)
	b = slices.Grow(b, n+tokSlot)
	out := b[start : start+n+tokSlot]
	pos := copy(out, tokText[toks[t]][skip:])
	for t++; pos < n; t++ {
		// a whole slot is written and the position moves by the token's length: one wide store per token
		*(*[tokSlot]byte)(out[pos:]) = tokSlots[toks[t]]
		pos += int(tokLen[toks[t]])
	}
	return b[:start+n]
}

// GenHeapLimit is the Go heap's ceiling while data is generated (HoldGenerationGC).
const GenHeapLimit = 64 << 20

// HoldGenerationGC sets the collector for generating data: generation allocates fast over a small live heap
// (the text pool lives outside it), so the heap is collected when it nears GenHeapLimit rather than each time it
// doubles, which at a live heap of a few MiB would be hundreds of collections a second. restore puts the
// settings back. A GOGC or GOMEMLIMIT in the environment is left alone.
func HoldGenerationGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	gc := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(GenHeapLimit)
	return func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(gc)
	}
}

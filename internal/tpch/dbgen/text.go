package dbgen

import (
	"os"
	"runtime/debug"
	"sync"
	"syscall"
)

// The text pool: 300 MiB of sentences generated from the specification's grammar (clause 4.2.2.14) with
// dbgen's seed. Every comment column is a substring of it.

const textPoolSize = 300 * 1024 * 1024

// poolSlack is room past the pool's size for the last sentence (a sentence is a few hundred bytes at most).
const poolSlack = 64 << 10

// poolMemory is the pool's memory: mapped outside the Go heap where it can be, so that the collector does not
// count 300 MiB of text as live heap and let the garbage grow by as much again before it collects (gen's and
// build's peak memory would be twice the pool).
func poolMemory(n int) []byte {
	if b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON); err == nil {
		// huge pages where the kernel has them: comments are read at random offsets of the whole pool, and with
		// 4 KiB pages nearly every read would miss the TLB
		syscall.Madvise(b, 14) // MADV_HUGEPAGE
		return b
	}
	return make([]byte, n)
}

var (
	poolOnce sync.Once
	pool     []byte
)

// TextPool returns the shared text pool, generating it on first use (about a second).
func TextPool() []byte {
	poolOnce.Do(func() {
		r := newRowRand(933588178, 2147483647)
		b := poolMemory(textPoolSize + poolSlack)[:0]
		for len(b) < textPoolSize {
			b = sentence(b, &r)
		}
		pool = b[:textPoolSize]
	})
	return pool
}

func sentence(b []byte, r *rowRand) []byte {
	syntax := distGrammar.random(r)
	for i := 0; i < len(syntax); i += 2 {
		switch syntax[i] {
		case 'V':
			b = verbPhrase(b, r)
		case 'N':
			b = nounPhrase(b, r)
		case 'P':
			b = append(b, distPrepositions.random(r)...)
			b = append(b, " the "...)
			b = nounPhrase(b, r)
		case 'T':
			b = b[:len(b)-1]
			b = append(b, distTerminators.random(r)...)
		}
		if b[len(b)-1] != ' ' {
			b = append(b, ' ')
		}
	}
	return b
}

func verbPhrase(b []byte, r *rowRand) []byte {
	syntax := distVerbPhrase.random(r)
	for i := 0; i < len(syntax); i += 2 {
		var d *distribution
		switch syntax[i] {
		case 'D':
			d = distAdverbs
		case 'V':
			d = distVerbs
		case 'X':
			d = distAuxiliaries
		}
		b = append(b, d.random(r)...)
		b = append(b, ' ')
	}
	return b
}

func nounPhrase(b []byte, r *rowRand) []byte {
	syntax := distNounPhrase.random(r)
	for i := 0; i < len(syntax); i++ {
		var d *distribution
		switch syntax[i] {
		case 'A':
			d = distArticles
		case 'J':
			d = distAdjectives
		case 'D':
			d = distAdverbs
		case 'N':
			d = distNouns
		case ',':
			b = append(b[:len(b)-1], ", "...)
			continue
		default:
			continue
		}
		b = append(b, d.random(r)...)
		b = append(b, ' ')
	}
	return b
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

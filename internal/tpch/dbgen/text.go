package dbgen

import "sync"

// The text pool: 300 MiB of sentences generated from the specification's grammar (clause 4.2.2.14) with
// dbgen's seed. Every comment column is a substring of it.

const textPoolSize = 300 * 1024 * 1024

var (
	poolOnce sync.Once
	pool     []byte
)

// TextPool returns the shared text pool, generating it on first use (about a second).
func TextPool() []byte {
	poolOnce.Do(func() {
		r := newRowRand(933588178, 2147483647)
		b := make([]byte, 0, textPoolSize+256)
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

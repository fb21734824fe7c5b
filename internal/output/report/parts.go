package report

import (
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Part is a section that renders one part of a run's result when the result holds it: part picks it out (nil
// when the run has none), render draws it.
func Part[P any](part func(*result.Result) *P, render func(b *strings.Builder, p *P, of string)) Section {
	return func(b *strings.Builder, r *result.Result, of string) {
		if p := part(r); p != nil {
			render(b, p, of)
		}
	}
}

// Sections is a section made of several, drawn in order.
func Sections(s ...Section) Section {
	return func(b *strings.Builder, r *result.Result, of string) {
		for _, s := range s {
			s(b, r, of)
		}
	}
}

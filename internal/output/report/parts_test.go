package report

import (
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// A Part draws only what the result holds; Sections draw theirs in order.
func TestPartAndSections(t *testing.T) {
	probe := Part(func(r *result.Result) *result.Probe { return r.Probe }, func(b *strings.Builder, p *result.Probe, of string) {
		b.WriteString("<p>" + p.Kind + of + "</p>")
	})
	s := Sections(probe, probe)
	var b strings.Builder
	s(&b, &result.Result{}, " (r1)")
	if b.Len() != 0 {
		t.Errorf("a result without the part drew %q", b.String())
	}
	s(&b, &result.Result{Probe: &result.Probe{Kind: "cpu"}}, " (r1)")
	if got := b.String(); got != "<p>cpu (r1)</p><p>cpu (r1)</p>" {
		t.Errorf("drew %q", got)
	}
}

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

// TestReportShowsSides: a run whose sides ran alone first shows each part and each side's figure alone,
// together and the share kept; a run without sides shows no such table.
func TestReportShowsSides(t *testing.T) {
	m := &result.Measurement{VUs: 3, MeasuredSecs: 60, Transactions: map[string]result.TxStats{}}
	r := &result.Result{Status: result.StatusOK, Measurement: m,
		Figures: map[string]any{"nopm": 300.0, "nopm_alone": 600.0, "nopm_kept_pct": 50.0, "qphh": 90.0, "qphh_alone": 100.0, "qphh_kept_pct": 90.0},
		Sides: []result.Side{{Name: "transactions", Users: 2, Status: result.StatusOK, Measurement: &result.Measurement{MeasuredSecs: 60}},
			{Name: "queries", Users: 1, Status: result.StatusOK, Measurement: &result.Measurement{MeasuredSecs: 60}}}}
	var b strings.Builder
	MeasurementSection(&b, r, "")
	html := b.String()
	for _, want := range []string{"transactions alone</td><td>2</td>", "queries alone</td><td>1</td>", "all together</td><td>3</td>",
		"<td class=\"l\">nopm</td><td>600</td><td>300</td><td>50.0</td>", "<td class=\"l\">qphh</td><td>100</td><td>90</td><td>90.0</td>"} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	r.Sides, b = nil, strings.Builder{}
	MeasurementSection(&b, r, "")
	if strings.Contains(b.String(), "class=\"sides\"") {
		t.Error("a run without sides shows them")
	}
}

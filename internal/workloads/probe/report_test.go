package probe_test

import (
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	_ "github.com/dbdyno/dbdyno/internal/workloads/probe"
)

// A probe run shows its steps, its warnings and its chart: the read series in table order, the write series
// with its rolling average, the cpu curve without the step stopped at the limit, the memory curve.
func TestProbeRunsHaveTheirCharts(t *testing.T) {
	pct := func(v float64) *float64 { return &v }
	runs := []*result.Result{
		{RunID: "read", Workload: "probe", Status: result.StatusOK, Probe: &result.Probe{Kind: "read", Rate: "MB/min", Counters: "engine",
			Warnings: []string{"dbdyno_probe_read_2: served from cache"},
			Steps: []result.ProbeStep{{Name: "dbdyno_probe_read_1", X: 1, Rate: 900, Bytes: 1e9, Counters: map[string]float64{"read_bytes": 1e9}, Cached: pct(0)},
				{Name: "dbdyno_probe_read_2", X: 2, Rate: 5000, Bytes: 1e9, Cached: pct(99)}}}},
		{RunID: "write", Workload: "probe", Status: result.StatusOK, Probe: &result.Probe{Kind: "write", Rate: "MB/min",
			Steps: []result.ProbeStep{{Name: "chunk 1", X: 1, Seconds: 1, Bytes: 1e8, Rate: 6000, Counters: map[string]float64{"log_bytes": 1.2e8}}, {Name: "chunk 2", X: 2, Seconds: 2, Bytes: 1e8, Rate: 3000}}}},
		{RunID: "cpu", Workload: "probe", Status: result.StatusOK, Probe: &result.Probe{Kind: "cpu", Rate: "row pairs/s", Plan: "Nested Loop",
			Steps: []result.ProbeStep{{Name: "N 1000", X: 1000, Seconds: 0.1}, {Name: "N 2000", X: 2000, Seconds: 0.4}, {Name: "N 4000", X: 4000, Seconds: 2, Exceeded: true}}}},
		{RunID: "memory", Workload: "probe", Status: result.StatusOK, Probe: &result.Probe{Kind: "memory", Rate: "MB/min",
			Steps: []result.ProbeStep{{Name: "256 MB pass 1", X: 256, Pass: 1, Rate: 100}, {Name: "256 MB pass 2", X: 256, Pass: 2, Rate: 900, Cached: pct(100)}}}},
	}
	var b strings.Builder
	if err := report.Write(&b, "probes", runs); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"Read MB/min per table, in table order", "served from cache", "Write MB/min per chunk", "rolling average",
		"Loop join time by rows N", "(stopped at the limit)", "Nested Loop", "Working set read MB/min by size", "Share of the second read served from cache", "114.4"} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	i := strings.Index(html, "Loop join time by rows N")
	chart := html[strings.LastIndex(html[:i], "<svg"):]
	chart = chart[:strings.Index(chart, "</svg>")]
	if n := strings.Count(chart, "<circle"); n != 2 {
		t.Errorf("the cpu chart has %d points, want the 2 completed steps", n)
	}
}

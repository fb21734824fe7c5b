package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/result"
)

// xTicks are the x axis' tick labels of a chart.
func xTicks(svg string) []string {
	re := regexp.MustCompile(fmt.Sprintf(`y="%d" font-size="11" text-anchor="middle">([^<]*)<`, padT+plotH+16))
	var out []string
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		out = append(out, m[1])
	}
	return out
}

// A sweep's chart has a tick at each of its whole-number points and none between (no "1.8 streams").
func TestSweepChartTicksAreItsPoints(t *testing.T) {
	svg := LineChart("t", "streams", "s", []Series{{Name: "a", X: []float64{1, 2, 3, 4}, Y: []float64{1, 2, 3, 4}}})
	if got := strings.Join(xTicks(svg), " "); got != "1 2 3 4" {
		t.Errorf("x ticks %q, want the points 1 2 3 4", got)
	}
	// time series keep their evenly spaced ticks
	if got := xTicks(LineChart("t", "s", "y", []Series{{Name: "a", X: []float64{0.5, 1.5, 9.7}, Y: []float64{1, 2, 3}}})); len(got) != 5 {
		t.Errorf("a time axis has ticks %q", got)
	}
}

// No two charts of a report share a title: each run's charts name the run.
func TestChartTitlesAreDistinct(t *testing.T) {
	mk := func(id string) *result.Result {
		return &result.Result{RunID: id, Workload: "w", Status: result.StatusOK,
			Target: result.Target{Engine: "sqlite", ServerVersion: "SQLite 3"},
			Measurement: &result.Measurement{VUs: 1, Transactions: map[string]result.TxStats{"t": {Count: 1}},
				Intervals: []result.Interval{{ElapsedSeconds: 1, PerMinute: 5}, {ElapsedSeconds: 2, PerMinute: 6}}},
			System: &result.SystemMetrics{IntervalS: 1, Samples: []result.SystemSample{{T: 1, CPUBusy: 5}, {T: 2, CPUBusy: 6}}}}
	}
	var b strings.Builder
	if err := Write(&b, "r", []*result.Result{mk("r1"), mk("r2")}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`aria-label="([^"]*)"`).FindAllStringSubmatch(b.String(), -1) {
		if seen[m[1]] {
			t.Errorf("two charts titled %q", m[1])
		}
		seen[m[1]] = true
	}
	if len(seen) < 6 {
		t.Fatalf("%d charts", len(seen))
	}
}

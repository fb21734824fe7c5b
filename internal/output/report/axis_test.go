package report

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/leaderboard"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// A value axis reads as typed: its gridlines at 1, 2 or 5 times a power of ten, every label in one unit (the
// quickstart's TPM axis was 0, 6250, 12.5k, 18.8k, 25k).
func TestAxisTicksAreRound(t *testing.T) {
	tick := regexp.MustCompile(`<text class="y" x="\d+" y="\d+">([^<]*)</text>`)
	for _, c := range []struct {
		max  float64
		want []string
	}{
		{22000, []string{"0", "5k", "10k", "15k", "20k", "25k"}},
		{18000, []string{"0", "5k", "10k", "15k", "20k"}},
		{70000, []string{"0", "20k", "40k", "60k", "80k"}},
		{3, []string{"0", "1", "2", "3"}},
		{0.3, []string{"0", "0.1", "0.2", "0.3"}},
		{1234, []string{"0", "500", "1000", "1500"}},
	} {
		svg := LineChart("t", "x", "y", []Series{{Name: "s", X: []float64{0, 1}, Y: []float64{c.max / 2, c.max}}})
		var got []string
		for _, m := range tick.FindAllStringSubmatch(svg, -1) {
			got = append(got, m[1])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("axis over %v: ticks %q, want %q", c.max, got, c.want)
		}
	}
}

// The throughput chart draws the ramp-up apart (shaded, its own series: the quickstart's first point, at 70k
// TPM, read as measured) and a per-second workload's rates per second (tpsE on a per-minute axis read 1,000
// where it was 16.7).
func TestThroughputChartUnitsAndRampup(t *testing.T) {
	m := &result.Measurement{KeyTx: "trade_result", KeyLabel: "tpsE", PerSecond: true, Intervals: []result.Interval{
		{ElapsedSeconds: 5, PerMinute: 70000},
		{ElapsedSeconds: 10, Measured: true, PerMinute: 6000, Transactions: map[string]result.IntervalTxStat{"trade_result": {Count: 50}}},
		{ElapsedSeconds: 15, Measured: true, PerMinute: 6000, Transactions: map[string]result.IntervalTxStat{"trade_result": {Count: 50}}},
	}}
	svg := throughputChart(m, "")
	for _, want := range []string{"Throughput over time (per second, each interval)", "ramp-up (not measured)", "<title>ramp-up: not measured</title>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the chart lacks %q", want)
		}
	}
	// the axis tops at the measured and ramp-up rates per second (70000/60 = 1167: 1500), never per minute
	if !strings.Contains(svg, ">1500</text>") || strings.Contains(svg, ">80k</text>") {
		t.Errorf("the axis is not per second:\n%s", svg)
	}
}

// Configurations told apart by a short label are named by it in every table and chart, not by a letter to look
// up (the probe report's 14 letters); long names and IDs keep the letters.
func TestConfigurationsNamedByWhatTellsThemApart(t *testing.T) {
	mk := func(id, tier string, v float64) *result.Result {
		return &result.Result{RunID: id, Workload: "w", Status: result.StatusOK, Labels: map[string]any{"tier": tier},
			Target:  result.Target{Engine: "sqlite", ServerVersion: "SQLite 3.54.1", URL: "sqlite:///d/a.db"},
			Group:   &result.Group{ID: "g" + id, Repeat: 1, Repeats: 1},
			Metrics: []result.Metric{{Name: "ops", Unit: "1/s", Better: result.Higher, Value: v, Headline: true}}}
	}
	var b strings.Builder
	if err := Write(&b, "t", []*result.Result{mk("r1", "S0", 100), mk("r2", "S1", 125)}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`<th>tier=S0 (1 run)</th><th>tier=S1 (1 run)</th>`, `Against <b>tier=S0</b>, <b>tier=S1</b> has ops`,
		`<text class="xtick s" x="`, `>tier=S1</text>`, `<li class="runs">tier=S0: <a href="#run-r1">r1</a></li>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %s", want)
		}
	}
	if strings.Contains(page, "<b>A</b>") || strings.Contains(page, ">A (1 run)<") {
		t.Errorf("a configuration is still lettered")
	}
}

// A cell of one short word (class w: io's engine) never breaks inside it (io_uring read as "io_urin" / "g"),
// nor a leaderboard's rank (its column at least two digits wide: 10 read as "1" / "0"); other cells (IDs,
// URLs, long figures) still may, so that tables fit a narrow page.
func TestCellsBreakBetweenWords(t *testing.T) {
	if !strings.Contains(style, "td{overflow-wrap:anywhere}td.w{overflow-wrap:normal}") {
		t.Errorf("the cells' wrapping: %s", style)
	}
	var b strings.Builder
	board(&b, "lb", &leaderboard.Board{})
	if !strings.Contains(b.String(), `<th style="min-width:2.2em">#</th>`) {
		t.Errorf("the rank column can be narrower than two digits: %s", b.String())
	}
}

// A published figure in the runs table is not a run: its status says published, and its import time is not
// given as when it started (it read "ok" and the import's time).
func TestPublishedRowsAreNotRuns(t *testing.T) {
	r := &result.Result{RunID: "p1", Workload: "w", Status: result.StatusOK, StartedAt: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC),
		Published: &result.Published{System: "S", Source: "a study"},
		Metrics:   []result.Metric{{Name: "ops", Unit: "1/s", Better: result.Higher, Value: 7, Headline: true}}}
	var b strings.Builder
	if err := Write(&b, "t", []*result.Result{r}); err != nil {
		t.Fatal(err)
	}
	row := b.String()[strings.Index(b.String(), `<table id="summary">`):]
	row = row[:strings.Index(row, "</table>")]
	if !strings.Contains(row, ">published<") || !strings.Contains(row, "- (imported 2026-12-01)") || strings.Contains(row, "10:00:00") || strings.Contains(row, ">ok<") {
		t.Errorf("the published row: %s", row)
	}
}

// A tick of a very short run's time axis reads as a decimal, never in exponent form (5e-05 read as a size's
// "5e-0"; a probe's 20 ms run drew its system chart so).
func TestTinyTicksAreDecimals(t *testing.T) {
	for v, want := range map[float64]string{0.00005: "0.00005", 0.00015: "0.00015", 0.25: "0.25", 3.14159: "3.14", 0.000123456: "0.000123"} {
		if got := fmtNum(v); got != want {
			t.Errorf("%v: %q, want %q", v, got, want)
		}
	}
}

package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// xTicks are the x axis' tick labels of a chart.
func xTicks(svg string) []string {
	re := regexp.MustCompile(`class="xtick"[^>]*>([^<]*)<`)
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
	// time series keep evenly spaced ticks, at round values
	if got := xTicks(LineChart("t", "s", "y", []Series{{Name: "a", X: []float64{0.5, 1.5, 9.7}, Y: []float64{1, 2, 3}}})); strings.Join(got, " ") != "2 4 6 8" {
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

// A run with the database host's metrics, wait events and counters per interval shows each, with the line
// saying which side was saturated.
func TestServerSideSections(t *testing.T) {
	r := &result.Result{RunID: "r1", Workload: "ping", Status: result.StatusOK, Target: result.Target{Engine: "postgres"},
		Measurement: &result.Measurement{Intervals: []result.Interval{{ElapsedSeconds: 1, PerMinute: 100}, {ElapsedSeconds: 2, PerMinute: 120}}},
		System:      &result.SystemMetrics{IntervalS: 1, Summary: map[string]result.Stat{"cpu_busy_pct": {P90: 40}}, Samples: []result.SystemSample{{T: 1, CPUBusy: 40}}},
		ServerSystem: &result.SystemMetrics{IntervalS: 1, Source: "http://127.0.0.1:7878", MeasureFromS: 1, MeasureToS: 3, Gaps: []result.Gap{{FromS: 2, ToS: 3}},
			Summary: map[string]result.Stat{"cpu_busy_pct": {P90: 97}}, Samples: []result.SystemSample{{T: 1, CPUBusy: 95}, {T: 2, CPUBusy: 97}}},
		Waits: &result.Waits{IntervalMs: 100, Samples: 20, Observations: 40, Top: []result.WaitShare{{Class: "LWLock", Event: "WALWrite", Share: 0.75, OwnShare: 1, AvgActive: 1.5}},
			Series: []result.WaitSecond{{T: 1, Active: map[string]float64{"WALWrite": 1.5}}, {T: 2, Active: map[string]float64{"WALWrite": 1.4}}}},
		DBCounters: &result.DBCounters{IntervalS: 1, Source: "database", Series: []result.CounterSample{{T: 1, Rates: map[string]float64{"xact_commit": 10}}, {T: 2, Rates: map[string]float64{"xact_commit": 30}}}}}
	var b strings.Builder
	if err := Write(&b, "s", []*result.Result{r}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"Database host metrics", "The database host was saturated: CPU p90 97%", "No samples from 2.0 s to 3.0 s",
		"Throughput and the database host", "Wait events over time", "WALWrite</td><td class=\"l\">LWLock</td><td>75.0", "xact_commit</td><td>20</td><td>30"} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

// A sweep charts its p99 latencies beside its headline (IOPS and latency against queue depth across runs).
func TestSweepChartsItsLatencies(t *testing.T) {
	var runs []*result.Result
	for i, qd := range []float64{1, 8, 32} {
		runs = append(runs, &result.Result{RunID: fmt.Sprintf("r%d", i), Workload: "io", Status: result.StatusOK,
			Group: &result.Group{ID: "g1", Repeat: 1, Repeats: 1, Sweep: "iodepth", Value: qd},
			Metrics: []result.Metric{{Name: "IOPS", Unit: "1/s", Better: result.Higher, Value: 1000 * qd, Headline: true},
				{Name: "read p99 latency", Unit: "µs", Better: result.Lower, Value: 100 * qd}}})
	}
	var b strings.Builder
	if err := Write(&b, "s", runs); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	i := strings.Index(html, `aria-label="p99 latency by iodepth"`) // the flag's own title where the workload is registered
	if i < 0 {
		t.Fatal("no p99 latency chart for the sweep")
	}
	chart := html[i:]
	chart = chart[:strings.Index(chart, "</svg>")]
	if got := strings.Join(xTicks(chart), " "); got != "1 8 32" && !strings.HasPrefix(got, "1") {
		t.Errorf("ticks %q", got)
	}
	if strings.Count(chart, "<polyline") != 1 {
		t.Error("the latency chart should hold one line")
	}
}

// A workload's registered section renders its part of the run in place of the default measurement.
func TestRegisteredSectionRenders(t *testing.T) {
	RegisterSection("sectiontest", func(b *strings.Builder, r *result.Result, of string) {
		b.WriteString("<p>own section" + Esc(of) + "</p>\n")
	})
	r := &result.Result{RunID: "r1", Workload: "sectiontest", Status: result.StatusOK,
		Measurement: &result.Measurement{VUs: 1, Transactions: map[string]result.TxStats{"t": {Count: 1}}}}
	var b strings.Builder
	if err := Write(&b, "s", []*result.Result{r}); err != nil {
		t.Fatal(err)
	}
	if html := b.String(); !strings.Contains(html, "<p>own section (A, run r1)</p>") || strings.Contains(html, "Latency percentiles") {
		t.Errorf("the workload's own section did not replace the default:\n%s", html)
	}
}

// The legend says once what every configuration's name starts with, and each configuration what is its own.
func TestLegendSaysWhatIsSharedOnce(t *testing.T) {
	for _, c := range []struct {
		names  []string
		common string
		rest   []string
	}{
		{[]string{"SQLite 3.54.1 (cache=1GB)", "SQLite 3.54.1 (cache=4GB)", "SQLite 3.54.1 vus=1"}, "SQLite 3.54.1", []string{"cache=1GB", "cache=4GB", "vus=1"}},
		{[]string{"DuckDB v1.5.5 (group g20261125T183229-f12b70)", "DuckDB v1.5.5 (group g20261125T183231-91caf6)"}, "DuckDB v1.5.5",
			[]string{"group g20261125T183229-f12b70", "group g20261125T183231-91caf6"}},
		{[]string{"E16ds_v4", "E16ds_v5"}, "", []string{"E16ds_v4", "E16ds_v5"}},
		{[]string{"PG 17 (a) x", "PG 17 (a) y"}, "PG 17 (a)", []string{"x", "y"}},
		{[]string{"PG 17", "PG 17 (a)"}, "", []string{"PG 17", "PG 17 (a)"}},
	} {
		common, rest := compare.CommonStart(c.names)
		if common != c.common || strings.Join(rest, "|") != strings.Join(c.rest, "|") {
			t.Errorf("%q: %q %q, want %q %q", c.names, common, rest, c.common, c.rest)
		}
	}
}

// Configurations are compared with those of the same work and headline, by alias, one sentence per pair in
// the words of each metric's direction; one that measured another headline is named as not compared.
func TestComparisonByAliasInTheRightWords(t *testing.T) {
	mk := func(id, group, head string, v, lat float64) *result.Result {
		return &result.Result{RunID: id, Workload: "w", Status: result.StatusOK, Target: result.Target{Engine: "sqlite", ServerVersion: "SQLite 3.54.1", URL: "sqlite:///d/a.db"},
			Group: &result.Group{ID: group, Repeat: 1, Repeats: 1},
			Metrics: []result.Metric{{Name: head, Unit: "1/s", Better: result.Higher, Value: v, Headline: true},
				{Name: "p95 latency", Unit: "ms", Better: result.Lower, Value: lat}}}
	}
	var b strings.Builder
	if err := Write(&b, "t", []*result.Result{mk("r1", "g1", "ops", 100, 10), mk("r2", "g2", "ops", 125, 4.4), mk("r3", "g3", "other", 1, 1)}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`<th>A (1 run)</th><th>B (1 run)</th></tr>`, `Against <b>A</b>, <b>B</b> has ops 25.00% higher (noise unknown: one run; --repeat 3), p95 latency 56.00% lower (noise unknown: one run; --repeat 3).`,
		"Not compared with any other configuration (each did other work or measured another headline): C.", "All configurations: SQLite 3.54.1, target sqlite:///d/a.db.",
		`<a href="#comparison">Comparison</a>`, `<li class="runs">A: <a href="#run-r1">r1</a></li>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %s", want)
		}
	}
	if strings.Contains(page, "faster") || strings.Count(page, "SQLite 3.54.1") > 2 {
		t.Errorf("the report says faster, or repeats the version %d times", strings.Count(page, "SQLite 3.54.1"))
	}
}

// Shortened bar labels keep their ends, where names usually differ; time axes tick at round values.
func TestLabelsKeepTheirEndsAndTicksAreRound(t *testing.T) {
	a, b := shortenMiddle("transaction_with_a_long_name_07", 110, 10), shortenMiddle("transaction_with_a_long_name_08", 110, 10)
	if a == b || !strings.HasSuffix(a, "_07") || !strings.HasPrefix(a, "trans") || textWidth(a, 10, false) > 110 {
		t.Errorf("shortened %q and %q", a, b)
	}
	if got := strings.Join(xTicks(LineChart("t", "s", "y", []Series{{Name: "a", X: []float64{0.5, 3599}, Y: []float64{1, 2}}})), " "); got != "1000 2000 3000" {
		t.Errorf("ticks %q", got)
	}
}

// Series keys read as words with their units, from the keys alone.
func TestSeriesNames(t *testing.T) {
	for key, want := range map[string]string{
		"cpu_busy_pct": "CPU busy (%)", "disk.vda.avg_latency_ms": "Disk vda average latency (ms)", "mem_used_bytes": "Memory used (GB)",
		"net.eth0.rx_mb_s": "Network eth0 received (MB/s)", "core12_busy_pct": "Core 12 busy (%)", "disk.nvme0n1.iops": "Disk nvme0n1 IOPS",
		"disk.vda.queue_depth": "Disk vda queue depth", "cpu_iowait_pct": "CPU I/O wait (%)", "xact_commit": "Xact commit", "": "",
	} {
		if got, _ := SeriesName(key); got != want {
			t.Errorf("SeriesName(%q) = %q, want %q", key, got, want)
		}
	}
	if _, div := SeriesName("mem_used_bytes"); div != 1e9 {
		t.Errorf("bytes are shown in GB: divided by %g", div)
	}
	var b strings.Builder
	system(&b, &result.SystemMetrics{IntervalS: 1, Summary: map[string]result.Stat{"disk.vda.avg_latency_ms": {Mean: 2}, "mem_used_bytes": {Mean: 3e9}},
		Samples: []result.SystemSample{{T: 1}}}, "")
	if !strings.Contains(b.String(), ">Disk vda average latency (ms)</td><td>2</td>") || !strings.Contains(b.String(), ">Memory used (GB)</td><td>3</td>") {
		t.Errorf("the system table:\n%s", b.String())
	}
}

// A long title wraps onto lines that each fit the chart, all of its words kept.
func TestLongTitlesWrap(t *testing.T) {
	title := "Average latency of every NVMe device of the database host over the whole of the measured window, sampled every second (AB, run r20261125T180001-001eef)"
	svg := LineChart(title, "s", "ms", []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 2}}})
	var lines []string
	for _, m := range regexp.MustCompile(`<text class="t" x="10" y="\d+">([^<]*)<`).FindAllStringSubmatch(svg, -1) {
		lines = append(lines, m[1])
		if w := textWidth(m[1], 14, true); w > chartW-20 {
			t.Errorf("a title line of %.0f units: %q", w, m[1])
		}
	}
	if len(lines) < 2 || strings.Join(lines, " ") != title {
		t.Errorf("title lines %q", lines)
	}
}

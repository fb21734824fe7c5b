package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
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

// A storage probe's run shows its tests in a table, IOPS and p99 latency against queue depth for each kind of
// test run at several depths (the points in depth order), IOPS over time, and a buffered run says so.
func TestStorageRunHasItsTableAndDepthCharts(t *testing.T) {
	test := func(rw string, depth int, iops, p99 float64) result.IOTest {
		d := &result.IODir{IOs: int64(iops), IOPS: iops, MBs: iops * 4096 / 1e6, Lat: result.IOLatency{P50: p99 / 2, P99: p99}}
		tt := result.IOTest{Name: fmt.Sprintf("%s 4k Q%dT1", rw, depth), RW: rw, BS: 4096, IODepth: depth, NumJobs: 1, IOEngine: "io_uring", Status: result.StatusOK,
			Series: []result.IOSecond{{T: 1, ReadIOPS: iops}, {T: 2, ReadIOPS: iops}}, Little: &result.LittlesLaw{ImpliedDepth: float64(depth) * 0.98, Depth: depth}}
		if rw == "randread" {
			tt.Read = d
		} else {
			tt.Write = d
		}
		return tt
	}
	r := &result.Result{RunID: "r1", Workload: "io", Status: result.StatusOK, Target: result.Target{ServerVersion: "vda ext4"},
		IO: &result.IO{Files: []result.IOFile{{Path: "/d/dbdyno.0.0", SizeBytes: 1 << 30, Device: "vda", Filesystem: "ext4", Buffered: true}},
			Tests: []result.IOTest{test("randread", 32, 60000, 900), test("randread", 1, 9000, 200), test("randwrite", 1, 5000, 400), test("randwrite", 32, 40000, 2000)}}}
	var b strings.Builder
	if err := Write(&b, "io", []*result.Result{r}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"IOPS versus queue depth", "p99 latency versus queue depth", "IOPS over time", "randwrite 4k Q32T1",
		"buffered: direct IO refused", "31.4 / 32", "Target none (no database)"} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	i := strings.Index(html, "IOPS versus queue depth")
	chart := html[strings.LastIndex(html[:i], "<svg"):]
	chart = chart[:strings.Index(chart, "</svg>")]
	if got := strings.Join(xTicks(chart), " "); got != "1 32" && !strings.HasPrefix(got, "1 ") {
		t.Errorf("depth axis ticks %q", got)
	}
	if n := strings.Count(chart, "<polyline"); n != 2 {
		t.Errorf("the depth chart has %d lines, want one per kind (2)", n)
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
		"Throughput and the database host", "Wait events over time", "WALWrite</td><td class=\"l\">LWLock</td><td>75.0", "xact_commit</td><td>20.0</td><td>30.0"} {
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
	i := strings.Index(html, `aria-label="p99 latency by iodepth (g1)"`) // the flag's own title where the workload is registered
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
	if err := Write(&b, "probes", runs); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"Read MB/min per table, in table order", "served from cache", "Write MB/min per chunk", "rolling average",
		"Loop join time by rows N", "(stopped at the limit)", "Nested Loop", "Working set read MB/min by size", "Share of the second read served from cache", "120.0"} {
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

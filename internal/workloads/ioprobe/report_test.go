package ioprobe_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	_ "github.com/dbdyno/dbdyno/internal/workloads/ioprobe"
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
	// a job file's group of two jobs at depths 4 and 64 (its iodepth the first's): no point at one depth
	group := test("randread", 4, 30000, 700)
	group.Name, group.Jobs = "a+b (randread 4k Q4-64T2)", []result.IOJob{{Job: "a"}, {Job: "b"}}
	r.IO.Tests = append(r.IO.Tests, group)
	var b strings.Builder
	if err := report.Write(&b, "io", []*result.Result{r}); err != nil {
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
	if m := regexp.MustCompile(`<polyline[^>]*points="([^"]*)"`).FindStringSubmatch(chart); m == nil || len(strings.Fields(m[1])) != 2 {
		t.Errorf("the randread line's points %q: want its two tests at one depth each, not the group of two jobs", m)
	}
}

// Every test's IOPS over time is drawn, a test of one interval as its point (five of CrystalDiskMark's eight
// were drawn, the three of one interval left out), twelve tests in two charts; a depth sweep's kind is named with
// its depth open (Q*).
func TestEveryTestDrawnOverTime(t *testing.T) {
	var tests []result.IOTest
	for i := 0; i < 12; i++ {
		series := []result.IOSecond{{T: 1, ReadIOPS: 100}, {T: 2, ReadIOPS: 110}}
		if i%3 == 1 {
			series = series[:1]
		}
		tests = append(tests, result.IOTest{Name: fmt.Sprintf("test%d", i+1), RW: "randread", BS: 4096, IODepth: 1 << i, NumJobs: 1, Status: result.StatusOK,
			Read: &result.IODir{IOs: 100, IOPS: 100, Lat: result.IOLatency{P50: 50, P99: 90}}, Series: series})
	}
	r := &result.Result{RunID: "r1", Workload: "io", Status: result.StatusOK, Target: result.Target{ServerVersion: "vda ext4"}, IO: &result.IO{Tests: tests}}
	var b strings.Builder
	if err := report.Write(&b, "io", []*result.Result{r}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for i := 1; i <= 12; i++ {
		if !strings.Contains(html, fmt.Sprintf("<title>test%d</title>", i)) {
			t.Errorf("test%d is not drawn over time", i)
		}
	}
	if !strings.Contains(html, "tests 11 to 12 of 12") {
		t.Errorf("the second chart is not named")
	}
	if !strings.Contains(html, "randread 4k Q*T1") {
		t.Errorf("the depth chart's kind is not named with its depth open")
	}
}

package ioprobe_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/host/monitor"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// checklistFile writes a one-period checklist: 70% reads, request sizes 8/16/64 KB at p50/p90/p99, queue
// depth 2.4 at p99, iops at p99.
func checklistFile(t *testing.T, dir string, iops float64) string {
	st := func(p50, p90, p99, avg float64) *monitor.Stat {
		return &monitor.Stat{P50: p50, P90: p90, P99: p99, Avg: avg, Max: p99}
	}
	c := monitor.Checklist{Name: "app", Growth: 1, Periods: []monitor.Period{{Name: "normal", Intervals: 10, Rows: []monitor.Row{
		{Key: monitor.KeyIOPS, Stat: st(iops/2, iops/2, iops, iops/2)},
		{Key: monitor.KeyReadPct, Stat: st(70, 80, 90, 70)},
		{Key: monitor.KeyIOSize, Stat: st(8, 16, 64, 12)},
		{Key: monitor.KeyMBps, Stat: st(1, 2, 3, 1)},
		{Key: monitor.KeyLatency, Stat: st(1, 2, 1000, 1)},
		{Key: monitor.KeyQueueDepth, Stat: st(0.5, 1.2, 2.4, 0.6)},
		{Key: monitor.KeyRandomPct, NotMeasured: "not measured: no tracefs"},
	}}}}
	b, _ := json.Marshal(c)
	path := filepath.Join(dir, "checklist.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A profile replayed: the job is the checklist's (randrw at its read share, its sizes as a bssplit, its queue
// depth, its IOPS as the rate, offsets drawn uniformly so that no random map trims the sizes: with fio's the
// mean request fell to 12.7 KB), and the measured read share and mean request size are within 2% of the
// profile's over a pass of 128 MiB (about 8,000 IOs: the mix's sampling error is under 0.6%).
func TestProfileReplay(t *testing.T) {
	dir := t.TempDir()
	data, err := os.MkdirTemp("/dev/shm", "dbdyno-profile-")
	if err != nil {
		t.Skip("no /dev/shm:", err)
	}
	defer os.RemoveAll(data)
	prof := checklistFile(t, dir, 100000)
	r, out := run(t, dir, "--profile", prof, "--directory", data, "--size", "128m", "--runtime", "0", "--time_based=false")
	tt := r.IO.Tests[0]
	if tt.RW != "randrw" || tt.RWMixRead != 70 || tt.IODepth != 3 {
		t.Errorf("the job: rw %s, rwmixread %d, iodepth %d; want randrw, 70, 3", tt.RW, tt.RWMixRead, tt.IODepth)
	}
	ios := tt.Read.IOs + tt.Write.IOs
	read := 100 * float64(tt.Read.IOs) / float64(ios)
	mean := float64(tt.Read.Bytes+tt.Write.Bytes) / float64(ios) / 1024
	const wantMean = 0.5*8 + 0.4*16 + 0.1*64 // 16.8 KB
	if read < 68 || read > 72 || mean < wantMean*0.98 || mean > wantMean*1.02 {
		t.Errorf("%d IOs: %.2f%% reads (want 70 ± 2), mean request %.2f KB (want %.1f ± 2%%)", ios, read, mean, wantMean)
	}
	for _, want := range []string{"bssplit 8k/50:16k/40:64k/10, iodepth 3, rate_iops 70000,30000", "% reads", "mean request size KB", "the random share was not measured"} {
		if !strings.Contains(out.Stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, out.Stdout)
		}
	}
	if r.Options["profile"] != prof {
		t.Errorf("the result's options lack the profile: %v", r.Options["profile"])
	}
	// the verdicts are the result's, and its report's table
	q := r.IO.Requirements
	if q == nil || q.Percentile != "p99" || len(q.Verdicts) != 5 || q.Verdicts[2].What != "% reads" || q.Verdicts[2].Needed != "70.0" {
		t.Fatalf("the result's requirements: %+v", q)
	}
	var page strings.Builder
	if err := report.Write(&page, "replay", []*result.Result{r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "<h3>Requirements</h3>") || !strings.Contains(page.String(), "<td class=\"l\">% reads</td><td>70.0</td>") {
		t.Errorf("the report lacks the requirements table")
	}
}

// A requirement the disk cannot meet is reported NOT MET; the options the profile sets are refused beside it.
func TestProfileNotMetAndConflicts(t *testing.T) {
	dir := t.TempDir()
	prof := checklistFile(t, dir, 50)
	// 50 IOPS at p99 needs a latency no worse than 1,000 ms (met) and 50 IOPS (the rate holds it there: met
	// within 2%) over 2 s on a 4 MiB file
	_, out := run(t, dir, "--profile", prof, "--directory", dir, "--size", "4m", "--runtime", "2")
	if !strings.Contains(out.Stdout, "average latency ms") || !strings.Contains(out.Stdout, " met") {
		t.Errorf("verdicts:\n%s", out.Stdout)
	}
	for _, args := range [][]string{
		{"--profile", prof, "--bs", "4k"},
		{"--profile", prof, "--iodepth", "8"},
		{"--profile", prof, "--norandommap=false"}, // the replay's sizes are the checklist's: no random map trims them
		{"--profile", prof, "--preset", "premium-storage"},
		{"--profile", filepath.Join(dir, "none.json")},
		{"--profile", prof, "--profile-period", "peak"},
	} {
		r := clitest.Run(t.Context(), append([]string{"io", "run", "--directory", dir, "--size", "1m", "--store", ""}, args...)...)
		if r.Code == 0 || strings.Count(strings.TrimSpace(r.Stderr), "\n") > 0 || !strings.Contains(r.Stderr, "profile") {
			t.Errorf("%v: %d %q", args, r.Code, r.Stderr)
		}
	}
}

// --expect: the measured figures against the advertised ones, and a device held at a cap flagged: here the
// job's own rate cap at the expected IOPS makes the flat top. Whether the run's seconds make one is read from
// the run's own series (the rule itself is tested on fixed series in sizing): under a load average of 40 the
// rate cap ran 200, 161, 229, 207, 194 IOPS, a process descheduled and catching up, not a device at its cap.
func TestExpectFlagsAFlatTop(t *testing.T) {
	dir := t.TempDir()
	data, err := os.MkdirTemp("/dev/shm", "dbdyno-expect-")
	if err != nil {
		t.Skip("no /dev/shm:", err)
	}
	defer os.RemoveAll(data)
	r, out := run(t, dir, "--directory", data, "--size", "8m", "--runtime", "5", "--rate_iops", "200", "--expect", "iops=200,mbps=100")
	for _, want := range []string{"expect iops=200,mbps=100 at 4.0 KB requests: ", "of 200 advertised"} {
		if !strings.Contains(out.Stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, out.Stdout)
		}
	}
	series := r.IO.Tests[0].Series
	atCap := 0
	for _, s := range series {
		if x := s.ReadIOPS + s.WriteIOPS; x >= 0.97*200 && x <= 1.02*200 {
			atCap++
		}
	}
	if flagged, want := strings.Contains(out.Stdout, "flat top at the IOPS cap (200)"), 2*atCap > len(series); flagged != want || len(series) < 4 {
		t.Errorf("flat top flagged %v, but %d of %d seconds at the cap:\n%s", flagged, atCap, len(series), out.Stdout)
	}
	catalog := filepath.Join("..", "..", "..", "examples", "catalogs/azure-2015.yaml")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--expect", "P30"}, "--expect P30 names a disk: give the --catalog"},
		{[]string{"--expect", "P31", "--catalog", catalog}, "--expect P31: no such disk"},
		{[]string{"--catalog", catalog}, "--catalog is read for --expect's disk"},
		{[]string{"--expect", "iops=0"}, "--expect iops=0: a figure above 0"},
	} {
		r := clitest.Run(t.Context(), append([]string{"io", "run", "--directory", dir, "--size", "1m", "--store", ""}, c.args...)...)
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: %d %q, want %q", c.args, r.Code, r.Stderr, c.want)
		}
	}
}

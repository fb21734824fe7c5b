package ioprobe_test

import (
	"bytes"
	"context"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/workloads/ioprobe"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The CrystalDiskMark presets expand to CrystalDiskMark 8's test lists in its order (every row read, then every
// row written), and 3's in its (each row read, then written), with 8's defaults (5 passes of 5 s, 1 GiB), and
// every thread of every test on one file.
func TestCDMPresetsAreCrystalDiskMarksProfiles(t *testing.T) {
	base := ioprobe.Job{Name: "dbdyno", Directory: "/d", RW: "randread", BS: 4096, IODepth: 32, NumJobs: 1, RWMixRead: 50, Direct: true,
		IOEngine: "io_uring", Size: 2 << 30, Runtime: 10 * time.Second}
	type want struct {
		name, rw  string
		bs, q, th int
	}
	for _, c := range []struct {
		preset string
		want   []want
	}{
		{"crystaldiskmark", []want{
			{"SEQ1M Q8T1 read", "read", 1 << 20, 8, 1}, {"SEQ1M Q1T1 read", "read", 1 << 20, 1, 1},
			{"RND4K Q32T1 read", "randread", 4 << 10, 32, 1}, {"RND4K Q1T1 read", "randread", 4 << 10, 1, 1},
			{"SEQ1M Q8T1 write", "write", 1 << 20, 8, 1}, {"SEQ1M Q1T1 write", "write", 1 << 20, 1, 1},
			{"RND4K Q32T1 write", "randwrite", 4 << 10, 32, 1}, {"RND4K Q1T1 write", "randwrite", 4 << 10, 1, 1}}},
		{"crystaldiskmark-nvme", []want{
			{"SEQ1M Q8T1 read", "read", 1 << 20, 8, 1}, {"SEQ128K Q32T1 read", "read", 128 << 10, 32, 1},
			{"RND4K Q32T16 read", "randread", 4 << 10, 32, 16}, {"RND4K Q1T1 read", "randread", 4 << 10, 1, 1},
			{"SEQ1M Q8T1 write", "write", 1 << 20, 8, 1}, {"SEQ128K Q32T1 write", "write", 128 << 10, 32, 1},
			{"RND4K Q32T16 write", "randwrite", 4 << 10, 32, 16}, {"RND4K Q1T1 write", "randwrite", 4 << 10, 1, 1}}},
		// CrystalDiskMark 3's rows (the TPC-E leaderboard study's), each read then written
		{"crystaldiskmark3", []want{
			{"Seq read", "read", 1 << 20, 1, 1}, {"Seq write", "write", 1 << 20, 1, 1},
			{"512K read", "randread", 512 << 10, 1, 1}, {"512K write", "randwrite", 512 << 10, 1, 1},
			{"4K read", "randread", 4 << 10, 1, 1}, {"4K write", "randwrite", 4 << 10, 1, 1},
			{"4K QD32 read", "randread", 4 << 10, 32, 1}, {"4K QD32 write", "randwrite", 4 << 10, 32, 1}}},
	} {
		tests, err := ioprobe.PresetTests(c.preset, base, false, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(tests) != len(c.want) {
			t.Fatalf("%s: %d tests, want %d", c.preset, len(tests), len(c.want))
		}
		for i, tc := range tests {
			w, j := c.want[i], tc.Jobs[0]
			if tc.Name != w.name || len(tc.Jobs) != 1 || j.RW != w.rw || j.BS != w.bs || j.IODepth != w.q || j.NumJobs != w.th {
				t.Errorf("%s test %d: %s %s bs %d Q%dT%d, want %+v", c.preset, i, tc.Name, j.RW, j.BS, j.IODepth, j.NumJobs, w)
			}
			if tc.Passes != 5 || j.Size != 1<<30 || j.Runtime != 5*time.Second || !j.TimeBased || !j.Direct {
				t.Errorf("%s %s: passes %d, size %d, runtime %s, time based %v, direct %v", c.preset, tc.Name, tc.Passes, j.Size, j.Runtime, j.TimeBased, j.Direct)
			}
			if j.Filename != "/d/crystaldiskmark.0.0" || j.Directory != "" {
				t.Errorf("%s %s: filename %q directory %q, want the one shared file", c.preset, tc.Name, j.Filename, j.Directory)
			}
		}
	}
	// the user's --size, --runtime and --filename are kept
	f := base
	f.Directory, f.Filename = "", "/data/f"
	tests, err := ioprobe.PresetTests("crystaldiskmark", f, true, true)
	if err != nil || tests[0].Jobs[0].Filename != "/data/f" || tests[0].Jobs[0].Size != 2<<30 || tests[0].Jobs[0].Runtime != 10*time.Second {
		t.Fatalf("the user's options: %v %+v", err, tests[0].Jobs[0])
	}
}

// A real run of the preset: before each test's passes an unmeasured preparing pass (its own length, its
// figures in no kept figure), the passes measured for --runtime, the pass of the most MB/s kept and the
// lowest mean latency over the passes beside it, all tests on one shared file, the interval between tests,
// and the table in CrystalDiskMark's layout.
func TestCDMRunKeepsTheBestPassAndTheLowestLatency(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	os.Mkdir(data, 0o755)
	type pass struct {
		test    string
		prepare bool
		runtime time.Duration
		rt      *result.IOTest
	}
	var mu sync.Mutex
	var passes []pass
	defer ioprobe.WatchCDMPasses(func(tt *ioprobe.Test, prepare bool, rt *result.IOTest) {
		mu.Lock()
		defer mu.Unlock()
		passes = append(passes, pass{tt.Name, prepare, tt.Jobs[0].Runtime, rt})
	})()
	r, out := run(t, dir, "--directory", data, "--preset", "crystaldiskmark", "--size", "8m", "--runtime", "0.1", "--passes", "3",
		"--cdm-prepare", "250ms", "--cdm-interval", "20ms")
	mu.Lock()
	defer mu.Unlock()
	if r.Status != result.StatusOK || len(r.IO.Tests) != 8 || len(passes) != 8*4 {
		t.Fatalf("status %s, %d tests, %d passes run", r.Status, len(r.IO.Tests), len(passes))
	}
	shared := filepath.Join(data, "crystaldiskmark.0.0")
	if len(r.IO.Files) != 1 || r.IO.Files[0].Path != shared || r.IO.Files[0].SizeBytes != 8<<20 {
		t.Fatalf("files: %+v, want the one shared file %s", r.IO.Files, shared)
	}
	for i := range r.IO.Tests {
		kept := &r.IO.Tests[i]
		ps := passes[i*4 : i*4+4]
		if !ps[0].prepare || ps[0].runtime != 250*time.Millisecond || ps[0].test != kept.Name {
			t.Fatalf("%s: the first pass is %+v, want the preparing pass of 250ms", kept.Name, ps[0])
		}
		measured := ps[1:]
		best, minLat := 0, math.Inf(1)
		for k, p := range measured {
			if p.prepare || p.runtime != 100*time.Millisecond || p.test != kept.Name || p.rt.Status != result.StatusOK {
				t.Fatalf("%s: pass %d is %+v", kept.Name, k+1, p)
			}
			if p.rt.MBs() > measured[best].rt.MBs() {
				best = k
			}
			if l, _ := p.rt.Latency(); p.rt.MBs() > 0 && l.Mean < minLat {
				minLat = l.Mean
			}
		}
		c := kept.CDM
		if c == nil || c.PrepareS != 0.25 || c.IntervalS != 0.02 || len(c.PassMBs) != 3 || len(c.PassMeanUs) != 3 {
			t.Fatalf("%s: cdm %+v", kept.Name, c)
		}
		for k, p := range measured {
			l, _ := p.rt.Latency()
			if c.PassMBs[k] != p.rt.MBs() || c.PassMeanUs[k] != l.Mean {
				t.Errorf("%s pass %d: recorded %g MB/s %g µs, ran %g MB/s %g µs", kept.Name, k+1, c.PassMBs[k], c.PassMeanUs[k], p.rt.MBs(), l.Mean)
			}
		}
		// the most MB/s of the measured passes kept, with its own figures; the lowest mean latency beside it
		if kept.BestPass != best+1 || kept.MBs() != measured[best].rt.MBs() || kept.IOPS() != measured[best].rt.IOPS() || kept.Passes != 3 {
			t.Errorf("%s: kept pass %d (%g MB/s), want pass %d (%g MB/s)", kept.Name, kept.BestPass, kept.MBs(), best+1, measured[best].rt.MBs())
		}
		if c.MinMeanLatUs != minLat || minLat <= 0 {
			t.Errorf("%s: latency %g µs, want the lowest mean %g", kept.Name, c.MinMeanLatUs, minLat)
		}
		// the preparing pass is measured in nothing kept: the window is the passes' runtime, not its
		if math.Abs(kept.Seconds-0.1) > 1e-9 || kept.RuntimeS != 0.1 || ps[0].rt.Seconds <= 0.2 {
			t.Errorf("%s: window %g s (runtime %g), preparing pass %g s", kept.Name, kept.Seconds, kept.RuntimeS, ps[0].rt.Seconds)
		}
		for _, p := range measured {
			if p.rt.Seconds == ps[0].rt.Seconds {
				t.Errorf("%s: a measured pass has the preparing pass's window", kept.Name)
			}
		}
		for _, j := range kept.Jobs {
			if j.File != shared {
				t.Errorf("%s: clone %d used %s, not the shared file", kept.Name, j.Clone, j.File)
			}
		}
	}
	if n := strings.Count(out.Stdout, "interval: 20ms before the next test"); n != 7 {
		t.Errorf("%d intervals, want 7 (between the 8 tests)", n)
	}
	if n := strings.Count(out.Stdout, "(unmeasured)"); n != 8 {
		t.Errorf("%d preparing passes announced, want 8", n)
	}
	for _, want := range []string{"Read [MB/s]   Write [MB/s]", "\nSEQ1M Q8T1 ", "\nRND4K Q1T1 ", "Profile: Default\n", "Test: 8 MiB (x3)"} {
		if !strings.Contains(out.Stdout, want) {
			t.Errorf("the output lacks %q:\n%s", want, out.Stdout)
		}
	}
	if r.Options["cdm_prepare"] != 0.25 || r.Options["cdm_interval"] != 0.02 || r.Options["preset"] != "crystaldiskmark" {
		t.Errorf("options: %v", r.Options)
	}
}

// The NVMe profile's sixteen threads share the one file too; no preparing pass when --cdm-prepare is 0.
func TestCDMNVMeThreadsShareOneFile(t *testing.T) {
	dir := t.TempDir()
	var prepared int
	defer ioprobe.WatchCDMPasses(func(_ *ioprobe.Test, prepare bool, _ *result.IOTest) {
		if prepare {
			prepared++
		}
	})()
	r, out := run(t, dir, "--directory", dir, "--preset", "crystaldiskmark-nvme", "--size", "8m", "--runtime", "0.1", "--passes", "1",
		"--cdm-prepare", "0", "--cdm-interval", "0")
	if len(r.IO.Tests) != 8 || len(r.IO.Files) != 1 || prepared != 0 {
		t.Fatalf("%d tests, files %+v, %d preparing passes", len(r.IO.Tests), r.IO.Files, prepared)
	}
	tt := r.IO.Tests[2]
	if tt.Name != "RND4K Q32T16 read" || len(tt.Jobs) != 16 || tt.BestPass != 0 {
		t.Fatalf("%s: %d clones, best pass %d", tt.Name, len(tt.Jobs), tt.BestPass)
	}
	for _, j := range tt.Jobs {
		if j.File != r.IO.Files[0].Path {
			t.Fatalf("clone %d used %s, not %s", j.Clone, j.File, r.IO.Files[0].Path)
		}
	}
	if !strings.Contains(out.Stdout, "\nSEQ128K Q32T1 ") || !strings.Contains(out.Stdout, "Profile: Default, NVMe SSD settings") || strings.Contains(out.Stdout, "interval:") {
		t.Fatalf("output:\n%s", out.Stdout)
	}
}

// The CrystalDiskMark options apply to its presets only; elsewhere they are refused, as is a negative time.
func TestCDMOptionsNeedTheirPreset(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--cdm-interval", "1s"}, "--preset crystaldiskmark"},
		{[]string{"--preset", "sqlserver", "--cdm-prepare", "1s"}, "--preset crystaldiskmark"},
		{[]string{"--preset", "crystaldiskmark", "--cdm-interval", "-1s"}, "at least 0s"},
	} {
		r := clitest.Run(context.Background(), append([]string{"io", "run", "--directory", dir, "--size", "1m", "--runtime", "0.1", "--store", ""}, c.args...)...)
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) || strings.Count(r.Stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q", c.args, r.Code, r.Stderr)
		}
	}
}

// cdmResult is a fixed CrystalDiskMark run: its eight tests' figures as the preset keeps them.
func cdmResult() *result.IO {
	x := &result.IO{Files: []result.IOFile{{Path: "/data/crystaldiskmark.0.0", SizeBytes: 1 << 30, Device: "nvme0n1", Filesystem: "ext4"}}}
	rows := []struct {
		row        string
		rw         string
		bs, q, th  int
		read, writ float64 // MB/s
		rlat, wlat float64 // µs
	}{
		{"SEQ1M Q8T1", "read", 1 << 20, 8, 1, 3512.3456, 2987.1, 2387.5, 2807.25},
		{"SEQ1M Q1T1", "read", 1 << 20, 1, 1, 2101.5, 1999.999, 498.8, 524.17},
		{"RND4K Q32T1", "randread", 4 << 10, 32, 1, 612.4, 402.06, 213.9, 325.8},
		{"RND4K Q1T1", "randread", 4 << 10, 1, 1, 71.25, 198.61, 57.1, 20.48},
	}
	dir := func(mbs, lat float64, bs int) *result.IODir {
		return &result.IODir{MBs: mbs, IOPS: mbs * 1e6 / float64(bs), IOs: int64(mbs * 5e6 / float64(bs)), Lat: result.IOLatency{Mean: lat * 1.2, P50: lat, P99: lat * 3}}
	}
	for _, w := range []bool{false, true} {
		for _, r := range rows {
			t := result.IOTest{RW: r.rw, BS: r.bs, IODepth: r.q, NumJobs: r.th, IOEngine: "io_uring", Direct: true, RuntimeS: 5, TimeBased: true,
				Passes: 5, BestPass: 3, Status: result.StatusOK, Seconds: 5}
			c := &result.IOCDM{Row: r.row, IntervalS: 5, PrepareS: 5}
			if !w {
				t.Name, t.Read, c.MinMeanLatUs = r.row+" read", dir(r.read, r.rlat, r.bs), r.rlat
			} else {
				t.Name, t.RW, t.Write, c.MinMeanLatUs = r.row+" write", strings.Replace(r.rw, "read", "write", 1), dir(r.writ, r.wlat, r.bs), r.wlat
			}
			t.CDM = c
			x.Tests = append(x.Tests, t)
		}
	}
	return x
}

// The table in CrystalDiskMark's layout, from a fixed result: testdata/cdm-table.golden (-update rewrites it).
// The report shows the same rows.
func TestCDMTableGolden(t *testing.T) {
	x := cdmResult()
	var b bytes.Buffer
	ioprobe.CDMTable(&b, x)
	golden := filepath.Join("testdata", "cdm-table.golden")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./internal/workloads/ioprobe -run TestCDMTableGolden -update writes it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Fatalf("the CrystalDiskMark table differs from %s (-update rewrites it):\n%s", golden, b.String())
	}
	r := &result.Result{RunID: "r1", Workload: "io", Status: result.StatusOK, IO: x}
	var h strings.Builder
	if err := report.Write(&h, "io", []*result.Result{r}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CrystalDiskMark 8 (Default): 1 GiB (x5)", "<td class=\"l\">RND4K Q32T1</td><td>612.40</td><td>402.06</td><td>213.90</td><td>325.80</td>"} {
		if !strings.Contains(h.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	// a run of another preset has no such table
	b.Reset()
	for i := range x.Tests {
		x.Tests[i].CDM = nil
	}
	ioprobe.CDMTable(&b, x)
	if b.Len() != 0 {
		t.Fatalf("a run without CrystalDiskMark's tests printed:\n%s", b.String())
	}
}

// Ctrl-C during the interval between tests ends the run at once, with the tests done kept and the result
// marked aborted (the interval is an hour: a run that waited it out would not end).
func TestCDMCtrlCDuringTheIntervalEndsTheRun(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	defer ioprobe.WatchCDMPasses(func(tt *ioprobe.Test, prepare bool, _ *result.IOTest) {
		if !prepare {
			once.Do(func() { time.AfterFunc(100*time.Millisecond, cancel) }) // the first test's only pass is done
		}
	})()
	res := filepath.Join(dir, "r.json")
	out := clitest.Run(ctx, "io", "run", "--directory", dir, "--preset", "crystaldiskmark", "--size", "8m", "--runtime", "0.1", "--passes", "1",
		"--cdm-prepare", "0", "--cdm-interval", "1h", "--result", res, "--store", "")
	if out.Code == 0 {
		t.Fatal("an aborted run exited 0")
	}
	r, _ := clitest.ReadResult(t, res)
	if r.Status != result.StatusAborted || len(r.IO.Tests) != 1 || r.IO.Tests[0].Status != result.StatusOK || r.IO.Tests[0].Name != "SEQ1M Q8T1 read" {
		t.Fatalf("status %s, tests %d", r.Status, len(r.IO.Tests))
	}
}

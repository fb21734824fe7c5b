package ioprobe

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// CrystalDiskMark 8 as its source runs it (DiskBench.cpp, DiskMarkDlg.cpp): four rows of a profile, each read,
// then each written (all reads, then all writes), with a pause between tests (the interval, 5 s by default);
// each test is an unmeasured preparing pass of 5 s, then the measured passes (5 by default, 5 s each) of which
// the best MB/s is kept and, separately, the lowest mean latency; every thread of every test uses one test
// file (1 GiB by default), written before the first test. MB/s are 10^6 bytes per second.

// The defaults CrystalDiskMark 8 starts with.
const (
	cdmPasses   = 5
	cdmMeasure  = 5 * time.Second
	cdmInterval = 5 * time.Second
	cdmPrepare  = 5 * time.Second // fixed in CrystalDiskMark, whatever the measure time
	cdmSize     = 1 << 30
)

// cdmFile is the one file the tests share when a --directory is given (CrystalDiskMark makes one test file
// for every thread of every test): the file of a job named crystaldiskmark, as fio names it.
const cdmFile = "crystaldiskmark.0.0"

// A cdmRow is one row of a profile: sequential or random, a block size in KiB, queues per thread, threads.
type cdmRow struct {
	random bool
	kib    int
	q, t   int
	name   string // the row's own name in its version's window ("4K QD32" in 3's), else as String makes it
}

// String is the row's name in CrystalDiskMark's window: SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16.
func (r cdmRow) String() string {
	if r.name != "" {
		return r.name
	}
	kind, size := "SEQ", fmt.Sprintf("%dK", r.kib)
	if r.random {
		kind = "RND"
	}
	if r.kib >= 1024 {
		size = fmt.Sprintf("%dM", r.kib/1024)
	}
	return fmt.Sprintf("%s%s Q%dT%d", kind, size, r.q, r.t)
}

// A cdmProfile is one of CrystalDiskMark's test settings.
type cdmProfile struct {
	preset  string // ours
	setting string // CrystalDiskMark's name for it
	rows    []cdmRow
	version int  // CrystalDiskMark's: 8, or 3
	byRow   bool // each row read, then written (3's order); else every row read, then every row written (8's)
}

var (
	// CrystalDiskMark 8's default (its Settings > Default)
	cdmDefault = &cdmProfile{preset: "crystaldiskmark", setting: "Default", version: 8,
		rows: []cdmRow{{false, 1024, 8, 1, ""}, {false, 1024, 1, 1, ""}, {true, 4, 32, 1, ""}, {true, 4, 1, 1, ""}}}
	// its Settings > NVMe SSD (8's)
	cdmNVMe = &cdmProfile{preset: "crystaldiskmark-nvme", setting: "NVMe SSD", version: 8,
		rows: []cdmRow{{false, 1024, 8, 1, ""}, {false, 128, 32, 1, ""}, {true, 4, 32, 16, ""}, {true, 4, 1, 1, ""}}}
	// CrystalDiskMark 3's four rows, the TPC-E leaderboard study's figures (Seq, 512K, 4K, 4K QD32): sequential
	// 1 MiB and random 512 KiB and 4 KiB at one queue, random 4 KiB at 32; each row read, then written
	cdm3 = &cdmProfile{preset: "crystaldiskmark3", setting: "Default", version: 3, byRow: true,
		rows: []cdmRow{{false, 1024, 1, 1, "Seq"}, {true, 512, 1, 1, "512K"}, {true, 4, 1, 1, "4K"}, {true, 4, 32, 1, "4K QD32"}}}
	cdmProfiles = []*cdmProfile{cdmDefault, cdmNVMe, cdm3}
)

// asPreset is the profile as a preset: its rows read, then its rows written, with CrystalDiskMark's defaults.
func (p *cdmProfile) asPreset() preset {
	var rows []string
	for _, r := range p.rows {
		rows = append(rows, r.String())
	}
	pr := preset{cdm: p, passes: cdmPasses, size: cdmSize, runtime: cdmMeasure,
		help: fmt.Sprintf("CrystalDiskMark 8's %s profile: %s, all read then all written; a %s preparing pass, then %d passes of %s each, the best MB/s and the lowest mean latency kept, %s between tests; one shared 1 GiB file",
			p.setting, strings.Join(rows, ", "), cdmPrepare, cdmPasses, cdmMeasure, cdmInterval)}
	if p.version == 3 {
		pr.help = fmt.Sprintf("CrystalDiskMark 3's rows: %s, each read then written; timed as CrystalDiskMark 8 times its passes (a %s preparing pass, %d passes of %s, the best MB/s kept, %s between tests), where 3 read and wrote a whole test file a pass; one shared 1 GiB file",
			strings.Join(rows, ", "), cdmPrepare, cdmPasses, cdmMeasure, cdmInterval)
	}
	dirs := []struct{ seq, rnd, name string }{{"read", "randread", "read"}, {"write", "randwrite", "write"}}
	add := func(r cdmRow, dir struct{ seq, rnd, name string }) {
		rw := dir.seq
		if r.random {
			rw = dir.rnd
		}
		pr.tests = append(pr.tests, step{rw: rw, bs: r.kib << 10, depth: r.q, jobs: r.t, title: r.String() + " " + dir.name})
	}
	if p.byRow {
		for _, r := range p.rows {
			for _, dir := range dirs {
				add(r, dir)
			}
		}
		return pr
	}
	for _, dir := range dirs {
		for _, r := range p.rows {
			add(r, dir)
		}
	}
	return pr
}

// cdmShared makes every clone of the job use one file, as CrystalDiskMark's threads do: a --directory's file
// crystaldiskmark.0.0 (a --filename is one file already).
func cdmShared(j Job) Job {
	if j.Filename == "" && j.Directory != "" {
		j.Filename, j.Directory = filepath.Join(j.Directory, cdmFile), ""
	}
	return j
}

// cdmRun is how the run goes when its preset is a CrystalDiskMark profile.
type cdmRun struct {
	profile           *cdmProfile
	prepare, interval time.Duration
}

// cdmOf is the run's CrystalDiskMark settings, nil unless its preset is a CrystalDiskMark profile.
func cdmOf(o *RunFlags) *cdmRun {
	if p, ok := presets[o.Preset]; ok && o.Job == "" && p.cdm != nil {
		return &cdmRun{profile: p.cdm, prepare: o.CDMPrepare, interval: o.CDMInterval}
	}
	return nil
}

// checkCDM refuses the CrystalDiskMark options without a CrystalDiskMark preset, which alone honours them.
func checkCDM(o *RunFlags, v *workload.Values) error {
	if cdmOf(o) != nil {
		return nil
	}
	for _, name := range []string{"cdm-prepare", "cdm-interval"} {
		if v.Changed(name) {
			return fmt.Errorf("--%s applies to the CrystalDiskMark presets only: add --preset crystaldiskmark (or crystaldiskmark-nvme, crystaldiskmark3), or drop --%s", name, name)
		}
	}
	return nil
}

// record adds the CrystalDiskMark options to the result's options.
func (o *RunFlags) recordCDM(out map[string]any) {
	out["cdm_prepare"], out["cdm_interval"] = o.CDMPrepare.Seconds(), o.CDMInterval.Seconds()
}

// cdmPass runs one pass of a test (prepare: the unmeasured preparing pass); tests watch the passes through it.
var cdmPass = func(ctx context.Context, t *Test, files map[string]*File, out io.Writer, interval time.Duration, prepare bool) (*result.IOTest, error) {
	return runTest(ctx, t, files, out, interval)
}

// measureCDM runs the tests as CrystalDiskMark does: the interval before every test but the first, the
// preparing pass (its figures dropped), then the passes; the pass of the most MB/s is kept, with the lowest
// mean latency of the passes that did IO beside it.
func (r *run) measureCDM(ctx context.Context, res *result.Result) (bool, error) {
	res.IO = r.io
	c, out := r.cdm, r.spec.Out
	var runErr error
	for i := range r.tests {
		t := &r.tests[i]
		if i > 0 && c.interval > 0 && ctx.Err() == nil {
			fmt.Fprintf(out, "interval: %s before the next test\n", c.interval)
			select {
			case <-ctx.Done():
			case <-time.After(c.interval):
			}
		}
		if ctx.Err() != nil {
			break
		}
		info := &result.IOCDM{Row: strings.TrimSuffix(strings.TrimSuffix(t.Name, " read"), " write"), IntervalS: c.interval.Seconds(),
			PrepareS: c.prepare.Seconds(), MinMeanLatUs: -1}
		var best *result.IOTest
		if c.prepare > 0 {
			prep := *t
			prep.Live = nil // unmeasured: not live either
			prep.Jobs = append([]Job(nil), t.Jobs...)
			for k := range prep.Jobs {
				prep.Jobs[k].Runtime, prep.Jobs[k].TimeBased, prep.Jobs[k].Ramp = c.prepare, true, 0
			}
			fmt.Fprintf(out, "test %d of %d: %s, preparing for %s (unmeasured)\n", i+1, len(r.tests), t.Name, c.prepare)
			rt, err := cdmPass(ctx, &prep, r.byPath, io.Discard, r.o.Interval, true)
			if err != nil {
				printTest(out, rt)
				runErr, best = err, rt
			}
		}
		t.Live = r.spec.Live
		for p := 1; runErr == nil && p <= t.Passes && ctx.Err() == nil; p++ {
			fmt.Fprintf(out, "test %d of %d: %s%s\n", i+1, len(r.tests), t.Name, passOf(p, t.Passes))
			rt, err := cdmPass(ctx, t, r.byPath, out, r.o.Interval, false)
			printTest(out, rt)
			if err != nil {
				runErr, best = err, rt
				break
			}
			if rt.Status != result.StatusOK {
				if best == nil {
					best = rt
				}
				continue
			}
			mbs, l := rt.MBs(), 0.0
			if lt, ok := rt.Latency(); ok {
				l = lt.Mean
			}
			info.PassMBs, info.PassMeanUs = append(info.PassMBs, mbs), append(info.PassMeanUs, l)
			if best == nil || best.Status != result.StatusOK || mbs > best.MBs() {
				best = rt
				best.BestPass = p
			}
			if mbs > 0 && (info.MinMeanLatUs < 0 || l < info.MinMeanLatUs) {
				info.MinMeanLatUs = l
			}
		}
		if best != nil {
			if info.MinMeanLatUs < 0 {
				info.MinMeanLatUs = 0
			}
			if t.Passes == 1 {
				best.BestPass = 0
			}
			best.Passes, best.CDM = t.Passes, info
			r.io.Tests = append(r.io.Tests, *best)
		}
		if runErr != nil {
			break
		}
	}
	if runErr == nil && ctx.Err() != nil {
		runErr = fmt.Errorf("%w: stopped during the tests", workload.ErrAborted)
	}
	return len(r.io.Tests) > 0, runErr
}

// cdmCell is a figure as CrystalDiskMark's window writes it: two decimals, whole from a million up.
func cdmCell(v float64) string {
	if v >= 1e6 {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.2f", v)
}

// cdmTab is a CrystalDiskMark run's figures by row: each row's read and write test (nil where it did not run).
type cdmTab struct {
	rows     []string
	read     map[string]*result.IOTest
	write    map[string]*result.IOTest
	setting  string
	version  int // CrystalDiskMark's, whose window the table is
	size     int64
	passes   int
	measureS float64
	interval float64
	prepareS float64
}

// cdmTabOf gathers the tests a CrystalDiskMark preset ran, nil if none did.
func cdmTabOf(x *result.IO) *cdmTab {
	if x == nil {
		return nil
	}
	tb := &cdmTab{read: map[string]*result.IOTest{}, write: map[string]*result.IOTest{}}
	for i := range x.Tests {
		t := &x.Tests[i]
		if t.CDM == nil {
			continue
		}
		if _, r := tb.read[t.CDM.Row]; !r {
			if _, w := tb.write[t.CDM.Row]; !w {
				tb.rows = append(tb.rows, t.CDM.Row)
			}
		}
		if t.RW == "read" || t.RW == "randread" {
			tb.read[t.CDM.Row] = t
		} else {
			tb.write[t.CDM.Row] = t
		}
		tb.passes, tb.measureS, tb.interval, tb.prepareS = t.Passes, t.RuntimeS, t.CDM.IntervalS, t.CDM.PrepareS
	}
	if len(tb.rows) == 0 {
		return nil
	}
	for _, f := range x.Files {
		tb.size = max(tb.size, f.SizeBytes)
	}
	tb.setting, tb.version = "custom", 8
	for _, p := range cdmProfiles {
		var names []string
		for _, r := range p.rows {
			names = append(names, r.String())
		}
		if strings.Join(names, ",") == strings.Join(tb.rows, ",") {
			tb.setting, tb.version = p.setting, p.version
		}
	}
	return tb
}

// mbs is a test's MB/s in the table, "-" where it did not run or did no IO.
func mbsCell(t *result.IOTest) string {
	if t == nil || t.Read == nil && t.Write == nil {
		return "-"
	}
	return cdmCell(t.MBs())
}

// cdmSize writes the test size as CrystalDiskMark does: GiB, or MiB.
func cdmSizeText(n int64) string {
	switch {
	case n > 0 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n > 0 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return result.FormatSize(n)
}

// cdmDetail is a test's line in CrystalDiskMark's text result: kind, block size, queues, threads, MB/s,
// IOPS and the latency kept (the lowest mean over the passes) in µs.
func cdmDetail(t *result.IOTest) string {
	kind, size := "SEQ", fmt.Sprintf("%4dKiB", t.BS>>10)
	if strings.HasPrefix(t.RW, "rand") {
		kind = "RND"
	}
	if t.BS >= 1<<20 {
		size = fmt.Sprintf("%4dMiB", t.BS>>20)
	}
	var mbs, iops, lat float64
	for _, d := range []*result.IODir{t.Read, t.Write} {
		if d != nil {
			mbs, iops, lat = mbs+d.MBs, iops+d.IOPS, d.Lat.Mean
		}
	}
	if t.CDM != nil {
		lat = t.CDM.MinMeanLatUs
	}
	return fmt.Sprintf("  %s %s (Q=%3d, T=%2d): %9.3f MB/s [%9.1f IOPS] <%9.2f us>", kind, size, t.IODepth, t.NumJobs, mbs, iops, lat)
}

// cdmTable prints a CrystalDiskMark run's result in CrystalDiskMark's layout: its window (a row per test,
// read and write MB/s), then its text result (each test's MB/s, IOPS and latency, reads then writes) and the
// settings.
func cdmTable(w io.Writer, x *result.IO) {
	tb := cdmTabOf(x)
	if tb == nil {
		return
	}
	fmt.Fprintf(w, "\nCrystalDiskMark %d's result, %s settings (measured by dbdyno io)\n", tb.version, tb.setting)
	fmt.Fprintln(w, "* MB/s = 1,000,000 bytes/s, KB = 1000 bytes, KiB = 1024 bytes")
	fmt.Fprintf(w, "\n%-15s %14s %14s\n", "", "Read [MB/s]", "Write [MB/s]")
	for _, row := range tb.rows {
		fmt.Fprintf(w, "%-15s %14s %14s\n", row, mbsCell(tb.read[row]), mbsCell(tb.write[row]))
	}
	for _, dir := range []struct {
		name string
		of   map[string]*result.IOTest
	}{{"Read", tb.read}, {"Write", tb.write}} {
		fmt.Fprintf(w, "\n[%s]\n", dir.name)
		for _, row := range tb.rows {
			if t := dir.of[row]; t != nil {
				fmt.Fprintln(w, cdmDetail(t))
			}
		}
	}
	profile := "Default"
	if tb.setting != "Default" {
		profile += ", " + tb.setting + " settings"
	}
	fmt.Fprintf(w, "\nProfile: %s\n", profile)
	fmt.Fprintf(w, "   Test: %s (x%d)\n", cdmSizeText(tb.size), tb.passes)
	fmt.Fprintf(w, "   Time: Measure %g sec / Interval %g sec (preparing pass %g sec)\n", tb.measureS, tb.interval, tb.prepareS)
}

// cdmReport is the report's CrystalDiskMark table, as its window shows it, for a run of a CrystalDiskMark preset.
func cdmReport(b *strings.Builder, x *result.IO) {
	tb := cdmTabOf(x)
	if tb == nil {
		return
	}
	fmt.Fprintf(b, "<h3>CrystalDiskMark %d (%s): %s (x%d), measure %g s / interval %g s</h3>\n", tb.version, report.Esc(tb.setting), cdmSizeText(tb.size), tb.passes, tb.measureS, tb.interval)
	b.WriteString("<table class=\"io-cdm\"><tr><th class=\"l\"></th><th>Read [MB/s]</th><th>Write [MB/s]</th><th>Read latency (µs)</th><th>Write latency (µs)</th></tr>")
	lat := func(t *result.IOTest) string {
		if t == nil || t.CDM == nil || t.Read == nil && t.Write == nil {
			return "-"
		}
		return fmt.Sprintf("%.2f", t.CDM.MinMeanLatUs)
	}
	for _, row := range tb.rows {
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>", report.Esc(row),
			mbsCell(tb.read[row]), mbsCell(tb.write[row]), lat(tb.read[row]), lat(tb.write[row]))
	}
	b.WriteString("</table>\n<p class=\"note\">MB/s = 10^6 bytes/s; each figure is the best of the passes, the latency the lowest mean of the passes, as CrystalDiskMark keeps them.</p>\n")
}

// Package ioprobe is dbdyno's storage IO probe (dbdyno io): fio's jobs with fio's option names and meanings,
// io_uring, libaio or psync at a queue depth, direct IO on files dbdyno lays out (and never on files it did
// not, unless told), IOPS, MB/s and completion-latency percentiles per direction, the per-second series, the
// CPU it used and the device's own counters, stored and compared like every other run. Presets reproduce the
// storage studies' tests (CrystalDiskMark, the premium-storage guide, SQL Server's IO); a matrix sweeps block
// sizes, depths and directions in one run.
package ioprobe

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

func init() {
	workload.Register(&workload.Meta{
		Name:  "io",
		Short: "storage IO probe: fio-class IOPS, MB/s and latency percentiles on a file or device",
		Long: "dbdyno io run measures a file or block device the way fio does, with fio's option names (--rw, --bs, --iodepth,\n" +
			"--numjobs, --direct, --ioengine, --runtime ...) or a fio job file (--job FILE.fio), or the storage studies' presets.\n" +
			"Files are laid out before the run (untimed) and reused; a file dbdyno did not lay out is never written without\n" +
			"--overwrite, and a block device is used only when named with --device.",
		NeedsDB:  false,
		Sections: []string{"io"},
		Metrics:  []workload.MetricDesc{mIOPS, mMBs, mRead50, mRead99, mWrite50, mWrite99, mCPU},
		Derive:   metrics,
		Work:     work,
		Describe: describe,
		Commands: []*workload.Command{runCommand(), sizeCommand()},
		// its part of a report: what its result's io section holds
		Report: report.Part(func(r *result.Result) *result.IO { return r.IO }, storage),
		// its part of a study: CrystalDiskMark grids side by side, configuration by configuration
		StudyReport: cdmStudy,
	})
}

// RunFlags are `io run`'s own options, which are not fio's: which tests run, and how. fio's options are the
// table's (options.go), which places --device among them; the others follow fio's, in this order.
type RunFlags struct {
	Device            string        `flag:"device" help:"a block device to measure (reads only, unless --i-know-this-destroys-data)"`
	Job               string        `flag:"job" help:"a fio job file ([global] and job sections, the options above); any other option is an error naming it"`
	Preset            string        `flag:"preset" help:"a study's tests: "` // and the presets' names (runCommand)
	Matrix            []string      `flag:"matrix" help:"tests over every combination, e.g. --matrix \"bs=4k,8k,64k,1m iodepth=1,8,32,128 rw=randread,randwrite\" (repeatable)"`
	Passes            int           `flag:"passes" default:"0" help:"run each test this many times in the run and keep the best (0: the preset's, else 1)"`
	Overwrite         bool          `flag:"overwrite" help:"allow writing to (and laying out) an existing file dbdyno did not lay out: its content is lost"`
	Destroy           bool          `flag:"i-know-this-destroys-data" help:"allow jobs to write to the --device"`
	WarmupWrite       time.Duration `flag:"warmup-write" help:"before measuring, write 1 MiB blocks sequentially for this long (caches warmed as the studies did)"`
	WarmupRead        time.Duration `flag:"warmup-read" help:"then read 1 MiB blocks for this long"`
	Interval          time.Duration `flag:"interval" default:"1s" help:"progress line and series interval"`
	workload.Sharding `shard.help:"drive shard I of N (I/N, e.g. 2/4) of a run driven by N processes: the I-th of N even ranges of each job's clones (numjobs), on their own files (--directory) or the I-th of N regions of a shared file; merge with dbdyno results merge"`
	CDMPrepare        time.Duration `flag:"cdm-prepare" default:"5s" min:"0s" help:"a CrystalDiskMark preset's unmeasured preparing pass before each test (0: none)"`
	CDMInterval       time.Duration `flag:"cdm-interval" default:"5s" min:"0s" help:"a CrystalDiskMark preset's pause between tests"`
	ProfileFlags
}

// record adds the options of o the result keeps (not --i-know-this-destroys-data and --interval) to the
// table's, by their plan keys.
func (o *RunFlags) record(out map[string]any) {
	out["device"], out["job"], out["preset"], out["matrix"] = o.Device, o.Job, o.Preset, strings.Join(o.Matrix, " ")
	out["passes"], out["overwrite"], out["shard"] = o.Passes, o.Overwrite, o.Shard.String() // a shard's share: Options (shard.go)
	out["warmup_write"], out["warmup_read"] = o.WarmupWrite.Seconds(), o.WarmupRead.Seconds()
	o.recordCDM(out)
	o.recordProfile(out)
}

// runCommand is `io run`: RunFlags's options and the table's fio options (flags). Its Inputs need the fio
// options, which RunFlags does not hold, so they are given the values themselves (withInputs).
func runCommand() *workload.Command {
	c := workload.NewMeasured(workload.Command{
		Name:  "run",
		Short: "measure IOPS, MB/s and latency of a file or device",
		Long:  "Runs one job (the options), a fio job file (--job), a preset (--preset NAME) or a --matrix of tests.\nPresets:\n" + PresetHelp(),
		Example: "  dbdyno io run --filename /data/dbdyno.io --size 4g --rw randread --bs 8k --iodepth 32 --numjobs 2 --runtime 60\n" +
			"  dbdyno io run --directory /data --preset crystaldiskmark\n" +
			"  dbdyno io run --job ssd-test.fio",
		Live: true,
	}, &RunFlags{}, measured{})
	for i := range c.Flags {
		if f := &c.Flags[i]; f.Name == "preset" {
			f.Help += strings.Join(Presets(), ", ")
		}
	}
	c.Flags = flags(c.Flags)
	c.Measured = withInputs{c.Measured}
	return c
}

// Tests builds the run's tests from the flags: a job file, a preset, a matrix, or the one job the options give
// (o the command's own options, v all of them, fio's read by the table).
func Tests(o *RunFlags, v *workload.Values) ([]Test, error) {
	if o.Interval < 100*time.Millisecond {
		return nil, fmt.Errorf("--interval must be at least 100ms (got %s)", o.Interval)
	}
	if o.WarmupWrite < 0 || o.WarmupRead < 0 {
		return nil, fmt.Errorf("--warmup-write and --warmup-read cannot be negative")
	}
	if err := checkCDM(o, v); err != nil {
		return nil, err
	}
	var tests []Test
	if err := o.ProfileFlags.check(o.Job != ""); err != nil {
		return nil, err
	}
	switch job, preset, matrix := o.Job, o.Preset, o.Matrix; {
	case job != "" && (preset != "" || len(matrix) > 0), preset != "" && len(matrix) > 0:
		return nil, fmt.Errorf("--job, --preset and --matrix each say which tests run: give one")
	case job != "":
		// the options given with --job are the file's defaults, under its [global] (as fio takes the options
		// before a job file)
		global, err := fileDefaults(v)
		if err != nil {
			return nil, err
		}
		f, err := os.Open(job)
		if err != nil {
			return nil, fmt.Errorf("--job: %v", err)
		}
		defer f.Close()
		if tests, err = parseJobFile(job, f, global); err != nil {
			return nil, err
		}
		for i := range tests {
			for k := range tests[i].Jobs {
				if tests[i].Jobs[k].Device = isBlock(tests[i].Jobs[k].Filename); tests[i].Jobs[k].Device && o.Device != tests[i].Jobs[k].Filename {
					return nil, fmt.Errorf("%s: filename=%s is a block device: name it with --device %s as well (and --i-know-this-destroys-data for a job that writes)", job, tests[i].Jobs[k].Filename, tests[i].Jobs[k].Filename)
				}
			}
		}
	default:
		if o.Profile != "" {
			if preset != "" || len(matrix) > 0 {
				return nil, fmt.Errorf("--profile is one job: leave out --preset and --matrix")
			}
			var err error
			if v, _, err = o.applyProfile(v); err != nil {
				return nil, err
			}
		}
		base, err := cliJob(v)
		if err != nil {
			return nil, err
		}
		switch {
		case preset != "" && base.variableBS():
			err = fmt.Errorf("--preset %s sets each test's block size: leave out --bs with two sizes, --bsrange and --bssplit", preset)
		case preset != "":
			tests, err = presetTests(preset, base, v.Changed("size"), v.Changed("runtime"))
		case len(matrix) > 0:
			tests, err = matrixTests(matrix, base)
		default:
			if err = base.Check(); err == nil {
				tests = []Test{{Name: base.Title(), Jobs: []Job{base}, Passes: 1}}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if p := o.Passes; p < 0 {
		return nil, fmt.Errorf("--passes cannot be negative (got %d)", p)
	} else if p > 0 {
		for i := range tests {
			tests[i].Passes = p
		}
	}
	if _, err := shardTests(tests, o.Shard, o); err != nil {
		return nil, err
	}
	return tests, nil
}

type measured struct{}

// Prepare checks everything before anything is written: the tests and the files (guard, devices, sizes,
// directories, direct IO); Inputs gives the method the files, which it keeps the store and result off.
func (measured) Prepare(o *RunFlags, v *workload.Values) error {
	_, _, err := plan(o, v)
	return err
}

func plan(o *RunFlags, v *workload.Values) ([]Test, []*File, error) {
	tests, err := Tests(o, v)
	if err != nil {
		return nil, nil, err
	}
	files, err := Plan(tests, Guard{Overwrite: o.Overwrite, Destroy: o.Destroy}, o.WarmupWrite > 0)
	if err != nil {
		return nil, nil, err
	}
	if err := refuseSharedLayout(tests, files); err != nil {
		return nil, nil, err
	}
	return tests, files, nil
}

// withInputs is the typed command with its Inputs, which read the fio options from the values as well as
// RunFlags (workload.InputsOf gives only the options struct).
type withInputs struct{ workload.Measured }

// Inputs are the files and devices the jobs use: the method keeps the results store and the result file off
// them.
func (withInputs) Inputs(v *workload.Values) ([]string, error) {
	o, err := workload.Options[RunFlags](v)
	if err != nil {
		return nil, err
	}
	_, files, err := plan(o, v)
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out, err
}

func isBlock(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&os.ModeDevice != 0 && fi.Mode()&os.ModeCharDevice == 0
}

func (measured) Warmup(*RunFlags) (bool, string) { return false, "" }

type run struct {
	spec   workload.Spec
	o      *RunFlags
	tests  []Test
	files  []*File
	byPath map[string]*File
	io     *result.IO
	cdm    *cdmRun // a CrystalDiskMark preset's (cdm.go)
}

// Start lays the files out (untimed), runs the warm-up writes and reads, and hands the measured tests over.
func (measured) Start(ctx context.Context, s workload.Spec, o *RunFlags) (workload.Run, error) {
	tests, files, err := plan(o, s.Values)
	if err != nil {
		return nil, err
	}
	r := &run{spec: s, o: o, tests: tests, files: files, byPath: map[string]*File{}, io: &result.IO{}, cdm: cdmOf(o)}
	for _, f := range files {
		t0 := time.Now()
		laid := f.LayOut
		if err := f.LayOutFile(ctx, s.Out); err != nil {
			return nil, err
		}
		f.LayOut = false // laid out now: further repeats reuse it
		rf := result.IOFile{Path: f.Path, SizeBytes: f.Size, Device: f.DevName, Filesystem: f.FSType, LaidOut: laid, Buffered: f.Buffered}
		if laid {
			rf.LayoutS = time.Since(t0).Seconds()
		}
		if f.Buffered {
			fmt.Fprintf(s.Out, "NOTE: %s (%s) refuses direct IO: the jobs use buffered IO, and the figures are the page cache's, not the disk's\n", f.Path, f.FSType)
		}
		r.io.Files = append(r.io.Files, rf)
		r.byPath[f.Path] = f
	}
	if err := r.warmup(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// warmup writes, then reads, 1 MiB blocks sequentially over the files for the times asked (untimed).
func (r *run) warmup(ctx context.Context) error {
	ww, wr := r.o.WarmupWrite, r.o.WarmupRead
	if ww == 0 && wr == 0 {
		return nil
	}
	wu := &result.IOWarmup{}
	for _, phase := range []struct {
		rw  string
		d   time.Duration
		s   *float64
		mbs *float64
	}{{"write", ww, &wu.WriteS, &wu.WriteMBs}, {"read", wr, &wu.ReadS, &wu.ReadMBs}} {
		if phase.d == 0 {
			continue
		}
		t := Test{Name: "warm-up " + phase.rw}
		for _, f := range r.files {
			j := Job{Name: "warmup", Filename: f.Path, Size: f.Size, RW: phase.rw, BS: 1 << 20, IODepth: 8, NumJobs: 1, IOEngine: "io_uring",
				Direct: true, Runtime: phase.d, TimeBased: true, Device: f.Device}
			t.Jobs = append(t.Jobs, j)
		}
		fmt.Fprintf(r.spec.Out, "warm-up: %s 1 MiB blocks for %s (untimed)\n", phase.rw, phase.d)
		rt, err := runTest(ctx, &t, r.byPath, io.Discard, time.Second)
		if err != nil {
			return fmt.Errorf("warm-up %s: %v", phase.rw, err)
		}
		*phase.s = rt.Seconds
		for _, d := range []*result.IODir{rt.Read, rt.Write} {
			if d != nil {
				*phase.mbs += d.MBs
			}
		}
	}
	r.io.Warmup = wu
	return nil
}

// ServerVersion names what is under test: the devices and filesystems of the files ("vda ext4").
func (r *run) ServerVersion() string {
	var parts []string
	seen := map[string]bool{}
	for _, f := range r.files {
		p := strings.TrimSpace(f.DevName + " " + f.FSType)
		if p != "" && !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

func (r *run) Options() map[string]any {
	o := recorded(r.spec.Values)
	r.o.record(o)
	var names []string
	for _, t := range r.tests {
		names = append(names, t.Name)
	}
	o["tests"] = strings.Join(names, "; ")
	if sh := r.o.Shard; sh.On() && len(r.tests) > 0 {
		sh.Record(o, "job clones", r.tests[0].Jobs[0].NumJobs, 0)
		if j := r.tests[0].Jobs[0]; j.Filename != "" {
			o["shard_region"] = fmt.Sprintf("bytes %d..%d of %s", j.Offset, j.Offset+j.Size-1, j.path(0))
		}
	}
	return o
}

// Measure runs the tests in order, each for its passes (the best pass kept).
func (r *run) Measure(ctx context.Context, res *result.Result) (bool, error) {
	if r.spec.Live != nil {
		defer r.spec.Live.Phase("ended")
	}
	if r.cdm != nil {
		return r.measureCDM(ctx, res)
	}
	res.IO = r.io
	var runErr error
	for i := range r.tests {
		t := &r.tests[i]
		if ctx.Err() != nil {
			break
		}
		var best *result.IOTest
		for p := 1; p <= t.Passes && ctx.Err() == nil; p++ {
			fmt.Fprintf(r.spec.Out, "test %d of %d: %s%s\n", i+1, len(r.tests), t.Name, passOf(p, t.Passes))
			if i == 0 && p == 1 {
				t.StartAt = r.spec.StartAt
			} else {
				t.StartAt = time.Time{}
			}
			t.Live = r.spec.Live
			rt, err := runTest(ctx, t, r.byPath, r.spec.Out, r.o.Interval)
			printTest(r.spec.Out, rt)
			if err != nil {
				runErr = err
				best = rt
				break
			}
			if best == nil || rt.Status == result.StatusOK && main(rt) > main(best) {
				best = rt
				best.BestPass = p
			}
		}
		if best != nil {
			if t.Passes == 1 {
				best.BestPass = 0
			}
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

func passOf(p, n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf(", pass %d of %d", p, n)
}

func (r *run) Finish(_ context.Context, res *result.Result) error {
	if len(r.io.Tests) > 1 {
		fmt.Fprintf(r.spec.Out, "\n%s: %d tests\n", res.Status, len(r.io.Tests))
		for i := range r.io.Tests {
			t := &r.io.Tests[i]
			fmt.Fprintf(r.spec.Out, "  %-40s %10.0f IOPS %9.1f MB/s  p50 %8.0f µs  p99 %8.0f µs\n", t.Name, t.IOPS(), t.MBs(), lat(t, 50), lat(t, 99))
		}
	}
	cdmTable(r.spec.Out, r.io)
	r.o.ProfileFlags.finish(r.spec.Out, r.io)
	return nil
}

func (r *run) Close() {}

// StartsAt: the first test's clones set up, then open its window at --start-at themselves (runTest), so the
// shards' windows start together whatever their set-up takes; a CrystalDiskMark preset's run is waited for by
// the method.
func (r *run) StartsAt() bool { return r.cdm == nil }

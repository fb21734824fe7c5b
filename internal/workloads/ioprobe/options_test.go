package ioprobe

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/dbdyno/dbdyno/internal/workload"
)

// cliJobOf is the job dbdyno io run's flags describe.
func cliJobOf(t *testing.T, args ...string) (Job, error) {
	t.Helper()
	fs := pflag.NewFlagSet("io run", pflag.ContinueOnError)
	read := workload.Define(fs, runCommand().Flags)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	v, err := read()
	if err != nil {
		t.Fatal(err)
	}
	return cliJob(v)
}

// Every option taken both as a flag and in a job file sets the job the same way from either; a form dbdyno
// cannot honour is refused from either, in the same words.
func TestOptionsMeanTheSameFromFlagsAndJobFiles(t *testing.T) {
	sample := map[string]string{"filename": "/data/f", "directory": "/data", "size": "64m", "rw": "randrw", "bs": "8k", "iodepth": "16",
		"numjobs": "3", "rwmixread": "70", "direct": "0", "ioengine": "libaio", "ramp_time": "500ms", "runtime": "2m", "time_based": "0",
		"rate_iops": "900,300", "norandommap": "1", "bsrange": "8k-16k", "bssplit": "8k/50:16k/", "rate": "1m,", "iodepth_batch_submit": "4",
		"iodepth_batch_complete_min": "2", "iodepth_batch_complete_max": "8", "invalidate": "0", "fadvise_hint": "sequential", "randrepeat": "0"}
	for _, name := range jobFlags() {
		if _, ok := sample[name]; !ok {
			t.Fatalf("option %s has no sample value here: add one", name)
		}
	}
	for _, file := range []string{"filename", "directory"} {
		var args []string
		var fio strings.Builder
		fio.WriteString("[" + defaultName + "]\n")
		for _, name := range jobFlags() {
			if (name == "filename" || name == "directory") && name != file {
				continue
			}
			args = append(args, "--"+name+"="+sample[name])
			fmt.Fprintf(&fio, "%s=%s\n", name, sample[name])
		}
		fromFlags, err := cliJobOf(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		tests, err := ParseJobFile("t.fio", strings.NewReader(fio.String()))
		if err != nil {
			t.Fatal(err)
		}
		if fromFile := tests[0].Jobs[0]; !reflect.DeepEqual(fromFile, fromFlags) {
			t.Errorf("with %s:\nflags:    %+v\njob file: %+v", file, fromFlags, fromFile)
		}
		if fromFlags.BS != 8192 || fromFlags.RWMixRead != 70 || fromFlags.Direct || !fromFlags.DirectAsked || !fromFlags.NoRandomMap ||
			fromFlags.RateIOPS != [2]int{900, 300} || fromFlags.Rate != [2]int64{1 << 20, 0} || fromFlags.sizes(dirWrite).String() != "8k/50:16k/50" ||
			fromFlags.BatchSubmit != 4 || fromFlags.BatchCompleteMin != 2 || fromFlags.BatchCompleteMax != 8 || fromFlags.Invalidate || fromFlags.FadviseHint != "sequential" || fromFlags.RandRepeat {
			t.Errorf("flags did not set the job: %+v", fromFlags)
		}
	}
	for _, c := range []struct{ name, val string }{{"filename", "/a:/b"}, {"directory", "/a:/b"}, {"rw", "randread:8"}, {"bs", "4q"}, {"rate_iops", "5x"}, {"bssplit", "4k/60:8k/60"}, {"fadvise_hint", "often"}} {
		_, cliErr := cliJobOf(t, "--"+c.name+"="+c.val)
		_, fileErr := ParseJobFile("t.fio", strings.NewReader("[j]\n"+c.name+"="+c.val+"\n"))
		if cliErr == nil || fileErr == nil {
			t.Fatalf("%s=%s: flag %v, job file %v: want both refused", c.name, c.val, cliErr, fileErr)
		}
		cli, ok1 := strings.CutPrefix(cliErr.Error(), "--"+c.name+" "+c.val)
		file, ok2 := strings.CutPrefix(fileErr.Error(), "t.fio:2: "+c.name+"="+c.val)
		if !ok1 || !ok2 || cli != file {
			t.Errorf("%s=%s refused in other words:\nflag:     %v\njob file: %v", c.name, c.val, cliErr, fileErr)
		}
	}
}

// What the command line does not say is dbdyno's default; what a job file does not say is fio's.
func TestDefaultsAreDbdynosOnTheCommandLineAndFiosInAJobFile(t *testing.T) {
	j, err := cliJobOf(t, "--directory=/d")
	if err != nil {
		t.Fatal(err)
	}
	if j.RW != "randread" || j.BS != 4096 || j.IODepth != 32 || j.IOEngine != "io_uring" || !j.Direct || j.DirectAsked || !j.TimeBased || j.Size != 1<<30 {
		t.Fatalf("command line's defaults: %+v", j)
	}
	if f := fioDefaults(); f.Name != defaultName || f.RW != "read" || f.IOEngine != "psync" || f.Direct || f.Size != 0 {
		t.Fatalf("fio's defaults: %+v", f)
	}
}

// io run's flags are the table's fio options with RunFlags's own where the table places them (--device after
// --directory) and the rest after; the method gets the files it must keep off (Inputs); the result keeps every
// option but the three that change no figure.
func TestRunFlagsAndTheTableMakeOneCommand(t *testing.T) {
	c := runCommand()
	var names []string
	for _, f := range c.Flags {
		names = append(names, f.Name)
	}
	want := "filename directory device size rw bs bsrange bssplit iodepth numjobs rwmixread direct ioengine ramp_time runtime time_based rate_iops rate " +
		"iodepth_batch_submit iodepth_batch_complete_min iodepth_batch_complete_max invalidate fadvise_hint randrepeat norandommap group_reporting " +
		"job preset matrix passes overwrite i-know-this-destroys-data warmup-write warmup-read interval shard cdm-prepare cdm-interval " +
		"profile profile-percentile profile-period expect catalog"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("flags:\n got %s\nwant %s", got, want)
	}
	if f := c.Flags[indexOf(c.Flags, "preset")]; f.Help != "a study's tests: "+strings.Join(Presets(), ", ") {
		t.Fatalf("--preset's help: %q", f.Help)
	}
	if _, ok := c.Measured.(workload.Inputs); !ok {
		t.Fatal("io run gives the method no Inputs")
	}
	fs := pflag.NewFlagSet("io run", pflag.ContinueOnError)
	read := workload.Define(fs, c.Flags)
	if err := fs.Parse([]string{"--directory=/d", "--passes=3", "--matrix=bs=4k,8k", "--warmup-read=2s"}); err != nil {
		t.Fatal(err)
	}
	v, err := read()
	if err != nil {
		t.Fatal(err)
	}
	o, err := workload.Options[RunFlags](v)
	if err != nil {
		t.Fatal(err)
	}
	rec := recorded(v)
	o.record(rec)
	for _, f := range c.Flags {
		_, kept := rec[f.PlanKey()]
		if unrecorded := f.Name == "group_reporting" || f.Name == "i-know-this-destroys-data" || f.Name == "interval"; kept == unrecorded {
			t.Errorf("--%s: kept in the result's options %v", f.Name, kept)
		}
	}
	if rec["directory"] != "/d" || rec["passes"] != 3 || rec["matrix"] != "bs=4k,8k" || rec["warmup_read"] != 2.0 || rec["iodepth"] != 32 {
		t.Fatalf("recorded: %v", rec)
	}
}

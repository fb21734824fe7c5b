package ioprobe

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// corpus are the job files under testdata/fio: fio's example files ssd-test, tiobench-example,
// fixed-rate-submission and iometer-file-access-server as dbdyno's own copies (small sizes, files in the
// current directory), and one with the options those do not use.
func corpus(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("testdata/fio/*.fio")
	if len(files) < 5 {
		t.Fatalf("the corpus has %d files", len(files))
	}
	return files
}

func parseFile(t *testing.T, path string) []Test {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tests, err := ParseJobFile(path, f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return tests
}

// Every file of the corpus parses, to what its options say.
func TestCorpusParses(t *testing.T) {
	byName := map[string][]Test{}
	for _, path := range corpus(t) {
		byName[strings.TrimSuffix(filepath.Base(path), ".fio")] = parseFile(t, path)
	}
	ssd := byName["ssd-test"]
	if len(ssd) != 4 {
		t.Fatalf("ssd-test: %d groups, want 4 (each job stonewalled)", len(ssd))
	}
	for i, rw := range []string{"read", "randread", "write", "randwrite"} {
		j := ssd[i].Jobs[0]
		if j.RW != rw || j.path(0) != "ssd.test.file" || j.IOEngine != "libaio" || j.IODepth != 4 || !j.Direct || j.Runtime != time.Minute || j.TimeBased || j.BS != 4096 {
			t.Errorf("ssd-test job %d: %+v", i, j)
		}
	}
	tio := byName["tiobench-example"]
	if len(tio) != 4 {
		t.Fatalf("tiobench-example: %d groups", len(tio))
	}
	for i, rw := range []string{"write", "randwrite", "read", "randread"} {
		j := tio[i].Jobs[0]
		if j.RW != rw || j.NumJobs != 4 || j.Runtime != time.Minute || j.sizes(dirRead).String() != "4k" || j.path(2) != filepath.Join(".", j.Name+".2.0") || j.IOEngine != "psync" {
			t.Errorf("tiobench-example job %d: %+v", i, j)
		}
	}
	fr := byName["fixed-rate-submission"][0].Jobs[0]
	if fr.RateIOPS != [2]int{1000, 1000} || !fr.SubmitOffload || fr.IODepth != 32 || fr.RW != "read" {
		t.Errorf("fixed-rate-submission: %+v", fr)
	}
	io := byName["iometer-file-access-server"][0].Jobs[0]
	if io.RWMixRead != 80 || io.IODepth != 64 || io.sizes(dirRead).String() != "512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10" || io.sizes(dirWrite).min != 512 || io.maxBS() != 64<<10 {
		t.Errorf("iometer-file-access-server: %+v", io)
	}
	mx := byName["mixed-options"]
	// a stonewall in a later [global] parts every job after it
	if len(mx) != 4 || len(mx[0].Jobs) != 2 || mx[2].Jobs[0].Name != "last-a" || mx[3].Jobs[0].Name != "last-b" || mx[3].Jobs[0].Size != 4<<20 {
		t.Fatalf("mixed-options: %d groups", len(mx))
	}
	a, b, c := mx[0].Jobs[0], mx[0].Jobs[1], mx[1].Jobs[0]
	if a.sizes(dirRead).min != 4096 || a.sizes(dirWrite).min != 16384 || a.RateIOPS != [2]int{400, 100} || a.Ramp != 200*time.Millisecond || a.RWMixRead != 70 ||
		a.BatchSubmit != 4 || a.BatchCompleteMin != 2 || a.BatchCompleteMax != 8 || a.RandRepeat || a.FadviseHint != "random" {
		t.Errorf("two-sizes: %+v", a)
	}
	if b.sizes(dirRead).String() != "4k-32k" || b.sizes(dirWrite).String() != "8k" || b.Rate != [2]int64{2 << 20, 1 << 20} || b.Direct {
		t.Errorf("ranged: %+v", b)
	}
	if c.path(1) != "after.dat" || c.NumJobs != 2 || c.BS != 65536 {
		t.Errorf("after: %+v", c)
	}
}

// fioJob is a job as fio's own parser reads it (fio --debug=parse --parse-only), with fio's defaults.
type fioJob struct {
	name                           string
	rw, ioengine                   string
	bs                             [2]int64
	rateIOPS, rate                 [2]int64
	iodepth, numjobs, rwmixread    int64
	size, runtimeUs, rampUs        int64
	batch, cmin, cmax              int64
	direct, timeBased, stonewall   bool
	randrepeat, invalidate, ranged bool
}

var fioDebugLine = regexp.MustCompile(`^parse\s+\d+\s+(.*)$`)

// fioParse runs fio's parser over a job file and gives its jobs in order.
func fioParse(t *testing.T, fio, path string) []fioJob {
	t.Helper()
	out, err := exec.Command(fio, "--debug=parse", "--parse-only", path).CombinedOutput()
	if err != nil {
		t.Fatalf("fio --parse-only %s: %v\n%s", path, err, out)
	}
	type opt struct {
		name, raw string
		outs      []int64
	}
	var global []opt
	var jobs []fioJob
	var cur *[]opt
	var sections [][]opt
	var names []string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		m := fioDebugLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		l := strings.TrimSpace(m[1])
		switch {
		case strings.HasPrefix(l, "Parsing section ["):
			name := strings.TrimSuffix(strings.TrimPrefix(l, "Parsing section ["), "]")
			if name == "global" {
				cur = &global
			} else {
				// a job starts from the global options so far
				sections = append(sections, append([]opt(nil), global...))
				names = append(names, name)
				cur = &sections[len(sections)-1]
			}
		case strings.HasPrefix(l, "handle_option="):
			name, raw, _ := strings.Cut(strings.TrimPrefix(l, "handle_option="), ", ptr=")
			*cur = append(*cur, opt{name: name, raw: raw})
		case strings.HasPrefix(l, "ret=0, out="):
			n, _ := strconv.ParseInt(strings.TrimPrefix(l, "ret=0, out="), 10, 64)
			o := &(*cur)[len(*cur)-1]
			o.outs = append(o.outs, n)
		}
	}
	two := func(o opt) [2]int64 {
		if len(o.outs) == 1 {
			return [2]int64{o.outs[0], o.outs[0]}
		}
		return [2]int64{o.outs[0], o.outs[1]}
	}
	for i, sec := range sections {
		j := fioJob{name: names[i], rw: "read", ioengine: "psync", bs: [2]int64{4096, 4096}, iodepth: 1, numjobs: 1, rwmixread: 50, batch: 1, cmin: 1, randrepeat: true, invalidate: true}
		for _, o := range sec {
			switch o.name {
			case "rw":
				j.rw = o.raw
			case "ioengine":
				j.ioengine = o.raw
			case "bs":
				j.bs = two(o)
			case "bsrange", "bssplit":
				j.ranged = true
			case "rate_iops":
				j.rateIOPS = two(o)
			case "rate":
				j.rate = two(o)
			case "iodepth":
				j.iodepth = o.outs[0]
			case "numjobs":
				j.numjobs = o.outs[0]
			case "rwmixread":
				j.rwmixread = o.outs[0]
			case "rwmixwrite":
				j.rwmixread = 100 - o.outs[0]
			case "size":
				j.size = o.outs[0]
			case "runtime":
				j.runtimeUs = o.outs[0]
			case "ramp_time":
				j.rampUs = o.outs[0]
			case "iodepth_batch":
				j.batch = o.outs[0]
			case "iodepth_batch_complete_min":
				j.cmin = o.outs[0]
			case "iodepth_batch_complete_max":
				j.cmax = o.outs[0]
			case "direct":
				j.direct = o.outs[0] == 1
			case "buffered":
				j.direct = o.outs[0] == 0
			case "time_based":
				j.timeBased = true
			case "stonewall":
				j.stonewall = true
			case "randrepeat":
				j.randrepeat = o.outs[0] == 1
			case "invalidate":
				j.invalidate = o.outs[0] == 1
			}
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// fio's own parser and dbdyno's read every file of the corpus alike: the same jobs in the same groups, with
// the same rw, block sizes, depth, size, runtime, ramp, jobs, mix, direct, engine, rates and batches.
func TestCorpusParsesAsFioParsesIt(t *testing.T) {
	fio, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not installed (apt-get install fio): the corpus is compared with fio's own parser where it is")
	}
	for _, path := range corpus(t) {
		want := fioParse(t, fio, path)
		var got []Job
		var group []int
		for g, tc := range parseFile(t, path) {
			for _, j := range tc.Jobs {
				got = append(got, j)
				group = append(group, g)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: dbdyno has %d jobs, fio %d", path, len(got), len(want))
			continue
		}
		for i, w := range want {
			g := got[i]
			if i > 0 && (group[i] != group[i-1]) != w.stonewall {
				t.Errorf("%s %s: dbdyno starts a new group %v, fio's stonewall %v", path, w.name, group[i] != group[i-1], w.stonewall)
			}
			type pair struct {
				what      string
				dbdyno, f any
			}
			checks := []pair{
				{"name", g.Name, w.name}, {"rw", g.RW, w.rw}, {"ioengine", g.IOEngine, w.ioengine}, {"iodepth", int64(g.IODepth), w.iodepth},
				{"numjobs", int64(g.NumJobs), w.numjobs}, {"rwmixread", int64(g.RWMixRead), w.rwmixread}, {"size", g.Size, w.size},
				{"runtime", g.Runtime.Microseconds(), w.runtimeUs}, {"ramp_time", g.Ramp.Microseconds(), w.rampUs}, {"direct", g.Direct, w.direct},
				{"time_based", g.TimeBased, w.timeBased}, {"rate_iops", [2]int64{int64(g.RateIOPS[0]), int64(g.RateIOPS[1])}, w.rateIOPS},
				{"rate", g.Rate, w.rate}, {"iodepth_batch_submit", int64(g.BatchSubmit), w.batch}, {"iodepth_batch_complete_min", int64(g.BatchCompleteMin), w.cmin},
				{"iodepth_batch_complete_max", int64(g.BatchCompleteMax), w.cmax}, {"randrepeat", g.RandRepeat, w.randrepeat}, {"invalidate", g.Invalidate, w.invalidate},
			}
			if !w.ranged {
				checks = append(checks, pair{"bs", [2]int64{int64(g.sizes(dirRead).min), int64(g.sizes(dirWrite).min)}, w.bs})
			}
			for _, c := range checks {
				if c.dbdyno != c.f {
					t.Errorf("%s [%s] %s: dbdyno %v, fio %v", path, w.name, c.what, c.dbdyno, c.f)
				}
			}
		}
	}
}

package ioprobe

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// A fio job file means what it means to fio: [global] options under every job, fio's own defaults where
// nothing is said (rw=read, bs=4k, iodepth=1, numjobs=1, psync, buffered, rwmixread=50), jobs together until a
// stonewall, times in seconds, sizes in powers of 1024, rwmixwrite as the complement.
func TestJobFileMeansWhatItMeansToFio(t *testing.T) {
	const file = `; the premium-storage guide's shape
[global]
size=30g
direct=1
iodepth=256
ioengine=libaio
bs=8k
runtime=30
time_based

[writer1]
rw=randwrite
directory=/mnt/nocache
numjobs=4

[reader1]   
rw=randread
directory=/mnt/readcache   ; a comment after a value

[mixed]
stonewall
filename=/data/f
rw=randrw
rwmixwrite=30
rate_iops=12500
bs=4k

[plain]
stonewall
filename=/data/g
`
	tests, err := ParseJobFile("t.fio", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != 3 || len(tests[0].Jobs) != 2 || len(tests[1].Jobs) != 1 || len(tests[2].Jobs) != 1 {
		t.Fatalf("tests: %+v", tests)
	}
	w, r := tests[0].Jobs[0], tests[0].Jobs[1]
	if w.Name != "writer1" || w.RW != "randwrite" || w.BS != 8192 || w.IODepth != 256 || w.NumJobs != 4 || w.Size != 30<<30 ||
		!w.Direct || w.IOEngine != "libaio" || w.Runtime != 30*time.Second || !w.TimeBased || w.Directory != "/mnt/nocache" {
		t.Fatalf("writer1: %+v", w)
	}
	if r.Directory != "/mnt/readcache" || r.RW != "randread" || r.NumJobs != 1 {
		t.Fatalf("reader1: %+v", r)
	}
	if tests[0].Name != "writer1+reader1" {
		t.Fatalf("first test's name %q", tests[0].Name)
	}
	m := tests[1].Jobs[0]
	if m.RWMixRead != 70 || m.RateIOPS != [2]int{12500, 12500} || m.BS != 4096 || m.IODepth != 256 || m.mixRead() != 70 {
		t.Fatalf("mixed: %+v", m)
	}
	p := tests[2].Jobs[0]
	if p.RW != "randread" && p.RW != "read" {
		t.Fatalf("plain: %+v", p)
	}
	// what [global] did not say is fio's default
	d := fioDefaults()
	if d.RW != "read" || d.BS != 4096 || d.IODepth != 1 || d.NumJobs != 1 || d.IOEngine != "psync" || d.Direct || d.RWMixRead != 50 || d.TimeBased {
		t.Fatalf("fio's defaults: %+v", d)
	}
	bare, err := ParseJobFile("b.fio", strings.NewReader("[j]\nfilename=/x\nsize=1m\n"))
	if err != nil {
		t.Fatal(err)
	}
	if j := bare[0].Jobs[0]; j.RW != "read" || j.IOEngine != "psync" || j.Direct || j.Depth() != 1 {
		t.Fatalf("a bare job: %+v", j)
	}
}

func TestJobFileRefusesWhatDbdynoDoesNotTake(t *testing.T) {
	for file, want := range map[string]string{
		"[j]\nfilename=/x\nsize=1m\nverify=md5\n":        `t.fio:4: fio option "verify" is not supported`,
		"[j]\nfilename=/x\nsize=1m\nrwmixread=120\n":     "rwmixread=120 is outside 0..100",
		"[j]\nfilename=/x\nsize=1m\niodepth=0\n":         "iodepth must be at least 1",
		"[j]\nfilename=/a:/b\nsize=1m\n":                 "names several files",
		"size=1m\n[j]\nfilename=/x\n":                    `t.fio:1: option "size" outside a section`,
		"[global]\nsize=1m\n":                            "holds no job section",
		"[j]\nfilename=/x\nsize=1m\ndirect=1\nbs=1000\n": "not a multiple of 512",
		"[j]\nfilename=/x\nsize=1k\nbs=4k\n":             "smaller than bs",
		"[j]\nfilename=/x\nsize=1m\nioengine=posixaio\n": "ioengine=posixaio",
	} {
		_, err := ParseJobFile("t.fio", strings.NewReader(file))
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v, want one line with %q", file, err, want)
		}
	}
}

// Times read as fio reads them (sizes: internal/lib/units), and sizes are written in fio's units.
func TestTimesReadAsFioReadsThem(t *testing.T) {
	for s, want := range map[string]time.Duration{"30": 30 * time.Second, "500ms": 500 * time.Millisecond, "2m": 2 * time.Minute, "1.5": 1500 * time.Millisecond} {
		if got, err := ParseTime(s); err != nil || got != want {
			t.Errorf("time %q = %s, %v; want %s", s, got, err, want)
		}
	}
	if result.FormatSize(8192) != "8k" || result.FormatSize(1<<20) != "1m" || result.FormatSize(61440) != "60k" || result.FormatSize(1000) != "1000" {
		t.Fatal("FormatSize")
	}
}

// The latency histogram's percentiles are within 1% of the exact percentiles of the recorded samples, and
// histograms merged over jobs give the percentiles of all the samples.
func TestHistogramPercentilesWithinOnePercent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var all []int64
	a, b := newHist(), newHist()
	for i := 0; i < 200000; i++ {
		// a log-normal spread from ~10 µs to ~100 ms, as completion latencies are
		v := int64(math.Exp(rng.NormFloat64()*1.5+11.5)) + 1
		all = append(all, v)
		if i%2 == 0 {
			a.RecordValue(v)
		} else {
			b.RecordValue(v)
		}
	}
	a.Merge(b)
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for _, p := range []float64{50, 90, 95, 99, 99.9} {
		exact := float64(all[int(math.Ceil(p/100*float64(len(all))))-1])
		got := float64(a.ValueAtPercentile(p))
		if rel := math.Abs(got-exact) / exact; rel > 0.01 {
			t.Errorf("p%g: histogram %g, exact %g (%.2f%% off)", p, got, exact, rel*100)
		}
	}
	if a.TotalCount() != int64(len(all)) {
		t.Fatalf("merged count %d of %d", a.TotalCount(), len(all))
	}
	if rel := math.Abs(float64(a.Max())-float64(all[len(all)-1])) / float64(all[len(all)-1]); rel > 0.01 {
		t.Fatalf("max %d vs %d", a.Max(), all[len(all)-1])
	}
}

// The presets are the studies' tables.
func TestPresetsAreTheStudiesTables(t *testing.T) {
	base := Job{Name: defaultName, Directory: "/d", RW: "randread", BS: 4096, IODepth: 32, NumJobs: 1, RWMixRead: 50, Direct: true, IOEngine: "io_uring", Size: 2 << 30, Runtime: 10 * time.Second}
	cdm, err := presetTests("crystaldiskmark", base, false, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"read 1m Q8T1", "read 1m Q1T1", "randread 4k Q32T1", "randread 4k Q1T1", "write 1m Q8T1", "write 1m Q1T1", "randwrite 4k Q32T1", "randwrite 4k Q1T1"}
	if len(cdm) != 8 {
		t.Fatalf("crystaldiskmark has %d tests", len(cdm))
	}
	for i, tc := range cdm {
		j := tc.Jobs[0]
		if j.Title() != want[i] || tc.Passes != 5 || j.Size != 1<<30 || !j.TimeBased || j.Runtime != 5*time.Second {
			t.Errorf("test %d: %s (%s), passes %d, size %d", i, j.Title(), tc.Name, tc.Passes, j.Size)
		}
	}
	ps, _ := presetTests("premium-storage", base, false, false)
	if len(ps) != 6 || ps[0].Jobs[0].Title() != "randread 8k Q128T4" || ps[1].Jobs[0].Title() != "randwrite 8k Q128T4" ||
		ps[2].Jobs[0].BS != 64<<10 || ps[4].Jobs[0].BS != 1<<20 || ps[0].Jobs[0].Runtime != 30*time.Second {
		t.Fatalf("premium-storage: %+v", ps)
	}
	sq, _ := presetTests("sqlserver", base, true, true)
	if len(sq) != 4 || sq[0].Jobs[0].Title() != "randrw 8k 70/30 Q8T4" || sq[3].Jobs[0].Title() != "write 60k Q1T1" || sq[0].Jobs[0].Size != base.Size || sq[0].Jobs[0].Runtime != base.Runtime {
		t.Fatalf("sqlserver: %v %v", sq[0].Jobs[0].Title(), sq[3].Jobs[0].Title())
	}
	if _, err := presetTests("iometer", base, false, false); err == nil || !strings.Contains(err.Error(), "crystaldiskmark") {
		t.Fatalf("an unknown preset: %v", err)
	}
}

func TestMatrixIsEveryCombination(t *testing.T) {
	base := Job{Name: defaultName, Directory: "/d", RW: "randread", BS: 4096, IODepth: 32, NumJobs: 1, RWMixRead: 50, Direct: true, IOEngine: "io_uring", Size: 1 << 30}
	tests, err := matrixTests([]string{"bs=4k,8k,64k,1m iodepth=1,8,32,128", "rw=randread,randwrite"}, base)
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != 32 || tests[0].Name != "randread 4k Q1T1" || tests[1].Name != "randwrite 4k Q1T1" || tests[31].Name != "randwrite 1m Q128T1" {
		t.Fatalf("%d tests: %s, %s ... %s", len(tests), tests[0].Name, tests[1].Name, tests[len(tests)-1].Name)
	}
	for _, bad := range []string{"size=1g,2g", "bs", "bs=4k iodepth=0", "bs=4k bs=8k"} {
		if _, err := matrixTests([]string{bad}, base); err == nil {
			t.Errorf("--matrix %q accepted", bad)
		}
	}
}

// The random map visits every block once per pass, in an order that differs from pass to pass and is the
// same from run to run.
func TestRandomMapVisitsEveryBlockOncePerPass(t *testing.T) {
	for _, n := range []uint64{1, 2, 1000, 1024, 4097} {
		p := newPermutation(n, rand.New(rand.NewPCG(1, 2)))
		var passes [2][]uint64
		for pass := range 2 {
			seen := make([]bool, n)
			for i := uint64(0); i < n; i++ {
				x := p.next()
				if x >= n || seen[x] {
					t.Fatalf("n=%d pass %d: %d out of range or twice", n, pass, x)
				}
				seen[x] = true
				passes[pass] = append(passes[pass], x)
			}
		}
		if n >= 1000 {
			same, inOrder := 0, 0
			for i := range passes[0] {
				if passes[0][i] == passes[1][i] {
					same++
				}
				if passes[0][i] == uint64(i) {
					inOrder++
				}
			}
			if same > int(n)/50 || inOrder > int(n)/50 {
				t.Fatalf("n=%d: %d positions alike in two passes, %d in counting order", n, same, inOrder)
			}
			again := newPermutation(n, rand.New(rand.NewPCG(1, 2)))
			for i := range passes[0] {
				if again.next() != passes[0][i] {
					t.Fatalf("n=%d: the same seed gave another order", n)
				}
			}
		}
	}
}

// threads=1, as fio's steadystate and waitfor examples write thread, is read (dbdyno's jobs are threads anyway);
// it was refused as an unknown option.
func TestThreadsIsThread(t *testing.T) {
	for _, text := range []string{"[global]\nthreads=1\n[a]\nrw=read\nsize=1m\n", "[a]\nthread\nrw=read\nsize=1m\n"} {
		if _, err := ParseJobFile("x.fio", strings.NewReader(text)); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
}

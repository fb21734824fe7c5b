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
	if tests[0].Name != "writer1+reader1 (Q256T5)" {
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

// The random map keeps fio's rule (lib/axmap.c): marking nr blocks from b sets them up to the first block
// already set (or the map's end) and says how many it set; the next free block after b is the first unset one
// after it, from the start when none is. Checked against that rule written plainly, block by block, over
// random marks across the words of the map.
func TestRandomMapMarksAsFiosAxmap(t *testing.T) {
	for _, n := range []uint64{1, 63, 64, 65, 200, 4097, 300000} {
		m, plain := newRandomMap(n), make([]bool, n)
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		nextFree := func(b uint64) (uint64, bool) {
			for i := uint64(1); i <= n; i++ {
				if x := (b + i) % n; !plain[x] {
					return x, true
				}
			}
			return 0, false
		}
		for step := 0; ; step++ {
			b := rng.Uint64N(n)
			want, ok := b, true
			if plain[b] {
				want, ok = nextFree(b)
			}
			got, gotOK := b, true
			if m.isSet(b) {
				got, gotOK = m.nextFree(b)
			}
			if got != want || gotOK != ok {
				t.Fatalf("n=%d step %d: the free block from %d is %d (%v), want %d (%v)", n, step, b, got, gotOK, want, ok)
			}
			if !ok {
				break
			}
			nr := 1 + rng.Uint64N(200)
			wantSet := uint64(0)
			for x := want; x < n && wantSet < nr && !plain[x]; x++ {
				plain[x] = true
				wantSet++
			}
			if set := m.mark(want, nr); set != wantSet {
				t.Fatalf("n=%d step %d: marking %d blocks from %d set %d, want %d (up to the first set block)", n, step, nr, want, set, wantSet)
			}
		}
		for x := range n {
			if !m.isSet(x) {
				t.Fatalf("n=%d: block %d free when the map said none was", n, x)
			}
		}
		m.reset()
		if x, ok := m.nextFree(n - 1); !ok || x != 0 {
			t.Fatalf("n=%d: after a reset the block after the last is %d (%v), want 0", n, x, ok)
		}
	}
}

// A random job's IOs with the random map are fio's (io_u.c: get_next_rand_offset, then mark_random_map): each
// starts on a free block, covers free blocks only, and is either a size the split asks for or trimmed at the
// first block already done; a pass covers every block once, the region's bytes exactly, and ends when no
// block is free. Without the map (norandommap) nothing is trimmed and the draws go on.
func TestRandomIOsTrimToTheFreeBlocks(t *testing.T) {
	tests, err := ParseJobFile("x.fio", strings.NewReader("[j]\nrw=randrw\nsize=1m\nbssplit=512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10\n"))
	if err != nil {
		t.Fatal(err)
	}
	j := &tests[0].Jobs[0]
	asked := map[int]bool{}
	for _, s := range j.Split[0] {
		asked[s.size] = true
	}
	r := newRandomIOs(j, rand.New(rand.NewPCG(1, 2)))
	done := make([]bool, j.Size/512)
	var bytes int64
	ios, trimmed := 0, 0
	for {
		off, n, ok := r.next(ios % 2)
		if !ok {
			break
		}
		ios++
		if off%512 != 0 || n%512 != 0 || n < 512 || n > 64<<10 || off+int64(n) > j.Size {
			t.Fatalf("IO %d: %d bytes at %d", ios, n, off)
		}
		b, e := off/512, (off+int64(n))/512
		for x := b; x < e; x++ {
			if done[x] {
				t.Fatalf("IO %d (%d bytes at %d) covers block %d, done before it", ios, n, off, x)
			}
			done[x] = true
		}
		if !asked[n] {
			trimmed++
			if e < int64(len(done)) && !done[e] {
				t.Fatalf("IO %d trimmed to %d bytes at %d, but the block after it is free", ios, n, off)
			}
		}
		bytes += int64(n)
	}
	if bytes != j.Size || trimmed < ios/10 {
		t.Fatalf("a pass moved %d bytes in %d IOs (%d trimmed): want the region's %d once, with IOs trimmed", bytes, ios, trimmed, j.Size)
	}
	r.reset()
	if _, _, ok := r.next(0); !ok {
		t.Fatal("no IO after a reset")
	}
	j.NoRandomMap = true
	r = newRandomIOs(j, rand.New(rand.NewPCG(1, 2)))
	for i := range 5000 {
		if _, n, ok := r.next(i % 2); !ok || !asked[n] {
			t.Fatalf("norandommap: IO %d of %d bytes (%v): want the split's sizes, never an end", i, n, ok)
		}
	}
}

// An IO's size is drawn as fio's get_next_buflen: near the region's end a split's entry that fits (what does
// not fit is never issued); a range's size is its smallest plus a uniform share of its largest, rounded down
// to a multiple of the smallest and capped at the largest (4k-6k: 4k two times in three, 6k the rest).
func TestSizesDrawnAsFio(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	split := blockSizes{min: 512, max: 64 << 10, split: []bsShare{{512, 10}, {64 << 10, 30}, {4 << 10, 60}}}
	counts := map[int]int{}
	for range 3000 {
		counts[split.drawFit(rng, 8<<10)]++
	}
	if counts[64<<10] != 0 || counts[512] == 0 || counts[4<<10] < counts[512]*3 {
		t.Errorf("a split drawn with 8k of room: %v", counts)
	}
	rng2 := blockSizes{min: 4 << 10, max: 6 << 10}
	counts = map[int]int{}
	for range 3000 {
		counts[rng2.draw(rng)]++
	}
	if len(counts) != 2 || math.Abs(float64(counts[6<<10])/3000-1.0/3) > 0.05 {
		t.Errorf("bsrange=4k-6k drew %v, want 4k and 6k (a third)", counts)
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

// A group of jobs is named by its jobs and its load as a job alone is (Title): fio's aio-read example, four
// jobs at depths 4, 32, 8 and 16, is "file1+file2+file3+file4 (randread 128k Q4-32T4)", not the first job's Q4;
// jobs of different work at one depth say only the load.
func TestGroupNameSaysItsDepths(t *testing.T) {
	tests, err := ParseJobFile("aio-read.fio", strings.NewReader("; Read 4 files with aio at different depths\n[global]\nioengine=libaio\nbuffered=0\n"+
		"rw=randread\nbs=128k\nsize=512m\ndirectory=/data1\n\n[file1]\niodepth=4\n\n[file2]\niodepth=32\n\n[file3]\niodepth=8\n\n[file4]\niodepth=16\n"+
		"[w]\nstonewall\nrw=randwrite\niodepth=8\nnumjobs=2\n[r]\nrw=read\niodepth=8\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != 2 || tests[0].Name != "file1+file2+file3+file4 (randread 128k Q4-32T4)" || tests[1].Name != "w+r (Q8T3)" {
		t.Fatalf("tests: %q", []string{tests[0].Name, tests[1].Name})
	}
}

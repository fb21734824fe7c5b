package ioprobe_test

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// resident is the share of the file's pages in the page cache (mincore over a read-only mapping, which
// faults nothing in).
func resident(t *testing.T, path string) float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	m, err := unix.Mmap(int(f.Fd()), 0, int(fi.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	page := unix.Getpagesize()
	vec := make([]byte, (len(m)+page-1)/page)
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatal(e)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return float64(n) / float64(len(vec))
}

// readBytes is what this process has read from storage so far (/proc/self/io's read_bytes: page-cache hits
// are not counted).
func readBytes(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/io")
	if err != nil {
		t.Skipf("no /proc/self/io here: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "read_bytes: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	t.Skip("no read_bytes in /proc/self/io")
	return 0
}

// A buffered job starts from a dropped page cache, as fio's invalidate=1 (its default): a random read after
// the file was read whole reads from the disk, and leaves only what it read in the cache; invalidate=0 keeps
// the cache, and the reads come from it.
func TestBufferedJobDropsThePageCache(t *testing.T) {
	dir := t.TempDir()
	var sfs unix.Statfs_t
	if unix.Statfs(dir, &sfs) == nil && (sfs.Type == unix.TMPFS_MAGIC || sfs.Type == unix.RAMFS_MAGIC) {
		t.Skip("the temporary directory is in memory: it has no page cache to drop")
	}
	f := filepath.Join(dir, "data")
	run(t, dir, "--filename", f, "--size", "8m", "--runtime", "0.1") // lays the file out
	warm := func() {
		if _, err := os.ReadFile(f); err != nil { // the whole file in the page cache
			t.Fatal(err)
		}
		if r := resident(t, f); r < 0.95 {
			t.Skipf("the page cache keeps only %.0f%% of an 8 MiB file here", r*100)
		}
	}
	randread := func(extra ...string) (ios int64, fromDisk int64, left float64) {
		before := readBytes(t)
		r, _ := run(t, dir, append([]string{"--filename", f, "--size", "8m", "--direct=0", "--rw", "randread", "--iodepth", "1", "--rate_iops", "100", "--runtime", "0.5"}, extra...)...)
		return r.IO.Tests[0].Read.IOs, readBytes(t) - before, resident(t, f)
	}
	warm()
	ios, disk, left := randread()
	if ios < 10 {
		t.Fatalf("%d reads", ios)
	}
	// about 50 reads of 4 KiB in 2048 pages: the cache dropped and only those brought back
	if left > 0.1 || disk < ios*4096/2 {
		t.Fatalf("invalidate=1 (default): %.1f%% of the file still cached after %d reads, %d bytes read from the disk", left*100, ios, disk)
	}
	warm()
	ios, disk, left = randread("--invalidate=0")
	if left < 0.95 || disk > ios*4096/4 {
		t.Fatalf("invalidate=0: %.1f%% of the file cached after %d reads, %d bytes read from the disk", left*100, ios, disk)
	}
	// the same from a job file, and fadvise_hint takes fio's values
	job := filepath.Join(dir, "j.fio")
	os.WriteFile(job, []byte("[r]\nfilename="+f+"\nsize=8m\nrw=randread\nrate_iops=100\nruntime=0.5\ntime_based\ninvalidate=0\nfadvise_hint=random\n"), 0o644)
	warm()
	r, _ := run(t, dir, "--job", job)
	if left := resident(t, f); left < 0.95 || r.IO.Tests[0].Read.IOs < 10 {
		t.Fatalf("job file with invalidate=0: %.1f%% cached", left*100)
	}
}

// A time based buffered job drops the file's page cache again at each new pass over it, as fio does when its
// random map is full or its sequential IO wraps (io_u.c's loop_cache_invalidate, with invalidate=1): each pass
// reads the file from the disk again. With invalidate=0 only the first pass does. A 1 MiB file (256 blocks) read
// at 1,000 IOs a second for 1.5 s is about six passes, whatever the machine's speed.
func TestEachPassDropsThePageCache(t *testing.T) {
	dir := t.TempDir()
	var sfs unix.Statfs_t
	if unix.Statfs(dir, &sfs) == nil && (sfs.Type == unix.TMPFS_MAGIC || sfs.Type == unix.RAMFS_MAGIC) {
		t.Skip("the temporary directory is in memory: it has no page cache to drop")
	}
	f := filepath.Join(dir, "data")
	run(t, dir, "--filename", f, "--size", "1m", "--runtime", "0.1") // lays the file out
	for _, c := range []struct {
		rw, invalidate string
		drops          bool
	}{{"randread", "1", true}, {"read", "1", true}, {"randread", "0", false}} {
		before := readBytes(t)
		r, _ := run(t, dir, "--filename", f, "--size", "1m", "--direct=0", "--rw", c.rw, "--iodepth", "1", "--rate_iops", "1000",
			"--runtime", "1.5", "--time_based", "--invalidate="+c.invalidate)
		ios, fromDisk := r.IO.Tests[0].Read.IOs, readBytes(t)-before
		if ios < 3*256 {
			t.Fatalf("%s: %d reads in 1.5 s at 1,000 a second: fewer than three passes over the file", c.rw, ios)
		}
		read := ios * 4096
		if c.drops && fromDisk < read*6/10 {
			t.Errorf("%s, invalidate=1: %d of the %d bytes read came from the disk: the page cache was not dropped at each pass", c.rw, fromDisk, read)
		}
		if !c.drops && fromDisk > 3<<19 {
			t.Errorf("%s, invalidate=0: %d of the %d bytes read came from the disk, want about the file's 1 MiB once", c.rw, fromDisk, read)
		}
	}
}

// Each job keeps its own ramp_time and runtime (fio's): two jobs run together, each measured over its own
// window; a stonewall starts the next job after the group before it ended.
func TestEachJobHasItsOwnWindow(t *testing.T) {
	dir := t.TempDir()
	job := filepath.Join(dir, "w.fio")
	os.WriteFile(job, []byte(`[global]
directory=`+dir+`
size=4m
rw=randread
rate_iops=100
time_based

[short]
runtime=0.4

[long]
ramp_time=0.2
runtime=1.2

[after]
stonewall
runtime=0.4
`), 0o644)
	r, _ := run(t, dir, "--job", job)
	if len(r.IO.Tests) != 2 || len(r.IO.Tests[0].Jobs) != 2 || len(r.IO.Tests[1].Jobs) != 1 {
		t.Fatalf("tests: %+v", r.IO.Tests)
	}
	short, long, after := r.IO.Tests[0].Jobs[0], r.IO.Tests[0].Jobs[1], r.IO.Tests[1].Jobs[0]
	ios := func(j result.IOJob) float64 { return j.ReadIOPS * j.Seconds }
	// each window is its own setting; the IOs done at the same rate are in the ratio of the runtimes
	for _, c := range []struct {
		j    result.IOJob
		want float64
	}{{short, 0.4}, {long, 1.2}, {after, 0.4}} {
		if math.Abs(c.j.Seconds/c.want-1) > 0.01 {
			t.Errorf("%s: measured over %.3fs, its runtime is %.1fs", c.j.Job, c.j.Seconds, c.want)
		}
	}
	if ratio := ios(long) / ios(short); ratio < 2.5 || ratio > 3.5 {
		t.Errorf("long did %.0f IOs, short %.0f: ratio %.2f, want 3 (1.2s against 0.4s at the same rate)", ios(long), ios(short), ratio)
	}
	// long's window starts after its own ramp; the stonewalled job starts after the group ended
	if d := long.StartUnixS - short.StartUnixS; math.Abs(d-0.2) > 0.002 {
		t.Errorf("long's window starts %.3fs after short's, want its ramp_time 0.2s", d)
	}
	if end := long.StartUnixS + long.Seconds; after.StartUnixS < end {
		t.Errorf("the stonewalled job started %.3fs before the group before it ended", end-after.StartUnixS)
	}
	if r.IO.Tests[0].Seconds < 1.39 {
		t.Errorf("the first group's window is %.3fs, want it to span long's ramp and runtime (1.4s)", r.IO.Tests[0].Seconds)
	}
}

// A rate cap on a mixed job holds in each direction (fio's): rate_iops=200 is 200 reads and 200 writes a
// second, 200,50 is 200 reads and 50 writes.
func TestRateIsPerDirection(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		rate        string
		read, write float64
	}{{"200", 200, 200}, {"200,50", 200, 50}} {
		r, _ := run(t, dir, "--directory", dir, "--size", "8m", "--rw", "randrw", "--iodepth", "4", "--rate_iops", c.rate, "--runtime", "1.5")
		tt := r.IO.Tests[0]
		if tt.Read == nil || tt.Write == nil {
			t.Fatalf("rate %s: %+v", c.rate, tt)
		}
		got := []float64{tt.Read.IOPS, tt.Write.IOPS}
		for d, want := range []float64{c.read, c.write} {
			if math.Abs(got[d]/want-1) > 0.05 {
				t.Errorf("rate_iops=%s: %s %.1f IOPS, want %.0f", c.rate, []string{"read", "write"}[d], got[d], want)
			}
		}
	}
}

// The README's example: the options given with --job are the job file's defaults (fio's options before a
// job file); the file's own win.
func TestOptionsWithAJobFileAreItsDefaults(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	job := filepath.Join(dir, "mine.fio")
	os.WriteFile(job, []byte("[global]\nrw=randread\nruntime=0.3\ntime_based\n[a]\n[b]\nstonewall\nfilename=g\ndirectory="+dir+"\nbs=8k\n"), 0o644)
	r, _ := run(t, dir, "--filename", f, "--size", "4m", "--job", job)
	if len(r.IO.Tests) != 2 || r.IO.Tests[0].Jobs[0].File != f || r.IO.Tests[1].Jobs[0].File != filepath.Join(dir, "g") ||
		r.IO.Tests[0].BS != 4096 || r.IO.Tests[1].BS != 8192 {
		t.Fatalf("tests: %+v", r.IO.Tests)
	}
}

// fio's example job files (the corpus's copies: small sizes, files in the current directory) run unchanged:
// ssd-test's four phases apart, tiobench's four threads a phase, fixed-rate-submission at its 1000 IOPS,
// IOmeter's file server pattern at 80% reads with its spread of sizes, trimmed by the random map.
func TestFioExamplesRun(t *testing.T) {
	corpus, _ := filepath.Abs("testdata/fio")
	dir := t.TempDir()
	t.Chdir(dir)
	res := func(name string) *result.Result {
		r, _ := run(t, dir, "--job", filepath.Join(corpus, name+".fio"))
		for _, tt := range r.IO.Tests {
			if tt.Status != result.StatusOK || tt.Read == nil && tt.Write == nil {
				t.Fatalf("%s: %s: %+v", name, tt.Name, tt)
			}
		}
		return r
	}
	if r := res("ssd-test"); len(r.IO.Tests) != 4 || r.IO.Files[0].Path != "ssd.test.file" {
		t.Fatalf("ssd-test: %d tests, files %+v", len(r.IO.Tests), r.IO.Files)
	}
	if r := res("tiobench-example"); len(r.IO.Tests) != 4 || len(r.IO.Tests[0].Jobs) != 4 || len(r.IO.Files) != 16 {
		t.Fatalf("tiobench-example: %d tests, %d files", len(r.IO.Tests), len(r.IO.Files))
	}
	// The rate is a cap: never above it; below it only by what a loaded machine loses (0.93 seen under load 20).
	if r := res("fixed-rate-submission"); r.IO.Tests[0].Read.IOPS > 1050 || r.IO.Tests[0].Read.IOPS < 850 || r.IO.Tests[0].Read.IOs != 1024 {
		t.Fatalf("fixed-rate-submission: %.0f IOPS, %d IOs", r.IO.Tests[0].Read.IOPS, r.IO.Tests[0].Read.IOs)
	}
	r := res("iometer-file-access-server")
	rd, wr := r.IO.Tests[0].Read, r.IO.Tests[0].Write
	if rd == nil || wr == nil {
		t.Fatalf("iometer: %+v", r.IO.Tests[0])
	}
	// 8 MiB exactly, once, 80% of the IOs reads; the IOs trimmed to the random map's free blocks (as fio's: 5,087
	// bytes each here, TestRandomMapTrimsIOsAsFio), far below the split's mean of 11,346
	ios, bytes := float64(rd.IOs+wr.IOs), float64(rd.Bytes+wr.Bytes)
	if share := float64(rd.IOs) / ios; math.Abs(share-0.8) > 0.05 {
		t.Errorf("iometer: %.1f%% reads, want 80%%", share*100)
	}
	if mean := bytes / ios; mean > 11346*0.7 {
		t.Errorf("iometer: %.0f bytes per IO, want them trimmed to the random map's free blocks (fio: about 5,100)", mean)
	}
	if bytes != 8<<20 {
		t.Errorf("iometer: %.0f bytes, want its size (8 MiB) once", bytes)
	}
}

package monitor

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/dbdyno/dbdyno/internal/store"
)

// jobComm is the name of the thread that does the tests' IO: the trace follows it alone (the process's other
// threads read too: the test binary's pages, faulted in again under memory pressure).
const jobComm = "dbdyno-iojob"

// traceOrSkip starts a trace of the tests' IO thread's requests, or skips saying why it cannot run here.
func traceOrSkip(t *testing.T) (*Tracer, string) {
	filter := fmt.Sprintf("comm == %q", jobComm)
	tr, err := StartTrace(filter)
	if err != nil {
		if os.Getenv("CI") == "true" && os.Geteuid() == 0 {
			t.Fatalf("CI runs as root where tracefs is: %v", err)
		}
		t.Skip("no block layer trace here:", err)
	}
	return tr, filter
}

// testFile writes a file of n MiB on a disk (not tmpfs) and syncs it; reads with O_DIRECT then reach the disk.
func testFile(t *testing.T, n int) string {
	dir := t.TempDir()
	var fs unix.Statfs_t
	if err := unix.Statfs(dir, &fs); err == nil && fs.Type == unix.TMPFS_MAGIC {
		if dir, err = os.MkdirTemp("/var/tmp", "dbdyno-trace"); err != nil {
			t.Skip("the temporary directory is tmpfs and /var/tmp is not writable")
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
	}
	path := filepath.Join(dir, "data")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	for i := 0; i < n; i++ {
		if _, err := f.Write(buf); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// directReads reads the file with O_DIRECT: in order in blocks of bs, or at random aligned offsets, on a
// thread of its own named jobComm (which ends with it).
func directReads(t *testing.T, path string, bs int, count int, random bool) {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the renamed thread exits with the goroutine
		name := append([]byte(jobComm), 0)
		if err := unix.Prctl(unix.PR_SET_NAME, uintptr(unsafe.Pointer(&name[0])), 0, 0, 0); err != nil {
			errc <- err
			return
		}
		errc <- readsOn(path, bs, count, random)
	}()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

func readsOn(path string, bs int, count int, random bool) error {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECT, 0)
	if err != nil {
		return fmt.Errorf("O_DIRECT: %v", err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	unix.Fstat(fd, &st)
	mem, err := unix.Mmap(-1, 0, bs, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE) // page-aligned
	if err != nil {
		return err
	}
	defer unix.Munmap(mem)
	blocks := st.Size / int64(bs)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < count; i++ {
		off := int64(i) % blocks * int64(bs)
		if random {
			off = r.Int64N(blocks) * int64(bs)
		}
		if _, err := unix.Pread(fd, mem, off); err != nil {
			return err
		}
	}
	return nil
}

// takeAtLeast takes the trace's counts until they hold n requests, or for at most a minute: the trace is read
// as it comes, and on a loaded machine a job's last events arrive after it ends (a full run's sequential job
// counted 493 of its 512 at once, the other 19 in the next take). The bound is against a hang, not a speed.
func takeAtLeast(tr *Tracer, n uint64) (map[string]Traced, uint64) {
	all, lost := tr.Take()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); {
		if r, s := share(all); r+s >= n {
			break
		}
		time.Sleep(20 * time.Millisecond)
		more, l := tr.Take()
		lost += l
		for dev, c := range more {
			a := all[dev]
			a.Random, a.Sequential = a.Random+c.Random, a.Sequential+c.Sequential
			if all == nil {
				all = map[string]Traced{}
			}
			all[dev] = a
		}
	}
	return all, lost
}

func share(m map[string]Traced) (rnd, seq uint64) {
	for _, c := range m {
		rnd, seq = rnd+c.Random, seq+c.Sequential
	}
	return
}

// On a real disk, the block layer's issued requests of a sequential reader are counted sequential and those of
// a random one random: 64 MiB read in order in 128 KiB requests, then 2,000 reads of 4 KiB at random offsets.
func TestBlockTraceSequentialAndRandom(t *testing.T) {
	tr, _ := traceOrSkip(t)
	path := testFile(t, 64)
	tr.Take()
	directReads(t, path, 128<<10, 512, false)
	sq, lost := takeAtLeast(tr, 502)
	directReads(t, path, 4<<10, 2000, true)
	rn, lost2 := takeAtLeast(tr, 1960)
	tr.Stop()
	rs, ss := share(sq)
	rr, sr := share(rn)
	t.Logf("sequential job: %d random, %d sequential; random job: %d random, %d sequential; lost %d", rs, ss, rr, sr, lost+lost2)
	// an event or two may cross an interval's boundary (the trace is read as it comes), and the process's own
	// other IO (a previous test's files going away) counts too: the counts are within 2% of the reads issued
	if rs+ss < 502 || rr+sr < 1960 {
		t.Fatalf("traced %d and %d requests, want about 512 and 2,000 (the reads issued)", rs+ss, rr+sr)
	}
	if float64(ss)/float64(rs+ss) < 0.9 {
		t.Errorf("the sequential job is %.1f%% sequential", 100*float64(ss)/float64(rs+ss))
	}
	if float64(rr)/float64(rr+sr) < 0.95 {
		t.Errorf("the random job is %.1f%% random", 100*float64(rr)/float64(rr+sr))
	}
	if _, err := os.Stat(tr.dir); !os.IsNotExist(err) {
		t.Errorf("the trace instance %s is left behind: %v", tr.dir, err)
	}
}

// The monitor records the trace with each interval and the checklist's random and sequential rows come from
// it; a recording without it says why, never a figure.
func TestMonitorRecordsTheTrace(t *testing.T) {
	tr, filter := traceOrSkip(t)
	tr.Stop()
	path := testFile(t, 32)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	stored := make(chan Sample, 100)
	go func() {
		_, err := Record(rctx, st, Options{Name: "seq", Interval: 200 * time.Millisecond, Trace: "on", TraceFilter: filter, Stored: func(s Sample) { stored <- s }})
		done <- err
	}()
	<-stored // the trace is running
	directReads(t, path, 128<<10, 256, false)
	guard := time.After(2 * time.Minute)   // a guard against a hang, not a speed limit
	for total := uint64(0); total < 250; { // until the intervals hold the reads
		select {
		case s := <-stored:
			rnd, seq := share(s.Traced)
			total += rnd + seq
		case <-guard:
			t.Fatal("the reads never reached the recorded intervals")
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	c, err := ChecklistOf(ctx, st, "seq", []PeriodSpec{{Name: "all", Spec: "every interval", everything: true}}, nil, 1, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := c.Periods[0].Row(KeySeqPct)
	if r.Stat == nil || r.Max < 80 {
		t.Errorf("the sequential row: %+v %s", r.Stat, r.NotMeasured)
	}
	// without the trace: the reason, recorded with the first interval
	octx, ocancel := context.WithTimeout(ctx, 10*time.Second)
	defer ocancel()
	if _, err := Record(octx, st, Options{Name: "off", Interval: 100 * time.Millisecond, Duration: 200 * time.Millisecond, Trace: "off"}); err != nil {
		t.Fatal(err)
	}
	c, err = ChecklistOf(ctx, st, "off", nil, nil, 1, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := c.Periods[0].Row(KeyRandomPct); r.Stat != nil || r.NotMeasured != "not measured: the recording was made with --block-trace off" {
		t.Errorf("random row without the trace: %+v %q", r.Stat, r.NotMeasured)
	}
}

// Where tracefs cannot be had, the reason is the error (and --block-trace on refuses with it).
func TestTraceReasonWhereNone(t *testing.T) {
	saved := TraceRoots
	defer func() { TraceRoots = saved }()
	TraceRoots = []string{filepath.Join(t.TempDir(), "no-tracefs-here")}
	_, err := StartTrace("")
	if err == nil {
		t.Fatal("a trace started without tracefs")
	}
	if os.Geteuid() == 0 && !strings.Contains(err.Error(), "tracefs is not mounted at") || os.Geteuid() != 0 && !strings.Contains(err.Error(), "needs root") {
		t.Errorf("reason: %v", err)
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = Record(context.Background(), st, Options{Name: "x", Interval: 100 * time.Millisecond, Duration: 100 * time.Millisecond, Trace: "on"})
	if err == nil || !strings.HasPrefix(err.Error(), "--block-trace on: ") {
		t.Errorf("--block-trace on without tracefs: %v", err)
	}
}

//go:build linux

package monitor

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// loopDevice attaches a loop device to a file of mib MiB on tmpfs (/dev/shm): a block device whose requests
// go through the block layer (block_rq_issue) at memory speed. It returns the device's path and number, or
// skips saying why there is none here.
func loopDevice(t *testing.T, mib int) (string, string) {
	var fs unix.Statfs_t
	if err := unix.Statfs("/dev/shm", &fs); err != nil || fs.Type != unix.TMPFS_MAGIC {
		t.Skip("no loop device here: /dev/shm is not tmpfs")
	}
	f, err := os.CreateTemp("/dev/shm", "dbdyno-loop")
	if err != nil {
		t.Skip("no loop device here:", err)
	}
	os.Remove(f.Name()) // the device holds it open; it goes with the device
	defer f.Close()
	if err := f.Truncate(int64(mib) << 20); err != nil {
		t.Fatal(err)
	}
	ctl, err := unix.Open("/dev/loop-control", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skip("no loop device here: /dev/loop-control:", err)
	}
	defer unix.Close(ctl)
	for try := 0; try < 20; try++ { // another process may take the free device between the two calls
		n, err := unix.IoctlRetInt(ctl, unix.LOOP_CTL_GET_FREE)
		if err != nil {
			t.Skip("no loop device here: LOOP_CTL_GET_FREE:", err)
		}
		path := fmt.Sprintf("/dev/loop%d", n)
		fd, err := unix.Open(path, unix.O_RDWR|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Skip("no loop device here:", err)
		}
		cfg := unix.LoopConfig{Fd: uint32(f.Fd()), Info: unix.LoopInfo64{Flags: unix.LO_FLAGS_AUTOCLEAR}}
		if err := unix.IoctlLoopConfigure(fd, &cfg); err != nil {
			unix.Close(fd)
			if err == unix.EBUSY {
				continue
			}
			t.Skip("no loop device here: LOOP_CONFIGURE:", err)
		}
		// the device goes when its last holder closes it (autoclear): this descriptor, kept to the test's end
		t.Cleanup(func() { unix.Close(fd) })
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			t.Fatal(err)
		}
		return path, fmt.Sprintf("%d,%d", unix.Major(st.Rdev), unix.Minor(st.Rdev))
	}
	t.Skip("no loop device here: every free one was taken first")
	return "", ""
}

// reads issues up to count 4 KiB reads of the device with O_DIRECT, in order or at random, for at most d: how
// many it issued and how long they took.
func reads(t *testing.T, path string, count int, random bool, d time.Duration) (int, time.Duration) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECT|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	size, err := unix.Seek(fd, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	mem, err := unix.Mmap(-1, 0, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mem)
	blocks := size / 4096
	r := rand.New(rand.NewPCG(3, 2))
	start := time.Now()
	n := 0
	for n < count {
		off := int64(n) % blocks * 4096
		if random {
			off = r.Int64N(blocks) * 4096
		}
		if _, err := unix.Pread(fd, mem, off); err != nil {
			t.Fatal(err)
		}
		if n++; n%1024 == 0 && time.Since(start) > d { // a bound on the test's length, not a speed limit
			break
		}
	}
	return n, time.Since(start)
}

// threadCPU is the calling thread's CPU time (user and system, to the nanosecond: the scheduler's own count,
// not ticks).
func threadCPU() time.Duration {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}

// The binary reader counts every request of a burst: 4 KiB O_DIRECT reads of a loop device on
// tmpfs (memory speed, thousands to tens of thousands a second), in order then at random, up to 20,000 each
// and at most about a second, the trace filtered to the device. Every read is traced (none lost, none counted twice), the in-order
// job is all sequential and the random one all random (a random read continues one of the last 8 ends by
// chance, 8 in 16,384: within 1%). The same jobs read with the text trace_pipe are
// counted alike where nothing was lost; reading a request costs the binary reader less CPU than the text one
// (both measured here, on the draining thread).
func TestTraceRawKeepsUp(t *testing.T) {
	path, num := loopDevice(t, 64)
	cost := map[bool]float64{} // CPU a request, by reader (text or not)
	for _, text := range []bool{false, true} {
		traceText = text
		tr, err := StartTrace("")
		traceText = false
		if err != nil {
			if os.Getenv("CI") == "true" && os.Geteuid() == 0 {
				t.Fatalf("CI runs as root where tracefs is: %v", err)
			}
			t.Skip("no block layer trace here:", err)
		}
		if text != (tr.Reader() != "trace_pipe_raw") {
			t.Fatalf("text %v: the trace is read from %s", text, tr.Reader())
		}
		if err := tr.FilterDevices([]string{num}); err != nil {
			tr.Stop()
			t.Fatal(err)
		}
		tr.Take()
		runtime.LockOSThread()
		var drained time.Duration
		var traced int
		var fastest float64 // the faster job's rate: a loaded machine may deschedule one of them (2,210 IOPS once)
		for _, random := range []bool{false, true} {
			n, took := reads(t, path, 20000, random, time.Second)
			c0 := threadCPU()
			got, lost := tr.Take()
			drained += threadCPU() - c0
			c := got[num]
			traced += int(c.Random + c.Sequential)
			rate := float64(n) / took.Seconds()
			t.Logf("%s, random %v: %d reads at %.0f IOPS: %d random, %d sequential, %d lost", tr.Reader(), random, n, rate, c.Random, c.Sequential, lost)
			fastest = max(fastest, rate)
			switch {
			case lost > 0 && !text:
				t.Errorf("the binary reader lost %d events at %.0f IOPS", lost, rate)
			case lost > 0: // the text reader may lose: then it says so
				if int(c.Random+c.Sequential+lost) < n {
					t.Errorf("text: %d traced and %d reported lost of %d reads", c.Random+c.Sequential, lost, n)
				}
				continue
			case int(c.Random+c.Sequential) != n:
				t.Errorf("%s: traced %d requests of %d reads, none reported lost", tr.Reader(), c.Random+c.Sequential, n)
			}
			share := float64(c.Sequential) / float64(max(1, c.Random+c.Sequential))
			if !random && share < 0.99 || random && share > 0.01 {
				t.Errorf("%s, random %v: %.2f%% sequential", tr.Reader(), random, 100*share)
			}
		}
		runtime.UnlockOSThread()
		tr.Stop()
		// the rate is the machine's, not the reader's (the trace is drained after each job, from the kernel's
		// buffer): logged, not judged. It was judged (> 2,500 IOPS) and failed under stress-ng at 889 IOPS, the
		// reader having lost nothing; bench/monitor-cpu measures the reader at the rate of a real disk.
		t.Logf("%s: the faster job ran at %.0f IOPS", tr.Reader(), fastest)
		cost[text] = float64(drained) / float64(max(1, traced))
		t.Logf("%s: %.2f µs of CPU a request to read", map[bool]string{false: "binary", true: "text"}[text], cost[text]/1e3)
	}
	if cost[false] >= cost[true] {
		t.Errorf("reading a request costs the binary reader %.2f µs, the text one %.2f µs", cost[false]/1e3, cost[true]/1e3)
	}
}

// A trace that loses events says so: the instance's buffer shrunk to a few pages and 20,000 reads issued
// without draining it overrun it; Take reports the events lost (the per-CPU stats' overruns), and the traced and
// the lost add up to the reads issued.
func TestTraceLossReported(t *testing.T) {
	path, num := loopDevice(t, 64)
	tr, err := StartTrace("")
	if err != nil {
		if os.Getenv("CI") == "true" && os.Geteuid() == 0 {
			t.Fatalf("CI runs as root where tracefs is: %v", err)
		}
		t.Skip("no block layer trace here:", err)
	}
	defer tr.Stop()
	if err := tr.FilterDevices([]string{num}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tr.dir+"/buffer_size_kb", []byte("16"), 0); err != nil {
		t.Fatal(err)
	}
	tr.Take()
	n, _ := reads(t, path, 20000, true, time.Second)
	got, lost := tr.Take()
	c := got[num]
	t.Logf("%s: %d reads, %d traced, %d lost", tr.Reader(), n, c.Random+c.Sequential, lost)
	if lost == 0 {
		t.Fatalf("%d reads through a 16 KiB buffer, none lost: %d traced", n, c.Random+c.Sequential)
	}
	if sum := c.Random + c.Sequential + lost; sum < uint64(n)*99/100 || sum > uint64(n)*101/100 {
		t.Errorf("traced %d and lost %d of %d reads", c.Random+c.Sequential, lost, n)
	}
}

package monitor

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// traceLines are trace_pipe's lines as this kernel prints them: a read, a continuing read, a write, a flush
// with data (counted as the write it is), a discard and a line of another event (neither counted), a read of
// another device.
var traceLines = []string{
	"          <idle>-0       [001] d.h2. 46945.138021: block_rq_issue: 254,0 R 4096 () 1000 + 8 none,0,0 [fio]",
	"             fio-4242    [000] ..... 46945.138022: block_rq_issue: 254,0 RA 8192 () 1008 + 16 be,4,0 [fio]",
	"     kworker/0:1-77      [000] ..... 46945.138023: block_rq_issue: 254,0 WS 4096 () 5000 + 8 be,0,4 [postgres]",
	"     kworker/0:1-77      [000] ..... 46945.138024: block_rq_issue: 254,0 FWFS 4096 () 5008 + 8 none,0,0 [jbd2/vda1-8]",
	"     kworker/0:1-77      [000] ..... 46945.138025: block_rq_issue: 254,0 DS 1048576 () 9000 + 2048 none,0,0 [fstrim]",
	"             fio-4242    [000] ..... 46945.138026: tracing_mark_write: dbdyno-monitor-sync",
	"             fio-4242    [001] ..... 46945.138027: block_rq_issue: 8,16 R 4096 (28 00 00 00 03 e8 00 00 08 00) 1000 + 8 be,0,4 [fio]",
}

// The trace's lines are parsed as bytes where they were read, a line cut between two reads included, and
// counted per device: the reads at 1000 and 1008 of 254,0 are one random and one sequential, its writes at
// 5000 and 5008 likewise, the discard and the other event not at all, 8,16's read random (its own recent ends).
func TestTraceLinesParsedInPlace(t *testing.T) {
	text := strings.Join(traceLines, "\n") + "\n"
	for _, bufSize := range []int{1 << 16, 150} { // 150: every read cuts a line, carried into the next
		p := make([]int, 2)
		if err := unix.Pipe2(p, unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
			t.Fatal(err)
		}
		tr := &Tracer{fd: p[0], buf: make([]byte, bufSize)}
		half := len(text) / 2
		unix.Write(p[1], []byte(text[:half]))
		tr.drain() // the first half: its last line is cut, kept for the next read
		unix.Write(p[1], []byte(text[half:]))
		got, _ := tr.Take()
		unix.Close(p[0])
		unix.Close(p[1])
		want := map[string]Traced{"254,0": {Random: 2, Sequential: 2}, "8,16": {Random: 1}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("buffer of %d bytes: counted %v, want %v", bufSize, got, want)
		}
	}
	// a line is counted without allocating (the devices' table grows once per new device, before the count)
	tr := &Tracer{}
	line := []byte(traceLines[0])
	tr.event(line)
	if n := testing.AllocsPerRun(1000, func() { tr.event(line) }); n != 0 {
		t.Errorf("%v allocations a line", n)
	}
	if c := tr.devs[0].c; c.Random+c.Sequential < 1001 || c.Sequential != 0 { // AllocsPerRun runs it once more
		t.Errorf("counted %+v, want 1001 random requests or more", c)
	}
}

func BenchmarkTraceLine(b *testing.B) {
	tr := &Tracer{}
	lines := make([][]byte, len(traceLines))
	for i, l := range traceLines {
		lines[i] = []byte(l)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		tr.event(lines[i%len(lines)])
	}
}

// The kernel's event filter passes only the devices the recorder records: the same reads traced with the
// filter naming a device that does no IO count none, with every whole disk's number all of them. Drained by
// Keep in between (a long interval's reads), none is lost or counted twice.
func TestTraceKernelFilterByDevice(t *testing.T) {
	tr, _ := traceOrSkip(t)
	defer tr.Stop()
	path := testFile(t, 8)
	if err := tr.FilterDevices([]string{"7,1048575"}); err != nil { // a loop device's number no disk has
		t.Fatal(err)
	}
	tr.Take()
	directReads(t, path, 4<<10, 300, true)
	if got, _ := tr.Take(); len(got) != 0 {
		t.Errorf("with the filter on another device, traced %v", got)
	}
	var disks []string
	for num, name := range devNumbers("/proc/diskstats") {
		if WholeDisk(name) {
			disks = append(disks, num)
		}
	}
	if err := tr.FilterDevices(disks); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(tr.dir + "/events/block/block_rq_issue/filter")
	if !strings.Contains(string(b), "dev ==") {
		t.Fatalf("the event's filter is %q", b)
	}
	tr.Keep(time.Millisecond) // drained every millisecond too: the reads are counted once whoever reads them
	directReads(t, path, 4<<10, 300, true)
	got, _ := tr.Take()
	// the trace is the whole disk's: other processes' requests meanwhile count too (50 in 0.2 s beside the full
	// test suite), so the bound above is short of the 600 that counting each read twice would give
	rnd, seq := share(got)
	if rnd+seq < 295 || rnd+seq >= 550 {
		t.Errorf("with the filter on the disks, traced %d requests of the 300 reads: %v", rnd+seq, got)
	}
}

package monitor

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// The random and sequential shares come from the block layer's block_rq_issue trace event (tracefs, root
// only): each request as the device driver is handed it (after the scheduler merged what it could), with its
// device, direction, first sector and length. A request is sequential when it starts at the sector where one of
// the last traceRecent requests of the same device and direction ended; random otherwise. Flushes, discards
// and requests without data are not counted. The trace runs in an instance of its own
// (instances/dbdyno-monitor-PID), so it neither reads nor disturbs the system's trace or another tracer's;
// events the instance's buffer dropped are counted (Traced.Lost): the shares are then of a sample.
//
// What it costs is kept small (docs/storage-planning.md has the figures): block_rq_issue is the only event
// enabled; the kernel's event filter drops requests without data and, once the recorder has said which devices
// it records (FilterDevices), requests of other devices, before they reach the buffer; lines are printed
// without their context (task, CPU, flags, time: the instance's context-info option off); the buffer is not
// followed as it fills but drained without blocking (O_NONBLOCK) when an interval is taken, and every second in
// between for longer intervals (Keep), so the monitor wakes once a second, not once an event; lines are parsed
// as bytes where they were read and counted in a fixed array per device, with no allocation. The events are
// read in binary, each CPU's trace_pipe_raw a page at a time (trace_raw.go), so the kernel never prints them;
// the text trace_pipe (the kernel printing each line, about 2.4 µs a request) is the fallback where the
// binary layout cannot be read (Tracer.Reader says which).

// traceRecent is how many recent request ends per device and direction a request may continue.
const traceRecent = 8

// TraceRoots are where tracefs is looked for, in order.
var TraceRoots = []string{"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}

// devTrace is one device's counts and its recent request ends, by direction (0 read, 1 write).
type devTrace struct {
	num    uint32 // the kernel's dev_t: major<<20 | minor
	c      Traced
	recent [2][traceRecent]uint64
	next   [2]int
}

// Tracer counts each device's issued requests, random or sequential.
type Tracer struct {
	dir    string
	fd     int        // trace_pipe, non-blocking, where the binary reader is not used (-1 otherwise)
	raw    []int      // each CPU's trace_pipe_raw, non-blocking (the binary reader)
	rf     *rawFormat // the layouts the binary reader reads
	issued []rawIssue // the requests its last drain read, to count in time order
	page   []byte     // its read buffer, a page
	filter string
	stats  []string // the per-CPU stats files

	mu      sync.Mutex
	devs    []devTrace // the devices seen, in the order first seen
	buf     []byte     // the read buffer; buf[:carry] is a line cut by the previous read
	carry   int
	textWhy string // why the text trace is read (the binary layout's error)
	lost    uint64 // the buffer's overruns when counts were last taken
	quit    chan struct{}
	kept    chan struct{} // Keep's goroutine has ended
}

// StartTrace starts tracing issued block requests; filter, when set, is added to the event's kernel filter
// (e.g. `comm == "fio"`). The error says why the trace cannot run, in words for the checklist's "not measured".
func StartTrace(filter string) (*Tracer, error) {
	if runtime.GOOS != "linux" {
		return nil, errors.New("the block layer's trace (tracefs) is Linux's")
	}
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("tracing the block layer's requests needs root (tracefs); dbdyno monitor runs as uid %d", os.Geteuid())
	}
	root, err := traceRoot()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(root, "events/block/block_rq_issue")); err != nil {
		return nil, fmt.Errorf("this kernel has no block_rq_issue trace event in %s", root)
	}
	inst := filepath.Join(root, "instances")
	removeStale(inst)
	dir := filepath.Join(inst, fmt.Sprintf("dbdyno-monitor-%d", os.Getpid()))
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return nil, fmt.Errorf("tracefs: creating a trace instance: %v", err)
	}
	t := &Tracer{dir: dir, fd: -1, filter: filter}
	for _, w := range [][2]string{{"buffer_size_kb", "4096"}, {"trace_clock", "mono"}, {"options/context-info", "0"}, {"events/block/block_rq_issue/filter", t.filterText(nil)}, {"events/block/block_rq_issue/enable", "1"}, {"tracing_on", "1"}} {
		if err := os.WriteFile(filepath.Join(dir, w[0]), []byte(w[1]), 0); err != nil {
			t.remove()
			return nil, fmt.Errorf("tracefs: %s: %v", w[0], err)
		}
	}
	var rawErr error
	if t.rf, rawErr = readRawFormat(root, dir); rawErr == nil && !traceText {
		rawErr = t.openRaw()
	}
	if rawErr != nil || traceText { // the text trace instead
		t.rf, t.textWhy = nil, "forced"
		if rawErr != nil {
			t.textWhy = rawErr.Error()
		}
		t.buf = make([]byte, 1<<16)
		if t.fd, err = unix.Open(filepath.Join(dir, "trace_pipe"), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0); err != nil {
			t.remove()
			return nil, fmt.Errorf("tracefs: trace_pipe: %v", err)
		}
	}
	t.stats, _ = filepath.Glob(filepath.Join(dir, "per_cpu/cpu*/stats"))
	t.lost = t.overruns()
	return t, nil
}

// traceText has StartTrace read the text trace_pipe, not the binary trace_pipe_raw (the tests' comparison).
var traceText = false

// Reader says how the trace is read: "trace_pipe_raw" (binary), or "trace_pipe (text): WHY".
func (t *Tracer) Reader() string {
	if len(t.raw) > 0 {
		return "trace_pipe_raw"
	}
	return "trace_pipe (text): " + t.textWhy
}

// filterText is the event's kernel filter: requests with data, of the devices given (all when none), and the
// caller's filter.
func (t *Tracer) filterText(devs []uint32) string {
	f := "nr_sector > 0"
	if len(devs) > 0 {
		var or []string
		for _, d := range devs {
			or = append(or, fmt.Sprintf("dev == %d", d))
		}
		f += " && (" + strings.Join(or, " || ") + ")"
	}
	if t.filter != "" {
		f += " && " + t.filter
	}
	return f
}

// FilterDevices has the kernel trace only the requests of these devices ("major,minor"); none: every device.
func (t *Tracer) FilterDevices(devs []string) error {
	var nums []uint32
	for _, d := range devs {
		maj, min, ok := strings.Cut(d, ",")
		a, err1 := strconv.ParseUint(maj, 10, 12)
		b, err2 := strconv.ParseUint(min, 10, 20)
		if !ok || err1 != nil || err2 != nil {
			return fmt.Errorf("device number %q: want major,minor", d)
		}
		nums = append(nums, uint32(a)<<20|uint32(b))
	}
	sort.Slice(nums, func(i, j int) bool { return nums[i] < nums[j] })
	if err := os.WriteFile(filepath.Join(t.dir, "events/block/block_rq_issue/filter"), []byte(t.filterText(nums)), 0); err != nil {
		return fmt.Errorf("tracefs: the event's filter: %v", err)
	}
	return nil
}

// Keep drains the trace every period between Takes, so that a long interval's requests do not overrun the
// buffer (4 MiB a CPU: tens of thousands of requests); Stop ends it.
func (t *Tracer) Keep(every time.Duration) {
	if t.quit != nil {
		return
	}
	t.quit, t.kept = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(t.kept)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-t.quit:
				return
			case <-tick.C:
				t.mu.Lock()
				t.drain()
				t.mu.Unlock()
			}
		}
	}()
}

// traceRoot finds tracefs, mounting it at /sys/kernel/tracing when it is not (root may).
func traceRoot() (string, error) {
	for _, r := range TraceRoots {
		if _, err := os.Stat(filepath.Join(r, "instances")); err == nil {
			return r, nil
		}
	}
	if err := mountTracefs(TraceRoots[0]); err != nil {
		return "", fmt.Errorf("tracefs is not mounted at %s and mounting it failed: %v", TraceRoots[0], err)
	}
	if _, err := os.Stat(filepath.Join(TraceRoots[0], "instances")); err != nil {
		return "", fmt.Errorf("tracefs mounted at %s has no instances: %v", TraceRoots[0], err)
	}
	return TraceRoots[0], nil
}

// removeStale removes the instances of monitors that are gone (killed before they could remove theirs).
func removeStale(inst string) {
	ents, _ := os.ReadDir(inst)
	for _, e := range ents {
		pid, ok := strings.CutPrefix(e.Name(), "dbdyno-monitor-")
		if n, err := strconv.Atoi(pid); ok && err == nil {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", n)); os.IsNotExist(err) {
				os.WriteFile(filepath.Join(inst, e.Name(), "events/block/block_rq_issue/enable"), []byte("0"), 0)
				os.Remove(filepath.Join(inst, e.Name()))
			}
		}
	}
}

func (t *Tracer) remove() {
	os.WriteFile(filepath.Join(t.dir, "tracing_on"), []byte("0"), 0)
	os.WriteFile(filepath.Join(t.dir, "events/block/block_rq_issue/enable"), []byte("0"), 0)
	os.Remove(t.dir)
}

// overruns sums the instance's per-CPU overruns and dropped events.
func (t *Tracer) overruns() uint64 {
	var n uint64
	for _, c := range t.stats {
		b, err := os.ReadFile(c)
		if err != nil {
			continue
		}
		for len(b) > 0 {
			line := b
			if i := bytes.IndexByte(b, '\n'); i >= 0 {
				line, b = b[:i], b[i+1:]
			} else {
				b = nil
			}
			k, v, ok := bytes.Cut(line, []byte(":"))
			if ok && (string(k) == "overrun" || string(k) == "dropped events") {
				x, _ := digits(bytes.TrimSpace(v))
				n += x
			}
		}
	}
	return n
}

// drain reads what the trace holds now, without waiting, and counts it (t.mu held). trace_pipe hands out at
// most a page a read, whole lines; a line cut at the buffer's end all the same is kept for the next read.
func (t *Tracer) drain() {
	t.drainRaw()
	if t.fd < 0 {
		return
	}
	for {
		if t.carry == len(t.buf) { // no line is that long: drop it
			t.carry = 0
		}
		n, err := unix.Read(t.fd, t.buf[t.carry:])
		if err == unix.EINTR {
			continue
		}
		if n <= 0 || err != nil { // EAGAIN: nothing more for now
			return
		}
		b := t.buf[:t.carry+n]
		for {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				break
			}
			t.event(b[:i])
			b = b[i+1:]
		}
		t.carry = copy(t.buf, b)
	}
}

var issueTag = []byte("block_rq_issue: ")

// event counts one line of the trace: "block_rq_issue: 254,0 WS 4096 () 325322032 + 8 be,0,4 [postgres]", the
// task, CPU and time before it where the instance's context-info option is on (t.mu held).
func (t *Tracer) event(line []byte) {
	i := bytes.Index(line, issueTag)
	if i < 0 {
		return
	}
	b := line[i+len(issueTag):]
	maj, k := digitsPrefix(b)
	if k == 0 || k >= len(b) || b[k] != ',' {
		return
	}
	b = b[k+1:]
	min, k := digitsPrefix(b)
	if k == 0 || k >= len(b) || b[k] != ' ' {
		return
	}
	b = b[k+1:]
	sp := bytes.IndexByte(b, ' ')
	if sp <= 0 {
		return
	}
	dir := rwbsDir(b[:sp])
	if dir < 0 {
		return
	}
	b = b[sp:]
	plus := bytes.Index(b, []byte(" + "))
	if plus < 0 {
		return
	}
	s := plus
	for s > 0 && b[s-1] >= '0' && b[s-1] <= '9' {
		s--
	}
	sector, ok1 := digits(b[s:plus])
	nr, k := digitsPrefix(b[plus+3:])
	if !ok1 || k == 0 || nr == 0 {
		return
	}
	t.count(uint32(maj)<<20|uint32(min), dir, sector, nr)
}

// digitsPrefix parses the decimal digits b starts with: their value and how many there are.
func digitsPrefix(b []byte) (uint64, int) {
	var v uint64
	k := 0
	for k < len(b) && b[k] >= '0' && b[k] <= '9' && k < 19 {
		v = v*10 + uint64(b[k]-'0')
		k++
	}
	return v, k
}

// digits parses b, all decimal digits.
func digits(b []byte) (uint64, bool) {
	v, k := digitsPrefix(b)
	return v, k > 0 && k == len(b)
}

// rwbsDir is the direction of a request by its rwbs flags: 0 a read, 1 a write, -1 neither (a discard, a flush
// without data).
func rwbsDir(rwbs []byte) int {
	switch {
	case bytes.IndexByte(rwbs, 'D') >= 0: // discard
	case bytes.IndexByte(rwbs, 'R') >= 0:
		return 0
	case bytes.IndexByte(rwbs, 'W') >= 0:
		return 1
	}
	return -1
}

// count classifies one request of device num, direction dir (0 read, 1 write) (t.mu held).
func (t *Tracer) count(num uint32, dir int, sector, nr uint64) {
	var d *devTrace
	for i := range t.devs {
		if t.devs[i].num == num {
			d = &t.devs[i]
			break
		}
	}
	if d == nil { // a device seen for the first time: the only allocation, once per device
		t.devs = append(t.devs, devTrace{num: num})
		d = &t.devs[len(t.devs)-1]
	}
	slot := -1
	for k, end := range d.recent[dir] {
		if end != 0 && end == sector {
			slot = k
			break
		}
	}
	if slot >= 0 {
		d.c.Sequential++
	} else {
		d.c.Random++
		slot = d.next[dir]
		d.next[dir] = (slot + 1) % traceRecent
	}
	d.recent[dir][slot] = sector + nr
}

// Take returns the counts since the last Take by "major,minor" (every event traced before the call), and the
// events dropped since.
func (t *Tracer) Take() (map[string]Traced, uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.drain()
	lost := t.overruns()
	out := make(map[string]Traced, len(t.devs))
	for i := range t.devs {
		d := &t.devs[i]
		if d.c != (Traced{}) {
			out[fmt.Sprintf("%d,%d", d.num>>20, d.num&(1<<20-1))] = d.c
		}
		d.c = Traced{}
	}
	dl := lost - min(lost, t.lost)
	t.lost = lost
	return out, dl
}

// Stop ends the trace and removes its instance.
func (t *Tracer) Stop() {
	if t.quit != nil {
		close(t.quit)
		<-t.kept
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fd >= 0 {
		unix.Close(t.fd)
		t.fd = -1
	}
	t.closeRaw()
	t.remove()
}

// devNumbers reads /proc/diskstats' device numbers: "major,minor" to name.
func devNumbers(path string) map[string]string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) > 3 {
			out[f[0]+","+f[1]] = f[2]
		}
	}
	return out
}

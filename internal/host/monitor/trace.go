package monitor

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The random and sequential shares come from the block layer's block_rq_issue trace event (tracefs, root
// only): each request as the device driver is handed it (after the scheduler merged what it could), with its
// device, direction, first sector and length. A request is sequential when it starts at the sector where one of
// the last traceRecent requests of the same device and direction ended; random otherwise. Flushes, discards
// and requests without data are not counted. The trace runs in an instance of its own
// (instances/dbdyno-monitor-PID), so it neither reads nor disturbs the system's trace or another tracer's;
// events the instance's buffer dropped are counted (Traced.Lost): the shares are then of a sample.

// traceRecent is how many recent request ends per device and direction a request may continue.
const traceRecent = 8

// TraceRoots are where tracefs is looked for, in order.
var TraceRoots = []string{"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}

// Tracer counts each device's issued requests, random or sequential.
type Tracer struct {
	dir    string
	pipe   *os.File
	mu     sync.Mutex
	counts map[string]*Traced // by "major,minor"
	recent map[string]*[2][traceRecent]uint64
	next   map[string]*[2]int
	lost   uint64 // the buffer's overruns when counts were last taken
	done   chan struct{}
	stop   bool
	synced chan struct{} // the reader has read a sync marker
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
	t := &Tracer{dir: dir, counts: map[string]*Traced{}, recent: map[string]*[2][traceRecent]uint64{}, next: map[string]*[2]int{}, done: make(chan struct{}), synced: make(chan struct{}, 1)}
	f := "nr_sector > 0"
	if filter != "" {
		f += " && " + filter
	}
	for _, w := range [][2]string{{"buffer_size_kb", "4096"}, {"trace_clock", "mono"}, {"events/block/block_rq_issue/filter", f}, {"events/block/block_rq_issue/enable", "1"}, {"tracing_on", "1"}} {
		if err := os.WriteFile(filepath.Join(dir, w[0]), []byte(w[1]), 0); err != nil {
			t.remove()
			return nil, fmt.Errorf("tracefs: %s: %v", w[0], err)
		}
	}
	if t.pipe, err = os.Open(filepath.Join(dir, "trace_pipe")); err != nil {
		t.remove()
		return nil, fmt.Errorf("tracefs: %v", err)
	}
	t.lost = t.overruns()
	go t.read()
	return t, nil
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
	cpus, _ := filepath.Glob(filepath.Join(t.dir, "per_cpu/cpu*/stats"))
	for _, c := range cpus {
		b, err := os.ReadFile(c)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if ok && (k == "overrun" || k == "dropped events") {
				x, _ := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
				n += x
			}
		}
	}
	return n
}

const (
	stopMarker = "dbdyno-monitor-stop"
	syncMarker = "dbdyno-monitor-sync"
)

// Sync waits until the reader has counted the events traced before it was called: it writes a marker into the
// trace and waits for the reader to reach it (at most a second: a reader that is gone is not waited for). The
// per-CPU buffers are merged by a clock common to the CPUs (trace_clock mono), so an event at most, now and
// then, crosses the marker into the next interval.
func (t *Tracer) Sync() {
	select { // a stale signal
	case <-t.synced:
	default:
	}
	if err := os.WriteFile(filepath.Join(t.dir, "trace_marker"), []byte(syncMarker), 0); err != nil {
		return
	}
	select {
	case <-t.synced:
	case <-t.done:
	case <-time.After(time.Second):
	}
}

func (t *Tracer) read() {
	defer close(t.done)
	r := bufio.NewReaderSize(t.pipe, 1<<16)
	for {
		line, err := r.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
		if bytes.Contains(line, []byte(syncMarker)) {
			select {
			case t.synced <- struct{}{}:
			default:
			}
			continue
		}
		if bytes.Contains(line, []byte(stopMarker)) {
			t.mu.Lock()
			stop := t.stop
			t.mu.Unlock()
			if stop {
				return
			}
			continue
		}
		t.event(line)
	}
}

var issueTag = []byte("block_rq_issue: ")

// event counts one line of the trace: "... block_rq_issue: 254,0 WS 4096 () 325322032 + 8 be,0,4 [postgres]".
func (t *Tracer) event(line []byte) {
	i := bytes.Index(line, issueTag)
	if i < 0 {
		return
	}
	f := strings.Fields(string(line[i+len(issueTag):]))
	if len(f) < 5 {
		return
	}
	plus := -1
	for k := 3; k < len(f)-1; k++ {
		if f[k] == "+" {
			plus = k
			break
		}
	}
	if plus < 0 {
		return
	}
	sector, err1 := strconv.ParseUint(f[plus-1], 10, 64)
	nr, err2 := strconv.ParseUint(f[plus+1], 10, 64)
	if err1 != nil || err2 != nil || nr == 0 {
		return
	}
	t.count(f[0], f[1], sector, nr)
}

// count classifies one request of device dev ("major,minor"), rwbs its direction letters.
func (t *Tracer) count(dev, rwbs string, sector, nr uint64) {
	dir := -1
	switch {
	case strings.ContainsAny(rwbs, "D"): // discard
	case strings.ContainsRune(rwbs, 'R'):
		dir = 0
	case strings.ContainsRune(rwbs, 'W'):
		dir = 1
	}
	if dir < 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	c, ok := t.counts[dev]
	if !ok {
		c = &Traced{}
		t.counts[dev] = c
	}
	rec, ok := t.recent[dev]
	if !ok {
		rec = &[2][traceRecent]uint64{}
		t.recent[dev], t.next[dev] = rec, &[2]int{}
	}
	slot := -1
	for k, end := range rec[dir] {
		if end != 0 && end == sector {
			slot = k
			break
		}
	}
	if slot >= 0 {
		c.Sequential++
	} else {
		c.Random++
		nx := t.next[dev]
		slot = nx[dir]
		nx[dir] = (slot + 1) % traceRecent
	}
	rec[dir][slot] = sector + nr
}

// Take returns the counts since the last Take by "major,minor" (every event traced before the call), and the
// events dropped since.
func (t *Tracer) Take() (map[string]Traced, uint64) {
	t.Sync()
	lost := t.overruns()
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]Traced, len(t.counts))
	for d, c := range t.counts {
		out[d] = *c
		*c = Traced{}
	}
	dl := lost - min(lost, t.lost)
	t.lost = lost
	return out, dl
}

// Stop ends the trace and removes its instance.
func (t *Tracer) Stop() {
	t.mu.Lock()
	t.stop = true
	t.mu.Unlock()
	os.WriteFile(filepath.Join(t.dir, "trace_marker"), []byte(stopMarker), 0)
	select {
	case <-t.done:
	case <-time.After(2 * time.Second):
	}
	t.pipe.Close()
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

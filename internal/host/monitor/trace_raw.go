package monitor

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// The binary reader: each CPU's trace_pipe_raw hands out the instance's ring buffer a page at a time as the
// kernel wrote it, so the kernel never prints an event (the text trace_pipe's cost, about 2.4 µs a request).
// A page is the header tracefs describes in events/header_page (a timestamp, then the commit word: the bytes of
// data, its top bits flags) and the events, each a 32-bit header (type_len in its low 5 bits) then its data:
// type_len 1-28 is that many 32-bit words of data; 0, a 32-bit length (itself included) then the data; 29
// padding (a discarded event, or with a zero time the end of the page's data); 30 and 31 a time extension or
// stamp (8 bytes in all). A block_rq_issue event's data is read at the offsets its format file gives
// (events/block/block_rq_issue/format): common_type (the event's ID), dev, sector, nr_sector and rwbs.

// rawFormat is where a page's and an event's fields are.
type rawFormat struct {
	pageSize             int
	stampOff             int // the page header's timestamp (8 bytes): the first event's time is its plus its delta
	commitOff, commitLen int // the page header's commit word
	dataOff              int // where the events start
	id                   uint16
	typeOff              int // common_type (2 bytes)
	devOff               int // dev (4)
	sectorOff            int // sector (8)
	nrOff                int // nr_sector (4)
	rwbsOff, rwbsLen     int // rwbs (char[])
	minLen               int // an event's data holds every field read
}

const (
	rbCommitMask  = 1<<27 - 1 // the commit word's bytes of data (its top bits flag missed events)
	rbTypePadding = 29
	rbTypeExtend  = 30
	rbTypeStamp   = 31
)

// formatField reads one "field:TYPE NAME;	offset:N;	size:N;" line of a format file: the offset and size of
// the field called name.
func formatField(format []byte, name string) (off, size int, err error) {
	for _, line := range strings.Split(string(format), "\n") {
		line = strings.TrimSpace(line)
		decl, rest, ok := strings.Cut(line, ";")
		if !ok || !strings.HasPrefix(decl, "field:") {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(decl, "field:"))
		if len(f) == 0 {
			continue
		}
		n := f[len(f)-1]
		if i := strings.IndexByte(n, '['); i >= 0 {
			n = n[:i]
		}
		if n != name {
			continue
		}
		off, size = -1, -1
		for _, kv := range strings.Split(rest, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(kv), ":")
			x, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				continue
			}
			switch k {
			case "offset":
				off = x
			case "size":
				size = x
			}
		}
		if off < 0 || size <= 0 {
			return 0, 0, fmt.Errorf("field %s: no offset or size in %q", name, line)
		}
		return off, size, nil
	}
	return 0, 0, fmt.Errorf("no field %s", name)
}

// readRawFormat reads the page header's and block_rq_issue's layouts from tracefs (root), the page's size from
// the instance (dir).
func readRawFormat(root, dir string) (*rawFormat, error) {
	f := &rawFormat{pageSize: os.Getpagesize()}
	if b, err := os.ReadFile(filepath.Join(dir, "buffer_subbuf_size_kb")); err == nil { // kernels from 6.8 let it differ
		if kb, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && kb > 0 {
			f.pageSize = kb << 10
		}
	}
	hp, err := os.ReadFile(filepath.Join(root, "events/header_page"))
	if err != nil {
		return nil, err
	}
	var size int
	if f.stampOff, size, err = formatField(hp, "timestamp"); err != nil || size != 8 {
		return nil, fmt.Errorf("events/header_page: a timestamp of %d bytes (%v)", size, err)
	}
	if f.commitOff, f.commitLen, err = formatField(hp, "commit"); err != nil {
		return nil, fmt.Errorf("events/header_page: %v", err)
	}
	if f.dataOff, size, err = formatField(hp, "data"); err != nil {
		return nil, fmt.Errorf("events/header_page: %v", err)
	}
	if f.commitLen != 4 && f.commitLen != 8 || f.dataOff+size > f.pageSize {
		return nil, fmt.Errorf("events/header_page: a commit word of %d bytes, data %d+%d in a page of %d", f.commitLen, f.dataOff, size, f.pageSize)
	}
	ev, err := os.ReadFile(filepath.Join(root, "events/block/block_rq_issue/format"))
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(ev), "\n") {
		if v, ok := strings.CutPrefix(line, "ID:"); ok {
			id, err := strconv.ParseUint(strings.TrimSpace(v), 10, 16)
			if err != nil {
				return nil, fmt.Errorf("block_rq_issue/format: ID %q", v)
			}
			f.id = uint16(id)
		}
	}
	for _, x := range []struct {
		name string
		off  *int
		size int // 0: any
		len  *int
	}{{"common_type", &f.typeOff, 2, nil}, {"dev", &f.devOff, 4, nil}, {"sector", &f.sectorOff, 8, nil}, {"nr_sector", &f.nrOff, 4, nil}, {"rwbs", &f.rwbsOff, 0, &f.rwbsLen}} {
		off, size, err := formatField(ev, x.name)
		if err != nil {
			return nil, fmt.Errorf("block_rq_issue/format: %v", err)
		}
		if x.size > 0 && size != x.size {
			return nil, fmt.Errorf("block_rq_issue/format: %s is %d bytes, not %d", x.name, size, x.size)
		}
		*x.off = off
		if x.len != nil {
			*x.len = size
		}
		f.minLen = max(f.minLen, off+size)
	}
	if f.id == 0 {
		return nil, fmt.Errorf("block_rq_issue/format: no ID")
	}
	return f, nil
}

// openRaw opens each CPU's trace_pipe_raw of the instance, without blocking.
func (t *Tracer) openRaw() error {
	cpus, _ := filepath.Glob(filepath.Join(t.dir, "per_cpu/cpu*/trace_pipe_raw"))
	if len(cpus) == 0 {
		return fmt.Errorf("no per_cpu/cpu*/trace_pipe_raw in %s", t.dir)
	}
	var first error
	for _, p := range cpus {
		fd, err := unix.Open(p, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil { // a CPU that is offline: its buffer gets no events (one that does would overrun, counted)
			first = cmp.Or(first, fmt.Errorf("%s: %v", p, err))
			continue
		}
		t.raw = append(t.raw, fd)
	}
	if len(t.raw) == 0 {
		return first
	}
	t.page = make([]byte, t.rf.pageSize)
	return nil
}

func (t *Tracer) closeRaw() {
	for _, fd := range t.raw {
		unix.Close(fd)
	}
	t.raw = nil
}

// rawIssue is one block_rq_issue event read, with its time (the ring buffer's clock).
type rawIssue struct {
	ts     uint64
	num    uint32
	dir    int
	sector uint64
	nr     uint64
}

// drainRaw reads every CPU's pages the trace holds now, without waiting, and counts their events in the order
// they happened (t.mu held). Each CPU's buffer holds the requests issued on it: a thread that moved between
// CPUs left its sequential run in pieces on several, and counted one CPU after another, the pieces' joins
// counted as random (2-6% of a sequential job under load) where the text trace_pipe, which merges the CPUs by
// time, saw none.
func (t *Tracer) drainRaw() {
	for _, fd := range t.raw {
		for {
			n, err := unix.Read(fd, t.page)
			if err == unix.EINTR {
				continue
			}
			if n <= 0 || err != nil { // EAGAIN: this CPU's buffer is empty for now
				break
			}
			t.rawPage(t.page[:n])
		}
	}
	slices.SortStableFunc(t.issued, func(a, b rawIssue) int { return cmp.Compare(a.ts, b.ts) })
	for _, e := range t.issued {
		t.count(e.num, e.dir, e.sector, e.nr)
	}
	t.issued = t.issued[:0]
}

// rawPage reads a page's block_rq_issue events, with their times, into t.issued.
func (t *Tracer) rawPage(p []byte) {
	f := t.rf
	if len(p) < f.dataOff || len(p) < f.stampOff+8 {
		return
	}
	ts := binary.NativeEndian.Uint64(p[f.stampOff:])
	var commit uint64
	if f.commitLen == 8 {
		commit = binary.NativeEndian.Uint64(p[f.commitOff:])
	} else {
		commit = uint64(binary.NativeEndian.Uint32(p[f.commitOff:]))
	}
	end := f.dataOff + int(commit&rbCommitMask)
	if end > len(p) {
		end = len(p)
	}
	off := f.dataOff
	for off+4 <= end {
		h := binary.NativeEndian.Uint32(p[off:])
		typeLen, delta := h&31, h>>5
		var data, n int // the event's data and its length
		switch typeLen {
		case rbTypePadding:
			if delta == 0 || off+8 > end { // the rest of the page is empty
				return
			}
			off += 4 + int(binary.NativeEndian.Uint32(p[off+4:]))
			continue
		case rbTypeExtend, rbTypeStamp:
			if off+8 > end {
				return
			}
			v := uint64(binary.NativeEndian.Uint32(p[off+4:]))<<27 | uint64(delta)
			if typeLen == rbTypeExtend {
				ts += v
			} else { // an absolute stamp of the clock's low 59 bits
				ts = ts&^(1<<59-1) | v
			}
			off += 8
			continue
		case 0:
			if off+8 > end {
				return
			}
			n = int(binary.NativeEndian.Uint32(p[off+4:])) - 4
			data = off + 8
			off = data + (n+3)&^3
		default:
			n = int(typeLen) * 4
			data = off + 4
			off = data + n
		}
		if n < 0 || data+n > end {
			return // a length past the page's data: not a page of this layout
		}
		ts += uint64(delta)
		t.rawEvent(ts, p[data:data+n])
	}
}

// rawEvent keeps one event's data, at time ts, where it is block_rq_issue's.
func (t *Tracer) rawEvent(ts uint64, e []byte) {
	f := t.rf
	if len(e) < f.minLen || binary.NativeEndian.Uint16(e[f.typeOff:]) != f.id {
		return
	}
	nr := uint64(binary.NativeEndian.Uint32(e[f.nrOff:]))
	if nr == 0 {
		return
	}
	rwbs := e[f.rwbsOff : f.rwbsOff+f.rwbsLen]
	if i := bytes.IndexByte(rwbs, 0); i >= 0 {
		rwbs = rwbs[:i]
	}
	dir := rwbsDir(rwbs)
	if dir < 0 {
		return
	}
	t.issued = append(t.issued, rawIssue{ts: ts, num: binary.NativeEndian.Uint32(e[f.devOff:]), dir: dir, sector: binary.NativeEndian.Uint64(e[f.sectorOff:]), nr: nr})
}

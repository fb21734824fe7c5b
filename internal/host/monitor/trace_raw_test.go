package monitor

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// issueFormat is block_rq_issue's format file as kernel 6.18 prints it; headerPage is events/header_page.
const issueFormat = `name: block_rq_issue
ID: 2104
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:dev_t dev;	offset:8;	size:4;	signed:0;
	field:sector_t sector;	offset:16;	size:8;	signed:0;
	field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;
	field:unsigned int bytes;	offset:28;	size:4;	signed:0;
	field:unsigned short ioprio;	offset:32;	size:2;	signed:0;
	field:char rwbs[10];	offset:34;	size:10;	signed:0;
	field:char comm[16];	offset:44;	size:16;	signed:0;
	field:__data_loc char[] cmd;	offset:60;	size:4;	signed:0;

print fmt: "%d,%d %s %u (%s) %llu + %u %s,%u,%u [%s]", ...
`

const headerPage = `	field: u64 timestamp;	offset:0;	size:8;	signed:0;
	field: local_t commit;	offset:8;	size:8;	signed:1;
	field: int overwrite;	offset:8;	size:1;	signed:1;
	field: char data;	offset:16;	size:4080;	signed:0;
`

// A ring buffer page put together by hand, every kind of entry the kernel writes: a time extension, a
// block_rq_issue event of the small kind (its length in the header), one of the long kind (type_len 0, its
// length in the next word, as on kernels that align every event to 8 bytes), a discarded event (padding with a
// time), an event of another type, a discard request and a flush without data (neither counted), a read of
// another device, then the page's empty rest (padding without a time), which ends it though the commit word
// says more. Counted: 254,0's reads at 1000 and 1008, one random and one sequential; its write at 5000, random;
// 8,16's read, random.
func TestTraceRawPage(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "events/block/block_rq_issue"), 0o755)
	os.WriteFile(filepath.Join(dir, "events/header_page"), []byte(headerPage), 0o644)
	os.WriteFile(filepath.Join(dir, "events/block/block_rq_issue/format"), []byte(issueFormat), 0o644)
	os.WriteFile(filepath.Join(dir, "buffer_subbuf_size_kb"), []byte("4\n"), 0o644)
	f, err := readRawFormat(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.pageSize != 4096 || f.commitOff != 8 || f.commitLen != 8 || f.dataOff != 16 || f.id != 2104 || f.devOff != 8 || f.sectorOff != 16 || f.nrOff != 24 || f.rwbsOff != 34 || f.rwbsLen != 10 {
		t.Fatalf("layout %+v", f)
	}
	ne := binary.NativeEndian
	event := func(id uint16, dev uint32, sector uint64, nr uint32, rwbs string) []byte {
		e := make([]byte, 68) // the fields, and the empty cmd string after them
		ne.PutUint16(e[0:], id)
		ne.PutUint32(e[8:], dev)
		ne.PutUint64(e[16:], sector)
		ne.PutUint32(e[24:], nr)
		copy(e[34:44], rwbs)
		return e
	}
	page := make([]byte, 4096)
	off := 16
	put32 := func(x uint32) { ne.PutUint32(page[off:], x); off += 4 }
	small := func(e []byte) { put32(uint32(len(e)/4) | 7<<5); off += copy(page[off:], e) }
	long := func(e []byte) { put32(0 | 9<<5); put32(uint32(len(e) + 4)); off += copy(page[off:], e) }
	put32(rbTypeExtend | 1<<5) // a time extension
	put32(12345)
	small(event(2104, 254<<20, 1000, 8, "R"))
	long(event(2104, 254<<20, 1008, 8, "RA"))
	put32(rbTypePadding | 3<<5) // a discarded event of 68 bytes of data: what follows its header, in its first word
	put32(68)
	off += 64
	small(event(7, 254<<20, 1016, 8, "R"))        // another event type
	small(event(2104, 254<<20, 9000, 2048, "DS")) // a discard
	small(event(2104, 254<<20, 1016, 0, "FF"))    // a flush without data
	small(event(2104, 254<<20, 5000, 8, "WS"))
	small(event(2104, 8<<20|16, 1000, 8, "R"))
	put32(rbTypePadding) // the page's empty rest
	late := off
	small(event(2104, 254<<20, 7777, 8, "R"))    // past the end: never counted
	ne.PutUint64(page[8:], uint64(off-16)|1<<31) // the commit word, with the missed-events flag
	tr := &Tracer{rf: f}
	tr.rawPage(page)
	got, _ := tr.Take()
	if g := got["254,0"]; g != (Traced{Random: 2, Sequential: 1}) || got["8,16"] != (Traced{Random: 1}) || len(got) != 2 {
		t.Errorf("counted %v, want 254,0 {2 random, 1 sequential} and 8,16 {1 random} (the entry at %d never)", got, late)
	}
	// a page cut short, or whose lengths run past its data, counts what is whole and stops
	tr.rawPage(page[:40])
	ne.PutUint32(page[16+8:], 0)      // the first event's header after the extension: type_len 0...
	ne.PutUint32(page[16+12:], 1<<30) // ...of a length past the page
	tr.rawPage(page)
	if got, _ := tr.Take(); len(got) != 0 {
		t.Errorf("a broken page counted %v", got)
	}
}

// Events are counted in the order they happened, not CPU by CPU: a sequential run whose thread moved from one
// CPU to another and back left its pieces in two buffers (sectors 0 and 16 on one, 8 on the other), and read
// one buffer after the other the join looked random (under stress-ng, 2-6% of a sequential job).
func TestTraceRawCountsInTimeOrder(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "events/block/block_rq_issue"), 0o755)
	os.WriteFile(filepath.Join(dir, "events/header_page"), []byte(headerPage), 0o644)
	os.WriteFile(filepath.Join(dir, "events/block/block_rq_issue/format"), []byte(issueFormat), 0o644)
	f, err := readRawFormat(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	ne := binary.NativeEndian
	page := func(stamp uint64, events ...[2]uint64) []byte { // each event: its delta, its sector
		p := make([]byte, 4096)
		ne.PutUint64(p[0:], stamp)
		off := 16
		for _, ev := range events {
			e := make([]byte, 68)
			ne.PutUint16(e[0:], 2104)
			ne.PutUint32(e[8:], 254<<20)
			ne.PutUint64(e[16:], ev[1])
			ne.PutUint32(e[24:], 8)
			copy(e[34:44], "R")
			ne.PutUint32(p[off:], uint32(len(e)/4)|uint32(ev[0])<<5)
			off += 4 + copy(p[off+4:], e)
		}
		ne.PutUint64(p[8:], uint64(off-16))
		return p
	}
	tr := &Tracer{rf: f}
	tr.rawPage(page(1000, [2]uint64{1, 0}, [2]uint64{20, 16})) // CPU 0: sector 0 at 1001, 16 at 1021
	tr.rawPage(page(1005, [2]uint64{5, 8}))                    // CPU 1: sector 8 at 1010
	got, _ := tr.Take()
	if g := got["254,0"]; g != (Traced{Random: 1, Sequential: 2}) {
		t.Fatalf("counted %+v, want 1 random and 2 sequential", g)
	}
}

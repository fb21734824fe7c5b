package aio

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// io_uring: one ring per queue, IORING_OP_READ/WRITE on plain buffers (fio's io_uring engine defaults: no
// registered files or buffers, no SQ polling).

type sqOffsets struct {
	head, tail, ringMask, ringEntries, flags, dropped, array, resv1 uint32
	userAddr                                                        uint64
}

type cqOffsets struct {
	head, tail, ringMask, ringEntries, overflow, cqes, flags, resv1 uint32
	userAddr                                                        uint64
}

type uringParams struct {
	sqEntries, cqEntries, flags, sqThreadCPU, sqThreadIdle, features, wqFd uint32
	resv                                                                   [3]uint32
	sqOff                                                                  sqOffsets
	cqOff                                                                  cqOffsets
}

type sqe struct {
	opcode      uint8
	flags       uint8
	ioprio      uint16
	fd          int32
	off         uint64
	addr        uint64
	len         uint32
	rwFlags     uint32
	userData    uint64
	bufIndex    uint16
	personality uint16
	spliceFdIn  int32
	addr3       uint64
	pad         uint64
}

type cqe struct {
	userData uint64
	res      int32
	flags    uint32
}

const (
	opRead            = 22
	opWrite           = 23
	offSQRing         = 0
	offCQRing         = 0x8000000
	offSQEs           = 0x10000000
	enterGetEvents    = 1
	setupCoopTaskrun  = 1 << 8
	setupSingleIssuer = 1 << 12
	setupDeferTaskrun = 1 << 13
	sqeSize, cqeSize  = 64, 16
)

type uring struct {
	fd, file  int
	sqRing    []byte
	cqRing    []byte
	sqeMem    []byte
	sqHead    *uint32
	sqTail    *uint32
	sqMask    uint32
	sqArray   []uint32
	sqes      []sqe
	cqHead    *uint32
	cqTail    *uint32
	cqMask    uint32
	cqes      []cqe
	toSubmit  uint32
	localTail uint32
}

func newUring(file, depth int) (*uring, error) {
	// Completions' task work runs when the queue's own thread enters the kernel to wait, not by interrupting it
	// (as fio sets up its rings where the kernel has these flags; older kernels get the plain ring).
	var p uringParams
	var fd uintptr
	var e unix.Errno
	for _, flags := range []uint32{setupCoopTaskrun | setupSingleIssuer | setupDeferTaskrun, setupCoopTaskrun, 0} {
		p = uringParams{flags: flags}
		if fd, _, e = unix.Syscall(unix.SYS_IO_URING_SETUP, uintptr(depth), uintptr(unsafe.Pointer(&p)), 0); e != unix.EINVAL {
			break
		}
	}
	if e != 0 {
		return nil, fmt.Errorf("io_uring: setup(%d): %w (try --ioengine libaio)", depth, e)
	}
	q := &uring{fd: int(fd), file: file}
	fail := func(what string, err error) (*uring, error) {
		q.Close()
		return nil, fmt.Errorf("io_uring: %s: %w", what, err)
	}
	var err error
	sqLen := int(p.sqOff.array + p.sqEntries*4)
	if q.sqRing, err = unix.Mmap(q.fd, offSQRing, sqLen, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE); err != nil {
		return fail("map SQ ring", err)
	}
	cqLen := int(p.cqOff.cqes + p.cqEntries*cqeSize)
	if q.cqRing, err = unix.Mmap(q.fd, offCQRing, cqLen, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE); err != nil {
		return fail("map CQ ring", err)
	}
	if q.sqeMem, err = unix.Mmap(q.fd, offSQEs, int(p.sqEntries)*sqeSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE); err != nil {
		return fail("map SQEs", err)
	}
	u32 := func(b []byte, off uint32) *uint32 { return (*uint32)(unsafe.Pointer(&b[off])) }
	q.sqHead, q.sqTail = u32(q.sqRing, p.sqOff.head), u32(q.sqRing, p.sqOff.tail)
	q.sqMask = *u32(q.sqRing, p.sqOff.ringMask)
	q.sqArray = unsafe.Slice(u32(q.sqRing, p.sqOff.array), p.sqEntries)
	q.sqes = unsafe.Slice((*sqe)(unsafe.Pointer(&q.sqeMem[0])), p.sqEntries)
	q.cqHead, q.cqTail = u32(q.cqRing, p.cqOff.head), u32(q.cqRing, p.cqOff.tail)
	q.cqMask = *u32(q.cqRing, p.cqOff.ringMask)
	q.cqes = unsafe.Slice((*cqe)(unsafe.Pointer(&q.cqRing[p.cqOff.cqes])), p.cqEntries)
	q.localTail = atomic.LoadUint32(q.sqTail)
	return q, nil
}

func (q *uring) Prep(slot int, write bool, off int64, buf []byte) {
	i := q.localTail & q.sqMask
	s := &q.sqes[i]
	*s = sqe{opcode: opRead, fd: int32(q.file), off: uint64(off), addr: addr(buf), len: uint32(len(buf)), userData: uint64(slot)}
	if write {
		s.opcode = opWrite
	}
	q.sqArray[i] = i
	q.localTail++
	q.toSubmit++
}

// enter submits what is queued and waits for min completions. It always asks for events (as fio's engine does,
// submitting too): on a ring with deferred task work that is what posts the completions the kernel holds, so
// the next reap finds them in the ring rather than needing a call of its own.
func (q *uring) enter(submit, min uint32) error {
	for {
		n, _, e := unix.RawSyscall6(unix.SYS_IO_URING_ENTER, uintptr(q.fd), uintptr(submit), uintptr(min), enterGetEvents, 0, 0)
		if e == unix.EINTR {
			continue
		}
		if e != 0 {
			return fmt.Errorf("io_uring: enter: %w", e)
		}
		q.toSubmit -= uint32(n)
		return nil
	}
}

func (q *uring) Submit() error {
	if q.toSubmit == 0 {
		return nil
	}
	atomic.StoreUint32(q.sqTail, q.localTail)
	return q.enter(q.toSubmit, 0)
}

func (q *uring) Wait(min int, done []Done) (int, error) {
	n := q.reap(done)
	// a wait a signal cut short returns without an error when it submitted IOs: it is entered again
	for n < min {
		if err := q.enter(q.toSubmit, uint32(min-n)); err != nil {
			return n, err
		}
		n += q.reap(done[n:])
	}
	return n, nil
}

func (q *uring) reap(done []Done) int {
	head := atomic.LoadUint32(q.cqHead)
	tail := atomic.LoadUint32(q.cqTail)
	n := 0
	for head != tail && n < len(done) {
		c := &q.cqes[head&q.cqMask]
		done[n] = Done{Slot: int(c.userData), Res: int64(c.res)}
		n++
		head++
	}
	atomic.StoreUint32(q.cqHead, head)
	return n
}

func (q *uring) Close() error {
	for _, m := range [][]byte{q.sqeMem, q.cqRing, q.sqRing} {
		if m != nil {
			unix.Munmap(m)
		}
	}
	return unix.Close(q.fd)
}

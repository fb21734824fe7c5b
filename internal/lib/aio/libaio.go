package aio

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The kernel's native AIO (io_setup, io_submit, io_getevents), which libaio wraps; fio's libaio engine.

// iocb is the kernel's struct iocb, field for field (the blank ones are the kernel's and stay zero here:
// key, rw_flags, reqprio, reserved2, flags, resfd).
type iocb struct {
	data   uint64
	_      uint32
	_      uint32
	opcode uint16
	_      int16
	fildes uint32
	buf    uint64
	nbytes uint64
	offset int64
	_      uint64
	_      uint32
	_      uint32
}

type ioEvent struct {
	data uint64
	obj  uint64
	res  int64
	res2 int64
}

const (
	iocbCmdPread  = 0
	iocbCmdPwrite = 1
)

type libaio struct {
	ctx    uintptr
	fd     int
	cbs    []iocb
	ptrs   []*iocb
	queued []*iocb
	events []ioEvent
}

func newLibaio(fd, depth int) (*libaio, error) {
	q := &libaio{fd: fd, cbs: make([]iocb, depth), events: make([]ioEvent, depth)}
	if _, _, e := unix.Syscall(unix.SYS_IO_SETUP, uintptr(depth), uintptr(unsafe.Pointer(&q.ctx)), 0); e != 0 {
		return nil, fmt.Errorf("libaio: io_setup(%d): %w", depth, e)
	}
	for i := range q.cbs {
		q.ptrs = append(q.ptrs, &q.cbs[i])
	}
	return q, nil
}

func (q *libaio) Prep(slot int, write bool, off int64, buf []byte) {
	cb := &q.cbs[slot]
	*cb = iocb{data: uint64(slot), opcode: iocbCmdPread, fildes: uint32(q.fd), buf: addr(buf), nbytes: uint64(len(buf)), offset: off}
	if write {
		cb.opcode = iocbCmdPwrite
	}
	q.queued = append(q.queued, cb)
}

func (q *libaio) Submit() error {
	for len(q.queued) > 0 {
		// raw, as io_uring's submit: the job keeps its thread and P (package comment), without the scheduler's
		// bookkeeping around every IO
		n, _, e := unix.RawSyscall(unix.SYS_IO_SUBMIT, q.ctx, uintptr(len(q.queued)), uintptr(unsafe.Pointer(&q.queued[0])))
		if e == unix.EINTR || e == unix.EAGAIN {
			continue
		}
		if e != 0 {
			return fmt.Errorf("libaio: io_submit: %w", e)
		}
		q.queued = q.queued[:copy(q.queued, q.queued[n:])]
	}
	return nil
}

func (q *libaio) Wait(min int, done []Done) (int, error) {
	max := len(done)
	if max > len(q.events) {
		max = len(q.events)
	}
	// io_getevents returns what it has, fewer than asked, when a signal comes while it waits (the runtime's
	// preemption signal does): it is asked again for the rest
	n := 0
	for {
		got, _, e := unix.RawSyscall6(unix.SYS_IO_GETEVENTS, q.ctx, uintptr(min-n), uintptr(max-n), uintptr(unsafe.Pointer(&q.events[0])), 0, 0)
		if e == unix.EINTR {
			continue
		}
		if e != 0 {
			return n, fmt.Errorf("libaio: io_getevents: %w", e)
		}
		for i := 0; i < int(got); i++ {
			done[n+i] = Done{Slot: int(q.events[i].data), Res: q.events[i].res}
		}
		if n += int(got); n >= min {
			return n, nil
		}
	}
}

func (q *libaio) Close() error {
	if _, _, e := unix.Syscall(unix.SYS_IO_DESTROY, q.ctx, 0, 0); e != 0 {
		return fmt.Errorf("libaio: io_destroy: %w", e)
	}
	return nil
}

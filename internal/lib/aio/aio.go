// Package aio issues block IO at a queue depth: io_uring and the kernel's native AIO (what libaio wraps) for
// asynchronous depth, and pread/pwrite (psync) for comparison. It is small on purpose: one Queue per job,
// buffers the caller keeps alive (page-aligned, from Buffers, for O_DIRECT), the syscalls themselves through
// golang.org/x/sys/unix. No Go library for io_uring or libaio was available from this project's registries.
//
// The calls that block (waiting for completions, pread/pwrite) are raw syscalls: the Go scheduler does not hand
// the blocked thread's P to another thread and back around each one, which cost twice fio's system CPU per
// 1 MiB IO (bench/io-fio). A job therefore holds its P while it waits: the caller runs each queue on its own
// goroutine with GOMAXPROCS above the number of queues (ioprobe raises it for a test's duration).
package aio

import (
	"fmt"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Queue is one job's submission and completion queue. Every call on a queue, from Open to Close, comes from
// one goroutine locked to its OS thread (runtime.LockOSThread): io_uring rings are set up for a single issuer.
type Queue interface {
	// Prep queues one IO on a slot (0 <= slot < depth): read or write len(buf) bytes at off.
	Prep(slot int, write bool, off int64, buf []byte)
	// Submit sends the prepared IOs to the kernel.
	Submit() error
	// Wait returns completed IOs, at least min of them (blocking), at most len(done).
	Wait(min int, done []Done) (int, error)
	Close() error
}

// Done is one completed IO: its slot and the kernel's result (bytes moved, or -errno).
type Done struct {
	Slot int
	Res  int64
}

// Err is a completion's error, nil when it moved want bytes.
func (d Done) Err(want int) error {
	if d.Res < 0 {
		return unix.Errno(-d.Res)
	}
	if d.Res != int64(want) {
		return fmt.Errorf("short IO: %d of %d bytes", d.Res, want)
	}
	return nil
}

// Engines are the queue kinds, by fio's ioengine names.
var Engines = []string{"io_uring", "libaio", "psync"}

// Open makes a queue of the named engine for a file descriptor and a depth (psync runs at depth 1).
func Open(engine string, fd, depth int) (Queue, error) {
	if depth < 1 {
		return nil, fmt.Errorf("queue depth must be at least 1 (got %d)", depth)
	}
	switch engine {
	case "io_uring":
		return newUring(fd, depth)
	case "libaio":
		return newLibaio(fd, depth)
	case "psync":
		return &psync{fd: fd, ops: make([]op, depth)}, nil
	}
	return nil, fmt.Errorf("ioengine %q is not one of %s", engine, strings.Join(Engines, ", "))
}

// Buffers are n page-aligned buffers of size bytes each, outside the Go heap (the kernel writes into them
// while no Go code holds a pointer); free releases them.
func Buffers(n, size int) (bufs [][]byte, free func() error, err error) {
	page := unix.Getpagesize()
	stride := (size + page - 1) / page * page
	mem, err := unix.Mmap(-1, 0, n*stride, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, nil, fmt.Errorf("IO buffers (%d x %d bytes): %w", n, size, err)
	}
	for i := 0; i < n; i++ {
		bufs = append(bufs, mem[i*stride:i*stride+size:i*stride+size])
	}
	return bufs, func() error { return unix.Munmap(mem) }, nil
}

func addr(b []byte) uint64 { return uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

// psync: pread/pwrite, one at a time, as fio's psync engine.
type psync struct {
	fd      int
	ops     []op
	pending []int
}

type op struct {
	write bool
	off   int64
	buf   []byte
}

func (q *psync) Prep(slot int, write bool, off int64, buf []byte) {
	q.ops[slot] = op{write, off, buf}
	q.pending = append(q.pending, slot)
}

func (q *psync) Submit() error { return nil }

func (q *psync) Wait(min int, done []Done) (int, error) {
	n := 0
	for n < len(done) && len(q.pending) > 0 {
		slot := q.pending[0]
		q.pending = q.pending[1:]
		o := q.ops[slot]
		res := rawRW(q.fd, o.write, o.buf, o.off)
		done[n] = Done{Slot: slot, Res: res}
		n++
	}
	if n < min {
		return n, fmt.Errorf("psync: %d completions asked, %d IOs pending", min, n)
	}
	return n, nil
}

func (q *psync) Close() error { return nil }

// rawRW is one pread or pwrite, its result as the kernel gives it (bytes, or -errno).
func rawRW(fd int, write bool, buf []byte, off int64) int64 {
	nr := uintptr(unix.SYS_PREAD64)
	if write {
		nr = unix.SYS_PWRITE64
	}
	for {
		n, _, e := unix.RawSyscall6(nr, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(buf))), uintptr(len(buf)), uintptr(off), 0, 0)
		switch {
		case e == unix.EINTR:
			continue
		case e != 0:
			return -int64(e)
		}
		return int64(n)
	}
}

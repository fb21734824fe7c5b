//go:build linux

package rawconn

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// conn is a TCP connection whose Read and Write are raw system calls on its non-blocking socket. Everything
// else (deadlines, addresses, Close, keep-alive settings, SyscallConn) is the TCPConn's own.
type conn struct {
	*net.TCPConn
	rc syscall.RawConn

	// The state of the read and of the write in progress; the callbacks are bound once so that a call
	// allocates nothing. net.Conn allows one Read and one Write at a time to run concurrently.
	rbuf, wbuf []byte
	rn, wn     int
	rerr, werr error
	readFn     func(fd uintptr) bool
	writeFn    func(fd uintptr) bool
}

// Wrap returns c with the raw read and write path when c is a TCP connection, c itself otherwise.
func Wrap(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	w := &conn{TCPConn: tc, rc: rc}
	w.readFn, w.writeFn = w.read, w.write
	return w
}

func (c *conn) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	c.rbuf, c.rn, c.rerr = b, 0, nil
	err := c.rc.Read(c.readFn)
	n, rerr := c.rn, c.rerr
	c.rbuf, c.rerr = nil, nil
	if err != nil {
		return n, err
	}
	if rerr != nil && rerr != io.EOF {
		rerr = c.opError("read", rerr)
	}
	return n, rerr
}

// read is called by the poller with the socket: it reads once, or reports that it must wait for data.
func (c *conn) read(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&c.rbuf[0])), uintptr(len(c.rbuf)))
		switch e {
		case 0:
			c.rn = int(n)
			if n == 0 {
				c.rerr = io.EOF
			}
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		default:
			c.rerr = os.NewSyscallError("read", e)
			return true
		}
	}
}

func (c *conn) Write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	c.wbuf, c.wn, c.werr = b, 0, nil
	err := c.rc.Write(c.writeFn)
	n, werr := c.wn, c.werr
	c.wbuf, c.werr = nil, nil
	if err != nil {
		return n, err
	}
	if werr != nil {
		return n, c.opError("write", werr)
	}
	return n, nil
}

// write is called by the poller with the socket: it writes all of the buffer, or reports that it must wait
// for room in the send buffer.
func (c *conn) write(fd uintptr) bool {
	for c.wn < len(c.wbuf) {
		rest := c.wbuf[c.wn:]
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&rest[0])), uintptr(len(rest)))
		switch e {
		case 0:
			c.wn += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			c.werr = os.NewSyscallError("write", e)
			return true
		}
	}
	return true
}

func (c *conn) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}

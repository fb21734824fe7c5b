// Package rawconn dials TCP connections whose reads and writes are raw system calls.
//
// A benchmark driver on a small machine should take as little CPU as it can from the database it measures.
// Go's net package enters every read and write through the scheduler's system-call path, and the first system
// call after the process was idle wakes the runtime's monitor thread (sysmon), which then polls every 20 µs
// until the process is idle again. A driver that waits on the database for most of each transaction goes
// idle and wakes again thousands of times a second: on a 2-core machine with four TPC-C virtual users that
// monitor thread was about a fifth of the driver's CPU.
//
// The sockets are non-blocking, so a read or write never waits in the kernel: issued as raw system calls they
// need neither the scheduler's hand-off nor the monitor. When a read finds no data (or a write finds the send
// buffer full), the goroutine waits on Go's network poller exactly as net.Conn does, so deadlines, Close and
// context cancellation behave as before.
package rawconn

import (
	"context"
	"net"
	"time"
)

// Dialer dials TCP connections with the raw read and write path where the platform has it, plain net.Conn
// connections elsewhere.
type Dialer struct {
	net.Dialer
}

// NewDialer returns a Dialer with TCP keep-alives every keepAlive (0: the net package's default).
func NewDialer(keepAlive time.Duration) *Dialer {
	return &Dialer{Dialer: net.Dialer{KeepAlive: keepAlive}}
}

// DialContext dials like net.Dialer and wraps a TCP connection.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := d.Dialer.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return Wrap(c), nil
}

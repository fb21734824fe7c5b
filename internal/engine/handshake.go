package engine

import (
	"context"
	"net"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/rawconn"
)

// A driver whose login does not watch its context (SQL Server's: prelogin, TLS and login read the socket with
// no deadline) would hold a command past its connect timeout and its Ctrl-C on a server that accepts TCP and
// never answers. The socket itself enforces both: the handshake dialer gives every connection it dials during a
// timeoutConnector.Connect the context's deadline, and moves the deadline to the past when the context ends
// (the timeout, Ctrl-C); when the connection is made, Connect clears the deadline so the connection lives on.

// handshakeKey carries a Connect's handshake through the driver's context to the dialer.
type handshakeKey struct{}

// handshake is one Connect's sockets, watched until the login is done.
type handshake struct {
	ctx   context.Context // the Connect's: its deadline and end bound the login (a driver's own dial context may end as soon as the dial is done)
	mu    sync.Mutex
	done  bool
	conns []net.Conn
	stops []func() bool
}

func withHandshake(ctx context.Context) (context.Context, *handshake) {
	h := &handshake{ctx: ctx}
	return context.WithValue(ctx, handshakeKey{}, h), h
}

// watch bounds c by ctx until the handshake finishes.
func (h *handshake) watch(ctx context.Context, c net.Conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done {
		return
	}
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	h.conns = append(h.conns, c)
	h.stops = append(h.stops, context.AfterFunc(ctx, func() { c.SetDeadline(time.Unix(1, 0)) }))
}

// finish stops watching: a connection whose login succeeded is no longer bounded by the connect timeout.
func (h *handshake) finish(ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.done = true
	for i, c := range h.conns {
		if h.stops[i]() && ok {
			c.SetDeadline(time.Time{})
		}
	}
}

// handshakeDialer dials with dial and bounds the connection's login (see handshake).
type handshakeDialer struct {
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

func (d handshakeDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := d.dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if h, ok := ctx.Value(handshakeKey{}).(*handshake); ok {
		h.watch(h.ctx, c)
	}
	return c, nil
}

// loginDialer is the dialer of a server engine's driver: TCP connections wrapped by rawconn (keep-alives every
// keepAlive), other networks (a SQL Server browser's UDP) as the net package dials them, each bounded during
// its login.
func loginDialer(keepAlive time.Duration) handshakeDialer {
	tcp, other := rawconn.NewDialer(keepAlive), &net.Dialer{KeepAlive: keepAlive}
	return handshakeDialer{dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		switch network {
		case "tcp", "tcp4", "tcp6":
			return tcp.DialContext(ctx, network, addr)
		}
		return other.DialContext(ctx, network, addr)
	}}
}

package agent

import (
	"context"
	"io"
	"net"
	"testing"
	"time"
)

// --listen listens on exactly the address given: an IPv4 wildcard is not also IPv6's, nor the other way round.
// Only loopback is ever listened on here; the wildcards are checked by the network they choose.
func TestListenOnExactlyTheAddressGiven(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:7878": "tcp4", "127.0.0.1:7878": "tcp4", "[::]:7878": "tcp6", "[::1]:7878": "tcp6",
		"[::ffff:127.0.0.1]:7878": "tcp4", "localhost:7878": "tcp", ":7878": "tcp",
	} {
		if got := listenNetwork(addr); got != want {
			t.Errorf("--listen %s listens on %s, want %s", addr, got, want)
		}
	}
	ipv6 := true
	if ln, err := net.Listen("tcp6", "[::1]:0"); err != nil {
		t.Logf("no IPv6 loopback here (%v): --listen [::1] is not tried", err)
		ipv6 = false
	} else {
		ln.Close()
	}
	for _, c := range []struct{ listen, other string }{{"127.0.0.1:0", "::1"}, {"[::1]:0", "127.0.0.1"}} {
		if c.listen == "[::1]:0" && !ipv6 {
			continue
		}
		s, err := New(context.Background(), Options{Listen: c.listen, Interval: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		addr := make(chan string, 1)
		done := make(chan error, 1)
		go func() { done <- s.Serve(ctx, io.Discard, func(a string) { addr <- a }) }()
		var a string
		select {
		case a = <-addr:
		case err := <-done:
			cancel()
			t.Fatalf("--listen %s: %v", c.listen, err)
		}
		if conn, err := net.DialTimeout("tcp", a, time.Second); err != nil {
			t.Errorf("--listen %s: not reachable on %s: %v", c.listen, a, err)
		} else {
			conn.Close()
		}
		_, port, _ := net.SplitHostPort(a)
		if conn, err := net.DialTimeout("tcp", net.JoinHostPort(c.other, port), time.Second); err == nil {
			conn.Close()
			t.Errorf("--listen %s also answers on %s", c.listen, c.other)
		}
		cancel()
		<-done
	}
}

package rawconn

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// pair returns a dialed (wrapped) connection and the server's end of it.
func pair(t *testing.T) (client net.Conn, server *net.TCPConn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			accepted <- nil
			return
		}
		accepted <- c
	}()
	client, err = NewDialer(0).DialContext(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s := <-accepted
	if s == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { client.Close(); s.Close() })
	if runtime.GOOS == "linux" {
		if _, ok := client.(*conn); !ok {
			t.Fatalf("dialed %T, want the raw connection", client)
		}
	}
	return client, s.(*net.TCPConn)
}

// A write far larger than the socket buffers goes out whole (the raw write waits for room and resumes where it
// stopped), and reads return exactly the bytes sent, in order.
func TestLargeWriteAndReadBack(t *testing.T) {
	c, s := pair(t)
	data := make([]byte, 8<<20)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	echoed := make(chan error, 1)
	go func() {
		// Echo slowly in small pieces, so that the client's write meets a full send buffer.
		buf := make([]byte, 1000)
		for {
			n, err := s.Read(buf)
			if n > 0 {
				if _, werr := s.Write(buf[:n]); werr != nil {
					echoed <- werr
					return
				}
			}
			if err != nil {
				echoed <- nil
				return
			}
		}
	}()
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(c, int64(len(data))))
		got <- b
	}()
	n, err := c.Write(data)
	if err != nil || n != len(data) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(data))
	}
	if b := <-got; !bytes.Equal(b, data) {
		t.Fatalf("read back %d bytes, not the %d written (or not in order)", len(b), len(data))
	}
	c.Close()
	if err := <-echoed; err != nil && !errors.Is(err, syscall.EPIPE) && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("echo: %v", err)
	}
}

// Deadlines work as on net.Conn: a read that waits past its deadline fails with a timeout.
func TestReadDeadline(t *testing.T) {
	c, _ := pair(t)
	c.SetReadDeadline(time.Now().Add(30 * time.Millisecond))
	n, err := c.Read(make([]byte, 10))
	var ne net.Error
	if n != 0 || !errors.Is(err, os.ErrDeadlineExceeded) || !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("Read past the deadline = %d, %v; want 0 and a timeout", n, err)
	}
	// A deadline already in the past breaks a read at once (how the driver stops a session).
	c.SetReadDeadline(time.Now().Add(-time.Second))
	if _, err := c.Read(make([]byte, 10)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Read with a past deadline: %v", err)
	}
}

// The peer closing gives io.EOF; the peer resetting gives ECONNRESET (or EPIPE) on a write.
func TestPeerCloseAndReset(t *testing.T) {
	c, s := pair(t)
	s.Write([]byte("bye"))
	s.Close()
	b, err := io.ReadAll(c)
	if err != nil || string(b) != "bye" {
		t.Fatalf("ReadAll after the peer closed = %q, %v; want \"bye\", nil", b, err)
	}

	c2, s2 := pair(t)
	s2.SetLinger(0)
	s2.Close()
	var werr error
	for i := 0; i < 100 && werr == nil; i++ {
		_, werr = c2.Write([]byte("hello"))
		time.Sleep(time.Millisecond)
	}
	var oe *net.OpError
	if !errors.Is(werr, syscall.ECONNRESET) && !errors.Is(werr, syscall.EPIPE) || !errors.As(werr, &oe) || oe.Op != "write" {
		t.Fatalf("Write to a reset peer: %v; want a write *net.OpError with ECONNRESET or EPIPE", werr)
	}
}

// Closing the connection ends a read that is waiting.
func TestCloseWhileReading(t *testing.T) {
	c, _ := pair(t)
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 10))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	c.Close()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Read after Close: %v; want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read did not return after Close")
	}
}

// A read or write that does not wait allocates nothing.
func TestNoAllocations(t *testing.T) {
	c, s := pair(t)
	msg := []byte("0123456789")
	buf := make([]byte, len(msg))
	allocs := testing.AllocsPerRun(200, func() {
		if _, err := c.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(s, buf); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			t.Fatal(err)
		}
	})
	if runtime.GOOS == "linux" && allocs > 0 {
		t.Fatalf("%.1f allocations per round trip, want 0", allocs)
	}
}

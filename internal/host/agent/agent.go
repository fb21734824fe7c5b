// Package agent is dbdyno's side on the database host: `dbdyno agent` samples the host's CPU, memory, disks and
// network every interval and serves the samples over HTTP as JSON to drivers that present its token; a driver
// run with --agent records the samples of exactly its measured window as the result's server metrics, so
// figures "per physical core" divide by the database host's cores, not the client's.
//
// The token is read from a file, compared in constant time, and never printed or logged. Without a token the
// agent listens only on loopback. One agent serves any number of drivers: it keeps the last hour of samples
// and each driver asks for those after the last one it has.
package agent

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/host/envinfo"
	"github.com/dbdyno/dbdyno/internal/host/sysmetrics"
	"github.com/dbdyno/dbdyno/internal/lib/httpauth"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Host describes the agent's machine.
type Host struct {
	Hostname      string  `json:"hostname"`
	PhysicalCores int     `json:"physical_cores"`
	Threads       int     `json:"threads"`
	MemoryBytes   uint64  `json:"memory_bytes"`
	IntervalS     float64 `json:"interval_s"`
	Version       string  `json:"version"`
	// CPU is the host's processor fingerprint (model, sockets, threads per core, clocks); agents before it
	// existed send none.
	CPU *result.CPU `json:"cpu,omitempty"`
}

// Sample is one interval's figures, ending at At.
type Sample struct {
	At time.Time `json:"at"`
	result.SystemSample
}

// Options are the agent's settings.
type Options struct {
	Listen    string
	TokenFile string
	TLSCert   string
	TLSKey    string
	Interval  time.Duration
	Keep      time.Duration // samples kept for drivers (default an hour)
	Version   string
}

// ReadToken reads a token file: its first line, trimmed; an empty file is an error naming the fix. Like ssh with
// a private key, it refuses a file that others than its owner may read or write (one line naming the file, its
// mode and the fix), except on Windows, whose files have no such mode bits.
func ReadToken(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("token file: %v", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return "", fmt.Errorf("token file: %v", err)
	} else if m := fi.Mode().Perm(); m&0o077 != 0 && runtime.GOOS != "windows" {
		return "", fmt.Errorf("token file %s has mode %04o, open to other users: run chmod 600 %s", path, m, path)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return "", fmt.Errorf("token file: %v", err)
	}
	tok := strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
	if len(tok) < 16 {
		return "", fmt.Errorf("token file %s holds a token of %d characters: put at least 16 random characters in it (e.g. (umask 077; openssl rand -hex 32 > %s))", path, len(tok), path)
	}
	return tok, nil
}

// loopback says whether a listen address is on loopback only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	return httpauth.Loopback(host)
}

// listenNetwork is the network that listens on exactly the address given: tcp4 for an IPv4 address (0.0.0.0
// is IPv4's addresses only, not IPv6's too as "tcp" would make it), tcp6 for an IPv6 one ([::] is IPv6's only),
// and tcp for a name or no host, which Go resolves.
func listenNetwork(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "tcp"
	}
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return "tcp"
	case ip.To4() != nil:
		return "tcp4"
	}
	return "tcp6"
}

// Server samples the host and answers drivers.
type Server struct {
	opts    Options
	token   string
	host    Host
	mu      sync.Mutex
	samples []Sample
}

// New checks the options and reads the token; nothing listens yet.
func New(ctx context.Context, o Options) (*Server, error) {
	if o.Interval < 100*time.Millisecond {
		return nil, fmt.Errorf("--interval must be at least 100ms (got %s)", o.Interval)
	}
	if o.Keep <= 0 {
		o.Keep = time.Hour
	}
	if _, _, err := net.SplitHostPort(o.Listen); err != nil {
		return nil, fmt.Errorf("--listen %q: give host:port, e.g. 127.0.0.1:7878", o.Listen)
	}
	s := &Server{opts: o}
	if o.TokenFile != "" {
		tok, err := ReadToken(o.TokenFile)
		if err != nil {
			return nil, err
		}
		s.token = tok
	} else if !loopback(o.Listen) {
		return nil, fmt.Errorf("--listen %s is not loopback and no --token-file is given: anyone who reaches it could read this host's figures; add --token-file FILE", o.Listen)
	}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return nil, fmt.Errorf("--tls-cert and --tls-key go together: give both, or neither")
	}
	m := envinfo.Machine(ctx)
	s.host = Host{Hostname: m.Host, PhysicalCores: m.Cores, Threads: m.Threads, MemoryBytes: m.MemoryBytes, IntervalS: o.Interval.Seconds(), Version: o.Version, CPU: m.CPU}
	return s, nil
}

// Serve samples and serves until ctx ends. ready, when set, gets the address it listens on.
func (s *Server) Serve(ctx context.Context, out io.Writer, ready func(addr string)) error {
	ln, err := net.Listen(listenNetwork(s.opts.Listen), s.opts.Listen)
	if err != nil {
		return fmt.Errorf("agent: listen on %s: %v", s.opts.Listen, err)
	}
	scheme := "http"
	if s.opts.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(s.opts.TLSCert, s.opts.TLSKey)
		if err != nil {
			ln.Close()
			return fmt.Errorf("agent: TLS certificate: %v", err)
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
		scheme = "https"
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/host", s.auth(func(w http.ResponseWriter, _ *http.Request) { reply(w, s.host) }))
	mux.HandleFunc("GET /v1/samples", s.auth(s.handleSamples))
	mux.HandleFunc("GET /v1/proc", s.auth(s.handleProc))
	mux.HandleFunc("GET /v1/time", handleTime)
	mux.HandleFunc("GET /metrics", s.auth(s.metricsHandler())) // the host's figures for a Prometheus
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second,
		ErrorLog: nil}
	go s.sample(ctx)
	auth := "no token (loopback only)"
	if s.token != "" {
		auth = "token from " + s.opts.TokenFile
	}
	fmt.Fprintf(out, "dbdyno agent on %s://%s: %s (%d physical cores), sampling every %s; %s\n", scheme, ln.Addr(), s.host.Hostname,
		s.host.PhysicalCores, s.opts.Interval, auth)
	if ready != nil {
		ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		return nil
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("agent: %v", err)
	}
}

// auth lets a request through when it presents the token (compared in constant time) or the agent has none.
func (s *Server) auth(h http.HandlerFunc) http.HandlerFunc {
	return httpauth.Bearer(s.token, "dbdyno agent: a valid token is required (Authorization: Bearer)", h)
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// handleSamples answers the samples taken after ?since= (RFC 3339, nanoseconds), all it keeps without it.
func (s *Server) handleSamples(w http.ResponseWriter, r *http.Request) {
	var since time.Time
	if v := r.URL.Query().Get("since"); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			http.Error(w, "since: give an RFC 3339 time", http.StatusBadRequest)
			return
		}
		since = t
	}
	s.mu.Lock()
	out := []Sample{}
	for _, x := range s.samples {
		if x.At.After(since) {
			out = append(out, x)
		}
	}
	s.mu.Unlock()
	reply(w, out)
}

func (s *Server) sample(ctx context.Context) {
	prev := sysmetrics.Take()
	t := time.NewTicker(s.opts.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		cur := sysmetrics.Take()
		x := Sample{At: cur.At().UTC(), SystemSample: sysmetrics.Between(prev, cur)}
		prev = cur
		s.mu.Lock()
		s.samples = append(s.samples, x)
		cut := 0
		for cut < len(s.samples) && x.At.Sub(s.samples[cut].At) > s.opts.Keep {
			cut++
		}
		s.samples = s.samples[cut:]
		s.mu.Unlock()
	}
}

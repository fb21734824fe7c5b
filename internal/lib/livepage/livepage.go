// Package livepage serves a page of a running command (--live): each run's phase, users, and its throughput
// and latency interval by interval as they come (server-sent events), then the result's own intervals when
// the run ends. Read-only; loopback unless a token is given, which the page's address then carries (?token=).
// It knows no workload: the runner reports to it through workload.Live.
package livepage

import (
	"context"
	"crypto/subtle"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/httpauth"
)

//go:embed page.html
var page []byte

// TokenEnv holds the token of a --live address that is not loopback.
const TokenEnv = "DBDYNO_LIVE_TOKEN"

// Server is the page of one command.
type Server struct {
	ln     net.Listener
	srv    *http.Server
	token  string
	mu     sync.Mutex
	events [][]byte // every event so far: a page opened late gets them all
	subs   map[chan []byte]bool
}

// Listen serves the page on addr (HOST:PORT); an address that is not loopback needs a token.
func Listen(addr, token string) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--live %q is not HOST:PORT: give e.g. 127.0.0.1:8080", addr)
	}
	if !httpauth.Loopback(host) && token == "" {
		return nil, fmt.Errorf("--live %s is not a loopback address: give a token (--live-token-file or %s), which the page's address then carries, or serve on 127.0.0.1", addr, TokenEnv)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--live %s: %v", addr, err)
	}
	s := &Server{ln: ln, token: token, subs: map[chan []byte]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.guard(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	mux.HandleFunc("GET /events", s.guard(s.stream))
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

func (s *Server) guard(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.token != "" && subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("token")), []byte(s.token)) != 1 {
			http.Error(w, "the page's address carries its token: ?token=...", http.StatusUnauthorized)
			return
		}
		h(w, r)
	}
}

// URL is the page's address (with the port the system chose for :0), without the token.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/" }

// Close stops serving, within a bound; open pages keep what they showed.
func (s *Server) Close() error {
	s.mu.Lock()
	for c := range s.subs {
		close(c)
		delete(s.subs, c)
	}
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// stream sends every event so far, then each new one, as server-sent events.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	c := make(chan []byte, 256)
	s.mu.Lock()
	past := append([][]byte(nil), s.events...)
	s.subs[c] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.subs[c] {
			delete(s.subs, c)
			close(c)
		}
		s.mu.Unlock()
	}()
	for _, e := range past {
		fmt.Fprintf(w, "data: %s\n\n", e)
	}
	fl.Flush()
	for {
		select {
		case e, ok := <-c:
			if !ok {
				return
			}
			fmt.Fprintf(w, "data: %s\n\n", e)
			fl.Flush()
		case <-r.Context().Done():
			return
		}
	}
}

// send records an event and gives it to every open page (a page too slow to take it misses it, never the run).
func (s *Server) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, b)
	for c := range s.subs {
		select {
		case c <- b:
		default:
		}
	}
}

// Run is one run's part of the page.
type Run struct {
	s  *Server
	id string
}

// Run starts a run on the page. target is the URL without its password.
func (s *Server) Run(runID, workload, target string) *Run {
	s.send(map[string]any{"type": "run", "run": runID, "workload": workload, "target": target})
	return &Run{s: s, id: runID}
}

// Done, Lag: the page shows intervals, not each unit of work.
func (r *Run) Done(string, time.Duration, string, int, bool) {}
func (r *Run) Lag(time.Duration)                             {}

// Users shows the users running.
func (r *Run) Users(n int) { r.s.send(map[string]any{"type": "users", "run": r.id, "users": n}) }

// Phase shows the run's phase.
func (r *Run) Phase(p string) { r.s.send(map[string]any{"type": "phase", "run": r.id, "phase": p}) }

// Interval adds an interval as it ends: its elapsed seconds, all units per minute, errors, the slowest
// transaction's p95 (ms), whether it was measured.
func (r *Run) Interval(elapsed time.Duration, perMinute float64, errors int64, p95ms float64, measured bool) {
	r.s.send(map[string]any{"type": "interval", "run": r.id, "elapsed_s": elapsed.Seconds(), "per_minute": perMinute,
		"errors": errors, "p95_ms": p95ms, "measured": measured})
}

// Interval is one of the result's intervals, for Final.
type Interval struct {
	ElapsedS  float64 `json:"elapsed_s"`
	PerMinute float64 `json:"per_minute"`
	Errors    int64   `json:"errors"`
	P95ms     float64 `json:"p95_ms"`
	Measured  bool    `json:"measured"`
}

// Final replaces the run's intervals with the result's (its last stretch folded in as the result holds it) and
// its status.
func (r *Run) Final(status string, ivs []Interval) {
	r.s.send(map[string]any{"type": "final", "run": r.id, "status": status, "intervals": ivs})
}

package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// DuckDB keeps one database instance per file in a process. A handle closed while one of its connections is still
// in use (a query's rows never closed, a goroutine that outlived its phase) keeps the instance alive, and the next
// open of that file in the process waits for it in a busy spin that never ends. dbdyno runs several phases on
// one file in a process (build then run, a plan's steps, the tests' commands), so every DuckDB handle is tracked:
// an open that would spin waits a moment for the connection to be released and then refuses, naming the leak.

// heldWait is how long an open waits for a closed handle's last connection to be released.
var heldWait = 5 * time.Second

type duckHandle struct {
	db     *sql.DB
	closed *atomic.Bool
	opener string // where the handle was opened, for the refusal
}

var duckHandles = struct {
	sync.Mutex
	byPath map[string][]duckHandle
}{byPath: map[string][]duckHandle{}}

// closeTracker is duckdb-go's connector that records its Close (sql.DB.Close closes its connector at once, even
// while connections are in use).
type closeTracker struct {
	*duckdb.Connector
	closed *atomic.Bool
}

func (c closeTracker) Close() error {
	c.closed.Store(true)
	return c.Connector.Close()
}

func openDuckDB(ctx context.Context, t *Target) (*sql.DB, error) {
	path := duckPath(t.Path)
	if err := waitUnheld(ctx, path); err != nil {
		return nil, err
	}
	c, err := newDuckConnector(ctx, t.Path, path)
	if err != nil {
		return nil, err
	}
	h := duckHandle{closed: new(atomic.Bool), opener: caller()}
	h.db = sql.OpenDB(closeTracker{c, h.closed})
	duckHandles.Lock()
	duckHandles.byPath[path] = append(duckHandles.byPath[path], h)
	duckHandles.Unlock()
	return h.db, nil
}

// duckOpenWait bounds DuckDB's open. An instance of the file this process closed can stay alive inside DuckDB
// (seen only on a heavily loaded machine, with every connection closed: DuckDB's own threads still held it), and
// DuckDB's open then waits for it in a busy spin, holding the lock every later DuckDB open in the process takes.
// The open is given up after this long, and every later open in the process refuses at once.
var duckOpenWait = 60 * time.Second

var duckStuck atomic.Pointer[string]

type connectorOrErr struct {
	c   *duckdb.Connector
	err error
}

// newDuckConnector opens path's DuckDB instance, giving up after duckOpenWait or when ctx ends.
func newDuckConnector(ctx context.Context, dsn, path string) (*duckdb.Connector, error) {
	if p := duckStuck.Load(); p != nil {
		return nil, fmt.Errorf("DuckDB is still waiting inside this process for an earlier instance of %s to shut down: no DuckDB file can be opened until the process ends; run the command again", *p)
	}
	done := make(chan connectorOrErr, 1)
	go func() {
		c, err := duckdb.NewConnector(dsn, nil)
		done <- connectorOrErr{c, err}
	}()
	timer := time.NewTimer(duckOpenWait)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.c, r.err
	case <-ctx.Done():
		go closeLate(done)
		return nil, fmt.Errorf("opening %s: %w", path, ctx.Err())
	case <-timer.C:
		duckStuck.Store(&path)
		go closeLate(done)
		return nil, fmt.Errorf("DuckDB did not open %s within %s: an earlier instance of it in this process is still shutting down inside DuckDB; run the command again", path, duckOpenWait)
	}
}

// closeLate closes a connector whose open was given up, if it ever opens.
func closeLate(done <-chan connectorOrErr) {
	if r := <-done; r.err == nil {
		r.c.Close()
	}
}

// duckPath is the file a DuckDB target names, absolute (the key DuckDB's instance cache uses).
func duckPath(p string) string {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// waitUnheld waits until no closed handle on path has a connection in use, or refuses after heldWait.
func waitUnheld(ctx context.Context, path string) error {
	deadline := time.Now().Add(heldWait)
	for {
		held := heldOn(path)
		if len(held) == 0 {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s is still held by a connection an earlier phase left in use (opened at %s): a dbdyno bug, please report it; running the command again in a new process works around it", path, held[0])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// heldOn prunes path's handles that are closed with no connection left, and returns the openers of those closed
// with a connection still open.
func heldOn(path string) []string {
	duckHandles.Lock()
	defer duckHandles.Unlock()
	var keep []duckHandle
	var held []string
	for _, h := range duckHandles.byPath[path] {
		n := h.db.Stats().OpenConnections
		switch {
		case !h.closed.Load():
			keep = append(keep, h)
		case n > 0:
			keep = append(keep, h)
			held = append(held, h.opener)
		}
	}
	if len(keep) == 0 {
		delete(duckHandles.byPath, path)
	} else {
		duckHandles.byPath[path] = keep
	}
	return held
}

// HeldDuckDB lists the DuckDB handles this process opened and has not let go of: open ones, and closed ones with
// a connection still in use, each with where it was opened. Tests call it after a command: a command leaves none.
func HeldDuckDB() []string {
	duckHandles.Lock()
	paths := make([]string, 0, len(duckHandles.byPath))
	for p := range duckHandles.byPath {
		paths = append(paths, p)
	}
	duckHandles.Unlock()
	var out []string
	for _, p := range paths {
		heldOn(p)
		duckHandles.Lock()
		for _, h := range duckHandles.byPath[p] {
			state := "open"
			if h.closed.Load() {
				state = fmt.Sprintf("closed with %d connection(s) in use", h.db.Stats().OpenConnections)
			}
			out = append(out, fmt.Sprintf("%s %s, opened at %s", p, state, h.opener))
		}
		duckHandles.Unlock()
	}
	return out
}

// caller names the first frames outside the engine package and the standard library that led to an open.
func caller() string {
	pc := make([]uintptr, 32)
	n := runtime.Callers(3, pc)
	frames := runtime.CallersFrames(pc[:n])
	var parts []string
	for {
		f, more := frames.Next()
		if strings.Contains(f.Function, "dbdyno/") && !strings.Contains(f.Function, "/internal/engine.") {
			parts = append(parts, fmt.Sprintf("%s (%s:%d)", f.Function[strings.LastIndexByte(f.Function, '/')+1:], filepath.Base(f.File), f.Line))
			if len(parts) == 3 {
				break
			}
		}
		if !more {
			break
		}
	}
	return strings.Join(parts, " < ")
}

var _ driver.Connector = closeTracker{}

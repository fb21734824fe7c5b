package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// One DuckDB instance per file per process, shared by every open of the file. DuckDB keeps one instance per file
// in a process (its instance cache), and an open of a file whose previous instance is still alive inside DuckDB
// spins in that cache, holding the lock of every DuckDB open in the process, until the instance is gone. An
// instance outlives every handle and connection dbdyno holds once one of its statements has been interrupted (a
// context cancelled while DuckDB ran it: the end of a run, Ctrl-C, a timeout): DuckDB then never releases it, and
// the next open of the file spun forever (reproduced by TestDuckDBReopenAfterInterruptedQueriesNeverSpins in a
// few rounds; without the interruption the same rounds never spin). So dbdyno never asks DuckDB for an instance
// it already has: every open of a file shares the one the process opened, counted by its users (open handles)
// and their connections; when the last of them is gone the instance is closed, unless a statement of it was
// interrupted: then it is kept, idle, for the next open of the file in this process (closing it is what would
// make that open spin).

type duckShared struct {
	path, dsn   string
	c           *duckdb.Connector
	file        os.FileInfo // the file the instance opened, to notice it replaced
	users       map[*duckUser]bool
	conns       int
	interrupted atomic.Bool
	// the settings as the instance was opened; kept says it was kept idle for the next open, whose settings are
	// then put back (SET threads, memory_limit... of an earlier open are the whole instance's)
	settings map[string]string
	kept     bool
}

// duckUser is one open of a shared instance: the *sql.DB the open returned.
type duckUser struct {
	sh     *duckShared
	opener string // where it was opened, for HeldDuckDB
	closed bool
	conns  int
}

var duckInstances = struct {
	sync.Mutex
	byPath map[string]*duckShared
}{byPath: map[string]*duckShared{}}

func openDuckDB(ctx context.Context, t *Target) (*sql.DB, error) {
	if t.Path == ":memory:" {
		c, err := newDuckConnector(ctx, t.Path, t.Path)
		if err != nil {
			return nil, err
		}
		return sql.OpenDB(c), nil // not cached by DuckDB: every open is its own database
	}
	path := duckPath(t.Path)
	duckInstances.Lock()
	defer duckInstances.Unlock()
	sh := duckInstances.byPath[path]
	if sh != nil && sh.dsn != t.Path {
		return nil, fmt.Errorf("%s is already open in this process with other settings (%s): open it with the same target URL, or in another process", path, sh.dsn)
	}
	if sh != nil && !sh.sameFile() {
		if len(sh.users) > 0 || sh.conns > 0 {
			return nil, fmt.Errorf("%s was replaced or removed while this process has it open: close what uses it first", path)
		}
		return nil, fmt.Errorf("%s was replaced or removed after a statement on it was interrupted in this process, and DuckDB cannot open it again in this process: run the command again", path)
	}
	fresh, kept := sh == nil, sh != nil && sh.kept
	if fresh {
		c, err := newDuckConnector(ctx, t.Path, path)
		if err != nil {
			return nil, err
		}
		sh = &duckShared{path: path, dsn: t.Path, c: c, users: map[*duckUser]bool{}}
		sh.file, _ = os.Stat(path)
		duckInstances.byPath[path] = sh
	}
	sh.kept = false
	u := &duckUser{sh: sh, opener: caller()}
	sh.users[u] = true
	db := sql.OpenDB(u)
	duckInstances.Unlock()
	var err error
	switch {
	case fresh:
		sh.settings, err = duckSettings(ctx, t.Engine, db)
	case kept:
		err = resetSettings(ctx, t.Engine, db, sh.settings)
	}
	if err != nil {
		db.Close()
	}
	duckInstances.Lock() // the deferred unlock's
	if err != nil {
		return nil, err
	}
	return db, nil
}

// duckSettings are the instance's settings by name.
func duckSettings(ctx context.Context, e *Engine, db *sql.DB) (map[string]string, error) {
	rows, err := db.QueryContext(ctx, e.stmt("instance_settings").SQL)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var k string
		var v sql.NullString
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		m[k] = v.String
	}
	return m, rows.Err()
}

// resetSettings resets every setting that differs from was, the instance's settings as it was opened; those of
// duckOffline are set off again (a reset would give them DuckDB's default).
func resetSettings(ctx context.Context, e *Engine, db *sql.DB, was map[string]string) error {
	now, err := duckSettings(ctx, e, db)
	if err != nil {
		return err
	}
	for k, v := range was {
		if nv, ok := now[k]; ok && nv != v {
			st := "reset_setting"
			if _, off := duckOffline[k]; off {
				st = "off_setting"
			}
			if _, err := db.ExecContext(ctx, strings.ReplaceAll(e.stmt(st).SQL, "{name}", ident(k))); err != nil {
				return fmt.Errorf("resetting DuckDB's setting %s an earlier open changed: %w; run the command in a new process", k, err)
			}
		}
	}
	return nil
}

// sameFile says whether the file at the instance's path is still the one it opened.
func (sh *duckShared) sameFile() bool {
	fi, err := os.Stat(sh.path)
	if sh.file == nil || err != nil {
		return sh.file == nil && err != nil
	}
	return os.SameFile(sh.file, fi)
}

// release forgets u once it is closed with no connection left, and closes the instance once it has no user and no
// connection, unless a statement of it was interrupted (see above). duckInstances is locked.
func (u *duckUser) release() {
	sh := u.sh
	if u.closed && u.conns == 0 {
		delete(sh.users, u)
	}
	if len(sh.users) > 0 || sh.conns > 0 {
		return
	}
	if sh.interrupted.Load() {
		sh.kept = true
		return
	}
	if duckInstances.byPath[sh.path] == sh {
		delete(duckInstances.byPath, sh.path)
	}
	sh.c.Close()
}

// Connect makes a connection of u's instance; database/sql calls it.
func (u *duckUser) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := u.sh.c.Connect(ctx)
	if err != nil {
		return nil, err
	}
	duckInstances.Lock()
	u.conns++
	u.sh.conns++
	duckInstances.Unlock()
	return &duckConn{Conn: dc.(*duckdb.Conn), u: u}, nil
}

func (u *duckUser) Driver() driver.Driver { return u.sh.c.Driver() }

// Close is the handle's close (sql.DB.Close calls it at once, even while connections are in use): the instance is
// released once those are closed too.
func (u *duckUser) Close() error {
	duckInstances.Lock()
	defer duckInstances.Unlock()
	if !u.closed {
		u.closed = true
		u.release()
	}
	return nil
}

// duckConn is duckdb-go's connection, counted, noting the statements a cancelled context may have interrupted.
type duckConn struct {
	*duckdb.Conn
	u      *duckUser
	closed bool
}

func (c *duckConn) Close() error {
	err := c.Conn.Close()
	duckInstances.Lock()
	defer duckInstances.Unlock()
	if !c.closed {
		c.closed = true
		c.u.conns--
		c.u.sh.conns--
		c.u.release()
	}
	return err
}

// noteCancel marks the instance interrupted when ctx ended while a statement ran (duckdb-go interrupts it then).
func (sh *duckShared) noteCancel(ctx context.Context) {
	if ctx.Err() != nil {
		sh.interrupted.Store(true)
	}
}

func (c *duckConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	defer c.u.sh.noteCancel(ctx)
	return c.Conn.ExecContext(ctx, q, args)
}

func (c *duckConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	defer c.u.sh.noteCancel(ctx)
	return c.Conn.QueryContext(ctx, q, args)
}

func (c *duckConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	defer c.u.sh.noteCancel(ctx)
	st, err := c.Conn.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	return &duckStmt{Stmt: st.(*duckdb.Stmt), sh: c.u.sh}, nil
}

func (c *duckConn) Prepare(q string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), q)
}

func (c *duckConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	defer c.u.sh.noteCancel(ctx)
	return c.Conn.BeginTx(ctx, opts)
}

// duckStmt is duckdb-go's prepared statement, noting interruptions as duckConn does.
type duckStmt struct {
	*duckdb.Stmt
	sh *duckShared
}

func (s *duckStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	defer s.sh.noteCancel(ctx)
	return s.Stmt.ExecContext(ctx, args)
}

func (s *duckStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	defer s.sh.noteCancel(ctx)
	return s.Stmt.QueryContext(ctx, args)
}

// duckOpenWait bounds DuckDB's open, a safety net behind the shared instances above: should an instance of the
// file that this process closed still be alive inside DuckDB by some other way, DuckDB's open would wait for it
// in a busy spin, holding the lock every later DuckDB open in the process takes. The open is given up after this
// long, and every later open in the process refuses at once.
var duckOpenWait = 60 * time.Second

var duckStuck atomic.Pointer[string]

type connectorOrErr struct {
	c   *duckdb.Connector
	err error
}

// duckOffline are the settings every DuckDB instance dbdyno opens has from its start: DuckDB never loads,
// installs or downloads an extension of its own accord (it did, from its extension site into ~/.duckdb, to attach
// a SQLite file given as a DuckDB target), and takes no community extension. Loading one at open is too late to
// forbid with SET, so they are the connector's configuration (the DSN's parameters, as duckdb-go reads them).
var duckOffline = url.Values{
	"autoload_known_extensions":    {"false"},
	"autoinstall_known_extensions": {"false"},
	"allow_community_extensions":   {"false"},
}

// duckDSN is the DSN of file (or ":memory:") with duckOffline. duckdb-go reads the file's name as the DSN up to its
// "?" and the settings from the DSN parsed as a URL: a name that URL parsing reads otherwise (a "#" ends the URL's
// query, a "%" must be an escape) would lose the settings, and is refused. (duckdb-go parses an in-memory DSN
// without its ":memory:".)
func duckDSN(file string) (string, error) {
	dsn := file + "?" + duckOffline.Encode()
	if u, err := url.Parse(strings.TrimPrefix(dsn, ":memory:")); err != nil || u.Query().Encode() != duckOffline.Encode() {
		return "", fmt.Errorf("DuckDB's driver cannot open a file whose name holds %q or %q: rename the file", "#", "%")
	}
	return dsn, nil
}

// newDuckConnector opens the DuckDB instance of file (the target's path, or ":memory:"), path being the file made
// absolute, giving up after duckOpenWait or when ctx ends.
func newDuckConnector(ctx context.Context, file, path string) (*duckdb.Connector, error) {
	if p := duckStuck.Load(); p != nil {
		return nil, fmt.Errorf("DuckDB is still waiting inside this process for an earlier instance of %s to shut down: no DuckDB file can be opened until the process ends; run the command again", *p)
	}
	dsn, err := duckDSN(file)
	if err != nil {
		return nil, err
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

// HeldDuckDB lists the DuckDB handles this process opened and has not let go of: open ones, and closed ones with
// a connection still in use, each with where it was opened. Tests call it after a command: a command leaves none
// of its own (an instance kept idle after an interrupted statement is no handle: it is not listed).
func HeldDuckDB() []string {
	duckInstances.Lock()
	defer duckInstances.Unlock()
	var out []string
	for p, sh := range duckInstances.byPath {
		for u := range sh.users {
			state := "open"
			if u.closed {
				state = fmt.Sprintf("closed with %d connection(s) in use", u.conns)
			}
			out = append(out, fmt.Sprintf("%s %s, opened at %s", p, state, u.opener))
		}
	}
	sort.Strings(out)
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

var (
	_ driver.Connector          = (*duckUser)(nil)
	_ driver.QueryerContext     = (*duckConn)(nil)
	_ driver.ExecerContext      = (*duckConn)(nil)
	_ driver.ConnBeginTx        = (*duckConn)(nil)
	_ driver.ConnPrepareContext = (*duckConn)(nil)
	_ driver.NamedValueChecker  = (*duckConn)(nil)
	_ driver.StmtQueryContext   = (*duckStmt)(nil)
	_ driver.StmtExecContext    = (*duckStmt)(nil)
)

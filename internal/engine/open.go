package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/shell"
)

// DefaultConnectTimeout is how long a connection to a server may take unless told otherwise.
const DefaultConnectTimeout = 10 * time.Second

// timeoutConnector gives every new connection ConnectTimeout to be made, whatever the driver's own timeouts
// cover: a listener that accepts and never answers cannot hang a command.
type timeoutConnector struct {
	driver.Connector
	d time.Duration
}

func (c timeoutConnector) Connect(ctx context.Context) (driver.Conn, error) {
	deadline := time.Now().Add(c.d)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	ctx, h := withHandshake(ctx)
	conn, err := c.Connector.Connect(ctx)
	h.finish(err == nil)
	// the socket's deadline is the context's: its read may fail a moment before the context's timer ends it
	if err != nil && (ctx.Err() == context.DeadlineExceeded || !time.Now().Before(deadline)) {
		return nil, fmt.Errorf("no answer within %s (timeout)", c.d)
	}
	if err == nil {
		h.mu.Lock()
		if len(h.conns) > 0 {
			sockets.Store(conn, append([]net.Conn(nil), h.conns...))
		}
		h.mu.Unlock()
	}
	return conn, err
}

// openConnector opens a server engine's connector with the target's connect timeout.
func openConnector(t *Target, c driver.Connector) *sql.DB {
	d := t.ConnectTimeout
	if d <= 0 {
		d = DefaultConnectTimeout
	}
	return sql.OpenDB(timeoutConnector{c, d})
}

// besides names the database files of the same kind beside a missing one (the quickstart's
// dbdyno-quickstart.db beside the default dbdyno.db), as targets to give: "" when there are none. At most three,
// from one directory listing.
func besides(t *Target) string {
	ext := filepath.Ext(t.Path)
	if ext == "" {
		return ""
	}
	entries, err := os.ReadDir(filepath.Dir(t.Path))
	if err != nil {
		return ""
	}
	var found []string
	for _, e := range entries {
		if e.Type().IsRegular() && filepath.Ext(e.Name()) == ext && len(found) < 3 {
			p := filepath.Join(filepath.Dir(t.Path), e.Name())
			if filepath.Dir(t.Path) == "." {
				p = e.Name()
			}
			found = append(found, "--target "+shell.Quote(t.Engine.Name+"://"+p))
		}
	}
	if len(found) == 0 {
		return ""
	}
	return " (here: " + strings.Join(found, ", ") + ")"
}

// Open opens the target as a database/sql handle and checks that it answers. Every engine is opened this one
// way; PostgreSQL connections can be driven below database/sql with Pgx. An embedded engine creates a missing
// file, unless the target is Existing: then a missing file is refused and nothing is created.
func (t *Target) Open(ctx context.Context) (*sql.DB, error) {
	if t.Engine.Embedded && t.Existing {
		if _, err := os.Stat(t.Path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no database file at %s: build first, or check the path%s", t.Path, besides(t))
		}
	}
	if t.Engine.Embedded {
		if err := foreignFile(t); err != nil {
			return nil, err
		}
	}
	db, err := t.Engine.open(ctx, t)
	if err != nil {
		var pe *paramFileError
		if errors.As(err, &pe) {
			return nil, pe // already the one line that names the file
		}
		return nil, t.ConnectError(err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, t.ConnectError(err)
	}
	t.learn(ctx, db) // which product the server is, once (distributed.go)
	if err := t.checkSchema(ctx, db); err != nil {
		db.Close()
		return nil, err // connected: the schema is what is missing
	}
	return db, nil
}

// Beside returns the target of database name on the same server, creating that database when it is missing
// (side databases for tests and for workloads whose tables would collide). t's own database must exist.
func (t *Target) Beside(ctx context.Context, name string) (*Target, error) {
	b, _, err := t.beside(ctx, name)
	return b, err
}

// beside is Beside, and whether it created the database.
func (t *Target) beside(ctx context.Context, name string) (*Target, bool, error) {
	if t.Engine.Embedded {
		return nil, false, fmt.Errorf("%s has no server to hold another database", t.Engine.Name)
	}
	db, err := t.Open(ctx)
	if err != nil {
		return nil, false, err
	}
	defer db.Close()
	st := t.Engine.stmt("database_exists")
	create := strings.ReplaceAll(t.Engine.stmt("create_database").SQL, "{name}", ident(name))
	// Babelfish fails one of two CREATE DATABASE made at once with "tuple concurrently updated" (its catalog
	// row taken by the other): such a failure is tried again, a bounded number of times, after looking whether
	// the database came to be meanwhile.
	created := false
	for attempt := 1; ; attempt++ {
		var n int
		if err := db.QueryRowContext(ctx, st.SQL, st.Args([]any{name})...).Scan(&n); err != nil {
			return nil, false, err
		}
		if n > 0 {
			break
		}
		_, err := db.ExecContext(ctx, create)
		if err == nil {
			created = true
			break
		}
		if attempt == besideAttempts || !concurrentCatalog(err) {
			return nil, false, err
		}
		select {
		case <-ctx.Done():
			return nil, false, ctx.Err()
		case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
		}
	}
	return t.WithDatabase(name), created, nil
}

// CreateDatabase creates the target's database on its server when it is missing, from the engine's
// AdminDatabase (a build's --create-database: a SQL Server user has no T-SQL client to run CREATE DATABASE
// with), and says whether it did. An embedded engine's file is created by its open.
func (t *Target) CreateDatabase(ctx context.Context) (bool, error) {
	if t.Engine.Embedded || t.Database == "" {
		return false, nil
	}
	_, made, err := t.WithDatabase(t.Engine.AdminDatabase).beside(ctx, t.Database)
	if err != nil {
		return false, fmt.Errorf("creating database %s on %s:%d: %s", t.Engine.Ident(t.Database), t.Host, t.Port, t.Scrub(err.Error()))
	}
	return made, nil
}

// besideAttempts bounds the tries of a side database's CREATE DATABASE that met another at the same time.
const besideAttempts = 8

// concurrentCatalog reports a DDL statement refused because another changed the same catalog row at the
// same moment (PostgreSQL's and Babelfish's "tuple concurrently updated", or a serialization failure).
func concurrentCatalog(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "concurrently updated") || strings.Contains(msg, "could not serialize")
}

// fileKind tells an embedded engine's database file by its first bytes.
type fileKind struct {
	engine string // the engine's name
	is     func(head []byte) bool
	// empty says the engine makes its database in an empty file (SQLite); DuckDB refuses one
	empty bool
}

// fileKinds are the embedded engines' files: SQLite's header string (https://sqlite.org/fileformat.html), and
// DuckDB's main header, an 8-byte checksum and then the magic bytes "DUCK".
var fileKinds = []fileKind{
	{"sqlite", func(h []byte) bool { return strings.HasPrefix(string(h), "SQLite format 3\x00") }, true},
	{"duckdb", func(h []byte) bool { return len(h) >= 12 && string(h[8:12]) == "DUCK" }, false},
}

// foreignFile refuses, before the engine opens it, an embedded target's file that holds another engine's database
// or other data: DuckDB opened a JSON file as a database it never kept (a build said "built 86805 rows"), and
// attached a SQLite file through an extension. A missing file is the engine's to create, as is an empty one where
// the engine makes its database in it; a file that cannot be read is left to the engine's open to report.
func foreignFile(t *Target) error {
	var want *fileKind
	for i := range fileKinds {
		if fileKinds[i].engine == t.Engine.Name {
			want = &fileKinds[i]
		}
	}
	if want == nil {
		return nil
	}
	f, err := os.Open(t.Path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if st, err := f.Stat(); err != nil || st.IsDir() {
		return nil
	}
	switch {
	case n == 0 && want.empty, want.is(head):
		return nil
	case n == 0:
		return fmt.Errorf("%s is an empty file, which %s does not make a database in: give a %s file or a new path", t.Path, t.Engine.Title, t.Engine.Title)
	}
	what := "it holds other data"
	for _, k := range fileKinds {
		if e, ok := Lookup(k.engine); ok && k.is(head) {
			what = "it is a " + e.Title + " database"
		}
	}
	return fmt.Errorf("%s is not a %s database (%s): give a %s file or a new path", t.Path, t.Engine.Title, what, t.Engine.Title)
}

// paramFileError is a file that a target's URL parameter names and that is not there (a TLS certificate or key),
// worded as the one line that names it.
type paramFileError struct{ param, path, what string }

func (e *paramFileError) Error() string {
	return fmt.Sprintf("%s %s: no such file: give the %s's path", e.param, e.path, e.what)
}

// paramFile says the file of a URL parameter is missing (what it should be: "CA certificate"); nil when it is
// there, or when it cannot be told missing (the driver's own error then says why).
func paramFile(param, path, what string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return &paramFileError{param, path, what}
	}
	return nil
}

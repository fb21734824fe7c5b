package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"
	"time"
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

// Open opens the target as a database/sql handle and checks that it answers. Every engine is opened this one
// way; PostgreSQL connections can be driven below database/sql with Pgx. An embedded engine creates a missing
// file, unless the target is Existing: then a missing file is refused and nothing is created.
func (t *Target) Open(ctx context.Context) (*sql.DB, error) {
	if t.Engine.Embedded && t.Existing {
		if _, err := os.Stat(t.Path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no database file at %s: build first, or check the path", t.Path)
		}
	}
	db, err := t.Engine.open(ctx, t)
	if err != nil {
		return nil, t.ConnectError(err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, t.ConnectError(err)
	}
	t.learn(ctx, db) // which product the server is, once (distributed.go)
	return db, nil
}

// Beside returns the target of database name on the same server, creating that database when it is missing
// (side databases for tests and for workloads whose tables would collide). t's own database must exist.
func (t *Target) Beside(ctx context.Context, name string) (*Target, error) {
	if t.Engine.Embedded {
		return nil, fmt.Errorf("%s has no server to hold another database", t.Engine.Name)
	}
	db, err := t.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	st := t.Engine.stmt("database_exists")
	create := strings.ReplaceAll(t.Engine.stmt("create_database").SQL, "{name}", ident(name))
	// Babelfish fails one of two CREATE DATABASE made at once with "tuple concurrently updated" (its catalog
	// row taken by the other): such a failure is tried again, a bounded number of times, after looking whether
	// the database came to be meanwhile.
	for attempt := 1; ; attempt++ {
		var n int
		if err := db.QueryRowContext(ctx, st.SQL, st.Args([]any{name})...).Scan(&n); err != nil {
			return nil, err
		}
		if n > 0 {
			break
		}
		_, err := db.ExecContext(ctx, create)
		if err == nil {
			break
		}
		if attempt == besideAttempts || !concurrentCatalog(err) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
		}
	}
	return t.WithDatabase(name), nil
}

// besideAttempts bounds the tries of a side database's CREATE DATABASE that met another at the same time.
const besideAttempts = 8

// concurrentCatalog reports a DDL statement refused because another changed the same catalog row at the
// same moment (PostgreSQL's and Babelfish's "tuple concurrently updated", or a serialization failure).
func concurrentCatalog(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "concurrently updated") || strings.Contains(msg, "could not serialize")
}

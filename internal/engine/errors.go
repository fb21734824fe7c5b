package engine

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
)

// Class is what a driver error means to the code that got it.
type Class int

const (
	Other      Class = iota
	ConnLost         // the connection is gone: replace it
	Retryable        // deadlock, serialization failure, lock timeout: run the transaction again
	NotFound         // the object asked for does not exist
	AuthFailed       // the server refused the user or password
	NoDatabase       // the database named in the URL does not exist
	Schema           // a table, column or routine the statement needs is missing or has changed under it
	ReadOnly         // the database, file or transaction takes no writes
	Corrupt          // the engine found damaged data (a malformed page, a checksum, an I/O error reading it)
	Permission       // the user may not do this, or the file may not be opened
	Constraint       // a row broke a unique, foreign-key, not-null or check constraint
)

// classNames are the classes' names in results (a measurement's error_classes) and messages.
var classNames = map[Class]string{Other: "other", ConnLost: "connection_lost", Retryable: "serialization", NotFound: "not_found",
	AuthFailed: "auth_failed", NoDatabase: "no_database", Schema: "schema", ReadOnly: "read_only", Corrupt: "corruption",
	Permission: "permission", Constraint: "constraint"}

// String is the class's name as results record it ("schema", "read_only", "connection_lost" ...).
func (c Class) String() string {
	if n, ok := classNames[c]; ok {
		return n
	}
	return fmt.Sprintf("class%d", int(c))
}

// Fatal reports a class after which a run cannot go on measuring what it meant to: the schema is gone or
// changed, the database takes no writes, or its data is damaged. Its first error ends a run as failed.
func (c Class) Fatal() bool { return c == Schema || c == ReadOnly || c == Corrupt }

// Describe words what a class of error means to a DBA, for the message that ends a run.
func (c Class) Describe() string {
	switch c {
	case Schema:
		return "the schema is missing or changed under the run"
	case ReadOnly:
		return "the database takes no writes"
	case Corrupt:
		return "the database reports damaged data"
	case Permission:
		return "permission denied"
	case ConnLost:
		return "connection lost"
	case Retryable:
		return "serialization failure or deadlock"
	case Constraint:
		return "constraint violation"
	}
	return c.String()
}

// Classify says what a driver error means.
func (e *Engine) Classify(err error) Class {
	if err == nil {
		return Other
	}
	if c := e.classify(err); c != Other {
		return c
	}
	var netErr net.Error
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &netErr) ||
		errors.Is(err, sql.ErrConnDone) || errors.Is(err, net.ErrClosed) || errors.Is(err, ErrClosed) {
		return ConnLost
	}
	msg := err.Error()
	if strings.Contains(msg, "conn closed") || strings.Contains(msg, "bad connection") ||
		strings.Contains(msg, "connection reset") || strings.Contains(msg, "broken pipe") {
		return ConnLost
	}
	if errors.Is(err, sql.ErrNoRows) {
		return NotFound
	}
	return Other
}

// Raised returns the message of an error that dbdyno's own SQL raised on purpose (RAISE, SIGNAL).
func (e *Engine) Raised(err error) (string, bool) {
	if e.raised == nil || err == nil {
		return "", false
	}
	return e.raised(err)
}

// ConnectError explains a failed connection attempt in one line with the fix.
func (t *Target) ConnectError(err error) error {
	if t.Engine.Embedded {
		return fmt.Errorf("cannot open %s file %s: %s: check the path and its directory's permissions", t.Engine.Name, t.Path, t.Scrub(err.Error()))
	}
	where := fmt.Sprintf("%s at %s:%d", t.Engine.Name, t.Host, t.Port)
	msg := t.Scrub(err.Error())
	switch t.Engine.classify(err) {
	case AuthFailed:
		return fmt.Errorf("%s: %s for user %q: check the password in --target or %s", where, t.Engine.denied, t.User, PasswordEnv)
	case NoDatabase:
		return fmt.Errorf("%s: database %q does not exist: build with --create-database (dbdyno creates it), create it (CREATE DATABASE %s) or name another in --target", where, t.Database, t.Engine.Ident(t.Database))
	}
	switch {
	case strings.Contains(msg, "connection refused"):
		return fmt.Errorf("cannot connect to %s: connection refused: is the server running and listening there? check --target", where)
	case strings.Contains(msg, "no such host"):
		return fmt.Errorf("cannot connect to %s: unknown host %q: check --target", where, t.Host)
	case strings.Contains(msg, "timeout"):
		return fmt.Errorf("cannot connect to %s: timed out: check the host, port and firewall in --target (or give --connect-timeout more)", where)
	case strings.Contains(msg, "unexpected message") || strings.Contains(msg, "unknown message type") || strings.Contains(msg, "%!") || strings.Contains(msg, "malformed packet") ||
		strings.Contains(msg, "invalid packet") || strings.Contains(msg, "protocol"):
		return fmt.Errorf("cannot connect to %s: the server there does not answer as %s: is the port another server's? check --target", where, t.Engine.Title)
	}
	if i := strings.LastIndex(msg, ": "); i > 0 && len(msg) > 200 {
		msg = msg[i+2:]
	}
	return fmt.Errorf("cannot connect to %s: %s", where, msg)
}

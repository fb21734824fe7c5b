package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/pgfast"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

// Op is one statement of a Session's batch: an exec when Dest is nil, otherwise a single-row query whose
// missing row sets *Found (when set) or fails with ErrNoRow; Affected, when set, receives the rows it touched.
type Op = pgfast.Op

// ErrClosed is a call on a nil Session: a virtual user's whose reconnect failed (its rollbacks and Close do
// nothing).
var ErrClosed = errors.New("connection closed")

// ErrNoRow is a single-row query of a Session that found no row (and had no Op.Found to say so).
var ErrNoRow = pgfast.ErrNoRow

// Session is one connection with the statements of a set, run by name: the one way a virtual user talks to
// its database. The engine picks the path: on PostgreSQL's wire, pgfast (each statement prepared once under
// its name, text parameters and results, a batch and the BEGIN before it in one round trip, no goroutine per
// call); elsewhere database/sql, each statement prepared once on the pinned connection and a batch run
// statement by statement. The set must hold begin_write, commit and rollback (and begin_read for read-only
// transactions, where the engine has one; begin_write otherwise).
//
// A Session is also an engine.Queryer for statements outside its set (by text, in its transaction).
type Session struct {
	conn  *sql.Conn
	set   sqlfile.Set
	fast  *pgfast.Session // PostgreSQL's wire
	stmts map[string]*sql.Stmt
	texts map[string]*sql.Stmt // the Queryer's statements, by text
	cut   func()
	// End bounds a rollback (which must run even after the caller's context has ended); the runner sets its
	// end clock here. The default: 5 s past the caller's context.
	End func(ctx context.Context) (context.Context, context.CancelFunc)
}

// NewSession takes over conn (Close closes it) to run the statements of set.
func (e *Engine) NewSession(conn *sql.Conn, set sqlfile.Set) (*Session, error) {
	s := &Session{conn: conn, set: set, stmts: map[string]*sql.Stmt{}, texts: map[string]*sql.Stmt{}}
	if e.Wire == WirePostgres {
		f, err := pgfast.New(conn, set)
		if err != nil {
			return nil, err
		}
		s.fast, s.cut = f, f.Interrupt
		return s, nil
	}
	s.cut = Interrupter(conn)
	return s, nil
}

// Pipelined says whether BEGIN travels with the transaction's first statements and a batch is one round trip.
func (s *Session) Pipelined() bool { return s != nil && s.fast != nil }

func (s *Session) statement(name string) *sqlfile.Statement {
	st, ok := s.set[name]
	if !ok {
		panic("engine: statement " + name + " missing from the statement file") // a programming error
	}
	return st
}

func (s *Session) prepared(ctx context.Context, name string) (*sql.Stmt, *sqlfile.Statement, error) {
	st := s.statement(name)
	if p, ok := s.stmts[name]; ok {
		return p, st, nil
	}
	p, err := s.conn.PrepareContext(ctx, st.SQL)
	if err != nil {
		return nil, nil, fmt.Errorf("prepare %s: %w", name, err)
	}
	s.stmts[name] = p
	return p, st, nil
}

// Prepare prepares the named statements now (they are otherwise prepared on first use): a caller that wants
// a statement's error before its first run.
func (s *Session) Prepare(ctx context.Context, names ...string) error {
	if s == nil {
		return ErrClosed
	}
	for _, name := range names {
		var err error
		if s.fast != nil {
			err = s.fast.Prepare(ctx, name)
		} else {
			_, _, err = s.prepared(ctx, name)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Begin starts a transaction (on PostgreSQL's wire its BEGIN travels with the next statements).
func (s *Session) Begin(ctx context.Context, readOnly bool) error {
	if s == nil {
		return ErrClosed
	}
	if s.fast != nil {
		s.fast.Begin()
		return nil
	}
	name := "begin_write"
	if _, ok := s.set["begin_read"]; readOnly && ok {
		name = "begin_read"
	}
	_, err := s.conn.ExecContext(ctx, s.statement(name).SQL)
	return err
}

// Commit commits the transaction.
func (s *Session) Commit(ctx context.Context) error {
	if s == nil {
		return ErrClosed
	}
	if s.fast != nil {
		return s.fast.Commit(ctx)
	}
	_, err := s.conn.ExecContext(ctx, s.statement("commit").SQL)
	return err
}

// Rollback ends the transaction without its changes, even after ctx has ended (bounded by End).
func (s *Session) Rollback(ctx context.Context) error {
	if s == nil {
		return nil
	}
	end := s.End
	if end == nil {
		end = func(ctx context.Context) (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		}
	}
	ctx, cancel := end(ctx)
	defer cancel()
	if s.fast != nil {
		return s.fast.Rollback(ctx)
	}
	_, err := s.conn.ExecContext(ctx, s.statement("rollback").SQL)
	return err
}

// Batch runs ops in order, in one round trip on PostgreSQL's wire (where the statements after a failed one are
// skipped); the error names the first that failed.
func (s *Session) Batch(ctx context.Context, ops ...Op) error {
	if s == nil {
		return ErrClosed
	}
	if s.fast != nil {
		return s.fast.Send(ctx, false, ops...)
	}
	for i := range ops {
		o := &ops[i]
		p, st, err := s.prepared(ctx, o.Name)
		if err != nil {
			return err
		}
		if o.Dest == nil {
			r, err := p.ExecContext(ctx, st.Args(o.Args)...)
			if err != nil {
				return fmt.Errorf("%s: %w", o.Name, err)
			}
			if o.Affected != nil {
				if *o.Affected, err = r.RowsAffected(); err != nil {
					return fmt.Errorf("%s: %w", o.Name, err)
				}
			}
			continue
		}
		if err := o.Row(p.QueryRowContext(ctx, st.Args(o.Args)...).Scan(o.Dest...)); err != nil {
			return err
		}
	}
	return nil
}

// BatchCommit runs ops and commits, in one round trip on PostgreSQL's wire.
func (s *Session) BatchCommit(ctx context.Context, ops ...Op) error {
	if s == nil {
		return ErrClosed
	}
	if s.fast != nil {
		return s.fast.Send(ctx, true, ops...)
	}
	if err := s.Batch(ctx, ops...); err != nil {
		return err
	}
	return s.Commit(ctx)
}

// Exec runs one statement and returns the rows it touched.
func (s *Session) Exec(ctx context.Context, name string, args ...any) (int64, error) {
	var n int64
	err := s.Batch(ctx, Op{Name: name, Args: args, Affected: &n})
	return n, err
}

// One scans a statement's single row into dest; found is false when there was none.
func (s *Session) One(ctx context.Context, name string, args []any, dest ...any) (found bool, err error) {
	err = s.Batch(ctx, Op{Name: name, Args: args, Dest: dest, Found: &found})
	return found, err
}

// Query runs a statement and calls each for every row, after scanning it into dest (*int, *int64, *float64,
// *string, *bool, *any; a NULL number reads as 0).
func (s *Session) Query(ctx context.Context, name string, args []any, dest []any, each func() error) error {
	if s == nil {
		return ErrClosed
	}
	if s.fast != nil {
		return s.fast.Query(ctx, name, args, dest, each)
	}
	return s.eachRow(ctx, name, args, func(rows *sql.Rows) error {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		return each()
	})
}

// eachRow runs a statement of the set on database/sql's path and calls row for every row of its result; an
// error is named by the statement.
func (s *Session) eachRow(ctx context.Context, name string, args []any, row func(*sql.Rows) error) error {
	p, st, err := s.prepared(ctx, name)
	if err != nil {
		return err
	}
	rows, err := p.QueryContext(ctx, st.Args(args)...)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Values runs a statement and calls each for every row with its values, for a caller that does not know the
// columns before it reads them: on PostgreSQL's wire each as text (a string, nil for NULL), elsewhere as the
// driver gives them (bytes as a string). vals is valid only during the call.
func (s *Session) Values(ctx context.Context, name string, args []any, each func(vals []any) error) error {
	if s == nil {
		return ErrClosed
	}
	if s.fast != nil {
		var row []any
		return s.fast.QueryText(ctx, name, args, func(vals [][]byte) error {
			row = row[:0]
			for _, v := range vals {
				if v == nil {
					row = append(row, nil)
				} else {
					row = append(row, string(v))
				}
			}
			return each(row)
		})
	}
	var vals, ptrs []any
	return s.eachRow(ctx, name, args, func(rows *sql.Rows) error {
		if ptrs == nil { // the columns, once
			cols, err := rows.Columns()
			if err != nil {
				return err
			}
			vals, ptrs = make([]any, len(cols)), make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				vals[i] = string(b)
			}
		}
		return each(vals)
	})
}

// Count runs a statement and returns the number of rows of its result, reading them to the end.
func (s *Session) Count(ctx context.Context, name string, args ...any) (int64, error) {
	if s == nil {
		return 0, ErrClosed
	}
	var n int64
	if s.fast != nil {
		err := s.fast.QueryText(ctx, name, args, func([][]byte) error { n++; return nil })
		return n, err
	}
	// the driver has read and decoded each row: it is not copied again
	err := s.eachRow(ctx, name, args, func(*sql.Rows) error { n++; return nil })
	return n, err
}

// SQL is the database/sql side of the session's connection, for statements outside its set (a test's
// transaction of its own on the virtual user's connection).
func (s *Session) SQL() *sql.Conn {
	if s.fast != nil {
		return s.fast.SQL()
	}
	return s.conn
}

func (s *Session) text(ctx context.Context, query string) (*sql.Stmt, error) {
	if p, ok := s.texts[query]; ok {
		return p, nil
	}
	p, err := s.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s.texts[query] = p
	return p, nil
}

// QueryContext runs a statement outside the set by its text, in the session's transaction (prepared once on
// database/sql's path).
func (s *Session) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s.fast != nil {
		return s.SQL().QueryContext(ctx, query, args...)
	}
	p, err := s.text(ctx, query)
	if err != nil {
		return nil, err
	}
	return p.QueryContext(ctx, args...)
}

// QueryRowContext is QueryContext's single row.
func (s *Session) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s.fast != nil {
		return s.SQL().QueryRowContext(ctx, query, args...)
	}
	p, err := s.text(ctx, query)
	if err != nil {
		return s.conn.QueryRowContext(ctx, query, args...) // unprepared: its error (a *sql.Row carries no other)
	}
	return p.QueryRowContext(ctx, args...)
}

// ExecContext is QueryContext's exec.
func (s *Session) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s.fast != nil {
		return s.SQL().ExecContext(ctx, query, args...)
	}
	p, err := s.text(ctx, query)
	if err != nil {
		return nil, err
	}
	return p.ExecContext(ctx, args...)
}

var _ Queryer = (*Session)(nil)

// Interrupter is what closes the connection from another goroutine, so that a call in flight (on a server
// that stopped answering) fails at once; nil where the driver gives no way to.
func (s *Session) Interrupter() func() {
	if s == nil {
		return nil
	}
	return s.cut
}

// Close closes the statements and the connection (database/sql discards a connection pgfast closed).
func (s *Session) Close() {
	if s == nil {
		return
	}
	if s.fast != nil {
		s.fast.Close()
		return
	}
	for _, p := range s.stmts {
		p.Close()
	}
	for _, p := range s.texts {
		p.Close()
	}
	Discard(s.conn)
}

// Discard closes conn's connection instead of returning it to its pool: a virtual user's connection is its
// own, and one closed after an error (a reconnect) may hold a transaction that was never ended, which the
// next user of a pooled connection would join and commit.
func Discard(conn *sql.Conn) {
	conn.Raw(func(any) error { return driver.ErrBadConn }) // database/sql closes a connection its Raw call finds bad
	conn.Close()
}

package tpcc

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/pgfast"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/method/runner"
)

// op is one statement of a batch (pgfast.Op: an exec, or a single-row query whose row may be missing).
type op = pgfast.Op

// session is one virtual user's connection with the statements of a dialect. The transaction code is written
// once against it; pgx sends a batch in one round trip, database/sql runs it statement by statement.
type session interface {
	begin(ctx context.Context, readOnly bool) error
	commit(ctx context.Context) error
	rollback(ctx context.Context) error
	batch(ctx context.Context, ops ...op) error
	// batchCommit runs ops and commits, in one round trip where the driver allows.
	batchCommit(ctx context.Context, ops ...op) error
	query(ctx context.Context, name string, args []any, dest []any, each func() error) error
	// interrupter closes the connection from another goroutine (nil: no way to).
	interrupter() func()
	close()
}

// errNotFound is a single-row query that found no row.
var errNotFound = pgfast.ErrNoRow

// --- PostgreSQL through pgfast (pgconn, text parameters, batches in one round trip) ---

type pgSession struct{ s *pgfast.Session }

func (p pgSession) begin(ctx context.Context, readOnly bool) error { p.s.Begin(); return nil }
func (p pgSession) commit(ctx context.Context) error               { return p.s.Commit(ctx) }
func (p pgSession) rollback(ctx context.Context) error             { return p.s.Rollback(ctx) }
func (p pgSession) batch(ctx context.Context, ops ...op) error     { return p.s.Send(ctx, false, ops...) }
func (p pgSession) batchCommit(ctx context.Context, ops ...op) error {
	return p.s.Send(ctx, true, ops...)
}
func (p pgSession) query(ctx context.Context, name string, args []any, dest []any, each func() error) error {
	return p.s.Query(ctx, name, args, dest, each)
}
func (p pgSession) close()              { p.s.Close() }
func (p pgSession) interrupter() func() { return p.s.Interrupt }

// --- SQLite and MySQL through database/sql, statements prepared on one pinned connection ---

type sqlSession struct {
	cut   func()
	conn  *sql.Conn
	set   sqlfile.Set
	stmts map[string]*sql.Stmt
}

func newSQLSession(conn *sql.Conn, set sqlfile.Set) *sqlSession {
	return &sqlSession{conn: conn, set: set, stmts: map[string]*sql.Stmt{}, cut: engine.Interrupter(conn)}
}

func (s *sqlSession) stmt(ctx context.Context, name string) (*sql.Stmt, *sqlfile.Statement, error) {
	st, ok := s.set[name]
	if !ok {
		panic("tpcc: statement " + name + " missing from the statement file") // programming error
	}
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

// begin starts a transaction with the dialect's statement (BEGIN IMMEDIATE on SQLite for writers, so they
// queue for the lock instead of deadlocking).
func (s *sqlSession) begin(ctx context.Context, readOnly bool) error {
	q := s.set["begin_write"].SQL
	if readOnly {
		q = s.set["begin_read"].SQL
	}
	_, err := s.conn.ExecContext(ctx, q)
	return err
}
func (s *sqlSession) commit(ctx context.Context) error {
	_, err := s.conn.ExecContext(ctx, s.set["commit"].SQL)
	return err
}
func (s *sqlSession) rollback(ctx context.Context) error {
	ctx, cancel := runner.EndContext(ctx) // even after the run's end, but bounded
	defer cancel()
	_, err := s.conn.ExecContext(ctx, s.set["rollback"].SQL)
	return err
}

func (s *sqlSession) interrupter() func() { return s.cut }

func (s *sqlSession) batch(ctx context.Context, ops ...op) error {
	for i := range ops {
		o := &ops[i]
		p, st, err := s.stmt(ctx, o.Name)
		if err != nil {
			return err
		}
		if o.Dest == nil {
			if _, err := p.ExecContext(ctx, st.Args(o.Args)...); err != nil {
				return fmt.Errorf("%s: %w", o.Name, err)
			}
			continue
		}
		if err := o.Row(p.QueryRowContext(ctx, st.Args(o.Args)...).Scan(o.Dest...)); err != nil {
			return err
		}
	}
	return nil
}

func (s *sqlSession) batchCommit(ctx context.Context, ops ...op) error {
	if err := s.batch(ctx, ops...); err != nil {
		return err
	}
	return s.commit(ctx)
}

func (s *sqlSession) query(ctx context.Context, name string, args []any, dest []any, each func() error) error {
	p, st, err := s.stmt(ctx, name)
	if err != nil {
		return err
	}
	rows, err := p.QueryContext(ctx, st.Args(args)...)
	return eachRow(rows, err, dest, each)
}

// eachRow scans every row of a query's result (or returns the query's error) into dest and calls each after it.
func eachRow(rows *sql.Rows, err error, dest []any, each func() error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if err := each(); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (s *sqlSession) close() {
	for _, p := range s.stmts {
		p.Close()
	}
	s.conn.Close()
}

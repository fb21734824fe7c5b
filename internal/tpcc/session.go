package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/dbdyno/dbdyno/internal/sqlfile"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// op is one statement of a batch: an exec when dest is nil, otherwise a single-row query. A query whose row
// may be missing sets *found instead of failing.
type op struct {
	name  string
	args  []any
	dest  []any
	found *bool
}

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
	close()
}

var errNotFound = errors.New("no row")

// --- PostgreSQL through pgx ---

type pgSession struct {
	conn *pgx.Conn
	sqlc *sql.Conn // the database/sql connection conn belongs to
	set  sqlfile.Set
	// pending: BEGIN not sent yet. It travels in front of the transaction's first batch, saving a round trip.
	pending bool
	// calm's state: the context watched and how to stop watching it
	watched   context.Context
	stopWatch func() bool
	// statements and buffers of pgraw.go
	prepared map[string]*pgconn.StatementDescription
	params   [][]byte
	buf      []byte
	offs     [][2]int
	b        pgconn.Batch
	batchOps []op
}

func (s *pgSession) sql(name string) string {
	st, ok := s.set[name]
	if !ok {
		panic("tpcc: statement " + name + " missing from the postgres statement file") // programming error
	}
	return st.SQL
}

// calm returns the context to give pgx. For a cancellable context pgx starts a goroutine per call to watch it,
// and ends it after the call: two goroutine switches per round trip, a large part of the driver's CPU on a
// small machine. So pgx gets a context that is never cancelled, and the session watches the run's context once:
// when it ends, the socket's deadline is moved to the past, which ends a call in flight as cancelling it would.
//
// A session that moves on to another context (a check after the run, a reconnect) stops watching the old one,
// and when that one had already ended, clears the deadline it left on the socket.
func (s *pgSession) calm(ctx context.Context) context.Context {
	if ctx == s.watched {
		return context.Background()
	}
	if s.stopWatch != nil {
		if !s.stopWatch() { // the old context ended: its deadline is on the socket
			s.conn.PgConn().Conn().SetDeadline(time.Time{})
		}
		s.watched, s.stopWatch = nil, nil
	}
	if ctx.Done() == nil {
		return ctx
	}
	nc := s.conn.PgConn().Conn()
	s.watched = ctx
	s.stopWatch = context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	return context.Background()
}

func (s *pgSession) begin(ctx context.Context, readOnly bool) error {
	s.pending = true
	return nil
}
func (s *pgSession) commit(ctx context.Context) error {
	ctx = s.calm(ctx)
	if s.pending {
		s.pending = false
		return nil
	}
	o := opCommit
	return s.call(ctx, &o)
}
func (s *pgSession) rollback(ctx context.Context) error {
	if s.pending {
		s.pending = false
		return nil
	}
	if s.conn.IsClosed() {
		return nil
	}
	_, err := s.conn.Exec(s.calm(ctx), s.sql("rollback"))
	return err
}

func (s *pgSession) batch(ctx context.Context, ops ...op) error { return s.send(ctx, false, ops) }

func (s *pgSession) batchCommit(ctx context.Context, ops ...op) error { return s.send(ctx, true, ops) }

func (s *pgSession) send(ctx context.Context, commit bool, ops []op) error {
	ctx = s.calm(ctx)
	if len(ops) == 1 && !commit && !s.pending {
		return s.call(ctx, &ops[0])
	}
	return s.pipeline(ctx, commit, ops)
}

func scanRow(o *op, err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		if o.found != nil {
			*o.found = false
			return nil
		}
		return fmt.Errorf("%s: %w", o.name, errNotFound)
	}
	if o.found != nil && err == nil {
		*o.found = true
	}
	if err != nil {
		return fmt.Errorf("%s: %w", o.name, err)
	}
	return nil
}

func (s *pgSession) query(ctx context.Context, name string, args []any, dest []any, each func() error) error {
	ctx = s.calm(ctx)
	if s.pending {
		o := opBegin
		if err := s.call(ctx, &o); err != nil {
			return err
		}
		s.pending = false
	}
	return s.rows(ctx, name, args, dest, each)
}

func (s *pgSession) close() {
	if s.stopWatch != nil {
		s.stopWatch()
	}
	s.conn.Close(context.Background())
	s.sqlc.Close() // database/sql finds the connection closed and discards it
}

// --- SQLite and MySQL through database/sql, statements prepared on one pinned connection ---

type sqlSession struct {
	conn  *sql.Conn
	set   sqlfile.Set
	stmts map[string]*sql.Stmt
}

func newSQLSession(conn *sql.Conn, set sqlfile.Set) *sqlSession {
	return &sqlSession{conn: conn, set: set, stmts: map[string]*sql.Stmt{}}
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
	_, err := s.conn.ExecContext(context.WithoutCancel(ctx), s.set["rollback"].SQL)
	return err
}

func (s *sqlSession) batch(ctx context.Context, ops ...op) error {
	for i := range ops {
		o := &ops[i]
		p, st, err := s.stmt(ctx, o.name)
		if err != nil {
			return err
		}
		if o.dest == nil {
			if _, err := p.ExecContext(ctx, st.Args(o.args)...); err != nil {
				return fmt.Errorf("%s: %w", o.name, err)
			}
			continue
		}
		if err := scanRow(o, p.QueryRowContext(ctx, st.Args(o.args)...).Scan(o.dest...)); err != nil {
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

package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/dbdyno/dbdyno/internal/sqlfile"
	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
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
func (s *pgSession) calm(ctx context.Context) context.Context {
	if ctx.Done() == nil {
		return ctx
	}
	if ctx != s.watched {
		if s.stopWatch != nil {
			s.stopWatch()
		}
		nc := s.conn.PgConn().Conn()
		s.watched = ctx
		s.stopWatch = context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)) })
	}
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
	_, err := s.conn.Exec(s.calm(ctx), "ROLLBACK")
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
}

// --- SQLite and MySQL through database/sql, statements prepared on one pinned connection ---

type sqlSession struct {
	conn   *sql.Conn
	set    sqlfile.Set
	stmts  map[string]*sql.Stmt
	begin_ string // BEGIN IMMEDIATE on SQLite: writers queue for the lock instead of deadlocking
}

func newSQLSession(ctx context.Context, conn *sql.Conn, set sqlfile.Set, beginSQL string) (*sqlSession, error) {
	s := &sqlSession{conn: conn, set: set, stmts: map[string]*sql.Stmt{}, begin_: beginSQL}
	return s, nil
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

func (s *sqlSession) begin(ctx context.Context, readOnly bool) error {
	q := s.begin_
	if readOnly {
		q = "BEGIN"
	}
	_, err := s.conn.ExecContext(ctx, q)
	return err
}
func (s *sqlSession) commit(ctx context.Context) error {
	_, err := s.conn.ExecContext(ctx, "COMMIT")
	return err
}
func (s *sqlSession) rollback(ctx context.Context) error {
	_, err := s.conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
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

// --- error classes ---

// isRetryable reports a serialization failure, deadlock or lock timeout: the transaction is retried.
func isRetryable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "40001" || pgErr.Code == "40P01" || pgErr.Code == "55P03"
	}
	var myErr *mysql.MySQLError
	if errors.As(err, &myErr) {
		return myErr.Number == 1213 || myErr.Number == 1205
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		c := sqErr.Code() & 0xff
		return c == 5 || c == 6 // SQLITE_BUSY, SQLITE_LOCKED
	}
	return false
}

// isConnLost reports an error after which the connection cannot be used again.
func isConnLost(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, errClosed) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// admin_shutdown (pg_terminate_backend), crash_shutdown, cannot_connect_now, connection exceptions
		return pgErr.Code == "57P01" || pgErr.Code == "57P02" || pgErr.Code == "57P03" || strings.HasPrefix(pgErr.Code, "08")
	}
	var myErr *mysql.MySQLError
	if errors.As(err, &myErr) {
		return myErr.Number == 1927 || myErr.Number == 1053 || myErr.Number == 2006 || myErr.Number == 2013 || myErr.Number == 4031
	}
	var netErr net.Error
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, mysql.ErrInvalidConn) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.As(err, &netErr) || errors.Is(err, sql.ErrConnDone) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "conn closed") || strings.Contains(msg, "bad connection") ||
		strings.Contains(msg, "connection reset") || strings.Contains(msg, "broken pipe") || pgconn.Timeout(err)
}

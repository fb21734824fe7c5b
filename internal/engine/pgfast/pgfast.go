// Package pgfast is engine.Session's path on PostgreSQL's wire: it drives a PostgreSQL connection by the shortest path pgx offers, for the OLTP workloads'
// virtual users (which reach it only through engine.Session): each statement of a statement set prepared once per connection under its name, executed with
// text-encoded parameters and its text results parsed straight into the destinations, without a Describe and
// without per-call allocations. Statements that belong together travel in pgconn batches (one round trip per
// batch, BEGIN and COMMIT included). This keeps the driver's own CPU per transaction small, so that on a
// shared machine it takes as little as possible from the database under test.
package pgfast

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// Op is one statement of a batch: an exec when Dest is nil, otherwise a single-row query. A query whose row
// may be missing sets *Found instead of failing. Affected, when set, receives the rows the statement touched.
type Op struct {
	Name     string
	Args     []any
	Dest     []any
	Found    *bool
	Affected *int64
}

// ErrNoRow is a single-row query that found no row (and had no Found to say so).
var ErrNoRow = errors.New("no row")

// Row applies the single-row rule to the error of reading o's row (sql.ErrNoRows when there was none), for
// every driver: no row sets *Found or fails with ErrNoRow; the error names the statement.
func (o *Op) Row(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		if o.Found != nil {
			*o.Found = false
			return nil
		}
		return fmt.Errorf("%s: %w", o.Name, ErrNoRow)
	}
	if o.Found != nil && err == nil {
		*o.Found = true
	}
	if err != nil {
		return fmt.Errorf("%s: %w", o.Name, err)
	}
	return nil
}

// The statements a session's set must have for transaction control.
const (
	beginName    = "begin_write"
	commitName   = "commit"
	rollbackName = "rollback"
)

// Session is one virtual user's PostgreSQL connection with the statements of a set. BEGIN is sent in front
// of the transaction's first statements (Begin only marks it pending), saving a round trip.
type Session struct {
	conn *pgx.Conn
	sqlc *sql.Conn // the database/sql connection conn belongs to
	set  sqlfile.Set
	// pending: BEGIN not sent yet
	pending bool
	// Calm's state: the context watched and how to stop watching it
	watched   context.Context
	stopWatch func() bool
	watchDone chan struct{} // closed once the watched context's deadline is on the socket
	// prepared statements and reused buffers
	prepared map[string]*pgconn.StatementDescription
	params   [][]byte
	buf      []byte
	offs     [][2]int
	b        pgconn.Batch
	batchOps []Op
}

// New takes over a PostgreSQL connection of database/sql; Close returns it (closed) to the pool.
func New(conn *sql.Conn, set sqlfile.Set) (*Session, error) {
	pc, err := Pgx(conn)
	if err != nil {
		return nil, err
	}
	return &Session{conn: pc, sqlc: conn, set: set}, nil
}

// Pgx is the pgx connection under a database/sql connection of pgx's stdlib driver.
func Pgx(c *sql.Conn) (*pgx.Conn, error) {
	var pc *pgx.Conn
	err := c.Raw(func(dc any) error {
		s, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("not a PostgreSQL connection: %T", dc)
		}
		pc = s.Conn()
		return nil
	})
	return pc, err
}

func (s *Session) sql(name string) string {
	st, ok := s.set[name]
	if !ok {
		panic("pgfast: statement " + name + " missing from the statement file") // programming error
	}
	return st.SQL
}

// calm returns the context to give pgx. For a cancellable context pgx starts a goroutine per call to watch it,
// and ends it after the call: two goroutine switches per round trip, a large part of the driver's CPU on a
// small machine. So pgx gets a context that is never cancelled, and the session watches the caller's context
// once: when it ends, the socket's deadline is moved to the past, which ends a call in flight as cancelling it
// would.
//
// A session that moves on to another context (a check after the run, a reconnect) stops watching the old one,
// and when that one had already ended, clears the deadline it left on the socket.
func (s *Session) calm(ctx context.Context) context.Context {
	if ctx == s.watched {
		return context.Background()
	}
	if s.stopWatch != nil {
		if !s.stopWatch() { // the old context ended: its deadline is on the socket, or about to be
			<-s.watchDone
			s.conn.PgConn().Conn().SetDeadline(time.Time{})
		}
		s.watched, s.stopWatch = nil, nil
	}
	if ctx.Done() == nil {
		return ctx
	}
	nc := s.conn.PgConn().Conn()
	done := make(chan struct{})
	s.watched, s.watchDone = ctx, done
	s.stopWatch = context.AfterFunc(ctx, func() { nc.SetDeadline(time.Unix(1, 0)); close(done) })
	return context.Background()
}

// Prepare prepares a statement of the set now (it is otherwise prepared on first use).
func (s *Session) Prepare(ctx context.Context, name string) error {
	_, err := s.stmt(s.calm(ctx), name)
	return err
}

// Begin starts a transaction: its BEGIN travels with the next statements.
func (s *Session) Begin() { s.pending = true }

// Commit commits the transaction (nothing to send when it never started).
func (s *Session) Commit(ctx context.Context) error {
	ctx = s.calm(ctx)
	if s.pending {
		s.pending = false
		return nil
	}
	return s.call(ctx, &Op{Name: commitName})
}

// Rollback ends the transaction without its changes.
func (s *Session) Rollback(ctx context.Context) error {
	if s.pending {
		s.pending = false
		return nil
	}
	if s.conn.IsClosed() {
		return nil
	}
	_, err := s.conn.Exec(s.calm(ctx), s.sql(rollbackName))
	return err
}

// Send runs ops in one round trip (after BEGIN when a transaction is pending), followed by COMMIT when commit
// is set. The statements after a failed one are skipped by the server; the error names the first.
func (s *Session) Send(ctx context.Context, commit bool, ops ...Op) error {
	ctx = s.calm(ctx)
	if len(ops) == 1 && !commit && !s.pending {
		return s.call(ctx, &ops[0])
	}
	return s.pipeline(ctx, commit, ops)
}

// Exec runs one statement and returns the rows it touched.
func (s *Session) Exec(ctx context.Context, name string, args ...any) (int64, error) {
	var n int64
	err := s.Send(ctx, false, Op{Name: name, Args: args, Affected: &n})
	return n, err
}

// Query runs a query and calls each for every row, after scanning it into dest.
func (s *Session) Query(ctx context.Context, name string, args []any, dest []any, each func() error) error {
	return s.QueryText(ctx, name, args, func(vals [][]byte) error {
		if err := ScanText(vals, dest); err != nil {
			return err
		}
		return each()
	})
}

// QueryText runs a query and calls each for every row with its values as text (nil for NULL), valid only
// during the call: for a caller that does not know the columns before it reads them. A pending BEGIN travels
// in the same round trip.
func (s *Session) QueryText(ctx context.Context, name string, args []any, each func(vals [][]byte) error) error {
	return s.rows(s.calm(ctx), name, args, each)
}

// SQL is the session's connection through database/sql, for statements outside its set (a test's reads in the
// session's transaction): first the deadline a context the session watched left on the socket when it ended
// is cleared, as the session's next call would.
func (s *Session) SQL() *sql.Conn {
	s.calm(context.Background())
	return s.sqlc
}

// Interrupt closes the connection's socket: a call in flight (on a server that stopped answering) fails at once.
// It is safe to call from another goroutine while the session is in use; Close still releases the session.
func (s *Session) Interrupt() { s.conn.PgConn().Conn().Close() }

// Close closes the connection and stops watching the last context.
func (s *Session) Close() {
	if s.stopWatch != nil {
		s.stopWatch()
	}
	s.conn.Close(context.Background())
	s.sqlc.Close() // database/sql finds the connection closed and discards it
}

// stmt returns the prepared statement of a name, preparing it on first use.
func (s *Session) stmt(ctx context.Context, name string) (*pgconn.StatementDescription, error) {
	if sd, ok := s.prepared[name]; ok {
		return sd, nil
	}
	if s.prepared == nil {
		s.prepared = map[string]*pgconn.StatementDescription{}
	}
	sd, err := s.conn.PgConn().Prepare(ctx, name, s.sql(name), nil)
	if err != nil {
		return nil, fmt.Errorf("prepare %s: %w", name, err)
	}
	s.prepared[name] = sd
	return sd, nil
}

// encode writes a statement's arguments as text parameters (nil is NULL). The slices stay valid until the next encode.
func (s *Session) encode(name string, args []any) ([][]byte, error) {
	params := s.params[:0]
	buf := s.buf[:0]
	offs := s.offs[:0]
	for _, a := range args {
		start := len(buf)
		switch v := a.(type) {
		case nil:
			offs = append(offs, [2]int{-1, -1}) // NULL
			continue
		case int:
			buf = strconv.AppendInt(buf, int64(v), 10)
		case int64:
			buf = strconv.AppendInt(buf, v, 10)
		case float64:
			buf = strconv.AppendFloat(buf, v, 'f', -1, 64)
		case bool:
			buf = strconv.AppendBool(buf, v)
		case string:
			buf = append(buf, v...)
		case time.Time:
			buf = v.AppendFormat(buf, "2006-01-02 15:04:05.999999")
		case []int32:
			buf = appendArray(buf, v)
		case []int64:
			buf = appendArray(buf, v)
		default:
			return nil, fmt.Errorf("%s: cannot send a %T", name, a)
		}
		offs = append(offs, [2]int{start, len(buf)})
	}
	for _, r := range offs {
		if r[0] < 0 {
			params = append(params, nil)
			continue
		}
		params = append(params, buf[r[0]:r[1]])
	}
	s.params, s.buf, s.offs = params, buf, offs
	return params, nil
}

// appendArray writes an integer array in PostgreSQL's text form.
func appendArray[T int32 | int64](buf []byte, v []T) []byte {
	buf = append(buf, '{')
	for i, x := range v {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(x), 10)
	}
	return append(buf, '}')
}

// result reads one statement's result: the first row into o.Dest, by Op.Row's rule.
func result(rr *pgconn.ResultReader, o *Op) error {
	rows := 0
	var scanErr error
	for rr.NextRow() {
		rows++
		if rows == 1 && o.Dest != nil {
			scanErr = ScanText(rr.Values(), o.Dest)
		}
	}
	tag, err := rr.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", o.Name, err)
	}
	if o.Affected != nil {
		*o.Affected = tag.RowsAffected()
	}
	if o.Dest == nil {
		return nil
	}
	if scanErr == nil && rows == 0 {
		scanErr = sql.ErrNoRows
	}
	return o.Row(scanErr)
}

// bind returns a statement's prepared description and its arguments as text parameters.
func (s *Session) bind(ctx context.Context, name string, args []any) (*pgconn.StatementDescription, [][]byte, error) {
	sd, err := s.stmt(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	params, err := s.encode(name, args)
	return sd, params, err
}

// call runs one statement on its own (no transaction control in the same round trip).
func (s *Session) call(ctx context.Context, o *Op) error {
	sd, params, err := s.bind(ctx, o.Name, o.Args)
	if err != nil {
		return err
	}
	return result(s.conn.PgConn().ExecStatement(ctx, sd, params, nil, nil), o)
}

// pipeline runs ops in one round trip, after BEGIN when the transaction has not started and followed by COMMIT
// when commit is set.
func (s *Session) pipeline(ctx context.Context, commit bool, ops []Op) error {
	all := s.batchOps[:0]
	if s.pending {
		all = append(all, Op{Name: beginName})
	}
	all = append(all, ops...)
	if commit {
		all = append(all, Op{Name: commitName})
	}
	s.batchOps = all
	b := &s.b
	*b = pgconn.Batch{}
	for i := range all {
		sd, params, err := s.bind(ctx, all[i].Name, all[i].Args)
		if err != nil {
			return err
		}
		b.ExecStatement(sd, params, nil, nil)
	}
	s.pending = false
	mrr := s.conn.PgConn().ExecBatch(ctx, b)
	var first error
	i := 0
	for ; mrr.NextResult(); i++ {
		if err := result(mrr.ResultReader(), &all[i]); err != nil && first == nil {
			first = err
		}
	}
	if err := mrr.Close(); err != nil && first == nil {
		first = err
		if i < len(all) { // the statement whose result was due when the server refused
			first = fmt.Errorf("%s: %w", all[i].Name, err)
		}
	}
	return first
}

// rows runs a query and calls each for every row's values, after BEGIN in the same round trip when the
// transaction is pending.
func (s *Session) rows(ctx context.Context, name string, args []any, each func(vals [][]byte) error) error {
	var rr *pgconn.ResultReader
	var mrr *pgconn.MultiResultReader
	if s.pending {
		b := &s.b
		*b = pgconn.Batch{}
		sd, params, err := s.bind(ctx, beginName, nil)
		if err != nil {
			return err
		}
		b.ExecStatement(sd, params, nil, nil)
		if sd, params, err = s.bind(ctx, name, args); err != nil {
			return err
		}
		b.ExecStatement(sd, params, nil, nil)
		s.pending = false
		mrr = s.conn.PgConn().ExecBatch(ctx, b)
		if !mrr.NextResult() {
			return fmt.Errorf("%s: %w", beginName, mrr.Close())
		}
		if err := result(mrr.ResultReader(), &Op{Name: beginName}); err != nil {
			mrr.Close()
			return err
		}
		if !mrr.NextResult() {
			return fmt.Errorf("%s: %w", name, mrr.Close())
		}
		rr = mrr.ResultReader()
	} else {
		sd, params, err := s.bind(ctx, name, args)
		if err != nil {
			return err
		}
		rr = s.conn.PgConn().ExecStatement(ctx, sd, params, nil, nil)
	}
	var cbErr error
	for rr.NextRow() {
		if cbErr == nil {
			cbErr = each(rr.Values())
		}
	}
	_, err := rr.Close()
	if mrr != nil {
		if cerr := mrr.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if cbErr != nil {
		return fmt.Errorf("%s: %w", name, cbErr)
	}
	return nil
}

// ScanText parses text-format values into destinations: *int, *int64, *float64, *string, *bool and *any
// (a string, or nil for NULL). A NULL number reads as 0.
func ScanText(vals [][]byte, dest []any) error {
	if len(vals) != len(dest) {
		return fmt.Errorf("%d columns for %d destinations", len(vals), len(dest))
	}
	for i, d := range dest {
		v := vals[i]
		var err error
		switch p := d.(type) {
		case *int:
			if v == nil {
				*p = 0
				continue
			}
			var n int64
			n, err = atoi(v)
			*p = int(n)
		case *int64:
			if v == nil {
				*p = 0
				continue
			}
			*p, err = atoi(v)
		case *float64:
			if v == nil {
				*p = 0
				continue
			}
			*p, err = strconv.ParseFloat(string(v), 64)
		case *bool:
			*p = len(v) > 0 && v[0] == 't'
		case *string:
			*p = string(v)
		case *any:
			if v == nil {
				*p = nil
			} else {
				*p = string(v)
			}
		default:
			return fmt.Errorf("cannot scan into %T", d)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// atoi parses a decimal integer without converting the bytes to a string.
func atoi(b []byte) (int64, error) {
	if len(b) == 0 || len(b) > 19 {
		return strconv.ParseInt(string(b), 10, 64) // its error, or a long number's overflow check
	}
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, fmt.Errorf("invalid integer %q", "-")
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("invalid integer %q", b)
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, nil
}

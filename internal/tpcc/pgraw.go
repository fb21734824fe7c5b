package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// PostgreSQL statements take the shortest path pgx offers: each statement prepared once per connection, executed
// with text-encoded parameters, its text results parsed straight into the destinations. The client-side
// transactions pipeline their statements with pgconn batches (one round trip per batch, BEGIN and COMMIT
// included); a procedure call is one execution of its prepared statement, without a Describe (its row
// description is known from the Prepare). This keeps the driver's own CPU per transaction small, so
// that on a shared machine it takes as little as possible from the database under test.

// stmt returns the prepared statement of a name, preparing it on first use.
func (s *pgSession) stmt(ctx context.Context, name string) (*pgconn.StatementDescription, error) {
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

// encode writes an op's arguments as text parameters. The slices stay valid until the next encode.
func (s *pgSession) encode(name string, args []any) ([][]byte, error) {
	params := s.params[:0]
	buf := s.buf[:0]
	offs := s.offs[:0]
	for _, a := range args {
		start := len(buf)
		switch v := a.(type) {
		case int:
			buf = strconv.AppendInt(buf, int64(v), 10)
		case float64:
			buf = strconv.AppendFloat(buf, v, 'f', -1, 64)
		case bool:
			buf = strconv.AppendBool(buf, v)
		case string:
			buf = append(buf, v...)
		case time.Time:
			buf = v.AppendFormat(buf, "2006-01-02 15:04:05.999999")
		case []int32:
			buf = append(buf, '{')
			for i, x := range v {
				if i > 0 {
					buf = append(buf, ',')
				}
				buf = strconv.AppendInt(buf, int64(x), 10)
			}
			buf = append(buf, '}')
		default:
			return nil, fmt.Errorf("%s: cannot send a %T", name, a)
		}
		offs = append(offs, [2]int{start, len(buf)})
	}
	for _, r := range offs {
		params = append(params, buf[r[0]:r[1]])
	}
	s.params, s.buf, s.offs = params, buf, offs
	return params, nil
}

// result reads one statement's result: the first row into o.dest; no row is errNotFound (or *o.found = false),
// by the same rule as the database/sql sessions (scanRow).
func result1(rr *pgconn.ResultReader, o *op) error {
	rows := 0
	var scanErr error
	for rr.NextRow() {
		rows++
		if rows == 1 && o.dest != nil {
			scanErr = scanText(rr.Values(), o.dest)
		}
	}
	if _, err := rr.Close(); err != nil {
		return fmt.Errorf("%s: %w", o.name, err)
	}
	if o.dest == nil {
		return nil
	}
	if scanErr == nil && rows == 0 {
		scanErr = sql.ErrNoRows
	}
	return scanRow(o, scanErr)
}

// bind returns a statement's prepared description and its arguments as text parameters.
func (s *pgSession) bind(ctx context.Context, name string, args []any) (*pgconn.StatementDescription, [][]byte, error) {
	sd, err := s.stmt(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	params, err := s.encode(name, args)
	return sd, params, err
}

// call runs one statement on its own (no transaction control in the same round trip).
func (s *pgSession) call(ctx context.Context, o *op) error {
	sd, params, err := s.bind(ctx, o.name, o.args)
	if err != nil {
		return err
	}
	return result1(s.conn.PgConn().ExecStatement(ctx, sd, params, nil, nil), o)
}

// BEGIN and COMMIT (tx.sql's begin_write and commit) travel in pipelines as prepared statements too.
var (
	opBegin  = op{name: "begin_write"}
	opCommit = op{name: "commit"}
)

// pipeline runs ops in one round trip, after BEGIN when the transaction has not started and followed by COMMIT
// when commit is set. The statements after a failed one are skipped by the server; the error names the first.
func (s *pgSession) pipeline(ctx context.Context, commit bool, ops []op) error {
	all := s.batchOps[:0]
	if s.pending {
		all = append(all, opBegin)
	}
	all = append(all, ops...)
	if commit {
		all = append(all, opCommit)
	}
	s.batchOps = all
	b := &s.b
	*b = pgconn.Batch{}
	for i := range all {
		sd, params, err := s.bind(ctx, all[i].name, all[i].args)
		if err != nil {
			return err
		}
		b.ExecStatement(sd, params, nil, nil)
	}
	s.pending = false
	mrr := s.conn.PgConn().ExecBatch(ctx, b)
	var first error
	for i := 0; mrr.NextResult(); i++ {
		if err := result1(mrr.ResultReader(), &all[i]); err != nil && first == nil {
			first = err
		}
	}
	if err := mrr.Close(); err != nil && first == nil {
		first = err
	}
	return first
}

// rows runs a query and calls each for every row, after scanning it into dest.
func (s *pgSession) rows(ctx context.Context, name string, args []any, dest []any, each func() error) error {
	sd, params, err := s.bind(ctx, name, args)
	if err != nil {
		return err
	}
	rr := s.conn.PgConn().ExecStatement(ctx, sd, params, nil, nil)
	var cbErr error
	for rr.NextRow() {
		if cbErr != nil {
			continue
		}
		if cbErr = scanText(rr.Values(), dest); cbErr == nil {
			cbErr = each()
		}
	}
	if _, err := rr.Close(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if cbErr != nil {
		return fmt.Errorf("%s: %w", name, cbErr)
	}
	return nil
}

// scanText parses text-format values into destinations.
func scanText(vals [][]byte, dest []any) error {
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
			*p, err = atoi(v)
		case *int64:
			if v == nil {
				*p = 0
				continue
			}
			*p, err = strconv.ParseInt(string(v), 10, 64)
		case *float64:
			if v == nil {
				*p = 0
				continue
			}
			*p, err = strconv.ParseFloat(string(v), 64)
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
func atoi(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, errors.New("empty integer")
	}
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("invalid integer %q", b)
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, nil
}

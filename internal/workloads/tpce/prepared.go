package tpce

import (
	"context"
	"database/sql"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/pgfast"
	"github.com/dbdyno/dbdyno/internal/method/runner"
)

// prepConn is a virtual user's connection as the frames run on it: each statement prepared once on the
// connection and reused (a named statement on PostgreSQL, a server-side one on MySQL, one round trip an
// execution where an unprepared statement with parameters takes one or three), and the transactions as the
// dialect's begin_write/commit statements on it (tx.sql), not a database/sql Tx each.
type prepConn struct {
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
}

func newPrepConn(conn *sql.Conn) *prepConn {
	return &prepConn{conn: conn, stmts: map[string]*sql.Stmt{}}
}

func (p *prepConn) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := p.stmts[query]; ok {
		return s, nil
	}
	s, err := p.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	p.stmts[query] = s
	return s, nil
}

func (p *prepConn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

func (p *prepConn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return p.conn.QueryRowContext(ctx, query, args...) // unprepared: its error (a *sql.Row carries no other)
	}
	return s.QueryRowContext(ctx, args...)
}

func (p *prepConn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

func (p *prepConn) close() {
	for _, s := range p.stmts {
		s.Close()
	}
	p.conn.Close()
}

var _ engine.Queryer = (*prepConn)(nil)

// fastConn is a virtual user's PostgreSQL connection driven through pgfast, as tpcc's and webstore's are: each
// statement prepared once under its name, text parameters and results, BEGIN sent in the round trip of the
// transaction's first statement, no goroutine per call. Its database/sql side (the same connection, so the
// same transaction) is the engine.Queryer the tests' taps read through.
type fastConn struct{ s *pgfast.Session }

func (f *fastConn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return f.s.SQL().QueryContext(ctx, query, args...)
}

func (f *fastConn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return f.s.SQL().QueryRowContext(ctx, query, args...)
}

func (f *fastConn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return f.s.SQL().ExecContext(ctx, query, args...)
}

// rows reads a statement's rows, each value as text (nil for NULL).
func (f *fastConn) rows(ctx context.Context, name string, args []any) (Rows, error) {
	var out Rows
	err := f.s.QueryText(ctx, name, args, func(vals [][]byte) error {
		row := make([]any, len(vals))
		for i, v := range vals {
			if v != nil {
				row[i] = string(v)
			}
		}
		out = append(out, row)
		return nil
	})
	return out, err
}

// one scans a statement's single row into dest (sql.ErrNoRows when there is none).
func (f *fastConn) one(ctx context.Context, name string, args, dest []any) error {
	found := false
	if err := f.s.Send(ctx, false, pgfast.Op{Name: name, Args: args, Dest: dest, Found: &found}); err != nil {
		return err
	}
	if !found {
		return sql.ErrNoRows
	}
	return nil
}

// attach makes conn the virtual user's connection: a pgfast session on PostgreSQL's wire, else its prepared
// statements through database/sql.
func (wk *worker) attach(conn *sql.Conn) error {
	wk.conn, wk.fast, wk.pc = conn, nil, nil
	if wk.w.db.T.Engine.Wire == engine.WirePostgres {
		s, err := pgfast.New(conn, wk.w.db.Stmts)
		if err != nil {
			return err
		}
		wk.fast = &fastConn{s: s}
		wk.Set(s.Interrupt)
		return nil
	}
	wk.pc = newPrepConn(conn)
	wk.Set(engine.Interrupter(conn))
	return nil
}

// q is where the virtual user's transactions run: its pgfast session, or its prepared statements.
func (wk *worker) q() engine.Queryer {
	if wk.fast != nil {
		return wk.fast
	}
	return wk.pc
}

func (wk *worker) detach() {
	if wk.fast != nil {
		wk.fast.s.Close()
	} else if wk.pc != nil {
		wk.pc.close()
	}
}

// txn runs fn as one transaction on the virtual user's connection: the dialect's begin, fn's statements, then
// commit, or rollback when fn fails or asks for it (Trade-Order's frame 5). single says fn is one statement
// that the engine runs as a transaction of its own (autocommit): then it runs without begin and commit, a
// round trip each saved. On a pgfast session BEGIN costs no round trip of its own.
func (wk *worker) txn(ctx context.Context, single bool, fn func(q engine.Queryer) (rollback bool, err error)) (bool, error) {
	q := wk.q()
	if single {
		return fn(q)
	}
	set := wk.w.db.Stmts
	if wk.fast != nil {
		wk.w.trips.n.Add(1) // commit or rollback
		wk.fast.s.Begin()
	} else {
		wk.w.trips.n.Add(2) // begin, and commit or rollback
		if _, err := wk.conn.ExecContext(ctx, set["begin_write"].SQL); err != nil {
			return false, err
		}
	}
	rollback, err := fn(q)
	if err != nil || rollback {
		end, cancel := runner.EndContext(ctx) // even after the run's end, but bounded
		defer cancel()
		var rerr error
		if wk.fast != nil {
			rerr = wk.fast.s.Rollback(end)
		} else {
			_, rerr = wk.conn.ExecContext(end, set["rollback"].SQL)
		}
		if err == nil {
			err = rerr
		}
		return rollback, err
	}
	if wk.fast != nil {
		return false, wk.fast.s.Commit(ctx)
	}
	_, err = wk.conn.ExecContext(ctx, set["commit"].SQL)
	return false, err
}

// oneCall says whether a transaction of one frame is a single statement the engine runs atomically on its
// own: in procedures mode the frame's call, where the engine's call is one transaction (engine.AtomicCall);
// in sql mode only frames of one statement (sqlOne).
func (wk *worker) oneCall(sqlOne bool) bool {
	if wk.w.procs {
		return wk.w.db.T.Engine.AtomicCall
	}
	return sqlOne
}

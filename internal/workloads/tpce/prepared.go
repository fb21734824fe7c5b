package tpce

import (
	"context"
	"database/sql"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method/runner"
)

// prepConn is a virtual user's connection as the frames run on it: each statement prepared once on the
// connection and reused (a named statement on PostgreSQL, a server-side one on MySQL, one round trip an
// execution where an unprepared statement with parameters takes one or three), and the transactions as the
// dialect's begin/commit statements on it (tx.sql), not a database/sql Tx each.
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

// txn runs fn as one transaction on the virtual user's connection: the dialect's begin, fn's statements, then
// commit, or rollback when fn fails or asks for it (Trade-Order's frame 5). single says fn is one statement
// that the engine runs as a transaction of its own (autocommit): then it runs without begin and commit, a
// round trip each saved.
func (wk *worker) txn(ctx context.Context, single bool, fn func(q engine.Queryer) (rollback bool, err error)) (bool, error) {
	if single {
		return fn(wk.pc)
	}
	set := wk.w.db.Stmts
	wk.w.trips.n.Add(2) // begin, and commit or rollback
	if _, err := wk.conn.ExecContext(ctx, set["begin"].SQL); err != nil {
		return false, err
	}
	rollback, err := fn(wk.pc)
	if err != nil || rollback {
		end, cancel := runner.EndContext(ctx) // even after the run's end, but bounded
		defer cancel()
		if _, rerr := wk.conn.ExecContext(end, set["rollback"].SQL); err == nil {
			err = rerr
		}
		return rollback, err
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

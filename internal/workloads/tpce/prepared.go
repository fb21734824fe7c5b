package tpce

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method/runner"
)

// connect opens the virtual user's statement session (the engine picks its path: on PostgreSQL's wire BEGIN
// travels in the round trip of the transaction's first statement; elsewhere each statement is prepared once on
// the connection, one round trip an execution where an unprepared statement with parameters takes one or
// three), and the transactions run as the dialect's begin_write/commit statements on it (tx.sql), not a
// database/sql Tx each.
func (wk *worker) connect(ctx context.Context) error {
	s, err := runner.Connect(ctx, wk.w.db.Data.SQL, wk.w.db.T, wk.w.db.Stmts)
	if err != nil {
		return err
	}
	wk.s = s
	wk.Set(s.Interrupter())
	return nil
}

// q is where the virtual user's transactions run: its session (an engine.Queryer for statements by text).
func (wk *worker) q() engine.Queryer { return wk.s }

func (wk *worker) detach() {
	wk.s.Close()
	wk.s = nil
}

// conn is the database/sql side of the virtual user's connection (tests: a transaction of their own on it).
func (wk *worker) conn() *sql.Conn { return wk.s.SQL() }

// sessionRows reads a statement's rows on a session, each value as the session gives it.
func sessionRows(ctx context.Context, s *engine.Session, name string, args []any) (Rows, error) {
	var out Rows
	err := s.Values(ctx, name, args, func(vals []any) error {
		out = append(out, slices.Clone(vals))
		return nil
	})
	return out, err
}

// sessionOne scans a statement's single row into dest on a session (sql.ErrNoRows when there is none).
func sessionOne(ctx context.Context, s *engine.Session, name string, args, dest []any) error {
	found, err := s.One(ctx, name, args, dest...)
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("%s: %w", name, sql.ErrNoRows)
	}
	return nil
}

// txn runs fn as one transaction on the virtual user's connection: the dialect's begin, fn's statements, then
// commit, or rollback when fn fails or asks for it (Trade-Order's frame 5). single says fn is one statement
// that the engine runs as a transaction of its own (autocommit): then it runs without begin and commit, a
// round trip each saved. Where the session is pipelined BEGIN costs no round trip of its own.
func (wk *worker) txn(ctx context.Context, single bool, fn func(q engine.Queryer) (rollback bool, err error)) (bool, error) {
	q := wk.q()
	if single {
		return fn(q)
	}
	if wk.s.Pipelined() {
		wk.trips.n.Add(1) // commit or rollback
	} else {
		wk.trips.n.Add(2) // begin, and commit or rollback
	}
	if err := wk.s.Begin(ctx, false); err != nil {
		return false, err
	}
	rollback, err := fn(q)
	if err != nil || rollback {
		if rerr := wk.s.Rollback(ctx); err == nil { // even after the run's end, but bounded
			err = rerr
		}
		return rollback, err
	}
	return false, wk.s.Commit(ctx)
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

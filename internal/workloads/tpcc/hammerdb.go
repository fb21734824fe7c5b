package tpcc

import (
	"context"
	"database/sql"
	"fmt"
	"io"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// HammerDB's TPM is not ours: HammerDB reads the server's own transaction counters at the edges of its timed
// window (PostgreSQL's xact_commit + xact_rollback, MySQL's and MariaDB's Com_commit + Com_rollback, SQL
// Server's 'Batch Requests/sec') and divides their change by the window's minutes, so it counts rollbacks and
// whatever else ran on the server, where dbdyno's TPM counts the client's committed transactions. Both are
// reported, the server's labelled as HammerDB's (dbdyno's own statements the server counted taken out: HammerDB
// runs no wait sampling nor counter reads in the window), with the client's rollbacks by cause beside it so that
// the two counts can be set against each other:
//
//   - new_order_invalid_item: the specification's 1% of New-Orders with an unused item (clause 2.4.1.4);
//   - retried: serialization failures, deadlocks and lock timeouts, each rolled back and run again;
//   - error: transactions that failed and were rolled back.
//
// A transaction whose connection was lost is not among them: the client sent no rollback, and PostgreSQL
// counts the server's own abort of it while MySQL counts none.

// hammerTx reads the server's transaction counters at the measured window's edges on a connection of its own.
type hammerTx struct {
	e      *engine.Engine
	conn   *sql.Conn
	c0, c1 engine.TxCounts
	err    error // why HammerDB's TPM is not available
	// dbdyno's own statements in the window, beside the virtual users': the engine's reads (counters, waits,
	// these) from before c0's read to before c1's (c0's own transaction ends after its snapshot, c1's after its
	// own), and tpcc's own (the end's sum(d_next_o_id))
	s0, s1 engine.SideCounts
	own    int64
}

// prepare opens the connection and reads the counters once to warm it (the statement parsed, a variant told)
// ahead of the window's edge, so that start costs one quick query there. A failure is kept as the reason,
// never fails the run.
func (h *hammerTx) prepare(ctx context.Context, db *DB) {
	h.e = db.T.Engine
	if h.e.Embedded {
		_, h.err = h.e.ReadTxCounts(ctx, nil) // says why there are none
		return
	}
	// first on the pool, whose connection is open: a server without the counters (Babelfish) costs no login
	if _, h.err = h.e.ReadTxCounts(ctx, db.Data.SQL); h.err != nil {
		return
	}
	if h.conn, h.err = db.Data.SQL.Conn(ctx); h.err != nil {
		return
	}
	_, h.err = h.e.ReadTxCounts(ctx, h.conn)
}

// start reads the counters as the window's base, and sum(d_next_o_id) (withNewOrders, a new_orders row) in the
// same statement: ok says the latter was read (else the caller reads it alone).
func (h *hammerTx) start(ctx context.Context, withNewOrders string) (newOrders int64, ok bool) {
	if h.err != nil || h.conn == nil {
		return 0, false
	}
	h.s0 = h.e.SideCounts(ctx)
	var extra map[string]float64
	h.c0, extra, h.err = h.e.ReadTxCountsWith(ctx, h.conn, withNewOrders)
	v, ok := extra["new_orders"]
	return int64(v), ok
}

// sideStatement notes one of tpcc's own statements run in the window (the end's sum(d_next_o_id)).
func (h *hammerTx) sideStatement() { h.own++ }

// end reads the counters at the window's end, with sum(d_next_o_id) as start does.
func (h *hammerTx) end(ctx context.Context, withNewOrders string) (newOrders int64, ok bool) {
	if h.err != nil || h.conn == nil {
		return 0, false
	}
	h.s1 = h.e.SideCounts(ctx)
	var extra map[string]float64
	h.c1, extra, h.err = h.e.ReadTxCountsWith(ctx, h.conn, withNewOrders)
	v, ok := extra["new_orders"]
	return int64(v), ok
}

func (h *hammerTx) close() {
	if h.conn != nil {
		h.conn.Close()
	}
}

// figures adds HammerDB's TPM and the counts it is made of to the run's figures, or why it is not available.
func (h *hammerTx) figures(fig map[string]any, m *result.Measurement) {
	inv, retried, errs := clientRollbacks(m)
	fig["client_rollbacks_new_order_invalid_item"] = float64(inv)
	fig["client_rollbacks_retried"] = float64(retried)
	fig["client_rollbacks_error"] = float64(errs)
	if h.err != nil || h.conn == nil {
		why := "not read"
		if h.err != nil {
			why = h.err.Error()
		}
		fig["hammerdb_tpm_unavailable"] = why
		return
	}
	d := h.c1.Sub(h.c0)
	if d.Split {
		fig["server_commits"], fig["server_rollbacks"] = d.Commits, d.Rollbacks
	} else {
		fig["server_batches"] = d.Batches
	}
	// the side statements the server counted: a transaction each where every statement counts, the refused
	// ones as rollbacks
	side, refused := 0.0, 0.0
	if d.EachStatement {
		side = float64(h.s1.Statements - h.s0.Statements + h.own)
		refused = float64(h.s1.Refused - h.s0.Refused)
	}
	fig["side_statements"], fig["side_refused"] = side, refused
	if d.LagSeconds > 0 {
		fig["server_counts_lag_s"] = d.LagSeconds
	}
	if m.MeasuredSecs > 0 {
		// without dbdyno's own statements, which HammerDB does not run (wait sampling alone is 600 a minute at
		// the default --wait-interval): the figure is what HammerDB would read of the same work
		fig["hammerdb_tpm"] = runner.Round(max(0, d.Total()-side)/(m.MeasuredSecs/60), 1)
	}
}

// clientRollbacks are the measured window's transactions the client ended with a rollback the server ran, by
// cause: New-Orders with an unused item, retried conflicts (one rollback per retry), failed transactions (a
// lost connection's excepted).
func clientRollbacks(m *result.Measurement) (invalidItem, retried, errs int64) {
	lost := m.ErrorClasses[engine.ConnLost.String()]
	return m.Rollbacks, m.Retries, m.Errors - lost
}

// printHammerDB prints HammerDB's TPM beside ours, and what the server's and the client's counts are made of.
func printHammerDB(w io.Writer, res *result.Result) {
	f, m := res.Figures, res.Measurement
	inv, retried, errs := clientRollbacks(m)
	if why, ok := f["hammerdb_tpm_unavailable"]; ok {
		fmt.Fprintf(w, "HammerDB's TPM (server counters): not available: %v\n", why)
		return
	}
	tpm, ok := f["hammerdb_tpm"]
	if !ok {
		return
	}
	// SQL Server's count is of batches: in --mode sql every statement is one, in procedures mode a transaction
	what, server := "batches", fmt.Sprintf("%.0f batches", f["server_batches"])
	if _, split := f["server_commits"]; split {
		what, server = "commits + rollbacks", fmt.Sprintf("%.0f commits + %.0f rollbacks", f["server_commits"], f["server_rollbacks"])
	}
	fmt.Fprintf(w, "HammerDB's TPM (server counters, %s per minute, dbdyno's own statements out): %.0f  (server: %s; client: %d commits + %d rollbacks: %d New-Order invalid item, %d retried conflicts, %d errors; dbdyno's own statements %.0f, %.0f of them refused)\n",
		what, tpm, server, m.Committed, inv+retried+errs, inv, retried, errs, f["side_statements"], f["side_refused"])
	lag := ""
	if s, ok := f["server_counts_lag_s"].(float64); ok && s > 0 {
		lag = fmt.Sprintf("; the server's counts reach its view up to %.0f s late, at both edges", s)
	}
	fmt.Fprintf(w, "  the rest: up to %d transactions in flight at each edge%s\n", m.VUs, lag)
}

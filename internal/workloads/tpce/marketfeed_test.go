package tpce

import (
	"context"
	"fmt"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// Two Market-Feeds that both find one triggered limit order submit it once. Feed B's transaction reads first
// (under MariaDB's repeatable read its snapshot starts there); feed A then submits the
// order and commits; B's tick of the order's symbol still sees the order pending in its snapshot. B must leave
// it to A (the request is taken out of trade_request first, and B finds it gone) instead of submitting it again,
// which failed on the second SBMT history row's duplicate key. In both modes, on every server engine.
func TestMarketFeedsSubmitAnOrderOnce(t *testing.T) {
	t.Parallel()
	for _, u := range testsrv.Servers(t) {
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tg.Engine.Name, func(t *testing.T) {
			t.Parallel()
			u := testsrv.Beside(t, u, "dbdyno_tpce_mfeed")
			tg, err := engine.Parse(u)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			TinyAt(t, u)
			db, err := Open(ctx, tg)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			defer db.Drop(ctx)
			modes := []bool{false}
			if tg.Engine.Procedures {
				modes = append(modes, true)
			}
			for _, procs := range modes {
				feedsOnce(t, ctx, db, procs)
			}
		})
	}
}

func feedsOnce(t *testing.T, ctx context.Context, db *DB, procs bool) {
	w, err := db.NewWorkload(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.UseProcedures(ctx, procs); err != nil {
		t.Fatal(err)
	}
	mk := func(vu int) *worker {
		wr, err := w.NewWorker(ctx, vu)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(wr.Close)
		return wr.(*worker)
	}
	a, b := mk(0), mk(1)
	s := w.meta.Size
	var ca int64
	if err := db.Data.SQL.QueryRowContext(ctx, "SELECT min(ca_id) FROM customer_account").Scan(&ca); err != nil {
		t.Fatal(err)
	}
	basket := Basket(1, s, ca)
	sec, other := basket[0], basket[1]
	sym := Symbol(sec)
	at := "2026-01-05 10:00:00"
	// a pending limit buy at 29.00, committed
	tid := w.nextTID.Add(1)
	tx, err := a.conn().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.orderFrames(ctx, tx, toOrder{ca: ca, sec: sec, tt: ttLB, qty: 100, bid: 2900}, tid, at); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	// B's feed has read before A commits (as an earlier tick's read of trade_request does): its snapshot. A plain
	// read: a tick's own locking reads (MySQL's procedure) could hold gap locks A would wait for.
	tb, err := b.conn().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Rollback()
	var n int64
	if err := tb.QueryRowContext(ctx, "SELECT count(*) FROM trade_request WHERE tr_s_symb = '"+Symbol(other)+"'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	// A's feed crosses the order's price: it submits the order and commits
	ta, err := a.conn().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := a.mf1(ctx, ta, sym, 25.5, 300, at)
	if err != nil {
		ta.Rollback()
		t.Fatalf("procedures=%v: feed A: %v", procs, err)
	}
	if !hasTrade(ids, tid) {
		ta.Rollback()
		t.Fatalf("procedures=%v: feed A did not submit the limit order %d: %v", procs, tid, ids)
	}
	if err := ta.Commit(); err != nil {
		t.Fatal(err)
	}
	// B's tick of the same symbol: the order is A's; B submits nothing and fails nothing
	ids, err = b.mf1(ctx, tb, sym, 25.5, 300, at)
	if err != nil {
		t.Fatalf("procedures=%v: feed B, after A submitted the order it also saw pending: %v", procs, err)
	}
	if hasTrade(ids, tid) {
		t.Errorf("procedures=%v: feed B submitted the limit order %d that feed A had submitted", procs, tid)
	}
	if err := tb.Commit(); err != nil {
		t.Fatal(err)
	}
	var sbmt, pending int64
	var st string
	q := db.Data.SQL
	if err := q.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) FROM trade_history WHERE th_t_id = %d AND th_st_id = 'SBMT'", tid)).Scan(&sbmt); err != nil {
		t.Fatal(err)
	}
	if err := q.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) FROM trade_request WHERE tr_t_id = %d", tid)).Scan(&pending); err != nil {
		t.Fatal(err)
	}
	if err := q.QueryRowContext(ctx, fmt.Sprintf("SELECT t_st_id FROM trade WHERE t_id = %d", tid)).Scan(&st); err != nil {
		t.Fatal(err)
	}
	if sbmt != 1 || pending != 0 || st != "SBMT" {
		t.Errorf("procedures=%v: the limit order %d after two feeds: %d SBMT history rows (want 1), %d requests left (want 0), status %s (want SBMT)",
			procs, tid, sbmt, pending, st)
	}
}

func hasTrade(rows Rows, tid int64) bool {
	for _, r := range rows {
		if i64(r[0]) == tid {
			return true
		}
	}
	return false
}

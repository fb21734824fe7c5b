package tpce

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// dmCleanupBothModes is TestFramesSameInBothModes' part for Data-Maintenance and Trade-Cleanup: each of
// Data-Maintenance's 12 tables (both of its alternatives) and Trade-Cleanup of a pending limit order and a
// submitted market order, in both modes in a transaction rolled back after, give the same outputs and leave the
// same rows; each table's change changes a row in at least one alternative.
func dmCleanupBothModes(t *testing.T, ctx context.Context, db *DB, sqlW, procW *worker) {
	t.Helper()
	s := sqlW.w.meta.Size
	var ca int64
	if err := db.Data.SQL.QueryRowContext(ctx, "SELECT min(ca_id) FROM customer_account").Scan(&ca); err != nil {
		t.Fatal(err)
	}
	c := (ca-1)/MaxAccounts + 1
	basket := Basket(1, s, ca)
	for turn := 0; turn < 12; turn++ {
		changed := int64(0)
		for _, flip := range []bool{false, true} {
			in := sqlW.dmInputs(turn, flip, c, 1+int64(turn)%s.Companies(), basket[turn%len(basket)])
			var outs, snaps [2]string
			for m, wk := range []*worker{sqlW, procW} {
				err := inRolledBack(ctx, wk, func(tx *sql.Tx) error {
					out, err := wk.dm1(ctx, tx, in)
					if err != nil {
						return err
					}
					if m == 0 && len(out) == 1 {
						changed += i64(out[0][0])
					}
					outs[m] = normRows(out)
					snaps[m] = dmSnapshot(t, ctx, tx, in)
					return nil
				})
				if err != nil {
					t.Fatalf("Data-Maintenance table %d, procedures=%v: %v", turn, wk.w.procs, err)
				}
			}
			if outs[0] != outs[1] {
				t.Errorf("Data-Maintenance table %d (%+v): the outputs differ: sql %s, procedures %s", turn, in, outs[0], outs[1])
			}
			if snaps[0] != snaps[1] {
				t.Errorf("Data-Maintenance table %d (%+v): the rows differ\n%s", turn, in, diffLines(snaps[0], snaps[1]))
			}
		}
		if changed == 0 && turn != 2 && turn != 11 { // a company's rate and a watch list may already be as asked
			t.Errorf("Data-Maintenance table %d changed no row in either alternative: the comparison says nothing", turn)
		}
	}
	// Trade-Cleanup: a pending limit order and a submitted market order, cancelled
	first := s.FirstRuntimeTradeID()
	lim, mkt := sqlW.w.nextTID.Add(1), sqlW.w.nextTID.Add(1)
	sym := Symbol(basket[0])
	var snaps [2]string
	for m, wk := range []*worker{sqlW, procW} {
		err := inRolledBack(ctx, wk, func(tx *sql.Tx) error {
			at := "2026-01-05 10:00:00"
			if err := wk.orderFrames(ctx, tx, toOrder{ca: ca, sec: basket[0], tt: ttLB, qty: 100, bid: 2100}, lim, at); err != nil {
				return err
			}
			if err := wk.orderFrames(ctx, tx, toOrder{ca: ca, sec: basket[0], tt: ttMB, market: true, qty: 100}, mkt, at); err != nil {
				return err
			}
			if err := db.cleanupOn(ctx, tx, wk.w.meta, at, wk.w.procs, 1, 0); err != nil {
				return err
			}
			var n int64
			if err := tx.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) FROM trade WHERE t_id IN (%d, %d) AND t_st_id = 'CNCL'", lim, mkt)).Scan(&n); err != nil {
				return err
			}
			if n != 2 {
				t.Errorf("Trade-Cleanup, procedures=%v: %d of the 2 orders cancelled", wk.w.procs, n)
			}
			snaps[m] = modeSnapshot(t, ctx, tx, ca, sym, first)
			return nil
		})
		if err != nil {
			t.Fatalf("Trade-Cleanup, procedures=%v: %v", wk.w.procs, err)
		}
	}
	if snaps[0] != snaps[1] {
		t.Errorf("Trade-Cleanup: the rows differ\n%s", diffLines(snaps[0], snaps[1]))
	}
}

func inRolledBack(ctx context.Context, wk *worker, fn func(tx *sql.Tx) error) error {
	tx, err := wk.conn().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(tx)
}

// dmSnapshot is the rows of Data-Maintenance's table that its inputs name, as text.
func dmSnapshot(t *testing.T, ctx context.Context, tx *sql.Tx, in dmIn) string {
	t.Helper()
	lit := func(v any) string {
		if s, ok := v.(string); ok {
			return "'" + strings.ReplaceAll(s, "'", "''") + "'"
		}
		return fmt.Sprint(v)
	}
	q := []string{
		"SELECT ap_ca_id, ap_acl, ap_tax_id FROM account_permission WHERE ap_ca_id = %s ORDER BY ap_tax_id",
		"SELECT ad_id, ad_line2 FROM address WHERE ad_id = %s",
		"SELECT co_id, co_sp_rate FROM company WHERE co_id = %s",
		"SELECT c_id, c_email_2 FROM customer WHERE c_id = %s",
		"SELECT cx_c_id, cx_tx_id FROM customer_taxrate WHERE cx_c_id = %s ORDER BY cx_tx_id",
		"SELECT dm_s_symb, dm_date, dm_vol FROM daily_market WHERE dm_s_symb = %s AND dm_date = %s",
		"SELECT ex_id, ex_desc FROM exchange WHERE ex_id = %s",
		"SELECT fi_co_id, fi_year, fi_qtr, fi_qtr_start_date FROM financial WHERE fi_co_id = %s ORDER BY fi_year, fi_qtr",
		"SELECT ni_id, ni_dts FROM news_item WHERE ni_id = %s",
		"SELECT s_symb, s_exch_date FROM security WHERE s_symb = %s",
		"SELECT tx_id, tx_name FROM taxrate WHERE tx_id = %s",
		"SELECT wi_wl_id, wi_s_symb FROM watch_item WHERE wi_wl_id = %s ORDER BY wi_s_symb",
	}[in.table]
	var stmt string
	switch in.table {
	case 5:
		stmt = fmt.Sprintf(q, lit(in.key), lit(in.day))
	case 6, 9, 10:
		stmt = fmt.Sprintf(q, lit(in.key))
	default:
		stmt = fmt.Sprintf(q, lit(in.id))
	}
	rows, err := readRows(tx.QueryContext(ctx, stmt))
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows (the inputs name no row)", stmt)
	}
	return stmt + "\n  " + normRows(rows)
}

package tpce

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// Each frame's stored procedure returns the same outputs and makes the same row changes as the frame's
// statements from the client: the same transaction inputs run in both modes on the same tiny database (each in a
// transaction rolled back after), per engine with procedures (PostgreSQL, MariaDB, and SQL Server when
// DBDYNO_TEST_MSSQL names one). Trade-Order's intentional rollback leaves nothing behind in either mode.
func TestFramesSameInBothModes(t *testing.T) {
	t.Parallel()
	for _, u := range testsrv.Servers(t) {
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tg.Engine.Name, func(t *testing.T) {
			t.Parallel()
			u := testsrv.Beside(t, u, "dbdyno_tpce_modes")
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
			framesBothModes(t, ctx, db)
			// a database without the procedures (built before them) is refused in one line saying how to rebuild
			drop, err := sqlfile.Overlay(sqlFS, tg.Engine.Name, "drop.sql", tg.Engine.Placeholder)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Data.SQL.ExecContext(ctx, drop.Set()["drop_dbdyno_tpce_tr4"].SQL); err != nil {
				t.Fatal(err)
			}
			w, err := db.NewWorkload(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.UseProcedures(ctx, true); err == nil || !strings.Contains(err.Error(), "rebuild with 'dbdyno tpce build --drop'") {
				t.Fatalf("procedures mode without the procedures: %v", err)
			}
			if err := w.UseProcedures(ctx, false); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func framesBothModes(t *testing.T, ctx context.Context, db *DB) {
	mk := func(procs bool) *worker {
		w, err := db.NewWorkload(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.UseProcedures(ctx, procs); err != nil {
			t.Fatal(err)
		}
		wr, err := w.NewWorker(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(wr.Close)
		return wr.(*worker)
	}
	sqlW, procW := mk(false), mk(true)
	s := sqlW.w.meta.Size
	first := s.FirstRuntimeTradeID()
	// a taxable account holding a security (for a sell with a gain), and another security of its basket
	var ca int64
	var sym string
	if err := db.Data.SQL.QueryRowContext(ctx, "SELECT min(hs_ca_id) FROM holding_summary JOIN customer_account ON ca_id = hs_ca_id WHERE ca_tax_st = 1 AND hs_qty > 0").Scan(&ca); err != nil {
		t.Fatalf("an account with a position: %v", err)
	}
	if err := db.Data.SQL.QueryRowContext(ctx, fmt.Sprintf("SELECT min(hs_s_symb) FROM holding_summary WHERE hs_ca_id = %d AND hs_qty > 0", ca)).Scan(&sym); err != nil {
		t.Fatalf("its position: %v", err)
	}
	sec := int64(-1)
	for i := int64(0); i < s.Securities(); i++ {
		if Symbol(i) == sym {
			sec = i
		}
	}
	if sec < 0 {
		t.Fatalf("no security %s", sym)
	}
	other := Basket(1, s, ca)[0]
	if other == sec {
		other = Basket(1, s, ca)[1]
	}
	c := (ca-1)/MaxAccounts + 1
	now := time.Date(2026, 1, 5, 10, 0, 0, 0, time.UTC)
	at := stamp(now)
	t0 := TradeTime(3600)
	order := func(o toOrder, tid int64) func(wk *worker, tx *sql.Tx) error {
		return func(wk *worker, tx *sql.Tx) error { return wk.orderFrames(ctx, tx, o, tid, at) }
	}
	orderResult := func(o toOrder, tid, price int64) func(wk *worker, tx *sql.Tx) error {
		return func(wk *worker, tx *sql.Tx) error {
			if err := wk.orderFrames(ctx, tx, o, tid, at); err != nil {
				return err
			}
			return wk.resultFrames(ctx, tx, tid, price, now)
		}
	}
	cases := []struct {
		name string
		run  func(wk *worker, tx *sql.Tx) error
		want []string // frames whose outputs must not be empty
	}{
		{"broker-volume", func(wk *worker, tx *sql.Tx) error {
			for i, bid := range []int64{2900, 2100, 2500} { // three pending limit orders, then every sector's volumes
				if err := wk.orderFrames(ctx, tx, toOrder{ca: ca, sec: other, tt: ttLB, qty: 100 * int64(i+1), bid: bid}, first+int64(i), at); err != nil {
					return err
				}
			}
			for _, sc := range Sectors {
				if _, err := wk.bv1(ctx, tx, 1, s.Brokers(), sc); err != nil {
					return err
				}
			}
			return nil
		}, []string{"bv1"}},
		{"customer-position", func(wk *worker, tx *sql.Tx) error {
			accts, err := wk.cp1(ctx, tx, false, c, "")
			if err != nil {
				return err
			}
			if _, err := wk.cp1(ctx, tx, true, 0, TaxID(c)); err != nil {
				return err
			}
			_, err = wk.cp2(ctx, tx, i64(accts[0][0]))
			return err
		}, []string{"cp1", "cp2"}},
		{"market-watch", func(wk *worker, tx *sql.Tx) error {
			d := day(Workday(marketStartDay, DailyMarketDays-10))
			for kind := 0; kind < 3; kind++ {
				if _, err := wk.mw1(ctx, tx, kind, c, ca, industryName(3), 1, s.Companies(), d); err != nil {
					return err
				}
			}
			return nil
		}, []string{"mw1"}},
		{"security-detail", func(wk *worker, tx *sql.Tx) error {
			co, _ := s.SecurityCompany(sec)
			for _, lob := range []bool{false, true} {
				if _, err := wk.sd1(ctx, tx, sym, co, day(Workday(marketStartDay, 100)), lob); err != nil {
					return err
				}
			}
			return nil
		}, []string{"sd1"}},
		{"trade-lookup", func(wk *worker, tx *sql.Tx) error {
			for _, f := range []func() (Rows, error){
				func() (Rows, error) { return wk.tl1(ctx, tx, false, 100, 119) },
				func() (Rows, error) { return wk.tl2(ctx, tx, false, ca, stamp(TradeTime(0)), stamp(s.InitialEnd())) },
				func() (Rows, error) { return wk.tl3(ctx, tx, false, sym, stamp(t0), stamp(t0.Add(8*time.Hour))) },
				func() (Rows, error) { return wk.tl4(ctx, tx, ca, stamp(TradeTime(0))) },
				func() (Rows, error) { return wk.tl4(ctx, tx, ca, "2030-01-01 00:00:00") },
			} {
				if _, err := f(); err != nil {
					return err
				}
			}
			return nil
		}, []string{"tl1", "tl2", "tl3", "tl4"}},
		{"trade-update", func(wk *worker, tx *sql.Tx) error {
			if _, err := wk.tl1(ctx, tx, true, 100, 119); err != nil {
				return err
			}
			if _, err := wk.tl2(ctx, tx, true, ca, stamp(TradeTime(0)), stamp(s.InitialEnd())); err != nil {
				return err
			}
			_, err := wk.tl3(ctx, tx, true, sym, stamp(t0), stamp(t0.Add(8*time.Hour)))
			return err
		}, []string{"tl1", "tl2", "tl3"}},
		{"trade-status", func(wk *worker, tx *sql.Tx) error { _, err := wk.ts1(ctx, tx, ca); return err }, []string{"ts1"}},
		// Trade-Order and its Trade-Result: a taxable sell of the held security at a gain (LIFO, by company name,
		// another executor), a market buy (FIFO), a margin buy, each completed.
		{"trade-order-result sell", orderResult(toOrder{ca: ca, sec: sec, tt: ttMS, market: true, sell: true, qty: 400, lifo: true, other: true, byName: true}, first, 3500), []string{"to1", "to3", "to4", "tr1", "tr2", "tr3", "tr4", "tr5", "tr6"}},
		{"trade-order-result buy", orderResult(toOrder{ca: ca, sec: sec, tt: ttMB, market: true, qty: 800}, first, 2250), []string{"to1", "to3", "to4", "tr1", "tr2", "tr4", "tr5", "tr6"}},
		{"trade-order-result margin", orderResult(toOrder{ca: ca, sec: other, tt: ttMB, market: true, qty: 200, margin: true}, first, 2600), []string{"to3", "tr2", "tr6"}},
		{"trade-order limit", order(toOrder{ca: ca, sec: other, tt: ttSL, qty: 100, bid: 2400}, first), []string{"to4"}},
		// Market-Feed: two limit orders pending, a price that crosses one of them
		{"market-feed", func(wk *worker, tx *sql.Tx) error {
			if err := wk.orderFrames(ctx, tx, toOrder{ca: ca, sec: other, tt: ttLB, qty: 100, bid: 2900}, first, at); err != nil {
				return err
			}
			if err := wk.orderFrames(ctx, tx, toOrder{ca: ca, sec: other, tt: ttLB, qty: 100, bid: 2100}, first+1, at); err != nil {
				return err
			}
			_, err := wk.mf1(ctx, tx, Symbol(other), 25.5, 300, at)
			return err
		}, []string{"mf1"}},
	}
	for _, k := range cases {
		var outs [2]string
		var snaps [2]string
		for m, wk := range []*worker{sqlW, procW} {
			var got []string
			nonEmpty := map[string]bool{}
			wk.record = func(frame string, out Rows) {
				got = append(got, frame+": "+normRows(out))
				if len(out) > 0 {
					nonEmpty[frame] = true
				}
			}
			tx, err := wk.conn().BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := k.run(wk, tx); err != nil {
				tx.Rollback()
				t.Fatalf("%s, procedures=%v: %v", k.name, wk.w.procs, err)
			}
			snaps[m] = modeSnapshot(t, ctx, tx, ca, sym, first)
			tx.Rollback()
			wk.record = nil
			outs[m] = strings.Join(got, "\n")
			for _, f := range k.want {
				if !nonEmpty[f] {
					t.Errorf("%s, procedures=%v: frame %s returned nothing:\n%s", k.name, wk.w.procs, f, outs[m])
				}
			}
		}
		if outs[0] != outs[1] {
			t.Errorf("%s: the frames' outputs differ\n--- sql:\n%s\n--- procedures:\n%s", k.name, outs[0], outs[1])
		}
		if snaps[0] != snaps[1] {
			t.Errorf("%s: the rows the frames changed differ\n%s", k.name, diffLines(snaps[0], snaps[1]))
		}
	}
	dmCleanupBothModes(t, ctx, db, sqlW, procW) // Data-Maintenance and Trade-Cleanup (dmmodes_test.go)
	// Trade-Order's intentional rollback (frame 5): the client rolls back after frame 4, in both modes; nothing stays.
	for m, wk := range []*worker{sqlW, procW} {
		wk.w.nextTID.Store(first - 1 + int64(m)*10000)
		for i := 0; i < 3*RollbackEvery; i++ {
			rolled, err := wk.tradeOrder(ctx)
			if err != nil {
				t.Fatalf("procedures=%v: Trade-Order: %v", wk.w.procs, err)
			}
			if rolled {
				var n int64
				tid := wk.w.nextTID.Load()
				if err := db.Data.SQL.QueryRowContext(ctx, "SELECT count(*) FROM trade WHERE t_id = "+strconv.FormatInt(tid, 10)).Scan(&n); err != nil || n != 0 {
					t.Fatalf("procedures=%v: the rolled-back Trade-Order %d left %d trade rows (%v)", wk.w.procs, tid, n, err)
				}
				break
			}
			if i == 3*RollbackEvery-1 {
				t.Fatalf("procedures=%v: no intentional rollback in %d Trade-Orders", wk.w.procs, i+1)
			}
		}
	}
}

// snapshot is the rows the cases can change, as text: the account's and the runtime trades with their
// history, settlement and cash; the account's positions; the brokers; pending orders; the symbol's trades' cash
// transactions; the last trades.
func modeSnapshot(t *testing.T, ctx context.Context, q engine.Queryer, ca int64, sym string, first int64) string {
	t.Helper()
	trades := fmt.Sprintf("(SELECT t_id FROM trade WHERE t_ca_id = %d OR t_id >= %d OR t_id BETWEEN 100 AND 119)", ca, first)
	var b strings.Builder
	for _, s := range []string{
		fmt.Sprintf("SELECT * FROM trade WHERE t_id IN %s ORDER BY t_id", trades),
		fmt.Sprintf("SELECT * FROM trade_history WHERE th_t_id IN %s ORDER BY th_t_id, th_st_id", trades),
		fmt.Sprintf("SELECT * FROM settlement WHERE se_t_id IN %s ORDER BY se_t_id", trades),
		fmt.Sprintf("SELECT * FROM cash_transaction WHERE ct_t_id IN %s OR ct_t_id IN (SELECT t_id FROM trade WHERE t_s_symb = '%s') ORDER BY ct_t_id", trades, sym),
		fmt.Sprintf("SELECT * FROM holding WHERE h_ca_id = %d ORDER BY h_t_id", ca),
		fmt.Sprintf("SELECT * FROM holding_history WHERE hh_t_id IN %s ORDER BY hh_h_t_id, hh_t_id", trades),
		fmt.Sprintf("SELECT * FROM holding_summary WHERE hs_ca_id = %d ORDER BY hs_s_symb", ca),
		fmt.Sprintf("SELECT * FROM customer_account WHERE ca_id = %d", ca),
		"SELECT * FROM broker ORDER BY b_id",
		"SELECT * FROM trade_request ORDER BY tr_t_id",
		"SELECT * FROM last_trade ORDER BY lt_s_symb",
	} {
		rows, err := readRows(q.QueryContext(ctx, s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		fmt.Fprintf(&b, "%s\n", s)
		for _, r := range rows {
			fmt.Fprintf(&b, "  %s\n", modeRow(r))
		}
	}
	return b.String()
}

func normRows(rows Rows) string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = modeRow(r)
	}
	return "[" + strings.Join(out, " | ") + "]"
}

// normRow writes a row's values alike whatever type the driver gave them: numbers to 4 decimals, times in UTC.
func modeRow(r []any) string {
	out := make([]string, len(r))
	for i, v := range r {
		out[i] = modeNorm(v)
	}
	return strings.Join(out, ", ")
}

func modeNorm(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05")
	case []byte:
		return modeNorm(string(x))
	case string:
		if f, err := strconv.ParseFloat(x, 64); err == nil {
			return modeNorm(f)
		}
		if tm, err := time.Parse("2006-01-02 15:04:05", x); err == nil {
			return modeNorm(tm)
		}
		if tm, err := time.Parse("2006-01-02", x); err == nil {
			return modeNorm(tm)
		}
		return x
	case float64, float32:
		return strconv.FormatFloat(math.Round(f64(x)*1e4)/1e4, 'f', -1, 64)
	case bool:
		return modeNorm(i64(x))
	}
	return modeNorm(float64(i64(v)))
}

// diffLines lists the lines only one of a and b has.
func diffLines(a, b string) string {
	in := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out []string
	for l, n := range ma {
		if mb[l] < n {
			out = append(out, "sql only:        "+l)
		}
	}
	for l, n := range mb {
		if ma[l] < n {
			out = append(out, "procedures only: "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

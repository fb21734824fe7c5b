package tpce

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// dmTables are the tables Data-Maintenance changes, in its turn's order, each with its snapshot: its key columns
// first (keys of them), then the columns that may change. daily_market's 894 rows a security are summed per
// security (the row itself is read in the frame's transaction before it is changed).
var dmTables = []struct {
	table, q string
	keys     int
}{
	{"account_permission", "SELECT ap_ca_id, ap_tax_id, ap_acl, ap_l_name, ap_f_name FROM account_permission", 2},
	{"address", "SELECT ad_id, ad_line1, ad_line2, ad_zc_code, ad_ctry FROM address", 1},
	{"company", "SELECT co_id, co_sp_rate, co_name, co_ceo, co_st_id FROM company", 1},
	{"customer", "SELECT c_id, c_email_1, c_email_2, c_l_name, c_tier FROM customer", 1},
	{"customer_taxrate", "SELECT cx_c_id, cx_tx_id FROM customer_taxrate", 2},
	{"daily_market", "SELECT dm_s_symb, count(*), sum(dm_vol), sum(dm_close) FROM daily_market GROUP BY dm_s_symb", 1},
	{"exchange", "SELECT ex_id, ex_desc, ex_name, ex_num_symb FROM exchange", 1},
	{"financial", "SELECT fi_co_id, fi_year, fi_qtr, fi_qtr_start_date, fi_revenue FROM financial", 3},
	{"news_item", "SELECT ni_id, ni_dts, ni_headline, ni_source FROM news_item", 1},
	{"security", "SELECT s_symb, s_exch_date, s_name, s_num_out FROM security", 1},
	{"taxrate", "SELECT tx_id, tx_name, tx_rate FROM taxrate", 1},
	{"watch_item", "SELECT wi_wl_id, wi_s_symb FROM watch_item", 2},
}

// snapshot is a table's rows by key: the key columns, then the rest, as text.
func snapshot(t *testing.T, raw *sql.DB, q string, keys int) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range query(t, raw, "%s", q) {
		out[fmt.Sprint(r[:keys]...)] = fmt.Sprint(r[keys:]...)
	}
	return out
}

// changed: the keys whose rows differ (added, removed or changed).
func changed(before, after map[string]string) []string {
	var out []string
	for k, v := range before {
		if w, ok := after[k]; !ok || w != v {
			out = append(out, k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func key(v ...any) string {
	n := make([]any, len(v))
	for i, x := range v {
		n[i] = norm(x)
	}
	return fmt.Sprint(n...)
}

// Data-Maintenance, triggered by the test (the event a run's minute is), once per table in the specification's
// turn: each time exactly the rows the frame names change, to the values it sets, and no other table's (each
// table unchanged from the start to its turn and from its turn to the end).
func TestDataMaintenanceChangesItsRows(t *testing.T) {
	t.Parallel()
	for _, url := range frameEngines(t, "dbdyno_tpce_dm") {
		tg, _ := engine.Parse(url)
		t.Run(tg.Engine.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, raw := tinyBuild(t, url)
			w, err := db.NewWorkload(ctx, 5)
			if err != nil {
				t.Fatal(err)
			}
			var log []tapped
			cur := DM
			wk := newTestWorker(t, w, 9, &log, &cur)
			c := newChecker(t, db)
			var dmVol []any // the daily_market row before the frame changes it, read in the frame's transaction
			tap := wk.tap
			wk.tap = func(q engine.Queryer, name string, args []any, rows [][]any) {
				tap(q, name, args, rows)
				if name == "dm_daily_market" {
					r, err := c.rows(q, "dm_row", args[0], args[1])
					if err != nil || len(r) != 1 {
						t.Errorf("the daily_market row %v: %v", args, err)
						return
					}
					dmVol = r[0]
				}
			}
			for i := 0; i < 200; i++ { // not due: the first Data-Maintenance is a minute after the start
				if tx, _, _ := wk.Next(); tx == DM {
					t.Fatal("Data-Maintenance before its minute")
				}
			}
			// each table is read four times, not after every turn: at the start, right before its turn (no
			// earlier turn changed it), right after (the rows its turn changed) and at the end (no later turn did)
			start := make([]map[string]string, len(dmTables))
			for i, d := range dmTables {
				start[i] = snapshot(t, raw, d.q, d.keys)
			}
			afterTurn := make([]map[string]string, len(dmTables))
			for turn, dt := range dmTables {
				before := start[turn]
				if turn > 0 {
					before = snapshot(t, raw, dt.q, dt.keys)
					if got := changed(start[turn], before); len(got) > 0 {
						t.Fatalf("turns before %s's (%d) changed %s: %v", dt.table, turn, dt.table, got)
					}
				}
				w.MaintainNow()
				if tx, _, _ := wk.Next(); tx != DM {
					t.Fatalf("turn %d: the triggered Data-Maintenance is not the next transaction (%s)", turn, TxNames[tx])
				}
				if tx, _, _ := wk.Next(); tx == DM {
					t.Fatalf("turn %d: Data-Maintenance twice for one trigger", turn)
				}
				from := len(log)
				if out := wk.Do(ctx, DM); out.Err != nil {
					t.Fatalf("turn %d (%s): %v", turn, dt.table, out.Err)
				}
				writes := map[string][]any{}
				for _, l := range log[from:] {
					if isWrite(l.name) || strings.HasPrefix(l.name, "dm_") && l.rows == nil {
						writes[l.name] = l.args
					}
				}
				afterTurn[turn] = snapshot(t, raw, dt.q, dt.keys)
				checkMaintenance(t, raw, dt.table, writes, changed(before, afterTurn[turn]), dmVol)
			}
			for i, d := range dmTables {
				if got := changed(afterTurn[i], snapshot(t, raw, d.q, d.keys)); len(got) > 0 {
					t.Fatalf("turns after %s's (%d) changed %s: %v", d.table, i, d.table, got)
				}
			}
		})
	}
}

// checkMaintenance: the rows a turn changed (keys got) and their new values, against what the frame's
// statement for the table says (its arguments, from the tap).
func checkMaintenance(t *testing.T, raw *sql.DB, table string, writes map[string][]any, got []string, dmVol []any) {
	t.Helper()
	only := func(stmt string, want []string) []any {
		a := writes[stmt]
		if a == nil {
			t.Fatalf("%s: no %s ran (%v)", table, stmt, writes)
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: rows %v changed, want %v (%s%v)", table, got, want, stmt, a)
		}
		return a
	}
	value := func(q string, want any) {
		if v := one(t, raw, "%s", q)[0]; !same(v, norm(want)) {
			t.Fatalf("%s: %s = %v, want %v", table, q, v, norm(want))
		}
	}
	switch table {
	case "account_permission": // every permission of the account flips its ACL
		a := writes["dm_account_permission"]
		var want []string
		for _, r := range query(t, raw, "SELECT ap_tax_id, ap_acl FROM account_permission WHERE ap_ca_id = %v", a[0]) {
			want = append(want, key(a[0], r[0]))
			if acl := fmt.Sprint(r[1]); acl != "1111" && acl != "11" { // "0011" reads as a number
				t.Fatalf("account %v: ACL %v", a[0], r[1])
			}
		}
		if len(want) == 0 {
			t.Fatalf("account %v has no permissions", a[0])
		}
		only("dm_account_permission", want)
	case "address": // a customer's address line 2
		a := writes["dm_address"]
		if len(query(t, raw, "SELECT 1 FROM customer WHERE c_ad_id = %v", a[0])) != 1 {
			t.Fatalf("address %v is no customer's", a[0])
		}
		if len(got) > 0 {
			only("dm_address", []string{key(a[0])})
		}
		value(fmt.Sprintf("SELECT ad_line2 FROM address WHERE ad_id = %v", a[0]), a[1])
	case "company":
		a := writes["dm_company"]
		if len(got) > 0 {
			only("dm_company", []string{key(a[0])})
		}
		value(fmt.Sprintf("SELECT co_sp_rate FROM company WHERE co_id = %v", a[0]), a[1])
	case "customer":
		a := writes["dm_customer"]
		if len(got) > 0 {
			only("dm_customer", []string{key(a[0])})
		}
		value(fmt.Sprintf("SELECT c_email_2 FROM customer WHERE c_id = %v", a[0]), a[1])
	case "customer_taxrate": // one of the customer's rates replaced by another of the same country
		if writes["dm_customer_taxrate"] == nil {
			t.Fatalf("customer_taxrate: no update ran (%v)", writes)
		}
		a := only("dm_customer_taxrate", []string{key(writes["dm_customer_taxrate"][0], writes["dm_customer_taxrate"][1]),
			key(writes["dm_customer_taxrate"][0], writes["dm_customer_taxrate"][2])})
		o, n := a[1].(string), a[2].(string)
		if o == n || o[:2] != n[:2] {
			t.Fatalf("customer %v: tax rate %s replaced by %s", a[0], o, n)
		}
	case "daily_market": // one day's volume of one security
		a := only("dm_daily_market", []string{key(writes["dm_daily_market"][0])})
		if dmVol == nil || norm(dmVol[0]) != norm(a[1]) {
			t.Fatalf("daily_market: the row before %v, want the day %v", dmVol, a[1])
		}
		value(fmt.Sprintf("SELECT dm_vol FROM daily_market WHERE dm_s_symb = '%s' AND dm_date = '%s'", a[0], a[1]), nf64(dmVol[4])+nf64(a[2]))
	case "exchange":
		a := writes["dm_exchange"]
		if len(got) > 0 {
			only("dm_exchange", []string{key(a[0])})
		}
		value(fmt.Sprintf("SELECT ex_desc FROM exchange WHERE ex_id = '%s'", a[0]), a[1])
	case "financial": // the company's first quarter of 2000
		a := writes["dm_financial"]
		if len(got) > 0 {
			only("dm_financial", []string{key(a[0], 2000, 1)})
		}
		value(fmt.Sprintf("SELECT fi_qtr_start_date FROM financial WHERE fi_co_id = %v AND fi_year = 2000 AND fi_qtr = 1", a[0]), a[1])
	case "news_item": // the item's time, now: always a change
		a := only("dm_news_item", []string{key(writes["dm_news_item"][0])})
		value(fmt.Sprintf("SELECT ni_dts FROM news_item WHERE ni_id = %v", a[0]), a[1])
	case "security":
		a := writes["dm_security"]
		if len(got) > 0 {
			only("dm_security", []string{key(a[0])})
		}
		value(fmt.Sprintf("SELECT s_exch_date FROM security WHERE s_symb = '%s'", a[0]), a[1])
	case "taxrate":
		a := writes["dm_taxrate"]
		if len(got) > 0 {
			only("dm_taxrate", []string{key(a[0])})
		}
		value(fmt.Sprintf("SELECT tx_name FROM taxrate WHERE tx_id = '%s'", a[0]), a[1])
	case "watch_item": // one symbol of the customer's list replaced by one not on it
		a := writes["dm_watch_item"]
		if a == nil {
			if len(got) > 0 {
				t.Fatalf("watch_item: rows %v changed without an update", got)
			}
			return
		}
		only("dm_watch_item", []string{key(a[0], a[1]), key(a[0], a[2])})
	}
}

// Trade-Cleanup, which every run does before its measured window (ramp-up included): the pending limit orders
// get their SBMT and CNCL history and are cancelled, their requests deleted, the submitted trades a run left
// are cancelled with a CNCL row; nothing else changes.
func TestTradeCleanupCancelsWhatARunLeft(t *testing.T) {
	t.Parallel()
	for _, url := range frameEngines(t, "dbdyno_tpce_cleanup") {
		tg, _ := engine.Parse(url)
		t.Run(tg.Engine.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, raw := tinyBuild(t, url)
			w, err := db.NewWorkload(ctx, 5)
			if err != nil {
				t.Fatal(err)
			}
			var log []tapped
			cur := TO
			wk := newTestWorker(t, w, 21, &log, &cur)
			for i := 0; i < 120; i++ {
				if out := wk.Do(ctx, TO); out.Err != nil {
					t.Fatal(out.Err)
				}
			}
			for i := 0; i < 10; i++ { // a few market orders completed; the rest stay submitted
				o, feed, ok := w.mee.next(time.Now().Add(time.Hour))
				if !ok {
					break
				}
				if feed == nil {
					if err := wk.tradeResult(ctx, o); err != nil {
						t.Fatal(err)
					}
				}
			}
			status := func() map[string]string { return snapshot(t, raw, "SELECT t_id, t_st_id FROM trade", 1) }
			history := func() map[string]string {
				out := map[string]string{}
				for _, r := range query(t, raw, "SELECT th_t_id, th_st_id FROM trade_history ORDER BY th_t_id, th_st_id") {
					out[key(r[0])] += r[1].(string) + " "
				}
				return out
			}
			st0, h0 := status(), history()
			pending := map[string]bool{}
			for _, r := range query(t, raw, "SELECT tr_t_id FROM trade_request") {
				pending[key(r[0])] = true
			}
			first := key(w.meta.Size.FirstRuntimeTradeID())
			submitted := 0
			for id, s := range st0 {
				if s == "SBMT" && nf64(strings.Trim(id, "[]")) >= nf64(first) {
					submitted++
				}
			}
			if len(pending) == 0 || submitted == 0 {
				t.Fatalf("nothing to clean up: %d pending, %d submitted", len(pending), submitted)
			}
			if _, err := db.NewWorkload(ctx, 6); err != nil { // the next run: Trade-Cleanup first
				t.Fatal(err)
			}
			st1, h1 := status(), history()
			if n := one(t, raw, "SELECT count(*) FROM trade_request")[0]; n != 0.0 {
				t.Fatalf("%v trade requests left", n)
			}
			for id, s := range st0 {
				wantSt, wantH := s, h0[id]
				switch {
				case pending[id]: // PNDG: SBMT and CNCL added
					wantSt = "CNCL"
					wantH = sortedStatuses(h0[id] + "SBMT CNCL ")
				case s == "SBMT" && nf64(strings.Trim(id, "[]")) >= nf64(first):
					wantSt = "CNCL"
					wantH = sortedStatuses(h0[id] + "CNCL ")
				}
				if st1[id] != wantSt || h1[id] != wantH {
					t.Fatalf("trade %s (%s, pending %v): after Trade-Cleanup %s with history %q, want %s with %q", id, s, pending[id], st1[id], h1[id], wantSt, wantH)
				}
			}
			if len(st1) != len(st0) || len(h1) != len(h0) {
				t.Fatalf("Trade-Cleanup added or removed trades: %d/%d trades, %d/%d histories", len(st0), len(st1), len(h0), len(h1))
			}
		})
	}
}

func sortedStatuses(s string) string {
	f := strings.Fields(s)
	slices.Sort(f)
	return strings.Join(f, " ") + " "
}

package tpce

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// trBefore is what a Trade-Result starts from: the trade, the account's lots and summary of the security, its
// balance, the broker's totals and the customer's tax.
type trBefore struct {
	tid                int64
	trade              []any // t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash
	sell               bool
	lots               [][]any // h_t_id, h_qty, h_price, h_dts
	hs                 [][]any
	bal                float64
	broker             []any // b_id, b_num_trades, b_comm_total
	taxSt, tier        float64
	taxRate            float64
	exID               string
	hhBefore, ctBefore float64
}

func tradeResultBefore(t *testing.T, raw *sql.DB, tid int64) trBefore {
	t.Helper()
	b := trBefore{tid: tid}
	b.trade = one(t, raw, "SELECT t_ca_id, t_tt_id, t_s_symb, t_qty, t_chrg, t_lifo, t_is_cash FROM trade WHERE t_id = %d", tid)
	b.sell = one(t, raw, "SELECT tt_is_sell FROM trade_type WHERE tt_id = '%s'", b.trade[1])[0] == 1.0
	ca, symb := int64(nf64(b.trade[0])), b.trade[2].(string)
	b.lots = query(t, raw, "SELECT h_t_id, h_qty, h_price, h_dts FROM holding WHERE h_ca_id = %d AND h_s_symb = '%s'", ca, symb)
	b.hs = query(t, raw, "SELECT hs_qty FROM holding_summary WHERE hs_ca_id = %d AND hs_s_symb = '%s'", ca, symb)
	a := one(t, raw, "SELECT ca_bal, ca_b_id, ca_tax_st, ca_c_id FROM customer_account WHERE ca_id = %d", ca)
	b.bal, b.taxSt = nf64(a[0]), nf64(a[2])
	b.broker = one(t, raw, "SELECT b_id, b_num_trades, b_comm_total FROM broker WHERE b_id = %v", a[1])
	b.tier = nf64(one(t, raw, "SELECT c_tier FROM customer WHERE c_id = %v", a[3])[0])
	for _, r := range query(t, raw, "SELECT tx_rate FROM taxrate, customer_taxrate WHERE tx_id = cx_tx_id AND cx_c_id = %v", a[3]) {
		b.taxRate += nf64(r[0])
	}
	b.exID = one(t, raw, "SELECT s_ex_id FROM security WHERE s_symb = '%s'", symb)[0].(string)
	b.hhBefore = nf64(one(t, raw, "SELECT count(*) FROM holding_history WHERE hh_t_id = %d", tid)[0])
	b.ctBefore = nf64(one(t, raw, "SELECT count(*) FROM cash_transaction WHERE ct_t_id = %d", tid)[0])
	return b
}

func money2(v float64) float64 { return math.Round(v*100) / 100 }

func near(a, b any, cents float64) bool { return math.Abs(nf64(a)-nf64(b)) <= cents/100+1e-6 }

// checkTradeResult recomputes a Trade-Result's frames 2-6 from the rows before it: the lots it closes (LIFO or
// FIFO) and opens, the holding summary, the tax on the gain, the commission from the rate table, the trade
// completed, the broker's totals, the settlement, and for a cash trade the cash transaction and the balance.
func checkTradeResult(t *testing.T, raw *sql.DB, b trBefore) {
	t.Helper()
	tid := b.tid
	ca, symb, qty := int64(nf64(b.trade[0])), b.trade[2].(string), nf64(b.trade[3])
	after := one(t, raw, "SELECT t_st_id, t_trade_price, t_comm, t_tax, t_dts FROM trade WHERE t_id = %d", tid)
	if after[0] != "CMPT" || after[1] == nil {
		t.Fatalf("trade %d after Trade-Result: %v", tid, after)
	}
	price := nf64(after[1])
	// frame 2: the lots
	lots := slices.Clone(b.lots)
	slices.SortStableFunc(lots, func(x, y []any) int {
		c := cmpRows([]any{x[3], x[0]}, []any{y[3], y[0]})
		if b.trade[5] == 1.0 {
			return -c
		}
		return c
	})
	sign := 1.0
	if b.sell {
		sign = -1
	}
	left := qty
	var buyValue, sellValue float64
	var hh, wantLots [][]any
	for _, l := range lots {
		lq := nf64(l[1])
		if left == 0 || lq*sign >= 0 {
			wantLots = append(wantLots, []any{l[0], l[1], l[2]})
			continue
		}
		take := math.Min(left, math.Abs(lq))
		hh = append(hh, []any{l[0], float64(tid), lq, lq + sign*take})
		if lq+sign*take != 0 {
			wantLots = append(wantLots, []any{l[0], lq + sign*take, l[2]})
		}
		if sign < 0 {
			buyValue += take * nf64(l[2])
			sellValue += take * price
		} else {
			sellValue += take * nf64(l[2])
			buyValue += take * price
		}
		left -= take
	}
	if left > 0 {
		hh = append(hh, []any{float64(tid), float64(tid), 0.0, sign * left})
		wantLots = append(wantLots, []any{float64(tid), sign * left, price})
	}
	gotHH := query(t, raw, "SELECT hh_h_t_id, hh_t_id, hh_before_qty, hh_after_qty FROM holding_history WHERE hh_t_id = %d", tid)
	if !sameSet(gotHH, hh) {
		t.Fatalf("trade %d: holding history %v, want %v (lots before %v)", tid, gotHH, hh, b.lots)
	}
	gotLots := query(t, raw, "SELECT h_t_id, h_qty, h_price FROM holding WHERE h_ca_id = %d AND h_s_symb = '%s'", ca, symb)
	if !sameSet(gotLots, wantLots) {
		t.Fatalf("trade %d: lots %v, want %v (before %v)", tid, gotLots, wantLots, b.lots)
	}
	hs := 0.0
	if len(b.hs) == 1 {
		hs = nf64(b.hs[0][0])
	}
	var wantHS [][]any
	if hs+sign*qty != 0 {
		wantHS = [][]any{{hs + sign*qty}}
	}
	if gotHS := query(t, raw, "SELECT hs_qty FROM holding_summary WHERE hs_ca_id = %d AND hs_s_symb = '%s'", ca, symb); !sameSet(gotHS, wantHS) {
		t.Fatalf("trade %d: holding summary %v, want %v", tid, gotHS, wantHS)
	}
	// frame 3: tax on a gain
	tax := 0.0
	if b.taxSt != 0 && sellValue > buyValue {
		tax = money2((sellValue - buyValue) * b.taxRate)
	}
	if !near(after[3], tax, 1) {
		t.Fatalf("trade %d: tax %v, want %v (gain %v at %v)", tid, after[3], tax, sellValue-buyValue, b.taxRate)
	}
	// frame 4: the commission
	rate := nf64(one(t, raw, "SELECT cr_rate FROM commission_rate WHERE cr_c_tier = %v AND cr_tt_id = '%s' AND cr_ex_id = '%s' AND cr_from_qty <= %v AND cr_to_qty >= %v",
		b.tier, b.trade[1], b.exID, qty, qty)[0])
	comm := money2(rate * qty * price / 100)
	if !near(after[2], comm, 1) {
		t.Fatalf("trade %d: commission %v, want %v", tid, after[2], comm)
	}
	// frame 5: the broker, the history
	br := one(t, raw, "SELECT b_num_trades, b_comm_total FROM broker WHERE b_id = %v", b.broker[0])
	if br[0] != nf64(b.broker[1])+1 || !near(br[1], nf64(b.broker[2])+nf64(after[2]), 0.5) {
		t.Fatalf("trade %d: broker %v, was %v, commission %v", tid, br, b.broker, after[2])
	}
	if len(query(t, raw, "SELECT 1 FROM trade_history WHERE th_t_id = %d AND th_st_id = 'CMPT'", tid)) != 1 {
		t.Fatalf("trade %d: no CMPT history row", tid)
	}
	// frame 6: settlement, cash, balance
	amt := qty*price - nf64(b.trade[4]) - nf64(after[2])
	if !b.sell {
		amt = -(qty*price + nf64(b.trade[4]) + nf64(after[2]))
	}
	if b.taxSt == 1 {
		amt -= nf64(after[3])
	}
	cash := b.trade[6] == 1.0
	se := one(t, raw, "SELECT se_amt, se_cash_type, se_cash_due_date FROM settlement WHERE se_t_id = %d", tid)
	due := strings.Fields(after[4].(string))[0]
	d, _ := time.Parse("2006-01-02", due)
	if !near(se[0], amt, 0.5) || se[1] != map[bool]string{true: "Cash Account", false: "Margin"}[cash] ||
		!strings.HasPrefix(se[2].(string), d.AddDate(0, 0, 2).Format("2006-01-02")) {
		t.Fatalf("trade %d: settlement %v, want %v, cash %v, due 2 days after %v", tid, se, amt, cash, after[4])
	}
	ct := query(t, raw, "SELECT ct_amt FROM cash_transaction WHERE ct_t_id = %d", tid)
	bal := nf64(one(t, raw, "SELECT ca_bal FROM customer_account WHERE ca_id = %d", ca)[0])
	if cash && (len(ct) != 1 || !near(ct[0][0], se[0], 0) || !near(bal, b.bal+nf64(se[0]), 0.5)) ||
		!cash && (len(ct) != 0 || !near(bal, b.bal, 0.5)) {
		t.Fatalf("trade %d (cash %v): cash transactions %v, balance %v (was %v), settlement %v", tid, cash, ct, bal, b.bal, se[0])
	}
}

// checkMarketFeed sends one tick at price (cents) for symb and checks the frame's effects: the last trade, and
// exactly the limit orders the price crosses submitted (their request gone, an SBMT history row).
func checkMarketFeed(t *testing.T, raw *sql.DB, wk *worker, symb string, price int64) {
	t.Helper()
	reqs := query(t, raw, "SELECT tr_t_id, tr_tt_id, tr_bid_price FROM trade_request WHERE tr_s_symb = '%s'", symb)
	lt := one(t, raw, "SELECT lt_vol FROM last_trade WHERE lt_s_symb = '%s'", symb)
	if err := wk.marketFeed(context.Background(), []tick{{symb, price, 300}}); err != nil {
		t.Fatal(err)
	}
	p := float64(price) / 100
	after := one(t, raw, "SELECT lt_price, lt_vol FROM last_trade WHERE lt_s_symb = '%s'", symb)
	if !same(after[0], p) || after[1] != nf64(lt[0])+300 {
		t.Fatalf("last trade of %s: %v, want price %v and volume %v + 300", symb, after, p, lt[0])
	}
	hit := 0
	for _, r := range reqs {
		bid := nf64(r[2])
		want := (r[1] == "TSL" || r[1] == "TLB") && p <= bid || r[1] == "TLS" && p >= bid
		st := one(t, raw, "SELECT t_st_id FROM trade WHERE t_id = %v", r[0])[0]
		still := len(query(t, raw, "SELECT 1 FROM trade_request WHERE tr_t_id = %v", r[0])) == 1
		sbmt := len(query(t, raw, "SELECT 1 FROM trade_history WHERE th_t_id = %v AND th_st_id = 'SBMT'", r[0]))
		if want && (st != "SBMT" || still || sbmt != 1) || !want && (st != "PNDG" || !still || sbmt != 0) {
			t.Fatalf("limit order %v (%s at %v, tick %v): status %v, request kept %v, SBMT rows %d; triggered should be %v", r[0], r[1], bid, p, st, still, sbmt, want)
		}
		if want {
			hit++
		}
	}
	if hit == 0 {
		t.Fatalf("the tick at %v triggered none of %v", p, reqs)
	}
}

type tuState struct{ exec, cashType, ctName map[float64]string }

func tuSnapshot(t *testing.T, raw *sql.DB) tuState {
	t.Helper()
	m := func(q string) map[float64]string {
		out := map[float64]string{}
		for _, r := range query(t, raw, "%s", q) {
			out[nf64(r[0])] = fmt.Sprint(r[1])
		}
		return out
	}
	return tuState{m("SELECT t_id, t_exec_name FROM trade"), m("SELECT se_t_id, se_cash_type FROM settlement"), m("SELECT ct_t_id, ct_name FROM cash_transaction")}
}

// checkTradeUpdate: exactly the rows the frame names changed, each to the specification's other spelling. The
// frames' update statements seen are counted in frames (the caller's own: the engines' subtests run in
// parallel, and a map they shared was cleared by one while another counted, "frames ran map[tu_ct_name:20]"
// under stress-ng).
func checkTradeUpdate(t *testing.T, before, after tuState, log []tapped, frames map[string]int) {
	t.Helper()
	want := tuState{map[float64]string{}, map[float64]string{}, map[float64]string{}}
	for _, l := range log {
		switch l.name {
		case "tu_exec":
			for id, n := range before.exec {
				if id >= nf64(l.args[0]) && id <= nf64(l.args[1]) {
					if strings.Contains(n, " X ") {
						want.exec[id] = strings.ReplaceAll(n, " X ", " ")
					} else {
						want.exec[id] = strings.ReplaceAll(n, " ", " X ")
					}
				}
			}
		case "tu_cash_type":
			id := nf64(l.args[0])
			if n, ok := before.cashType[id]; ok {
				want.cashType[id] = map[string]string{"Cash Account": "Cash", "Cash": "Cash Account", "Margin": "Margin Account", "Margin Account": "Margin"}[n]
			}
		case "tu_ct_name":
			id := nf64(l.args[0])
			if n, ok := before.ctName[id]; ok {
				if strings.Contains(n, " shares of ") {
					want.ctName[id] = strings.ReplaceAll(n, " shares of ", " Shares of ")
				} else {
					want.ctName[id] = strings.ReplaceAll(n, " Shares of ", " shares of ")
				}
			}
		default:
			continue
		}
		frames[l.name]++
	}
	for _, c := range []struct {
		what              string
		before, after, to map[float64]string
	}{{"t_exec_name", before.exec, after.exec, want.exec}, {"se_cash_type", before.cashType, after.cashType, want.cashType},
		{"ct_name", before.ctName, after.ctName, want.ctName}} {
		if len(c.before) != len(c.after) {
			t.Fatalf("Trade-Update changed the number of rows of %s: %d to %d", c.what, len(c.before), len(c.after))
		}
		for id, v := range c.after {
			w, ok := c.to[id]
			if !ok {
				w = c.before[id]
			}
			if v != w {
				t.Fatalf("Trade-Update: %s of %v is %q, want %q (was %q)", c.what, id, v, w, c.before[id])
			}
		}
	}
}

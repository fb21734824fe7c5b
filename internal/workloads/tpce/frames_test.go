package tpce

// Each frame's output recomputed independently: the workload's own code runs each transaction (its inputs
// drawn by its own generator from chosen seeds), a tap hands the test every statement a frame reads with its
// arguments and what it returned, in the frame's own transaction, and the test computes what the
// specification's frame definition says it should return with its own queries (written here from the
// specification: subqueries where the workload joins, the limits and orders applied in Go) in that same
// transaction. The frames that write are checked by their effects: the rows before and after.

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// independent are the test's own statements, from the specification's frame definitions.
const independent = `
-- name: bv(b_lo, b_hi, sc_name)
SELECT b.b_name, (SELECT sum(r.tr_qty * r.tr_bid_price) FROM trade_request r WHERE r.tr_b_id = b.b_id AND r.tr_s_symb IN
  (SELECT s.s_symb FROM security s WHERE s.s_co_id IN (SELECT c.co_id FROM company c WHERE c.co_in_id IN
    (SELECT i.in_id FROM industry i WHERE i.in_sc_id IN (SELECT x.sc_id FROM sector x WHERE x.sc_name = :sc_name)))))
FROM broker b WHERE b.b_id >= :b_lo AND b.b_id <= :b_hi
-- name: cp_customer(c_id)
SELECT c.c_id, c.c_st_id, c.c_l_name, c.c_f_name, c.c_tier, c.c_dob, c.c_email_1 FROM customer c WHERE c.c_id = :c_id
-- name: cp_customer_tax(tax_id)
SELECT c.c_id, c.c_st_id, c.c_l_name, c.c_f_name, c.c_tier, c.c_dob, c.c_email_1 FROM customer c WHERE c.c_tax_id = :tax_id
-- name: cp_accounts(c_id)
SELECT a.ca_id, a.ca_bal, coalesce((SELECT sum(h.hs_qty * (SELECT l.lt_price FROM last_trade l WHERE l.lt_s_symb = h.hs_s_symb))
  FROM holding_summary h WHERE h.hs_ca_id = a.ca_id), 0) FROM customer_account a WHERE a.ca_c_id = :c_id
-- name: cp_trades(ca_id)
SELECT t_id, t_dts FROM trade WHERE t_ca_id = :ca_id
-- name: cp_trade_history(t_id)
SELECT t.t_id, t.t_s_symb, t.t_qty, (SELECT st_name FROM status_type WHERE st_id = h.th_st_id), h.th_dts
FROM trade t, trade_history h WHERE t.t_id = :t_id AND h.th_t_id = t.t_id
-- name: mw_watch(c_id, day)
SELECT coalesce(sum((SELECT lt_price FROM last_trade WHERE lt_s_symb = w.wi_s_symb) * (SELECT s_num_out FROM security WHERE s_symb = w.wi_s_symb)), 0),
  coalesce(sum((SELECT dm_close FROM daily_market WHERE dm_s_symb = w.wi_s_symb AND dm_date = :day) * (SELECT s_num_out FROM security WHERE s_symb = w.wi_s_symb)), 0)
FROM watch_item w WHERE w.wi_wl_id IN (SELECT wl_id FROM watch_list WHERE wl_c_id = :c_id)
-- name: mw_account(ca_id, day)
SELECT coalesce(sum((SELECT lt_price FROM last_trade WHERE lt_s_symb = h.hs_s_symb) * (SELECT s_num_out FROM security WHERE s_symb = h.hs_s_symb)), 0),
  coalesce(sum((SELECT dm_close FROM daily_market WHERE dm_s_symb = h.hs_s_symb AND dm_date = :day) * (SELECT s_num_out FROM security WHERE s_symb = h.hs_s_symb)), 0)
FROM holding_summary h WHERE h.hs_ca_id = :ca_id
-- name: mw_industry(in_name, co_lo, co_hi, day)
SELECT coalesce(sum((SELECT lt_price FROM last_trade WHERE lt_s_symb = s.s_symb) * s.s_num_out), 0),
  coalesce(sum((SELECT dm_close FROM daily_market WHERE dm_s_symb = s.s_symb AND dm_date = :day) * s.s_num_out), 0)
FROM security s WHERE s.s_co_id >= :co_lo AND s.s_co_id <= :co_hi
  AND s.s_co_id IN (SELECT co_id FROM company WHERE co_in_id = (SELECT in_id FROM industry WHERE in_name = :in_name))
-- name: sd_security(symb)
SELECT s.s_name, c.co_id, c.co_name, c.co_sp_rate, c.co_ceo, c.co_desc, c.co_open_date,
  (SELECT ad_line1 FROM address WHERE ad_id = c.co_ad_id),
  (SELECT zc_town FROM zip_code WHERE zc_code = (SELECT ad_zc_code FROM address WHERE ad_id = c.co_ad_id)),
  (SELECT zc_div FROM zip_code WHERE zc_code = (SELECT ad_zc_code FROM address WHERE ad_id = c.co_ad_id)),
  e.ex_name, e.ex_open, e.ex_close, e.ex_num_symb, (SELECT ad_line1 FROM address WHERE ad_id = e.ex_ad_id),
  (SELECT zc_town FROM zip_code WHERE zc_code = (SELECT ad_zc_code FROM address WHERE ad_id = e.ex_ad_id))
FROM security s, company c, exchange e WHERE s.s_symb = :symb AND c.co_id = s.s_co_id AND e.ex_id = s.s_ex_id
-- name: sd_competitors(co_id)
SELECT (SELECT co_name FROM company WHERE co_id = cp.cp_comp_co_id), (SELECT in_name FROM industry WHERE in_id = cp.cp_in_id), cp.cp_comp_co_id
FROM company_competitor cp WHERE cp.cp_co_id = :co_id
-- name: sd_financial(co_id)
SELECT fi_year, fi_qtr, fi_qtr_start_date, fi_revenue, fi_net_earn, fi_basic_eps, fi_dilut_eps, fi_margin FROM financial WHERE fi_co_id = :co_id
-- name: sd_daily(symb, day)
SELECT dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market WHERE dm_s_symb = :symb AND dm_date >= :day
-- name: dm_row(symb, day)
SELECT dm_date, dm_close, dm_high, dm_low, dm_vol FROM daily_market WHERE dm_s_symb = :symb AND dm_date = :day
-- name: sd_last(symb)
SELECT lt_price, lt_open_price, lt_vol FROM last_trade WHERE lt_s_symb = :symb
-- name: sd_news(co_id)
SELECT ni_headline, ni_summary, ni_dts, ni_source, ni_author, ni_id FROM news_item WHERE ni_id IN (SELECT nx_ni_id FROM news_xref WHERE nx_co_id = :co_id)
-- name: sd_news_lob(co_id)
SELECT ni_item, ni_dts, ni_source, ni_author, ni_id FROM news_item WHERE ni_id IN (SELECT nx_ni_id FROM news_xref WHERE nx_co_id = :co_id)
-- name: tl_ids(t_lo, t_hi)
SELECT t.t_id, t.t_bid_price, t.t_exec_name, t.t_is_cash, t.t_trade_price,
  (SELECT se_amt FROM settlement WHERE se_t_id = t.t_id), (SELECT se_cash_due_date FROM settlement WHERE se_t_id = t.t_id),
  (SELECT se_cash_type FROM settlement WHERE se_t_id = t.t_id), (SELECT ct_amt FROM cash_transaction WHERE ct_t_id = t.t_id),
  (SELECT ct_dts FROM cash_transaction WHERE ct_t_id = t.t_id), (SELECT ct_name FROM cash_transaction WHERE ct_t_id = t.t_id)
FROM trade t WHERE t.t_id >= :t_lo AND t.t_id <= :t_hi
-- name: tl_history(t_lo, t_hi)
SELECT th_t_id, th_dts, th_st_id FROM trade_history WHERE th_t_id IN (SELECT t_id FROM trade WHERE t_id >= :t_lo AND t_id <= :t_hi)
-- name: tl_account(ca_id, t_start, t_end)
SELECT t.t_id, t.t_bid_price, t.t_exec_name, t.t_is_cash, t.t_trade_price, (SELECT se_amt FROM settlement WHERE se_t_id = t.t_id),
  (SELECT se_cash_type FROM settlement WHERE se_t_id = t.t_id), (SELECT ct_amt FROM cash_transaction WHERE ct_t_id = t.t_id),
  (SELECT ct_name FROM cash_transaction WHERE ct_t_id = t.t_id), t.t_dts
FROM trade t WHERE t.t_ca_id = :ca_id AND t.t_dts >= :t_start AND t.t_dts <= :t_end
-- name: tl_symbol(symb, t_start, t_end)
SELECT t.t_id, t.t_ca_id, t.t_exec_name, t.t_is_cash, t.t_trade_price, t.t_qty, t.t_dts, t.t_tt_id,
  (SELECT se_amt FROM settlement WHERE se_t_id = t.t_id), (SELECT ct_amt FROM cash_transaction WHERE ct_t_id = t.t_id)
FROM trade t WHERE t.t_s_symb = :symb AND t.t_dts >= :t_start AND t.t_dts <= :t_end
-- name: tl_first(ca_id, t_start)
SELECT t_id, t_dts FROM trade WHERE t_ca_id = :ca_id AND t_dts >= :t_start
-- name: tl_lots(t_id)
SELECT h.hh_h_t_id, h.hh_t_id, h.hh_before_qty, h.hh_after_qty FROM holding_history h
WHERE EXISTS (SELECT 1 FROM holding_history x WHERE x.hh_t_id = :t_id AND x.hh_h_t_id = h.hh_h_t_id)
-- name: ts(ca_id)
SELECT t.t_id, t.t_dts, (SELECT st_name FROM status_type WHERE st_id = t.t_st_id), (SELECT tt_name FROM trade_type WHERE tt_id = t.t_tt_id),
  t.t_s_symb, t.t_qty, t.t_exec_name, t.t_chrg, (SELECT s_name FROM security WHERE s_symb = t.t_s_symb),
  (SELECT ex_name FROM exchange WHERE ex_id = (SELECT s_ex_id FROM security WHERE s_symb = t.t_s_symb))
FROM trade t WHERE t.t_ca_id = :ca_id
-- name: ts_names(ca_id)
SELECT (SELECT c_l_name FROM customer WHERE c_id = a.ca_c_id), (SELECT c_f_name FROM customer WHERE c_id = a.ca_c_id),
  (SELECT b_name FROM broker WHERE b_id = a.ca_b_id) FROM customer_account a WHERE a.ca_id = :ca_id
-- name: to_account(ca_id)
SELECT a.ca_b_id, a.ca_c_id, a.ca_tax_st, a.ca_bal, (SELECT c_f_name FROM customer WHERE c_id = a.ca_c_id),
  (SELECT c_l_name FROM customer WHERE c_id = a.ca_c_id), (SELECT c_tier FROM customer WHERE c_id = a.ca_c_id),
  (SELECT c_tax_id FROM customer WHERE c_id = a.ca_c_id), (SELECT b_name FROM broker WHERE b_id = a.ca_b_id)
FROM customer_account a WHERE a.ca_id = :ca_id
-- name: to_permission(ca_id)
SELECT ap_f_name, ap_l_name, ap_acl, ap_tax_id FROM account_permission WHERE ap_ca_id = :ca_id
-- name: to_security(symb)
SELECT s.s_ex_id, s.s_name, (SELECT lt_price FROM last_trade WHERE lt_s_symb = s.s_symb) FROM security s WHERE s.s_symb = :symb
-- name: to_security_name(co_name, issue)
SELECT s.s_symb, s.s_ex_id, s.s_name, (SELECT lt_price FROM last_trade WHERE lt_s_symb = s.s_symb) FROM security s
WHERE s.s_issue = :issue AND s.s_co_id IN (SELECT co_id FROM company WHERE co_name = :co_name)
-- name: holding_summary_of(ca_id, symb)
SELECT hs_qty FROM holding_summary WHERE hs_ca_id = :ca_id AND hs_s_symb = :symb
-- name: lots_of(ca_id, symb)
SELECT h_t_id, h_qty, h_price, h_dts FROM holding WHERE h_ca_id = :ca_id AND h_s_symb = :symb
-- name: to_charge(tt_id, tier)
SELECT ch_chrg FROM charge WHERE ch_c_tier = :tier AND ch_tt_id = :tt_id
-- name: to_comm(tier, tt_id, ex_id)
SELECT cr_rate, cr_from_qty, cr_to_qty FROM commission_rate WHERE cr_c_tier = :tier AND cr_tt_id = :tt_id AND cr_ex_id = :ex_id
-- name: to_tax(c_id)
SELECT tx_rate FROM taxrate WHERE tx_id IN (SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = :c_id)
-- name: to_assets(ca_id)
SELECT h.hs_qty, (SELECT lt_price FROM last_trade WHERE lt_s_symb = h.hs_s_symb) FROM holding_summary h WHERE h.hs_ca_id = :ca_id
-- name: tr_bal(ca_id)
SELECT a.ca_bal FROM customer_account a WHERE a.ca_id = :ca_id
-- name: tr_trade(t_id)
SELECT t.t_ca_id, t.t_tt_id, t.t_s_symb, t.t_qty, t.t_chrg, t.t_lifo, t.t_is_cash, (SELECT tt_name FROM trade_type WHERE tt_id = t.t_tt_id),
  (SELECT tt_is_sell FROM trade_type WHERE tt_id = t.t_tt_id), (SELECT ca_b_id FROM customer_account WHERE ca_id = t.t_ca_id),
  (SELECT ca_c_id FROM customer_account WHERE ca_id = t.t_ca_id), (SELECT ca_tax_st FROM customer_account WHERE ca_id = t.t_ca_id),
  (SELECT c_tier FROM customer WHERE c_id = (SELECT ca_c_id FROM customer_account WHERE ca_id = t.t_ca_id)),
  (SELECT s_ex_id FROM security WHERE s_symb = t.t_s_symb), (SELECT s_name FROM security WHERE s_symb = t.t_s_symb)
FROM trade t WHERE t.t_id = :t_id
-- name: requests_of(symb)
SELECT tr_t_id, tr_tt_id, tr_bid_price FROM trade_request WHERE tr_s_symb = :symb
-- name: taxrates_of(c_id)
SELECT cx_tx_id FROM customer_taxrate WHERE cx_c_id = :c_id
-- name: watch_items_of(c_id)
SELECT wi_s_symb FROM watch_item WHERE wi_wl_id IN (SELECT wl_id FROM watch_list WHERE wl_c_id = :c_id)
`

// tapped is one statement a frame ran: its arguments and, for a read, what it returned.
type tapped struct {
	tx   int
	name string
	args []any
	rows [][]any
}

// norm makes a value comparable across the drivers' types: numbers as float64, times and dates as text.
func norm(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case []byte:
		return norm(string(x))
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05")
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	case int:
		return float64(x)
	case int16:
		return float64(x)
	case float32:
		return float64(x)
	case float64:
		return x
	case bool:
		return map[bool]float64{true: 1, false: 0}[x]
	case string:
		if x != "" && (x[0] >= '0' && x[0] <= '9' || x[0] == '-' || x[0] == '.') {
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return f
			}
		}
		if len(x) < 10 || x[4] != '-' {
			return x
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05", "2006-01-02"} {
			if t, err := time.Parse(layout, x); err == nil {
				return t.UTC().Format("2006-01-02 15:04:05")
			}
		}
		return x
	}
	return fmt.Sprint(v)
}

func normRow(r []any) []any {
	out := make([]any, len(r))
	for i, v := range r {
		out[i] = norm(v)
	}
	return out
}

func same(a, b any) bool {
	fa, okA := a.(float64)
	fb, okB := b.(float64)
	if okA && okB {
		return math.Abs(fa-fb) <= 0.005+1e-9*math.Max(math.Abs(fa), math.Abs(fb))
	}
	return a == b
}

func sameRow(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !same(a[i], b[i]) {
			return false
		}
	}
	return true
}

// cmpVal orders normalized values (NULL first).
func cmpVal(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	fa, okA := a.(float64)
	fb, okB := b.(float64)
	if okA && okB {
		return cmpF(fa, fb)
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpRows(a, b []any) int {
	for i := range min(len(a), len(b)) {
		if c := cmpVal(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// sameSet: the same rows, in any order.
func sameSet(got, want [][]any) bool {
	if len(got) != len(want) {
		return false
	}
	g, w := slices.Clone(got), slices.Clone(want)
	slices.SortFunc(g, cmpRows)
	slices.SortFunc(w, cmpRows)
	for i := range g {
		if !sameRow(g[i], w[i]) {
			return false
		}
	}
	return true
}

// top is the frame's "first n by key" checked against all the candidate rows: the got rows are n (or all) of
// them, in the key's order, and every row strictly before the nth key is among them (ties at the cut may go
// either way). key gives a row's sort key (desc: largest first).
func top(got, all [][]any, n int, key func([]any) []any, desc bool) error {
	order := func(a, b []any) int {
		c := cmpRows(key(a), key(b))
		if desc {
			return -c
		}
		return c
	}
	w := slices.Clone(all)
	slices.SortStableFunc(w, order)
	if len(w) > n {
		cut := key(w[n-1])
		var must [][]any
		for _, r := range w {
			if c := cmpRows(key(r), cut); desc && c > 0 || !desc && c < 0 {
				must = append(must, r)
			}
		}
		w = must
		if len(got) != n {
			return fmt.Errorf("%d rows, want %d", len(got), n)
		}
	} else if len(got) != len(w) {
		return fmt.Errorf("%d rows, want %d", len(got), len(w))
	}
	for i := 1; i < len(got); i++ {
		if order(got[i-1], got[i]) > 0 {
			return fmt.Errorf("rows %d and %d out of order: %v, %v", i-1, i, got[i-1], got[i])
		}
	}
	for _, r := range w {
		if !slices.ContainsFunc(got, func(g []any) bool { return sameRow(g, r) }) {
			return fmt.Errorf("missing row %v", r)
		}
	}
	for _, g := range got {
		if !slices.ContainsFunc(all, func(a []any) bool { return sameRow(g, a) }) {
			return fmt.Errorf("row %v is not among the candidates", g)
		}
	}
	return nil
}

func pick(rows [][]any, idx ...int) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = make([]any, len(idx))
		for j, k := range idx {
			out[i][j] = r[k]
		}
	}
	return out
}

// checker runs the independent statements in the frame's transaction.
type checker struct {
	ctx  context.Context
	stmt sqlfile.Set
}

func (c *checker) rows(q engine.Queryer, name string, args ...any) ([][]any, error) {
	st := c.stmt[name]
	if st == nil {
		return nil, fmt.Errorf("no independent statement %s", name)
	}
	rs, err := q.QueryContext(c.ctx, st.SQL, st.Args(args)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	defer rs.Close()
	n, _ := rs.Columns()
	var out [][]any
	for rs.Next() {
		vals := make([]any, len(n))
		ptrs := make([]any, len(n))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, normRow(vals))
	}
	return out, rs.Err()
}

func nf64(v any) float64 { f, _ := norm(v).(float64); return f }

// expect checks one frame read: nil when the frame returned what the specification's definition gives.
func (c *checker) expect(q engine.Queryer, name string, args []any, got [][]any) error {
	want := func(n string, a ...any) [][]any {
		r, err := c.rows(q, n, a...)
		if err != nil {
			panic(err)
		}
		return r
	}
	exact := func(w [][]any) error {
		if !sameSet(got, w) {
			return fmt.Errorf("got %v, want %v", got, w)
		}
		return nil
	}
	ordered := func(w [][]any) error {
		if len(got) != len(w) {
			return fmt.Errorf("%d rows, want %d: got %v, want %v", len(got), len(w), got, w)
		}
		for i := range w {
			if !sameRow(got[i], w[i]) {
				return fmt.Errorf("row %d: got %v, want %v", i, got[i], w[i])
			}
		}
		return nil
	}
	first := func(w [][]any, n int) [][]any { return w[:min(n, len(w))] }
	sortBy := func(w [][]any, key ...int) [][]any {
		slices.SortStableFunc(w, func(a, b []any) int { return cmpRows(pick([][]any{a}, key...)[0], pick([][]any{b}, key...)[0]) })
		return w
	}
	switch name {
	case "bv":
		var w [][]any
		for _, r := range want("bv", args...) {
			if r[1] != nil {
				w = append(w, r)
			}
		}
		return top(got, w, len(w)+1, func(r []any) []any { return r[1:2] }, true)
	case "cp_customer", "cp_customer_tax", "sd_security", "sd_last", "ts_names", "to_account", "to_security", "to_security_name", "tr_trade", "tr_bal":
		return exact(want(name, args...))
	case "cp_accounts":
		all := want(name, args...)
		return top(got, all, 10, func(r []any) []any { return r[2:3] }, false)
	case "cp_history":
		trades := want("cp_trades", args...)
		slices.SortStableFunc(trades, func(a, b []any) int { return -cmpVal(a[1], b[1]) })
		if len(trades) > 10 && cmpVal(trades[9][1], trades[10][1]) == 0 {
			return nil // the 10 latest are not one set (a tie at the cut): nothing to recompute
		}
		var hist [][]any
		for _, t := range first(trades, 10) {
			hist = append(hist, want("cp_trade_history", t[0])...)
		}
		return top(got, hist, 30, func(r []any) []any { return r[4:5] }, true)
	case "mw_watch", "mw_account", "mw_industry":
		return exact(want(name, args...))
	case "sd_competitors":
		return ordered(pick(first(sortBy(want(name, args...), 2), 3), 0, 1))
	case "sd_financial":
		return ordered(first(sortBy(want(name, args...), 0, 1), 20))
	case "sd_daily":
		return ordered(first(sortBy(want(name, args...), 0), 20))
	case "sd_news":
		return ordered(pick(first(sortBy(want(name, args...), 5), 2), 0, 1, 2, 3, 4))
	case "sd_news_lob":
		return ordered(pick(first(sortBy(want(name, args...), 4), 2), 0, 1, 2, 3))
	case "tl_ids":
		return ordered(first(sortBy(want(name, args...), 0), 20))
	case "tl_history":
		return top(got, want(name, args...), math.MaxInt32, func(r []any) []any { return r[0:2] }, false)
	case "tl_account":
		all := want(name, args...)
		return top(got, pick(all, 0, 1, 2, 3, 4, 5, 6, 7, 8), 20, func(r []any) []any {
			for _, a := range all {
				if sameRow(a[:9], r) {
					return a[9:10]
				}
			}
			return nil
		}, false)
	case "tl_symbol":
		return top(got, want(name, args...), 20, func(r []any) []any { return r[6:7] }, false)
	case "tl_first":
		all := want(name, args...)
		if len(all) == 0 {
			return exact(nil)
		}
		slices.SortStableFunc(all, func(a, b []any) int { return cmpVal(a[1], b[1]) })
		for _, a := range all {
			if cmpVal(a[1], all[0][1]) == 0 && len(got) == 1 && same(got[0][0], a[0]) {
				return nil
			}
		}
		return fmt.Errorf("got %v, want the account's first trade from %v: %v", got, args[1], all[0])
	case "tl_lots":
		return top(got, want(name, args...), 20, func(r []any) []any { return r[1:2] }, false)
	case "ts":
		return top(got, want(name, args...), 50, func(r []any) []any { return r[1:2] }, true)
	case "to_permission":
		var w [][]any
		for _, r := range sortBy(want(name, args[0]), 3) {
			if r[3] != norm(args[1]) {
				w = append(w, r[:3])
			}
		}
		return ordered(first(w, 1))
	case "to_holding":
		sum := 0.0
		for _, r := range want("holding_summary_of", args...) {
			sum += nf64(r[0])
		}
		return exact([][]any{{sum}})
	case "tr_hs":
		return exact(want("holding_summary_of", args...))
	case "to_lots", "tr_lots_lifo", "tr_lots_fifo":
		lots := want("lots_of", args...)
		slices.SortStableFunc(lots, func(a, b []any) int { // the latest first (LIFO), or the earliest (FIFO)
			c := cmpRows([]any{a[3], a[0]}, []any{b[3], b[0]})
			if name == "tr_lots_fifo" {
				return c
			}
			return -c
		})
		if name == "to_lots" {
			return ordered(pick(lots, 1, 2))
		}
		return ordered(pick(lots, 0, 1, 2))
	case "to_charge":
		return exact(want(name, args...))
	case "to_comm":
		var w [][]any
		for _, r := range want(name, args[0], args[1], args[2]) {
			if nf64(r[1]) <= nf64(args[3]) && nf64(args[4]) <= nf64(r[2]) {
				w = append(w, r[:1])
			}
		}
		if len(w) != 1 {
			return fmt.Errorf("%d commission rates for %v", len(w), args)
		}
		return exact(w)
	case "to_tax":
		sum := 0.0
		for _, r := range want(name, args...) {
			sum += nf64(r[0])
		}
		if len(got) != 1 || math.Abs(nf64(got[0][0])-sum) > 1e-9 {
			return fmt.Errorf("got %v, want %v", got, sum)
		}
		return nil
	case "to_assets":
		sum := 0.0
		for _, r := range want(name, args...) {
			sum += nf64(r[0]) * nf64(r[1])
		}
		return exact([][]any{{sum}})
	case "mf_triggered":
		var w [][]any
		p := nf64(args[1])
		for _, r := range want("requests_of", args[0]) {
			bid := nf64(r[2])
			switch r[1] {
			case "TSL", "TLB": // a stop-loss sells, a limit buy buys, when the price falls to the order's price
				if p <= bid {
					w = append(w, r[:1])
				}
			case "TLS": // a limit sell, when the price rises to it
				if p >= bid {
					w = append(w, r[:1])
				}
			}
		}
		return exact(w)
	case "dm_taxrate_of":
		var w [][]any
		for _, r := range want("taxrates_of", args...) {
			if s := r[0].(string); strings.HasPrefix(s, "US") || strings.HasPrefix(s, "CN") {
				w = append(w, r)
			}
		}
		return exact(w)
	case "dm_watch_first":
		w := sortBy(want("watch_items_of", args...), 0)
		if len(w) == 0 {
			return exact([][]any{{nil}})
		}
		return exact(w[:1])
	case "dm_watch_has":
		n := 0.0
		for _, r := range want("watch_items_of", args[0]) {
			if r[0] == norm(args[1]) {
				n++
			}
		}
		return exact([][]any{{n}})
	}
	return fmt.Errorf("no independent check for %s", name)
}

// frameEngines: SQLite in-process and the servers the tests run on, each in a database of its own.
func frameEngines(t *testing.T, db string) []string {
	out := []string{"sqlite://" + filepath.Join(t.TempDir(), "tpce.db")}
	for _, u := range testsrv.Servers(t) {
		out = append(out, testsrv.Beside(t, u, db))
	}
	return out
}

// tinyBuild makes url's database the smallest one (1,000 customers, one trade day: TinyAt) and opens a
// workload on it.
func tinyBuild(t *testing.T, url string) (*DB, *sql.DB) {
	t.Helper()
	TinyAt(t, url)
	ctx := context.Background()
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, tg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	_, raw := testsrv.Open(t, url)
	return db, raw
}

func newChecker(t *testing.T, db *DB) *checker {
	t.Helper()
	set, err := sqlfile.Load(fstest.MapFS{"x.sql": {Data: []byte(independent)}}, "x.sql", db.T.Engine.Placeholder)
	if err != nil {
		t.Fatal(err)
	}
	return &checker{ctx: context.Background(), stmt: set}
}

// newTestWorker is a virtual user of w whose choices follow seed, its statements tapped into log.
func newTestWorker(t *testing.T, w *Workload, seed uint64, log *[]tapped, cur *int) *worker {
	t.Helper()
	rw, err := w.NewWorker(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rw.Close)
	wk := rw.(*worker)
	wk.r = rand.New(rand.NewPCG(seed, 7))
	wk.tap = func(_ engine.Queryer, name string, args []any, rows [][]any) {
		nr := make([][]any, len(rows))
		for i, r := range rows {
			nr[i] = normRow(r)
		}
		*log = append(*log, tapped{*cur, name, slices.Clone(args), nr})
	}
	return wk
}

func TestFramesAgainstIndependentSQL(t *testing.T) {
	t.Parallel()
	for _, url := range frameEngines(t, "dbdyno_tpce_frames") {
		tg, _ := engine.Parse(url)
		t.Run(tg.Engine.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, raw := tinyBuild(t, url)
			w, err := db.NewWorkload(ctx, 11)
			if err != nil {
				t.Fatal(err)
			}
			c := newChecker(t, db)
			var log []tapped
			var cur int
			wk := newTestWorker(t, w, 3, &log, &cur)
			// every read is recomputed in the frame's own transaction, before the frame goes on
			reads := map[string]int{}
			var failures []string
			wk.tap = func(q engine.Queryer, name string, args []any, rows [][]any) {
				nr := make([][]any, len(rows))
				for i, r := range rows {
					nr[i] = normRow(r)
				}
				log = append(log, tapped{cur, name, slices.Clone(args), nr})
				if rows == nil && isWrite(name) {
					return
				}
				reads[name]++
				if err := c.expect(q, name, args, nr); err != nil && len(failures) < 20 {
					failures = append(failures, fmt.Sprintf("%s %s%v: %v", TxNames[cur], name, args, err))
				}
			}
			run := func(tx int) {
				cur = tx
				if out := wk.Do(ctx, tx); out.Err != nil {
					t.Fatalf("%s: %v", TxNames[tx], out.Err)
				}
			}
			// Trade-Orders first (the limit orders give Broker-Volume and Market-Feed something to find), each
			// checked by its effects
			for i := 0; i < 150; i++ {
				from := len(log)
				cur = TO
				out := wk.Do(ctx, TO)
				if out.Err != nil {
					t.Fatalf("Trade-Order: %v", out.Err)
				}
				checkTradeOrder(t, raw, log[from:], out.RolledBack)
			}
			for _, tx := range []int{BV, CP, MW, SD, TL, TS} {
				for i := 0; i < 40; i++ {
					run(tx)
				}
			}
			// Trade-Result of the market orders the MEE holds, each checked by its effects
			results := 0
			for {
				o, feed, ok := w.mee.next(time.Now().Add(time.Hour))
				if !ok {
					break
				}
				if feed != nil {
					continue
				}
				cur = TR
				before := tradeResultBefore(t, raw, o.tid)
				if err := wk.tradeResult(ctx, o); err != nil {
					t.Fatalf("Trade-Result %d: %v", o.tid, err)
				}
				checkTradeResult(t, raw, before)
				results++
			}
			if results < 30 {
				t.Fatalf("only %d Trade-Results", results)
			}
			// Market-Feed: a tick at a price that crosses a pending limit order
			var symb string
			var bid float64
			if err := raw.QueryRow("SELECT tr_s_symb, tr_bid_price FROM trade_request WHERE tr_tt_id = 'TLB' ORDER BY tr_t_id").Scan(&symb, &bid); err != nil {
				t.Fatalf("a pending limit buy: %v", err)
			}
			checkMarketFeed(t, raw, wk, symb, toCents(bid)-1)
			// Trade-Update's three frames, by their effects
			tuFrames := map[string]int{}
			before := tuSnapshot(t, raw)
			for i := 0; i < 15; i++ {
				from := len(log)
				run(TU)
				after := tuSnapshot(t, raw)
				checkTradeUpdate(t, before, after, log[from:], tuFrames)
				before = after // nothing runs between one Trade-Update and the next
			}
			if tuFrames["tu_exec"] == 0 || tuFrames["tu_cash_type"] == 0 || tuFrames["tu_ct_name"] == 0 {
				t.Errorf("Trade-Update's frames ran %v times: each of the three should have", tuFrames)
			}
			if len(failures) > 0 {
				t.Fatalf("frames that differ from the independent SQL:\n%s", strings.Join(failures, "\n"))
			}
			// every frame's reads were recomputed, Trade-Lookup's four frames among them
			for _, n := range []string{"bv", "cp_customer", "cp_customer_tax", "cp_accounts", "cp_history", "mw_watch", "mw_account",
				"mw_industry", "sd_security", "sd_competitors", "sd_financial", "sd_daily", "sd_last", "sd_news", "tl_ids", "tl_history",
				"tl_account", "tl_symbol", "tl_first", "tl_lots", "ts", "ts_names", "to_account", "to_permission", "to_security",
				"to_security_name", "to_holding", "to_lots", "to_charge", "to_comm", "to_tax", "to_assets", "tr_trade", "tr_hs",
				"tr_lots_lifo", "tr_lots_fifo", "mf_triggered"} {
				if reads[n] == 0 {
					t.Errorf("frame read %s never ran", n)
				}
			}
			t.Logf("%d frame reads recomputed", func() int {
				n := 0
				for _, v := range reads {
					n += v
				}
				return n
			}())
		})
	}
}

func isWrite(name string) bool {
	for _, p := range []string{"to_trade", "to_request", "th_", "tr_hh", "tr_lot_", "tr_hs_", "tr_tax", "tr_complete", "tr_broker",
		"tr_settlement", "tr_balance", "tr_cash", "mf_last", "mf_submit", "mf_request_done", "tu_", "dm_account", "dm_address",
		"dm_company", "dm_customer", "dm_daily", "dm_exchange", "dm_financial", "dm_news", "dm_security", "dm_taxrate(", "dm_watch_item"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return name == "dm_taxrate"
}

func one(t *testing.T, raw *sql.DB, q string, args ...any) []any {
	t.Helper()
	rs := query(t, raw, q, args...)
	if len(rs) != 1 {
		t.Fatalf("%s %v: %d rows, want 1", q, args, len(rs))
	}
	return rs[0]
}

// query runs a literal test query (its arguments inlined by the caller as numbers or quoted text).
func query(t *testing.T, raw *sql.DB, q string, args ...any) [][]any {
	t.Helper()
	rs, err := raw.Query(fmt.Sprintf(q, args...))
	if err != nil {
		t.Fatalf("%s: %v", fmt.Sprintf(q, args...), err)
	}
	defer rs.Close()
	n, _ := rs.Columns()
	var out [][]any
	for rs.Next() {
		vals := make([]any, len(n))
		ptrs := make([]any, len(n))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, normRow(vals))
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func argOf(log []tapped, name string) []any {
	for _, l := range log {
		if l.name == name {
			return l.args
		}
	}
	return nil
}

// checkTradeOrder: frame 4's rows as the specification makes them (the trade submitted or pending, its charge
// and commission from the tables, the limit order's request, one history row), or none after frame 5.
func checkTradeOrder(t *testing.T, raw *sql.DB, log []tapped, rolledBack bool) {
	t.Helper()
	a := argOf(log, "to_trade")
	if a == nil {
		t.Fatalf("Trade-Order wrote no trade: %v", log)
	}
	tid := a[0].(int64)
	n := one(t, raw, "SELECT count(*) FROM trade WHERE t_id = %d", tid)[0]
	h := one(t, raw, "SELECT count(*) FROM trade_history WHERE th_t_id = %d", tid)[0]
	if rolledBack {
		if n != 0.0 || h != 0.0 {
			t.Fatalf("Trade-Order %d rolled back (frame 5) but left %v trades, %v history rows", tid, n, h)
		}
		return
	}
	tr := one(t, raw, "SELECT t_st_id, t_tt_id, t_s_symb, t_qty, t_bid_price, t_ca_id, t_chrg, t_comm, t_trade_price, t_exec_name FROM trade WHERE t_id = %d", tid)
	ca := argOf(log, "to_account")[0].(int64)
	acct := one(t, raw, "SELECT ca_b_id, c_tier, c_f_name, c_l_name FROM customer_account, customer WHERE c_id = ca_c_id AND ca_id = %d", ca)
	tt := tr[1].(string)
	market := tt == "TMB" || tt == "TMS"
	wantSt := map[bool]string{true: "SBMT", false: "PNDG"}[market]
	if tr[0] != wantSt || tr[5] != float64(ca) || tr[8] != nil {
		t.Fatalf("trade %d: %v, want status %s, account %d, no trade price", tid, tr, wantSt, ca)
	}
	chrg := one(t, raw, "SELECT ch_chrg FROM charge WHERE ch_tt_id = '%s' AND ch_c_tier = %v", tt, acct[1])[0]
	sec := one(t, raw, "SELECT s_ex_id, (SELECT lt_price FROM last_trade WHERE lt_s_symb = s_symb) FROM security WHERE s_symb = '%s'", tr[2])
	rate := one(t, raw, "SELECT cr_rate FROM commission_rate WHERE cr_c_tier = %v AND cr_tt_id = '%s' AND cr_ex_id = '%s' AND cr_from_qty <= %v AND cr_to_qty >= %v",
		acct[1], tt, sec[0], tr[3], tr[3])[0]
	comm := math.Round(nf64(rate)*nf64(tr[3])*nf64(tr[4])) / 100
	if !same(tr[6], chrg) || !same(tr[7], comm) {
		t.Fatalf("trade %d: charge %v commission %v, want %v and %v (rate %v%% of %v x %v)", tid, tr[6], tr[7], chrg, comm, rate, tr[3], tr[4])
	}
	if market && !same(tr[4], sec[1]) {
		t.Fatalf("market order %d at %v, the last trade price is %v", tid, tr[4], sec[1])
	}
	exec, ok := tr[9].(string)
	named := ok && exec == acct[2].(string)+" "+acct[3].(string)
	for _, p := range query(t, raw, "SELECT ap_f_name, ap_l_name FROM account_permission WHERE ap_ca_id = %d", ca) {
		named = named || exec == p[0].(string)+" "+p[1].(string)
	}
	if !named {
		t.Fatalf("trade %d executed by %q, neither the customer nor a permitted person", tid, tr[9])
	}
	req := query(t, raw, "SELECT tr_tt_id, tr_s_symb, tr_qty, tr_bid_price, tr_b_id FROM trade_request WHERE tr_t_id = %d", tid)
	if market && len(req) != 0 || !market && (len(req) != 1 || !sameRow(req[0], []any{tt, tr[2], tr[3], tr[4], acct[0]})) {
		t.Fatalf("trade %d (%s): request %v", tid, tt, req)
	}
	hist := query(t, raw, "SELECT th_st_id FROM trade_history WHERE th_t_id = %d", tid)
	if len(hist) != 1 || hist[0][0] != wantSt {
		t.Fatalf("trade %d: history %v, want one %s", tid, hist, wantSt)
	}
}

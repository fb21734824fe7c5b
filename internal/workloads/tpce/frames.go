package tpce

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// The transactions' frames. Each frame is one Go method with the frame's inputs and one result set of outputs:
// in --mode sql it runs the frame's statements of tx.sql and builds its outputs in the client; in --mode
// procedures it is one call of the frame's stored procedure (procs.sql, called by calls.sql's proc_<frame>),
// which returns the same outputs. The client keeps the transaction (BEGIN, COMMIT, Trade-Order's rollback)
// in both modes, so a transaction is the same frames in one transaction either way.

// Rows are a frame's outputs: its result set's rows.
type Rows [][]any

// frame runs a frame: its procedure's call in procedures mode, else inSQL.
func (wk *worker) frame(ctx context.Context, t engine.Queryer, name string, args []any, inSQL func() (Rows, error)) (Rows, error) {
	var out Rows
	var err error
	if wk.w.procs {
		out, err = wk.rows(ctx, t, "proc_"+name, args...)
	} else {
		out, err = inSQL()
	}
	if wk.record != nil && err == nil {
		wk.record(name, out)
	}
	return out, err
}

// readRows reads a result set to its end.
func readRows(rows *sql.Rows, err error) (Rows, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out Rows
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return out, err
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				vals[i] = string(b)
			}
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

// one is a frame's single output row (sql.ErrNoRows when there is none).
func (r Rows) one(frame string) ([]any, error) {
	if len(r) == 0 {
		return nil, fmt.Errorf("%s: %w", frame, sql.ErrNoRows)
	}
	return r[0], nil
}

// The outputs' values as Go types, whatever the driver returned them as.
func i64(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	case int:
		return int64(x)
	case uint8:
		return int64(x)
	case bool:
		if x {
			return 1
		}
		return 0
	case float64:
		return int64(math.Round(x))
	case float32:
		return int64(math.Round(float64(x)))
	case string:
		if n, err := strconv.ParseInt(x, 10, 64); err == nil {
			return n
		}
		f, _ := strconv.ParseFloat(x, 64)
		return int64(math.Round(f))
	case []byte:
		return i64(string(x))
	}
	return 0
}

func f64(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case float32:
		return float64(x)
	case string:
		f, _ := strconv.ParseFloat(x, 64)
		return f
	case []byte:
		return f64(string(x))
	case nil:
		return 0
	}
	return float64(i64(v))
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	case time.Time:
		return stamp(x)
	}
	return fmt.Sprint(v)
}

// ---- Broker-Volume ----

// bv1: the pending orders' value per broker of a range, in one sector: (b_name, volume) rows.
func (wk *worker) bv1(ctx context.Context, t engine.Queryer, lo, hi int64, sector string) (Rows, error) {
	return wk.frame(ctx, t, "bv1", []any{lo, hi, sector}, func() (Rows, error) { return wk.rows(ctx, t, "bv", lo, hi, sector) })
}

// ---- Customer-Position ----

// cp1: the customer (by id, or by tax id when byTax) and up to 10 accounts: (ca_id, ca_bal, assets) rows.
func (wk *worker) cp1(ctx context.Context, t engine.Queryer, byTax bool, c int64, taxID string) (Rows, error) {
	return wk.frame(ctx, t, "cp1", []any{boolInt(byTax), c, taxID}, func() (Rows, error) {
		var cust Rows
		var err error
		if byTax {
			cust, err = wk.rows(ctx, t, "cp_customer_tax", taxID)
		} else {
			cust, err = wk.rows(ctx, t, "cp_customer", c)
		}
		if err != nil || len(cust) == 0 {
			return nil, err
		}
		return wk.rows(ctx, t, "cp_accounts", i64(cust[0][0]))
	})
}

// cp2: an account's latest trades and their history: (t_id, symbol, qty, status, time) rows.
func (wk *worker) cp2(ctx context.Context, t engine.Queryer, ca int64) (Rows, error) {
	return wk.frame(ctx, t, "cp2", []any{ca}, func() (Rows, error) { return wk.rows(ctx, t, "cp_history", ca) })
}

// ---- Market-Watch ----

// mw1: the market capitalisation now and on a day of a watch list (kind 0), an account's holdings (1) or an
// industry's companies (2): one row (now, old).
func (wk *worker) mw1(ctx context.Context, t engine.Queryer, kind int, c, ca int64, industry string, coLo, coHi int64, d string) (Rows, error) {
	return wk.frame(ctx, t, "mw1", []any{kind, c, ca, industry, coLo, coHi, d}, func() (Rows, error) {
		switch kind {
		case 0:
			return wk.rows(ctx, t, "mw_watch", c, d)
		case 1:
			return wk.rows(ctx, t, "mw_account", ca, d)
		}
		return wk.rows(ctx, t, "mw_industry", industry, coLo, coHi, d)
	})
}

// ---- Security-Detail ----

// sd1: the security, its company, competitors, financials, prices and news: one row (s_name, co_name,
// competitors, financial rows, daily rows, last price, news items).
func (wk *worker) sd1(ctx context.Context, t engine.Queryer, sym string, co int64, start string, lob bool) (Rows, error) {
	return wk.frame(ctx, t, "sd1", []any{sym, co, start, boolInt(lob)}, func() (Rows, error) {
		sec, err := wk.rows(ctx, t, "sd_security", sym)
		if err != nil {
			return nil, err
		}
		row, err := sec.one("sd_security")
		if err != nil {
			return nil, err
		}
		out := []any{row[0], row[2]}
		for _, st := range []struct {
			name string
			args []any
		}{{"sd_competitors", []any{co}}, {"sd_financial", []any{co}}, {"sd_daily", []any{sym, start}}} {
			n, err := wk.count(ctx, t, st.name, st.args...)
			if err != nil {
				return nil, err
			}
			out = append(out, n)
		}
		last, err := wk.rows(ctx, t, "sd_last", sym)
		if err != nil {
			return nil, err
		}
		lt, err := last.one("sd_last")
		if err != nil {
			return nil, err
		}
		news, err := wk.count(ctx, t, map[bool]string{true: "sd_news_lob", false: "sd_news"}[lob], co)
		if err != nil {
			return nil, err
		}
		return Rows{append(out, lt[0], news)}, nil
	})
}

// ---- Trade-Lookup and Trade-Update ----

// tl1: trades by id (a range of 20), with their settlement and cash and their history; Trade-Update's frame 1
// (update) first swaps the executor's name. One row (trades, their settlements' sum, history rows).
func (wk *worker) tl1(ctx context.Context, t engine.Queryer, update bool, lo, hi int64) (Rows, error) {
	return wk.frame(ctx, t, "tl1", []any{boolInt(update), lo, hi}, func() (Rows, error) {
		if update {
			if _, err := wk.exec(ctx, t, "tu_exec", lo, hi); err != nil {
				return nil, err
			}
		}
		trades, err := wk.rows(ctx, t, "tl_ids", lo, hi)
		if err != nil {
			return nil, err
		}
		var sum float64
		for _, r := range trades {
			sum += f64(r[5])
		}
		hist, err := wk.count(ctx, t, "tl_history", lo, hi)
		if err != nil {
			return nil, err
		}
		return Rows{{int64(len(trades)), money(toCents(sum)), hist}}, nil
	})
}

// tl2: an account's trades in a window with settlement and cash; Trade-Update's frame 2 (update) then swaps
// their settlements' cash type. One row (trades, their settlements' sum).
func (wk *worker) tl2(ctx context.Context, t engine.Queryer, update bool, ca int64, start, end string) (Rows, error) {
	return wk.frame(ctx, t, "tl2", []any{boolInt(update), ca, start, end}, func() (Rows, error) {
		trades, err := wk.rows(ctx, t, "tl_account", ca, start, end)
		if err != nil {
			return nil, err
		}
		var sum float64
		for _, r := range trades {
			sum += f64(r[5])
			if update {
				if _, err := wk.exec(ctx, t, "tu_cash_type", i64(r[0])); err != nil {
					return nil, err
				}
			}
		}
		return Rows{{int64(len(trades)), money(toCents(sum))}}, nil
	})
}

// tl3: a security's trades in a window with settlement and cash; Trade-Update's frame 3 (update) then swaps
// the case of their cash transactions' names. One row (trades, their quantity).
func (wk *worker) tl3(ctx context.Context, t engine.Queryer, update bool, sym, start, end string) (Rows, error) {
	return wk.frame(ctx, t, "tl3", []any{boolInt(update), sym, start, end}, func() (Rows, error) {
		trades, err := wk.rows(ctx, t, "tl_symbol", sym, start, end)
		if err != nil {
			return nil, err
		}
		var qty int64
		for _, r := range trades {
			qty += i64(r[5])
			if update {
				if _, err := wk.exec(ctx, t, "tu_ct_name", i64(r[0])); err != nil {
					return nil, err
				}
			}
		}
		return Rows{{int64(len(trades)), qty}}, nil
	})
}

// tl4: an account's first trade from a time and the history of the lots it touched. One row (t_id or 0,
// history rows).
func (wk *worker) tl4(ctx context.Context, t engine.Queryer, ca int64, start string) (Rows, error) {
	return wk.frame(ctx, t, "tl4", []any{ca, start}, func() (Rows, error) {
		first, err := wk.rows(ctx, t, "tl_first", ca, start)
		if err != nil {
			return nil, err
		}
		if len(first) == 0 {
			return Rows{{int64(0), int64(0)}}, nil
		}
		id := i64(first[0][0])
		n, err := wk.count(ctx, t, "tl_lots", id)
		return Rows{{id, n}}, err
	})
}

// ---- Trade-Status ----

// ts1: an account's latest 50 trades, the customer's and broker's names. One row (trades, c_l_name,
// c_f_name, b_name).
func (wk *worker) ts1(ctx context.Context, t engine.Queryer, ca int64) (Rows, error) {
	return wk.frame(ctx, t, "ts1", []any{ca}, func() (Rows, error) {
		n, err := wk.count(ctx, t, "ts", ca)
		if err != nil {
			return nil, err
		}
		names, err := wk.rows(ctx, t, "ts_names", ca)
		if err != nil {
			return nil, err
		}
		row, err := names.one("ts_names")
		if err != nil {
			return nil, err
		}
		return Rows{{n, row[0], row[1], row[2]}}, nil
	})
}

// ---- Trade-Order ----

// to1: the account, its customer and broker. One row (b_id, c_id, tax status, balance, first name, last name,
// tier, tax id, broker's name).
func (wk *worker) to1(ctx context.Context, t engine.Queryer, ca int64) (Rows, error) {
	return wk.frame(ctx, t, "to1", []any{ca}, func() (Rows, error) { return wk.rows(ctx, t, "to_account", ca) })
}

// to2: another executor's permission on the account: none or one row (first name, last name, acl).
func (wk *worker) to2(ctx context.Context, t engine.Queryer, ca int64, taxID string) (Rows, error) {
	return wk.frame(ctx, t, "to2", []any{ca, taxID}, func() (Rows, error) { return wk.rows(ctx, t, "to_permission", ca, taxID) })
}

// to3in are Trade-Order frame 3's inputs.
type to3in struct {
	byName      bool
	sym, coName string
	issue       string
	ca, c, tier int64
	tt          string
	qty         int64
	tax, margin bool // whether the order needs the customer's tax rate (a taxable sell) and the account's assets (a margin buy)
}

// to3: the security (by symbol, or by company name and issue), its price, the account's position in it, the
// order's charge and commission rate, the tax rate and the margin assets when needed. One row (symbol,
// exchange, s_name, last price, held quantity, lots, charge, commission rate, tax rate, assets).
func (wk *worker) to3(ctx context.Context, t engine.Queryer, in to3in) (Rows, error) {
	args := []any{boolInt(in.byName), in.sym, in.coName, in.issue, in.ca, in.c, in.tier, in.tt, in.qty, boolInt(in.tax), boolInt(in.margin)}
	return wk.frame(ctx, t, "to3", args, func() (Rows, error) {
		var sec Rows
		var err error
		if in.byName {
			sec, err = wk.rows(ctx, t, "to_security_name", in.coName, in.issue)
		} else {
			sec, err = wk.rows(ctx, t, "to_security", in.sym)
			if len(sec) > 0 {
				sec[0] = append([]any{in.sym}, sec[0]...)
			}
		}
		if err != nil {
			return nil, err
		}
		s, err := sec.one("to_security")
		if err != nil {
			return nil, err
		}
		sym, exID := str(s[0]), str(s[1])
		out := []any{sym, exID, s[2], s[3]}
		var held int64
		if err := wk.one(ctx, t, "to_holding", []any{in.ca, sym}, &held); err != nil {
			return nil, err
		}
		lots, err := wk.count(ctx, t, "to_lots", in.ca, sym)
		if err != nil {
			return nil, err
		}
		var chrg, rate, tax, assets float64
		if err := wk.one(ctx, t, "to_charge", []any{in.tt, in.tier}, &chrg); err != nil {
			return nil, err
		}
		if err := wk.one(ctx, t, "to_comm", []any{in.tier, in.tt, exID, in.qty, in.qty}, &rate); err != nil {
			return nil, err
		}
		if in.tax {
			if err := wk.one(ctx, t, "to_tax", []any{in.c}, &tax); err != nil {
				return nil, err
			}
		}
		if in.margin {
			if err := wk.one(ctx, t, "to_assets", []any{in.ca}, &assets); err != nil {
				return nil, err
			}
		}
		return Rows{append(out, held, lots, chrg, rate, tax, assets)}, nil
	})
}

// to4in are Trade-Order frame 4's inputs: the trade as it is inserted.
type to4in struct {
	tid              int64
	now, st, tt, sym string
	cash             bool
	qty              int64
	bid              float64
	ca               int64
	exec             string
	chrg, comm       float64
	lifo, pending    bool // pending: a limit order, which waits in trade_request
	b                int64
}

// to4: the trade (no price yet), its pending request for a limit order, its first history row. One row (t_id).
func (wk *worker) to4(ctx context.Context, t engine.Queryer, in to4in) (Rows, error) {
	args := []any{in.tid, in.now, in.st, in.tt, boolInt(in.cash), in.sym, in.qty, in.bid, in.ca, in.exec, in.chrg, in.comm, boolInt(in.lifo), boolInt(in.pending), in.b}
	return wk.frame(ctx, t, "to4", args, func() (Rows, error) {
		if _, err := wk.exec(ctx, t, "to_trade", in.tid, in.now, in.st, in.tt, boolInt(in.cash), in.sym, in.qty, in.bid, in.ca, in.exec, in.chrg, in.comm, boolInt(in.lifo)); err != nil {
			return nil, err
		}
		if in.pending {
			if _, err := wk.exec(ctx, t, "to_request", in.tid, in.tt, in.sym, in.qty, in.bid, in.b); err != nil {
				return nil, err
			}
		}
		if _, err := wk.exec(ctx, t, "th_insert", in.tid, in.now, in.st); err != nil {
			return nil, err
		}
		return Rows{{in.tid}}, nil
	})
}

// ---- Trade-Result ----

// tr1: the trade, its type, account, customer and security, and the account's holding summary of it. One row
// (ca_id, tt_id, symbol, qty, charge, lifo, is_cash, tt_name, is_sell, b_id, c_id, tax status, tier, ex_id,
// s_name, has a summary, summary quantity).
func (wk *worker) tr1(ctx context.Context, t engine.Queryer, tid int64) (Rows, error) {
	return wk.frame(ctx, t, "tr1", []any{tid}, func() (Rows, error) {
		tr, err := wk.rows(ctx, t, "tr_trade", tid)
		if err != nil {
			return nil, err
		}
		row, err := tr.one("tr_trade")
		if err != nil {
			return nil, err
		}
		hs, err := wk.rows(ctx, t, "tr_hs", i64(row[0]), str(row[2]))
		if err != nil {
			return nil, err
		}
		if len(hs) == 0 {
			return Rows{append(row, int64(0), int64(0))}, nil
		}
		return Rows{append(row, int64(1), i64(hs[0][0]))}, nil
	})
}

// tr2in are Trade-Result frame 2's inputs.
type tr2in struct {
	tid, ca int64
	sym     string
	qty     int64
	sell    bool
	lifo    bool
	price   int64 // cents
	now     string
	hs      int64 // the holding summary's quantity
	hasHS   bool
}

// tr2: the positions. A sell closes long lots, a buy short ones (LIFO or FIFO), each with its holding history
// row; the rest opens a lot of its own; the holding summary follows. One row (buy value, sell value) of the
// lots closed.
func (wk *worker) tr2(ctx context.Context, t engine.Queryer, in tr2in) (Rows, error) {
	args := []any{in.tid, in.ca, in.sym, in.qty, boolInt(in.sell), boolInt(in.lifo), money(in.price), in.now, in.hs, boolInt(in.hasHS)}
	return wk.frame(ctx, t, "tr2", args, func() (Rows, error) {
		sign := int64(1)
		if in.sell {
			sign = -1
		}
		lotsStmt := "tr_lots_fifo"
		if in.lifo {
			lotsStmt = "tr_lots_lifo"
		}
		lots, err := wk.rows(ctx, t, lotsStmt, in.ca, in.sym)
		if err != nil {
			return nil, err
		}
		left := in.qty
		var buyValue, sellValue int64
		for _, l := range lots {
			id, lq, lp := i64(l[0]), i64(l[1]), toCents(f64(l[2]))
			if left == 0 || lq*sign >= 0 { // only lots of the other side are closed
				break
			}
			take := min(left, abs(lq))
			after := lq + sign*take
			if _, err := wk.exec(ctx, t, "tr_hh", id, in.tid, lq, after); err != nil {
				return nil, err
			}
			if after == 0 {
				_, err = wk.exec(ctx, t, "tr_lot_delete", id)
			} else {
				_, err = wk.exec(ctx, t, "tr_lot_update", id, after)
			}
			if err != nil {
				return nil, err
			}
			if sign < 0 { // selling a long lot: bought at its price
				buyValue += take * lp
				sellValue += take * in.price
			} else { // covering a short lot: sold at its price
				sellValue += take * lp
				buyValue += take * in.price
			}
			left -= take
		}
		if left > 0 {
			if _, err := wk.exec(ctx, t, "tr_hh", in.tid, in.tid, 0, sign*left); err != nil {
				return nil, err
			}
			if _, err := wk.exec(ctx, t, "tr_lot_insert", in.tid, in.ca, in.sym, in.now, money(in.price), sign*left); err != nil {
				return nil, err
			}
		}
		newHS := in.hs + sign*in.qty
		switch {
		case !in.hasHS:
			_, err = wk.exec(ctx, t, "tr_hs_insert", in.ca, in.sym, newHS)
		case newHS == 0:
			_, err = wk.exec(ctx, t, "tr_hs_delete", in.ca, in.sym)
		default:
			_, err = wk.exec(ctx, t, "tr_hs_update", in.ca, in.sym, newHS)
		}
		if err != nil {
			return nil, err
		}
		return Rows{{money(buyValue), money(sellValue)}}, nil
	})
}

// tr3: the tax on a gain (cents) at the customer's rate, set on the trade. One row (tax).
func (wk *worker) tr3(ctx context.Context, t engine.Queryer, tid, c, gain int64) (Rows, error) {
	return wk.frame(ctx, t, "tr3", []any{tid, c, money(gain)}, func() (Rows, error) {
		var rate float64
		if err := wk.one(ctx, t, "to_tax", []any{c}, &rate); err != nil {
			return nil, err
		}
		tax := money(int64(math.Round(float64(gain) * rate)))
		if _, err := wk.exec(ctx, t, "tr_tax", tid, tax); err != nil {
			return nil, err
		}
		return Rows{{tax}}, nil
	})
}

// tr4: the commission rate. One row (rate).
func (wk *worker) tr4(ctx context.Context, t engine.Queryer, tier int64, tt, ex string, qty int64) (Rows, error) {
	return wk.frame(ctx, t, "tr4", []any{tier, tt, ex, qty}, func() (Rows, error) {
		return wk.rows(ctx, t, "to_comm", tier, tt, ex, qty, qty)
	})
}

// tr5: the trade completes (commission, time, price; its CMPT history row) and its broker's totals. One row
// (t_id).
func (wk *worker) tr5(ctx context.Context, t engine.Queryer, tid int64, comm float64, now string, price float64, b int64) (Rows, error) {
	return wk.frame(ctx, t, "tr5", []any{tid, comm, now, price, b}, func() (Rows, error) {
		for _, st := range []struct {
			name string
			args []any
		}{{"tr_complete", []any{tid, comm, now, price}}, {"th_insert", []any{tid, now, "CMPT"}}, {"tr_broker", []any{b, comm}}} {
			if _, err := wk.exec(ctx, t, st.name, st.args...); err != nil {
				return nil, err
			}
		}
		return Rows{{tid}}, nil
	})
}

// tr6: the settlement and, for a cash trade, the balance and the cash transaction. One row (the account's
// balance).
func (wk *worker) tr6(ctx context.Context, t engine.Queryer, tid int64, cash bool, due string, amt float64, ca int64, now, ctName string) (Rows, error) {
	return wk.frame(ctx, t, "tr6", []any{tid, boolInt(cash), due, amt, ca, now, ctName}, func() (Rows, error) {
		cashType := "Margin"
		if cash {
			cashType = "Cash Account"
		}
		if _, err := wk.exec(ctx, t, "tr_settlement", tid, cashType, due, amt); err != nil {
			return nil, err
		}
		if cash {
			if _, err := wk.exec(ctx, t, "tr_balance", ca, amt); err != nil {
				return nil, err
			}
			if _, err := wk.exec(ctx, t, "tr_cash", tid, now, amt, ctName); err != nil {
				return nil, err
			}
		}
		return wk.rows(ctx, t, "tr_bal", ca)
	})
}

// ---- Market-Feed ----

// mf1: one ticker entry: its price into last_trade, and the limit orders it triggers submitted (out of
// trade_request, SBMT, a history row; an order a concurrent feed took first is left to it). The triggered trades' rows (t_id), in id order.
func (wk *worker) mf1(ctx context.Context, t engine.Queryer, sym string, price float64, qty int64, now string) (Rows, error) {
	return wk.frame(ctx, t, "mf1", []any{sym, price, qty, now}, func() (Rows, error) {
		if _, err := wk.exec(ctx, t, "mf_last", sym, price, qty, now); err != nil {
			return nil, err
		}
		ids, err := wk.rows(ctx, t, "mf_triggered", sym, price, price, price)
		if err != nil {
			return nil, err
		}
		var out Rows
		for _, r := range ids {
			// the request is taken out first: a concurrent feed that took it already leaves it to that feed
			id := i64(r[0])
			n, err := wk.exec(ctx, t, "mf_request_done", id)
			if err != nil {
				return nil, err
			}
			if n == 0 {
				continue
			}
			if _, err := wk.exec(ctx, t, "mf_submit", id, now); err != nil {
				return nil, err
			}
			if _, err := wk.exec(ctx, t, "th_insert", id, now, "SBMT"); err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	})
}

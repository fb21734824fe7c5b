package tpce

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method/runner"
)

// Workload is one run's shared state: the build's size, the trade ids, the market exchange emulator and the
// Data-Maintenance clock.
type Workload struct {
	db      *DB
	meta    *Meta
	seed    uint64
	nextTID atomic.Int64
	mee     *mee
	dmNext  atomic.Int64 // unix nanos of the next Data-Maintenance
	dmTurn  atomic.Int64 // its table, in turn
	mu      sync.Mutex
	ceCount [8]int64 // the customer emulator's choices (the measured mix's CE part is the runner's counts)
	trips   tripCount
}

// NewWorkload reads the build record, runs Trade-Cleanup and readies the emulators.
func (db *DB) NewWorkload(ctx context.Context, seed uint64) (*Workload, error) {
	m, err := db.ReadMeta(ctx)
	if err != nil {
		return nil, err
	}
	w := &Workload{db: db, meta: m, seed: seed, mee: newMEE(seed)}
	var maxID int64
	if err := db.Data.SQL.QueryRowContext(ctx, db.Stmts["max_trade"].SQL).Scan(&maxID); err != nil {
		return nil, fmt.Errorf("max_trade: %w", err)
	}
	w.nextTID.Store(max(maxID, m.Size.FirstRuntimeTradeID()-1))
	if err := db.Cleanup(ctx, m); err != nil {
		return nil, err
	}
	w.dmNext.Store(time.Now().Add(time.Minute).UnixNano())
	return w, nil
}

// Cleanup is Trade-Cleanup: the pending limit orders and the submitted trades an earlier run left are cancelled.
func (db *DB) Cleanup(ctx context.Context, m *Meta) error {
	conn, err := db.Data.SQL.Conn(ctx)
	if err != nil {
		return db.T.ConnectError(err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := stamp(time.Now())
	first := m.Size.FirstRuntimeTradeID()
	for _, s := range []struct {
		name string
		args []any
	}{{"tc_pending_sbmt", []any{now}}, {"tc_pending_cncl", []any{now}}, {"tc_pending_trades", nil}, {"tc_pending_done", nil},
		{"tc_submitted_cncl", []any{now, first}}, {"tc_submitted", []any{first}}} {
		if _, err := db.exec(ctx, tx, s.name, s.args...); err != nil {
			return fmt.Errorf("Trade-Cleanup: %w", err)
		}
	}
	return tx.Commit()
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") }
func day(d int32) string       { return time.Unix(int64(d)*86400, 0).UTC().Format("2006-01-02") }
func money(c int64) float64    { return float64(c) / 100 }
func toCents(v float64) int64  { return int64(math.Round(v * 100)) }

// Transactions are the transactions' names.
func (w *Workload) Transactions() []string { return TxNames }

// NewWorker opens a virtual user's connection.
func (w *Workload) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	conn, err := runner.Conn(ctx, w.db.Data.SQL, w.db.T)
	if err != nil {
		return nil, err
	}
	wk := &worker{w: w, conn: conn, r: rand.New(rand.NewPCG(w.seed, uint64(vu)+1)), deck: newDeck()}
	wk.Set(engine.Interrupter(conn))
	return wk, nil
}

type worker struct {
	runner.Cut
	w    *Workload
	conn *sql.Conn
	r    *rand.Rand
	deck *deck
	ord  order
	feed []tick
	tap  func(e engine.Queryer, name string, args []any, rows [][]any) // tests: each frame's reads and what they returned, in its transaction
}

func (wk *worker) Close() { wk.conn.Close() }

func (wk *worker) Reconnect(ctx context.Context) error {
	wk.conn.Close()
	conn, err := runner.Conn(ctx, wk.w.db.Data.SQL, wk.w.db.T)
	if err != nil {
		return err
	}
	wk.conn = conn
	wk.Set(engine.Interrupter(conn))
	return nil
}

// Next: Data-Maintenance when its minute is up, else the MEE's due Trade-Result or Market-Feed, else the
// customer emulator's next card.
func (wk *worker) Next() (int, time.Duration, time.Duration) {
	now := time.Now()
	if n := wk.w.dmNext.Load(); now.UnixNano() >= n && wk.w.dmNext.CompareAndSwap(n, now.Add(time.Minute).UnixNano()) {
		return DM, 0, 0
	}
	if o, feed, ok := wk.w.mee.next(now); ok {
		if feed != nil {
			wk.feed = feed
			return MF, 0, 0
		}
		wk.ord = o
		return TR, 0, 0
	}
	tx := wk.deck.draw(wk.r)
	wk.w.mu.Lock()
	wk.w.ceCount[tx]++
	wk.w.mu.Unlock()
	return tx, 0, 0
}

func (wk *worker) Do(ctx context.Context, tx int) runner.Outcome {
	var out runner.Outcome
	wk.w.trips.tx.Add(1)
	for attempt := 0; ; attempt++ {
		wk.w.trips.n.Add(2) // its begin and commit (or rollback)
		rolledBack, err := wk.do(ctx, tx)
		if err != nil && wk.w.db.T.Engine.Classify(err) == engine.Retryable && attempt < 10 && ctx.Err() == nil {
			out.Retries++
			continue
		}
		if err != nil {
			out.Err = fmt.Errorf("%s: %w", TxNames[tx], err)
			out.ConnLost = wk.w.db.T.Engine.Classify(err) == engine.ConnLost || errors.Is(err, sql.ErrConnDone)
		}
		out.RolledBack = rolledBack
		return out
	}
}

// q is a statement's rows; one scans its single row (sql.ErrNoRows when there is none).
func (wk *worker) q(ctx context.Context, e engine.Queryer, name string, args ...any) (*sql.Rows, error) {
	st := wk.w.db.Stmts[name]
	wk.w.trips.n.Add(1)
	if wk.tap != nil {
		if err := wk.tapRows(ctx, e, name, args); err != nil {
			return nil, err
		}
	}
	r, err := e.QueryContext(ctx, st.SQL, st.Args(args)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return r, nil
}

func (wk *worker) one(ctx context.Context, e engine.Queryer, name string, args []any, dest ...any) error {
	st := wk.w.db.Stmts[name]
	wk.w.trips.n.Add(1)
	err := e.QueryRowContext(ctx, st.SQL, st.Args(args)...).Scan(dest...)
	if wk.tap != nil && (err == nil || errors.Is(err, sql.ErrNoRows)) {
		wk.tapOne(e, name, args, err, dest)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// drain reads a result set to its end (the rows a frame returns).
func drain(rows *sql.Rows, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}

func (wk *worker) exec(ctx context.Context, e engine.Queryer, name string, args ...any) (int64, error) {
	wk.w.trips.n.Add(1)
	if wk.tap != nil {
		wk.tap(e, name, args, nil) // a write: the test sees its arguments before it runs
	}
	r, err := wk.w.db.exec(ctx, e, name, args...)
	if err != nil {
		return 0, err
	}
	n, _ := r.RowsAffected()
	return n, nil
}

// read runs a read-only transaction's statements.
func (wk *worker) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := wk.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

func (wk *worker) account() (c, ca int64) {
	s := wk.w.meta.Size
	c = PickCustomer(wk.r, s.Customers)
	return c, AccountID(c, wk.r.Int64N(Accounts(wk.w.meta.Seed, c)))
}

func (wk *worker) do(ctx context.Context, tx int) (bool, error) {
	s, r := wk.w.meta.Size, wk.r
	switch tx {
	case BV:
		n := 20 + r.Int64N(21)
		lo := 1 + r.Int64N(max(1, s.Brokers()-n+1))
		return false, wk.read(ctx, func(t *sql.Tx) error {
			_, err := drain(wk.q(ctx, t, "bv", lo, lo+n-1, Sectors[r.IntN(len(Sectors))]))
			return err
		})
	case CP:
		c, _ := wk.account()
		return false, wk.read(ctx, func(t *sql.Tx) error {
			var err error
			if r.IntN(2) == 0 {
				_, err = drain(wk.q(ctx, t, "cp_customer", c))
			} else {
				_, err = drain(wk.q(ctx, t, "cp_customer_tax", TaxID(c)))
			}
			if err != nil {
				return err
			}
			rows, err := wk.q(ctx, t, "cp_accounts", c)
			if err != nil {
				return err
			}
			var accts []int64
			for rows.Next() {
				var ca int64
				var bal, assets float64
				if err := rows.Scan(&ca, &bal, &assets); err != nil {
					rows.Close()
					return err
				}
				accts = append(accts, ca)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			if r.IntN(2) == 0 && len(accts) > 0 {
				_, err = drain(wk.q(ctx, t, "cp_history", accts[r.IntN(len(accts))]))
			}
			return err
		})
	case MW:
		c, ca := wk.account()
		week := NURnd(r, 0, 255, 255, 0) + 5
		wd := int64(4)
		switch u := r.IntN(100); {
		case u < 20:
			wd = 0
		case u < 27:
			wd = 1
		case u < 33:
			wd = 2
		case u < 40:
			wd = 3
		}
		d := day(Workday(marketStartDay, min(DailyMarketDays-1, week*5+wd)))
		return false, wk.read(ctx, func(t *sql.Tx) error {
			var now, old float64
			var err error
			switch u := r.IntN(100); {
			case u < 60:
				err = wk.one(ctx, t, "mw_watch", []any{c, d}, &now, &old)
			case u < 95:
				err = wk.one(ctx, t, "mw_account", []any{ca, d}, &now, &old)
			default:
				lo := 1 + r.Int64N(s.Companies())
				err = wk.one(ctx, t, "mw_industry", []any{industryName(r.IntN(nIndustries)), lo, lo + 5000, d}, &now, &old)
			}
			return err
		})
	case SD:
		i := r.Int64N(s.Securities())
		sym := Symbol(i)
		co, _ := s.SecurityCompany(i)
		start := day(Workday(marketStartDay, r.Int64N(DailyMarketDays-20)))
		lob := r.IntN(100) == 0
		return false, wk.read(ctx, func(t *sql.Tx) error {
			for _, st := range []struct {
				name string
				args []any
			}{{"sd_security", []any{sym}}, {"sd_competitors", []any{co}}, {"sd_financial", []any{co}}, {"sd_daily", []any{sym, start}},
				{"sd_last", []any{sym}}, {map[bool]string{true: "sd_news_lob", false: "sd_news"}[lob], []any{co}}} {
				if _, err := drain(wk.q(ctx, t, st.name, st.args...)); err != nil {
					return err
				}
			}
			return nil
		})
	case TL, TU:
		return false, wk.lookup(ctx, tx == TU)
	case TS:
		_, ca := wk.account()
		return false, wk.read(ctx, func(t *sql.Tx) error {
			if _, err := drain(wk.q(ctx, t, "ts", ca)); err != nil {
				return err
			}
			_, err := drain(wk.q(ctx, t, "ts_names", ca))
			return err
		})
	case TO:
		return wk.tradeOrder(ctx)
	case TR:
		return false, wk.tradeResult(ctx, wk.ord)
	case MF:
		return false, wk.marketFeed(ctx, wk.feed)
	case DM:
		return false, wk.maintenance(ctx)
	}
	return false, fmt.Errorf("no transaction %d", tx)
}

// lookup is Trade-Lookup (frames 1-4: 30/30/30/10%) or, with update, Trade-Update (frames 1-3: 33/33/34%).
func (wk *worker) lookup(ctx context.Context, update bool) error {
	s, r := wk.w.meta.Size, wk.r
	tx, err := wk.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	initial := TradeID(s.Trades())
	period := s.TradeDays * HoursPerDay * 3600
	at := func(backoff int64) string {
		return stamp(TradeTime(NURnd(r, 0, max(1, period-backoff), 4095, 16) % period))
	}
	u := r.IntN(100)
	switch {
	case u < 30 || update && u < 33:
		lo := NURnd(r, 1, max(1, initial-20), 65535, 7)
		if update {
			if _, err := wk.exec(ctx, tx, "tu_exec", lo, lo+19); err != nil {
				return err
			}
		}
		if _, err := drain(wk.q(ctx, tx, "tl_ids", lo, lo+19)); err != nil {
			return err
		}
		_, err = drain(wk.q(ctx, tx, "tl_history", lo, lo+19))
	case u < 60 || update && u < 66:
		_, ca := wk.account()
		start := at(min(period/2, 115200/(300/s.TradeDays+1)))
		rows, err := wk.q(ctx, tx, "tl_account", ca, start, stamp(s.InitialEnd()))
		if err != nil {
			return err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			var a, b, c, d, e, f, g, h any
			if err := rows.Scan(&id, &a, &b, &c, &d, &e, &f, &g, &h); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if update {
			for _, id := range ids {
				if _, err := wk.exec(ctx, tx, "tu_cash_type", id); err != nil {
					return err
				}
			}
		}
	case u < 90 || update:
		t0 := TradeTime(NURnd(r, 0, period-1, 4095, 16) % period)
		rows, err := wk.q(ctx, tx, "tl_symbol", Symbol(r.Int64N(s.Securities())), stamp(t0), stamp(t0.Add(200*time.Minute)))
		if err != nil {
			return err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			var a, b, c, d, e, f, g, h, i any
			if err := rows.Scan(&id, &a, &b, &c, &d, &e, &f, &g, &h, &i); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if update {
			for _, id := range ids {
				if _, err := wk.exec(ctx, tx, "tu_ct_name", id); err != nil {
					return err
				}
			}
		}
	default:
		_, ca := wk.account()
		var id int64
		switch err := wk.one(ctx, tx, "tl_first", []any{ca, at(min(period/2, 30000))}, &id); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		default:
			if _, err := drain(wk.q(ctx, tx, "tl_lots", id)); err != nil {
				return err
			}
		}
	}
	if err != nil {
		return err
	}
	return tx.Commit()
}

// tradeOrder is Trade-Order: frames 1-4, then frame 5 (rollback, 1 in 101) or 6 (commit, and the order to the MEE).
func (wk *worker) tradeOrder(ctx context.Context) (bool, error) {
	s, seed, r := wk.w.meta.Size, wk.w.meta.Seed, wk.r // seed: the build's (the data's), r: the run's
	_, ca := wk.account()
	basket := Basket(seed, s, ca)
	sec := basket[r.IntN(len(basket))]
	tt := ttMB
	market := r.IntN(100) < 60
	sell := r.IntN(2) == 0
	switch {
	case market && sell:
		tt = ttMS
	case !market && !sell:
		tt = ttLB
	case !market && r.IntN(2) == 0:
		tt = ttSL
	case !market:
		tt = ttLS
	}
	qty := []int64{100, 200, 400, 800}[r.IntN(4)]
	lifo := r.IntN(100) < 35
	margin := !sell && r.IntN(100) < 16
	rollback := r.IntN(RollbackEvery) == 0
	tx, err := wk.conn.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	// frame 1: account, customer, broker
	var bID, cID, taxSt, tier int64
	var bal float64
	var fn, ln, taxID, bName string
	if err := wk.one(ctx, tx, "to_account", []any{ca}, &bID, &cID, &taxSt, &bal, &fn, &ln, &tier, &taxID, &bName); err != nil {
		return false, err
	}
	exec := fn + " " + ln
	// frame 2: another executor (10%) needs a permission row
	if r.IntN(10) == 0 {
		var apF, apL, acl string
		switch err := wk.one(ctx, tx, "to_permission", []any{ca, taxID}, &apF, &apL, &acl); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return false, err
		default:
			exec = apF + " " + apL
		}
	}
	// frame 3: the security (by symbol 60%, by company name and issue 40%), its price, the order's costs
	sym := Symbol(sec)
	var exID, sName string
	var lt float64
	if r.IntN(100) < 60 {
		err = wk.one(ctx, tx, "to_security", []any{sym}, &exID, &sName, &lt)
	} else {
		co, issue := s.SecurityCompany(sec)
		err = wk.one(ctx, tx, "to_security_name", []any{CompanyName(seed, co), issue}, &sym, &exID, &sName, &lt)
	}
	if err != nil {
		return false, err
	}
	var held int64
	if err := wk.one(ctx, tx, "to_holding", []any{ca, sym}, &held); err != nil {
		return false, err
	}
	if _, err := drain(wk.q(ctx, tx, "to_lots", ca, sym)); err != nil {
		return false, err
	}
	var chrg, rate float64
	if err := wk.one(ctx, tx, "to_charge", []any{TradeTypes[tt].ID, tier}, &chrg); err != nil {
		return false, err
	}
	if err := wk.one(ctx, tx, "to_comm", []any{tier, TradeTypes[tt].ID, exID, qty, qty}, &rate); err != nil {
		return false, err
	}
	if sell && taxSt != 0 {
		var tax float64
		if err := wk.one(ctx, tx, "to_tax", []any{cID}, &tax); err != nil {
			return false, err
		}
	}
	if margin {
		var assets float64
		if err := wk.one(ctx, tx, "to_assets", []any{ca}, &assets); err != nil {
			return false, err
		}
	}
	price := toCents(lt)
	bid := price
	if !market {
		bid = 2000 + r.Int64N(1001)
	}
	comm := Commission(int64(math.Round(rate*100)), qty, bid) // at the requested price: the market's, or the limit
	// frame 4: the trade, its pending request, its first history row
	tid := wk.w.nextTID.Add(1)
	now := stamp(time.Now())
	st := "SBMT"
	if !market {
		st = "PNDG"
	}
	if _, err := wk.exec(ctx, tx, "to_trade", tid, now, st, TradeTypes[tt].ID, boolInt(!margin), sym, qty, money(bid), ca, exec, chrg, money(comm), boolInt(lifo)); err != nil {
		return false, err
	}
	if !market {
		if _, err := wk.exec(ctx, tx, "to_request", tid, TradeTypes[tt].ID, sym, qty, money(bid), bID); err != nil {
			return false, err
		}
	}
	if _, err := wk.exec(ctx, tx, "th_insert", tid, now, st); err != nil {
		return false, err
	}
	if rollback { // frame 5
		return true, tx.Rollback()
	}
	if err := tx.Commit(); err != nil { // frame 6
		return false, err
	}
	if market {
		wk.w.mee.submit(tid, sym, time.Now())
	} else {
		wk.w.mee.pending(sym)
	}
	return false, nil
}

// tradeResult is Trade-Result: the trade completes at the MEE's price; positions, tax, commission,
// broker, settlement and cash follow.
func (wk *worker) tradeResult(ctx context.Context, o order) error {
	now := time.Now()
	price := Price(o.symb, now)
	tx, err := wk.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// frame 1
	var ca, qty, lifo, isCash, isSell, bID, cID, taxSt, tier int64
	var ttID, sym, ttName, exID, sName string
	var chrg float64
	if err := wk.one(ctx, tx, "tr_trade", []any{o.tid}, &ca, &ttID, &sym, &qty, &chrg, &lifo, &isCash, &ttName, &isSell, &bID, &cID, &taxSt, &tier, &exID, &sName); err != nil {
		return err
	}
	var hs int64
	hasHS := true
	if err := wk.one(ctx, tx, "tr_hs", []any{ca, sym}, &hs); errors.Is(err, sql.ErrNoRows) {
		hasHS = false
	} else if err != nil {
		return err
	}
	// frame 2: positions. A sell consumes long lots, a buy short ones; the rest opens a lot of its own.
	sign := int64(1)
	if isSell == 1 {
		sign = -1
	}
	lotsStmt := "tr_lots_fifo"
	if lifo == 1 {
		lotsStmt = "tr_lots_lifo"
	}
	type lotRow struct{ id, qty, price int64 }
	var lots []lotRow
	rows, err := wk.q(ctx, tx, lotsStmt, ca, sym)
	if err != nil {
		return err
	}
	for rows.Next() {
		var l lotRow
		var p float64
		if err := rows.Scan(&l.id, &l.qty, &p); err != nil {
			rows.Close()
			return err
		}
		l.price = toCents(p)
		lots = append(lots, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	left := qty
	var buyValue, sellValue int64
	for _, l := range lots {
		if left == 0 || l.qty*sign >= 0 { // only lots of the other side are closed
			break
		}
		take := min(left, abs(l.qty))
		after := l.qty + sign*take
		if _, err := wk.exec(ctx, tx, "tr_hh", l.id, o.tid, l.qty, after); err != nil {
			return err
		}
		if after == 0 {
			_, err = wk.exec(ctx, tx, "tr_lot_delete", l.id)
		} else {
			_, err = wk.exec(ctx, tx, "tr_lot_update", l.id, after)
		}
		if err != nil {
			return err
		}
		if sign < 0 { // selling a long lot: bought at its price
			buyValue += take * l.price
			sellValue += take * price
		} else { // covering a short lot: sold at its price
			sellValue += take * l.price
			buyValue += take * price
		}
		left -= take
	}
	if left > 0 {
		if _, err := wk.exec(ctx, tx, "tr_hh", o.tid, o.tid, 0, sign*left); err != nil {
			return err
		}
		if _, err := wk.exec(ctx, tx, "tr_lot_insert", o.tid, ca, sym, stamp(now), money(price), sign*left); err != nil {
			return err
		}
	}
	newHS := hs + sign*qty
	switch {
	case !hasHS:
		_, err = wk.exec(ctx, tx, "tr_hs_insert", ca, sym, newHS)
	case newHS == 0:
		_, err = wk.exec(ctx, tx, "tr_hs_delete", ca, sym)
	default:
		_, err = wk.exec(ctx, tx, "tr_hs_update", ca, sym, newHS)
	}
	if err != nil {
		return err
	}
	// frame 3: tax on a gain, for taxable accounts
	var tax int64
	if taxSt != 0 && sellValue > buyValue {
		var rate float64
		if err := wk.one(ctx, tx, "to_tax", []any{cID}, &rate); err != nil {
			return err
		}
		tax = int64(math.Round(float64(sellValue-buyValue) * rate))
		if _, err := wk.exec(ctx, tx, "tr_tax", o.tid, money(tax)); err != nil {
			return err
		}
	}
	// frame 4: the commission
	var rate float64
	if err := wk.one(ctx, tx, "to_comm", []any{tier, ttID, exID, qty, qty}, &rate); err != nil {
		return err
	}
	comm := Commission(int64(math.Round(rate*100)), qty, price)
	// frame 5: the trade completes; the broker's totals
	if _, err := wk.exec(ctx, tx, "tr_complete", o.tid, money(comm), stamp(now), money(price)); err != nil {
		return err
	}
	if _, err := wk.exec(ctx, tx, "th_insert", o.tid, stamp(now), "CMPT"); err != nil {
		return err
	}
	if _, err := wk.exec(ctx, tx, "tr_broker", bID, money(comm)); err != nil {
		return err
	}
	// frame 6: settlement, and for a cash trade the balance and the cash transaction
	v := qty * price
	amt := -(v + toCents(chrg) + comm)
	if isSell == 1 {
		amt = v - toCents(chrg) - comm
	}
	if taxSt == 1 {
		amt -= tax
	}
	cashType := "Margin"
	if isCash == 1 {
		cashType = "Cash Account"
	}
	if _, err := wk.exec(ctx, tx, "tr_settlement", o.tid, cashType, day(int32(now.Unix()/86400)+2), money(amt)); err != nil {
		return err
	}
	if isCash == 1 {
		if _, err := wk.exec(ctx, tx, "tr_balance", ca, money(amt)); err != nil {
			return err
		}
		if _, err := wk.exec(ctx, tx, "tr_cash", o.tid, stamp(now), money(amt), ttName+" "+strconv.FormatInt(qty, 10)+" shares of "+sName); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	wk.w.mee.completed(sym, price, qty, now)
	return nil
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// marketFeed is Market-Feed: the ticker's prices into last_trade, and the limit orders they trigger submitted.
func (wk *worker) marketFeed(ctx context.Context, feed []tick) error {
	now := time.Now()
	tx, err := wk.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	type hit struct {
		tid  int64
		symb string
	}
	var hits []hit
	for _, t := range feed {
		if _, err := wk.exec(ctx, tx, "mf_last", t.symb, money(t.price), t.qty, stamp(now)); err != nil {
			return err
		}
		p := money(t.price)
		rows, err := wk.q(ctx, tx, "mf_triggered", t.symb, p, p, p)
		if err != nil {
			return err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, id := range ids {
			for _, st := range []struct {
				name string
				args []any
			}{{"mf_submit", []any{id, stamp(now)}}, {"mf_request_done", []any{id}}, {"th_insert", []any{id, stamp(now), "SBMT"}}} {
				if _, err := wk.exec(ctx, tx, st.name, st.args...); err != nil {
					return err
				}
			}
			hits = append(hits, hit{id, t.symb})
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	for _, h := range hits {
		wk.w.mee.triggered(h.symb)
		wk.w.mee.submit(h.tid, h.symb, now)
	}
	return nil
}

// maintenance is Data-Maintenance: one table a call, in the specification's round-robin order.
func (wk *worker) maintenance(ctx context.Context) error {
	s, seed, r := wk.w.meta.Size, wk.w.meta.Seed, wk.r
	turn := (wk.w.dmTurn.Add(1) - 1) % 12
	flip := r.IntN(2) == 0
	c := 1 + r.Int64N(s.Customers)
	co := 1 + r.Int64N(s.Companies())
	sec := r.Int64N(s.Securities())
	tx, err := wk.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	pick := func(a, b string) string {
		if flip {
			return a
		}
		return b
	}
	switch turn {
	case 0:
		_, err = wk.exec(ctx, tx, "dm_account_permission", AccountID(c, 0))
	case 1:
		_, err = wk.exec(ctx, tx, "dm_address", s.customerAddress(c), pick("Apt. 10C", "Apt. 22"))
	case 2:
		_, err = wk.exec(ctx, tx, "dm_company", co, pick("ABA", "AAA"))
	case 3:
		fn, ln := CustomerName(seed, c)
		_, err = wk.exec(ctx, tx, "dm_customer", c, fn+"."+ln+strconv.FormatInt(c, 10)+pick("@post.example", "@mail.example"))
	case 4:
		var old string
		if err = wk.one(ctx, tx, "dm_taxrate_of", []any{c}, &old); err == nil {
			i := 0
			for i < 9 && taxID(i) != old {
				i++
			}
			next := (i + 1) % 5
			if i >= 5 {
				next = 5 + (i-5+1)%4
			}
			_, err = wk.exec(ctx, tx, "dm_customer_taxrate", c, old, taxID(next))
		}
	case 5:
		vol := int64(1 + r.IntN(3))
		if flip {
			vol = -vol
		}
		_, err = wk.exec(ctx, tx, "dm_daily_market", Symbol(sec), day(Workday(marketStartDay, r.Int64N(DailyMarketDays))), vol)
	case 6:
		i := r.IntN(4)
		_, err = wk.exec(ctx, tx, "dm_exchange", Exchanges[i], exchangeNames[i]+pick(", an exchange of dbdyno's market", ", an exchange of dbdyno's market (LT)"))
	case 7:
		_, err = wk.exec(ctx, tx, "dm_financial", co, pick(day(dayOf(2000, 1, 1)), day(dayOf(2000, 1, 2))))
	case 8:
		_, err = wk.exec(ctx, tx, "dm_news_item", (co-1)*2+1, stamp(time.Now()))
	case 9:
		_, err = wk.exec(ctx, tx, "dm_security", Symbol(sec), day(marketStartDay-int32(r.IntN(300))))
	case 10:
		i := r.IntN(nTaxRates)
		_, err = wk.exec(ctx, tx, "dm_taxrate", taxID(i), pick("Tax rate ", "tax rate ")+taxID(i))
	case 11:
		var first string
		var has int64
		newSym := Symbol(sec)
		if err = wk.one(ctx, tx, "dm_watch_first", []any{c}, &first); err == nil {
			if err = wk.one(ctx, tx, "dm_watch_has", []any{c, newSym}, &has); err == nil && has == 0 {
				_, err = wk.exec(ctx, tx, "dm_watch_item", c, first, newSym)
			}
		}
	}
	if err != nil {
		return err
	}
	return tx.Commit()
}

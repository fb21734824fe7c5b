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
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Workload is one run's shared state: the build's size, the trade ids, the market exchange emulator and the
// Data-Maintenance clock.
type Workload struct {
	db      *DB
	meta    *Meta
	seed    uint64
	procs   bool         // --mode procedures: each frame is its stored procedure's call
	nextTID atomic.Int64 // the last trade id handed out (newTID)
	shard   workload.Shard
	units   [2]int64 // the customers' load units [lo, hi) the customer emulator picks from: all, or the shard's
	mee     *mee
	dmNext  atomic.Int64 // unix nanos of the next Data-Maintenance
	dmTurn  atomic.Int64 // its table, in turn
	mu      sync.Mutex
	ceCount [8]int64 // the customer emulator's choices (the measured mix's CE part is the runner's counts)
	cards   []int    // a custom mix's deck (--mix), per customer-emulator transaction; nil: the standard Levels
	trips   tripCount
	// started is the run's first unit of work (unix nanos; 0 before): the Trade-Order rate the pending limit
	// orders are warmed for is the customer emulator's since then (book.go)
	started atomic.Int64
	warm    warmup
}

// NewWorkload reads the build record, runs Trade-Cleanup and readies the emulators (in sql mode: UseProcedures
// sets the mode after).
func (db *DB) NewWorkload(ctx context.Context, seed uint64) (*Workload, error) {
	return db.newWorkload(ctx, seed, false, workload.Shard{})
}

// newWorkload is NewWorkload in procedures mode when procs (the procedures checked, then Trade-Cleanup their
// call), and for shard sh of a sharded run (--shard): its customers' load units, trade ids of its own (those
// of one residue modulo the shards, above every existing one, so that no two shards collide), Trade-Cleanup of
// its own ids (every id is some shard's), and Data-Maintenance on shard 1 only (once a minute for the run).
func (db *DB) newWorkload(ctx context.Context, seed uint64, procs bool, sh workload.Shard) (*Workload, error) {
	m, err := db.ReadMeta(ctx)
	if err != nil {
		return nil, err
	}
	w := &Workload{db: db, meta: m, seed: seed, mee: newMEE(seed), shard: sh}
	w.mee.securities = m.Size.Securities()
	units := m.Size.Customers / LoadUnit
	if err := sh.Check(int(units), "customer load units (of 1,000)"); err != nil {
		return nil, err
	}
	lo, hi := sh.Range(int(units))
	w.units = [2]int64{int64(lo), int64(hi)}
	var maxID int64
	if err := db.Data.SQL.QueryRowContext(ctx, db.Stmts["max_trade"].SQL).Scan(&maxID); err != nil {
		return nil, fmt.Errorf("max_trade: %w", err)
	}
	n := w.shards()
	base := (max(maxID, m.Size.FirstRuntimeTradeID()-1)/n + 1) * n // above every id, a multiple of the shards
	w.nextTID.Store(base + w.residue() - n)
	if err := w.UseProcedures(ctx, procs); err != nil {
		return nil, err
	}
	if err := db.cleanup(ctx, m, procs, n, w.residue()); err != nil {
		return nil, err
	}
	w.dmNext.Store(time.Now().Add(time.Minute).UnixNano())
	if sh.On() && sh.I != 1 {
		w.dmNext.Store(math.MaxInt64) // shard 1's
	}
	return w, nil
}

// UseProcedures sets the mode: each frame is its stored procedure's call (on) or its statements (off). An
// engine without stored procedures is refused, and so is a database built before they were installed (one
// frame's call, which reads nothing, finds out).
func (w *Workload) UseProcedures(ctx context.Context, on bool) error {
	if on && !w.db.T.Engine.Procedures {
		return fmt.Errorf("--mode procedures is not available on %s: use --mode sql", w.db.T.Engine)
	}
	if on {
		st := w.db.Stmts["proc_tr4"]
		if _, err := readRows(w.db.Data.SQL.QueryContext(ctx, st.SQL, st.Args([]any{0, "", "", 0})...)); err != nil {
			return fmt.Errorf("the TPC-E stored procedures are not in %s (built before they were installed?): rebuild with 'dbdyno tpce build --drop', or use --mode sql (%v)",
				w.db.T, err)
		}
	}
	w.procs = on
	return nil
}

// Cleanup is Trade-Cleanup: the pending limit orders and the submitted trades an earlier run left are cancelled.
func (db *DB) Cleanup(ctx context.Context, m *Meta) error { return db.cleanup(ctx, m, false, 1, 0) }

// cleanup is Trade-Cleanup in its transaction: its statements, or its procedure's call when procs; of the
// trades whose id is residue modulo shards (all: 1, 0).
func (db *DB) cleanup(ctx context.Context, m *Meta, procs bool, shards, residue int64) error {
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
	if err := db.cleanupOn(ctx, tx, m, stamp(time.Now()), procs, shards, residue); err != nil {
		return err
	}
	return tx.Commit()
}

// cleanupOn is Trade-Cleanup's frame on q (in a transaction of the caller's), at the time now.
func (db *DB) cleanupOn(ctx context.Context, q engine.Queryer, m *Meta, now string, procs bool, shards, residue int64) error {
	first := m.Size.FirstRuntimeTradeID()
	if procs {
		st := db.Stmts["proc_tc1"]
		if _, err := readRows(q.QueryContext(ctx, st.SQL, st.Args([]any{now, first, shards, residue})...)); err != nil {
			return fmt.Errorf("Trade-Cleanup: proc_tc1: %w", err)
		}
		return nil
	}
	for _, s := range []struct {
		name string
		args []any
	}{{"tc_pending_sbmt", []any{now, shards, residue}}, {"tc_pending_cncl", []any{now, shards, residue}},
		{"tc_pending_trades", []any{shards, residue}}, {"tc_pending_done", []any{shards, residue}},
		{"tc_submitted_cncl", []any{now, first, shards, residue}}, {"tc_submitted", []any{first, shards, residue}}} {
		if _, err := db.exec(ctx, q, s.name, s.args...); err != nil {
			return fmt.Errorf("Trade-Cleanup: %w", err)
		}
	}
	return nil
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") }
func day(d int32) string       { return time.Unix(int64(d)*86400, 0).UTC().Format("2006-01-02") }
func money(c int64) float64    { return float64(c) / 100 }
func toCents(v float64) int64  { return int64(math.Round(v * 100)) }

// Transactions are the transactions' names.
func (w *Workload) Transactions() []string { return TxNames }

// NewWorker opens a virtual user's connection.
func (w *Workload) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	wk := &worker{w: w, r: rand.New(rand.NewPCG(w.seed, uint64(vu)+1)), deck: newDeck(w.cards), trips: &w.trips}
	if err := wk.connect(ctx); err != nil {
		return nil, err
	}
	return wk, nil
}

type worker struct {
	runner.Cut
	w     *Workload
	trips *tripCount      // the round trips it counts: the run's (the book's warm-up counts its own)
	s     *engine.Session // where the transactions run (nil while a reconnect fails)
	r     *rand.Rand
	deck  *deck
	ord   order
	feed  []tick
	tap   func(e engine.Queryer, name string, args []any, rows [][]any) // tests: each frame's reads and what they returned, in its transaction
	// lastQty is the quantity of the trade the last Trade-Result completed (for the MEE's ticker)
	lastQty int64
	// record, when set (in tests), receives each frame's outputs
	record func(frame string, out Rows)
}

func (wk *worker) Close() { wk.detach() }

func (wk *worker) Reconnect(ctx context.Context) error {
	wk.detach()
	return wk.connect(ctx)
}

// Next: Data-Maintenance when its minute is up, else the MEE's due Trade-Result or Market-Feed, else the
// customer emulator's next card.
func (wk *worker) Next() (int, time.Duration, time.Duration) {
	now := time.Now()
	if wk.w.started.Load() == 0 {
		wk.w.begin(now)
	}
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
	wk.trips.tx.Add(1)
	return runner.Retry{Engine: wk.w.db.T.Engine}.Unit(ctx, TxNames[tx], func() (bool, error) { return wk.do(ctx, tx) })
}

// rows is a statement's result rows; one scans its single row (sql.ErrNoRows when there is none); count is the
// number of rows of its result; exec runs it and returns the rows it touched. Each is one round trip, on the
// virtual user's pgfast session when e is it, else through database/sql on e.
func (wk *worker) rows(ctx context.Context, e engine.Queryer, name string, args ...any) (Rows, error) {
	wk.trips.n.Add(1)
	if wk.tap != nil {
		if err := wk.tapRows(ctx, e, name, args); err != nil {
			return nil, err
		}
	}
	if s, ok := e.(*engine.Session); ok {
		return sessionRows(ctx, s, name, args)
	}
	st := wk.w.db.Stmts[name]
	out, err := readRows(e.QueryContext(ctx, st.SQL, st.Args(args)...))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

func (wk *worker) one(ctx context.Context, e engine.Queryer, name string, args []any, dest ...any) error {
	wk.trips.n.Add(1)
	var err error
	if s, ok := e.(*engine.Session); ok {
		err = sessionOne(ctx, s, name, args, dest) // its error names the statement
	} else {
		st := wk.w.db.Stmts[name]
		if err = e.QueryRowContext(ctx, st.SQL, st.Args(args)...).Scan(dest...); err != nil {
			err = fmt.Errorf("%s: %w", name, err)
		}
	}
	if wk.tap != nil && (err == nil || errors.Is(err, sql.ErrNoRows)) {
		wk.tapOne(e, name, args, err, dest)
	}
	return err
}

func (wk *worker) count(ctx context.Context, e engine.Queryer, name string, args ...any) (int64, error) {
	wk.trips.n.Add(1)
	if wk.tap != nil {
		if err := wk.tapRows(ctx, e, name, args); err != nil {
			return 0, err
		}
	}
	if s, ok := e.(*engine.Session); ok {
		return s.Count(ctx, name, args...)
	}
	st := wk.w.db.Stmts[name]
	n, err := drain(e.QueryContext(ctx, st.SQL, st.Args(args)...))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return int64(n), nil
}

// drain reads a result set to its end, counting its rows.
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
	wk.trips.n.Add(1)
	if wk.tap != nil {
		wk.tap(e, name, args, nil) // a write: the test sees its arguments before it runs
	}
	if s, ok := e.(*engine.Session); ok {
		return s.Exec(ctx, name, args...)
	}
	r, err := wk.w.db.exec(ctx, e, name, args...)
	if err != nil {
		return 0, err
	}
	n, _ := r.RowsAffected()
	return n, nil
}

// read runs a read-only transaction's statements; single: as txn's.
func (wk *worker) read(ctx context.Context, single bool, fn func(q engine.Queryer) error) error {
	_, err := wk.txn(ctx, single, func(q engine.Queryer) (bool, error) { return false, fn(q) })
	return err
}

func (wk *worker) account() (c, ca int64) {
	c = PickCustomerIn(wk.r, wk.w.units[0], wk.w.units[1])
	return c, AccountID(c, wk.r.Int64N(Accounts(wk.w.meta.Seed, c)))
}

func (wk *worker) do(ctx context.Context, tx int) (bool, error) {
	s, r := wk.w.meta.Size, wk.r
	switch tx {
	case BV:
		n := 20 + r.Int64N(21)
		lo := 1 + r.Int64N(max(1, s.Brokers()-n+1))
		return false, wk.read(ctx, wk.oneCall(true), func(t engine.Queryer) error {
			_, err := wk.bv1(ctx, t, lo, lo+n-1, Sectors[r.IntN(len(Sectors))])
			return err
		})
	case CP:
		c, _ := wk.account()
		byTax := r.IntN(2) == 1
		history := r.IntN(2) == 0
		pick := r.IntN(10)
		return false, wk.read(ctx, !history && wk.oneCall(false), func(t engine.Queryer) error {
			accts, err := wk.cp1(ctx, t, byTax, c, TaxID(c))
			if err != nil || !history || len(accts) == 0 {
				return err
			}
			_, err = wk.cp2(ctx, t, i64(accts[pick%len(accts)][0]))
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
		kind := 2
		switch u := r.IntN(100); {
		case u < 60:
			kind = 0
		case u < 95:
			kind = 1
		}
		lo := 1 + r.Int64N(s.Companies())
		ind := industryName(r.IntN(nIndustries))
		return false, wk.read(ctx, wk.oneCall(true), func(t engine.Queryer) error {
			_, err := wk.mw1(ctx, t, kind, c, ca, ind, lo, lo+5000, d)
			return err
		})
	case SD:
		i := r.Int64N(s.Securities())
		co, _ := s.SecurityCompany(i)
		start := day(Workday(marketStartDay, r.Int64N(DailyMarketDays-20)))
		lob := r.IntN(100) == 0
		return false, wk.read(ctx, wk.oneCall(false), func(t engine.Queryer) error {
			_, err := wk.sd1(ctx, t, Symbol(i), co, start, lob)
			return err
		})
	case TL, TU:
		return false, wk.lookup(ctx, tx == TU)
	case TS:
		_, ca := wk.account()
		return false, wk.read(ctx, wk.oneCall(false), func(t engine.Queryer) error {
			_, err := wk.ts1(ctx, t, ca)
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
	initial := TradeID(s.Trades())
	period := s.TradeDays * HoursPerDay * 3600
	at := func(backoff int64) string {
		return stamp(TradeTime(NURnd(r, 0, max(1, period-backoff), 4095, 16) % period))
	}
	var frame func(tx engine.Queryer) (Rows, error) // one frame: its inputs drawn before the transaction
	u := r.IntN(100)
	switch {
	case u < 30 || update && u < 33:
		lo := NURnd(r, 1, max(1, initial-20), 65535, 7)
		frame = func(tx engine.Queryer) (Rows, error) { return wk.tl1(ctx, tx, update, lo, lo+19) }
	case u < 60 || update && u < 66:
		_, ca := wk.account()
		start := at(min(period/2, 115200/(300/s.TradeDays+1)))
		frame = func(tx engine.Queryer) (Rows, error) {
			return wk.tl2(ctx, tx, update, ca, start, stamp(s.InitialEnd()))
		}
	case u < 90 || update:
		t0 := TradeTime(NURnd(r, 0, period-1, 4095, 16) % period)
		sym := Symbol(r.Int64N(s.Securities()))
		frame = func(tx engine.Queryer) (Rows, error) {
			return wk.tl3(ctx, tx, update, sym, stamp(t0), stamp(t0.Add(200*time.Minute)))
		}
	default:
		_, ca := wk.account()
		start := at(min(period/2, 30000))
		frame = func(tx engine.Queryer) (Rows, error) { return wk.tl4(ctx, tx, ca, start) }
	}
	_, err := wk.txn(ctx, wk.oneCall(false), func(tx engine.Queryer) (bool, error) { _, err := frame(tx); return false, err })
	return err
}

// order is a Trade-Order's inputs, drawn before its transaction.
type toOrder struct {
	ca           int64
	sec          int64
	tt           int
	market, sell bool
	qty          int64
	lifo, margin bool
	rollback     bool
	other        bool // another permitted person executes (frame 2)
	byName       bool // frame 3 finds the security by its company's name and issue
	bid          int64
}

func (wk *worker) drawOrder() toOrder {
	s, seed, r := wk.w.meta.Size, wk.w.meta.Seed, wk.r // seed: the build's (the data's), r: the run's
	_, ca := wk.account()
	basket := Basket(seed, s, ca)
	o := toOrder{ca: ca, sec: basket[r.IntN(len(basket))], tt: ttMB}
	o.market = r.IntN(100) < 60
	o.sell = r.IntN(2) == 0
	switch {
	case o.market && o.sell:
		o.tt = ttMS
	case !o.market && !o.sell:
		o.tt = ttLB
	case !o.market && r.IntN(2) == 0:
		o.tt = ttSL
	case !o.market:
		o.tt = ttLS
	}
	o.qty = []int64{100, 200, 400, 800}[r.IntN(4)]
	o.lifo = r.IntN(100) < 35
	o.margin = !o.sell && r.IntN(100) < 16
	o.rollback = r.IntN(RollbackEvery) == 0
	o.other = r.IntN(10) == 0
	o.byName = r.IntN(100) >= 60
	o.bid = 2000 + r.Int64N(1001)
	return o
}

// tradeOrder is Trade-Order: frames 1-4, then frame 5 (rollback, 1 in 101) or 6 (commit, and the order to the MEE).
func (wk *worker) tradeOrder(ctx context.Context) (bool, error) {
	o := wk.drawOrder()
	tid := wk.w.newTID()
	rolled, err := wk.txn(ctx, false, func(tx engine.Queryer) (bool, error) {
		// frames 1-4; frame 5 rolls back (txn's rollback), frame 6 commits
		return o.rollback, wk.orderFrames(ctx, tx, o, tid, stamp(time.Now()))
	})
	if err != nil || rolled {
		return rolled, err
	}
	sym := Symbol(o.sec)
	if o.market {
		wk.w.mee.submit(tid, sym, time.Now())
	} else {
		wk.w.mee.post(tid, sym, o.tt, o.bid, time.Now())
	}
	return false, nil
}

// orderFrames are Trade-Order's frames 1-4 in the transaction t.
func (wk *worker) orderFrames(ctx context.Context, t engine.Queryer, o toOrder, tid int64, now string) error {
	s, seed := wk.w.meta.Size, wk.w.meta.Seed
	// frame 1: account, customer, broker
	acct, err := wk.to1(ctx, t, o.ca)
	if err != nil {
		return err
	}
	a, err := acct.one("to1")
	if err != nil {
		return err
	}
	bID, cID, taxSt, tier, taxID := i64(a[0]), i64(a[1]), i64(a[2]), i64(a[6]), str(a[7])
	exec := str(a[4]) + " " + str(a[5])
	// frame 2: another executor (10%) needs a permission row
	if o.other {
		p, err := wk.to2(ctx, t, o.ca, taxID)
		if err != nil {
			return err
		}
		if len(p) > 0 {
			exec = str(p[0][0]) + " " + str(p[0][1])
		}
	}
	// frame 3: the security (by symbol 60%, by company name and issue 40%), its price, the order's costs
	co, issue := s.SecurityCompany(o.sec)
	sec, err := wk.to3(ctx, t, to3in{byName: o.byName, sym: Symbol(o.sec), coName: CompanyName(seed, co), issue: issue, ca: o.ca, c: cID,
		tier: tier, tt: TradeTypes[o.tt].ID, qty: o.qty, tax: o.sell && taxSt != 0, margin: o.margin})
	if err != nil {
		return err
	}
	f3, err := sec.one("to3")
	if err != nil {
		return err
	}
	sym := str(f3[0])
	price := toCents(f64(f3[3]))
	bid := price
	if !o.market {
		bid = o.bid
	}
	comm := Commission(int64(math.Round(f64(f3[7])*100)), o.qty, bid) // at the requested price: the market's, or the limit
	// frame 4: the trade, its pending request, its first history row
	st := "SBMT"
	if !o.market {
		st = "PNDG"
	}
	_, err = wk.to4(ctx, t, to4in{tid: tid, now: now, st: st, tt: TradeTypes[o.tt].ID, cash: !o.margin, sym: sym, qty: o.qty, bid: money(bid),
		ca: o.ca, exec: exec, chrg: f64(f3[6]), comm: money(comm), lifo: o.lifo, pending: !o.market, b: bID})
	return err
}

// tradeResult is Trade-Result: the trade completes at the MEE's price; positions, tax, commission,
// broker, settlement and cash follow.
func (wk *worker) tradeResult(ctx context.Context, o order) error {
	now := time.Now()
	price := Price(o.symb, now)
	if _, err := wk.txn(ctx, false, func(tx engine.Queryer) (bool, error) {
		return false, wk.resultFrames(ctx, tx, o.tid, price, now)
	}); err != nil {
		return err
	}
	wk.w.mee.completed(o.symb, price, wk.lastQty, now)
	return nil
}

// resultFrames are Trade-Result's frames 1-6 in the transaction t, the trade completing at price (cents).
func (wk *worker) resultFrames(ctx context.Context, t engine.Queryer, tid, price int64, now time.Time) error {
	// frame 1
	tr, err := wk.tr1(ctx, t, tid)
	if err != nil {
		return err
	}
	f1, err := tr.one("tr1")
	if err != nil {
		return err
	}
	ca, ttID, sym, qty, chrg, lifo, isCash := i64(f1[0]), str(f1[1]), str(f1[2]), i64(f1[3]), toCents(f64(f1[4])), i64(f1[5]), i64(f1[6])
	ttName, isSell, bID, cID, taxSt, tier, exID, sName := str(f1[7]), i64(f1[8]), i64(f1[9]), i64(f1[10]), i64(f1[11]), i64(f1[12]), str(f1[13]), str(f1[14])
	wk.lastQty = qty
	// frame 2: positions
	pos, err := wk.tr2(ctx, t, tr2in{tid: tid, ca: ca, sym: sym, qty: qty, sell: isSell == 1, lifo: lifo == 1, price: price, now: stamp(now),
		hs: i64(f1[16]), hasHS: i64(f1[15]) == 1})
	if err != nil {
		return err
	}
	f2, err := pos.one("tr2")
	if err != nil {
		return err
	}
	buyValue, sellValue := toCents(f64(f2[0])), toCents(f64(f2[1]))
	// frame 3: tax on a gain, for taxable accounts
	var tax int64
	if taxSt != 0 && sellValue > buyValue {
		rows, err := wk.tr3(ctx, t, tid, cID, sellValue-buyValue)
		if err != nil {
			return err
		}
		f3, err := rows.one("tr3")
		if err != nil {
			return err
		}
		tax = toCents(f64(f3[0]))
	}
	// frame 4: the commission
	rates, err := wk.tr4(ctx, t, tier, ttID, exID, qty)
	if err != nil {
		return err
	}
	f4, err := rates.one("tr4")
	if err != nil {
		return err
	}
	comm := Commission(int64(math.Round(f64(f4[0])*100)), qty, price)
	// frame 5: the trade completes; the broker's totals
	if _, err := wk.tr5(ctx, t, tid, money(comm), stamp(now), money(price), bID); err != nil {
		return err
	}
	// frame 6: settlement, and for a cash trade the balance and the cash transaction
	v := qty * price
	amt := -(v + chrg + comm)
	if isSell == 1 {
		amt = v - chrg - comm
	}
	if taxSt == 1 {
		amt -= tax
	}
	_, err = wk.tr6(ctx, t, tid, isCash == 1, day(int32(now.Unix()/86400)+2), money(amt), ca, stamp(now),
		ttName+" "+strconv.FormatInt(qty, 10)+" shares of "+sName)
	return err
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
	type hit struct {
		tid  int64
		symb string
	}
	var hits []hit
	if _, err := wk.txn(ctx, false, func(tx engine.Queryer) (bool, error) {
		hits = hits[:0]
		for _, t := range feed {
			ids, err := wk.mf1(ctx, tx, t.symb, money(t.price), t.qty, stamp(now))
			if err != nil {
				return false, err
			}
			for _, id := range ids {
				hits = append(hits, hit{i64(id[0]), t.symb})
			}
		}
		return false, nil
	}); err != nil {
		return err
	}
	for _, h := range hits {
		wk.w.mee.triggered(h.tid)
		wk.w.mee.submit(h.tid, h.symb, now)
	}
	return nil
}

// maintenance is Data-Maintenance: one table a call, in the specification's round-robin order.
func (wk *worker) maintenance(ctx context.Context) error {
	s, r := wk.w.meta.Size, wk.r
	turn := (wk.w.dmTurn.Add(1) - 1) % 12
	flip := r.IntN(2) == 0
	c := 1 + r.Int64N(s.Customers)
	co := 1 + r.Int64N(s.Companies())
	sec := r.Int64N(s.Securities())
	in := wk.dmInputs(int(turn), flip, c, co, sec)
	// one statement (or one call) but for customer_taxrate's and watch_item's in sql mode (a read first):
	// autocommit is its transaction
	_, err := wk.txn(ctx, wk.oneCall(turn != 4 && turn != 11), func(tx engine.Queryer) (bool, error) {
		_, err := wk.dm1(ctx, tx, in)
		return false, err
	})
	return err
}

// dmIn is Data-Maintenance's frame's inputs: the table (its turn, 0-11) and the values its change needs (the
// others nil).
type dmIn struct {
	table         int
	id            any // the row's id: account, address, company, customer, news item or watch list
	key, txt      any // a symbol, exchange or tax rate id; the new text
	day, dts, vol any
}

// dmInputs draws the frame's inputs for the table of turn.
func (wk *worker) dmInputs(turn int, flip bool, c, co, sec int64) dmIn {
	s, seed, r := wk.w.meta.Size, wk.w.meta.Seed, wk.r
	pick := func(a, b string) string {
		if flip {
			return a
		}
		return b
	}
	in := dmIn{table: turn}
	switch turn {
	case 0:
		in.id = AccountID(c, 0)
	case 1:
		in.id, in.txt = s.customerAddress(c), pick("Apt. 10C", "Apt. 22")
	case 2:
		in.id, in.txt = co, pick("ABA", "AAA")
	case 3:
		fn, ln := CustomerName(seed, c)
		in.id, in.txt = c, fn+"."+ln+strconv.FormatInt(c, 10)+pick("@post.example", "@mail.example")
	case 4, 11:
		in.id = c
		if turn == 11 {
			in.key = Symbol(sec)
		}
	case 5:
		vol := int64(1 + r.IntN(3))
		if flip {
			vol = -vol
		}
		in.key, in.day, in.vol = Symbol(sec), day(Workday(marketStartDay, r.Int64N(DailyMarketDays))), vol
	case 6:
		i := r.IntN(4)
		in.key, in.txt = Exchanges[i], exchangeNames[i]+pick(", an exchange of dbdyno's market", ", an exchange of dbdyno's market (LT)")
	case 7:
		in.id, in.day = co, pick(day(dayOf(2000, 1, 1)), day(dayOf(2000, 1, 2)))
	case 8:
		in.id, in.dts = (co-1)*2+1, stamp(time.Now())
	case 9:
		in.key, in.day = Symbol(sec), day(marketStartDay-int32(r.IntN(300)))
	case 10:
		i := r.IntN(nTaxRates)
		in.key, in.txt = taxID(i), pick("Tax rate ", "tax rate ")+taxID(i)
	}
	return in
}

// dm1: Data-Maintenance's one frame, the change on its table: one row (the rows it changed).
func (wk *worker) dm1(ctx context.Context, tx engine.Queryer, in dmIn) (Rows, error) {
	// the inputs the table does not use: typed values, never an untyped NULL (SQL Server's RPC refuses its type)
	or := func(v, zero any) any {
		if v == nil {
			return zero
		}
		return v
	}
	args := []any{in.table, or(in.id, int64(0)), or(in.key, ""), or(in.txt, ""), or(in.day, "2000-01-01"), or(in.dts, "2000-01-01 00:00:00"), or(in.vol, int64(0))}
	return wk.frame(ctx, tx, "dm1", args, func() (Rows, error) {
		n, err := wk.maintain(ctx, tx, in)
		return Rows{{n}}, err
	})
}

// maintain is dm1 from the client: the table's statements.
func (wk *worker) maintain(ctx context.Context, tx engine.Queryer, in dmIn) (int64, error) {
	switch in.table {
	case 0:
		return wk.exec(ctx, tx, "dm_account_permission", in.id)
	case 1:
		return wk.exec(ctx, tx, "dm_address", in.id, in.txt)
	case 2:
		return wk.exec(ctx, tx, "dm_company", in.id, in.txt)
	case 3:
		return wk.exec(ctx, tx, "dm_customer", in.id, in.txt)
	case 4:
		var old string
		if err := wk.one(ctx, tx, "dm_taxrate_of", []any{in.id}, &old); err != nil {
			return 0, err
		}
		i := 0
		for i < 9 && taxID(i) != old {
			i++
		}
		next := (i + 1) % 5
		if i >= 5 {
			next = 5 + (i-5+1)%4
		}
		return wk.exec(ctx, tx, "dm_customer_taxrate", in.id, old, taxID(next))
	case 5:
		return wk.exec(ctx, tx, "dm_daily_market", in.key, in.day, in.vol)
	case 6:
		return wk.exec(ctx, tx, "dm_exchange", in.key, in.txt)
	case 7:
		return wk.exec(ctx, tx, "dm_financial", in.id, in.day)
	case 8:
		return wk.exec(ctx, tx, "dm_news_item", in.id, in.dts)
	case 9:
		return wk.exec(ctx, tx, "dm_security", in.key, in.day)
	case 10:
		return wk.exec(ctx, tx, "dm_taxrate", in.key, in.txt)
	case 11:
		var first string
		var has int64
		if err := wk.one(ctx, tx, "dm_watch_first", []any{in.id}, &first); err != nil {
			return 0, err
		}
		if err := wk.one(ctx, tx, "dm_watch_has", []any{in.id, in.key}, &has); err != nil || has != 0 {
			return 0, err
		}
		return wk.exec(ctx, tx, "dm_watch_item", in.id, first, in.key)
	}
	return 0, fmt.Errorf("Data-Maintenance: no table %d", in.table)
}

// shards is the run's shards (1 for the whole run); residue the shard's trade ids' residue modulo them.
func (w *Workload) shards() int64 { return int64(max(1, w.shard.N)) }
func (w *Workload) residue() int64 {
	if !w.shard.On() {
		return 0
	}
	return int64(w.shard.I - 1)
}

// newTID is the next trade id of the run's (the shard's own: a stride of the shards).
func (w *Workload) newTID() int64 { return w.nextTID.Add(w.shards()) }

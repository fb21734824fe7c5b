package tpcc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// RunOptions are `tpcc run`'s settings.
type RunOptions struct {
	Warehouses     int  // warehouses to use (≤ those built); 0 means all
	AllWarehouses  bool // each VU cycles through every warehouse instead of keeping a home warehouse
	KeyingThinking bool
	Procedures     bool
	Seed           uint64
	MaxRetries     int
	// PaceScale scales the keying and think times (1 when 0): a test's, to run terminals for seconds instead of
	// minutes; the result records it and the pacing checks take it into account.
	PaceScale float64
	Mix       workload.Mix // a custom mix (--mix); the standard one when not Custom
	// Shard (the zero Shard: the whole run): the terminals' home warehouses are the I-th of N even ranges of the
	// warehouses (remote warehouses are still drawn from all of them).
	Shard workload.Shard
}

// homes are the home warehouses [lo, hi) of the run's terminals: all, or its shard's range.
func (o RunOptions) homes() (lo, hi int) {
	lo, hi = o.Shard.Range(o.Warehouses)
	return lo + 1, hi + 1
}

// Workload is the TPC-C driver for the runner.
type Workload struct {
	db   *DB
	opts RunOptions
	meta *Meta
	C    Constants // run-time NURand constants
}

// NewWorkload prepares a run against a built database.
func (db *DB) NewWorkload(ctx context.Context, opts RunOptions) (*Workload, error) {
	meta, err := db.ReadMeta(ctx)
	if err != nil {
		return nil, err
	}
	if opts.Warehouses == 0 {
		opts.Warehouses = meta.Warehouses
	}
	if opts.Warehouses < 1 {
		return nil, errors.New("--warehouses must be at least 1")
	}
	if opts.Warehouses > meta.Warehouses {
		return nil, fmt.Errorf("--warehouses %d is more than the %d built: rebuild with 'dbdyno tpcc build --warehouses %d --drop'", opts.Warehouses, meta.Warehouses, opts.Warehouses)
	}
	if opts.Shard.N > opts.Warehouses {
		return nil, fmt.Errorf("--shard %s: %d shards of %d warehouses leave some without a warehouse: use at most %d shards, or build more warehouses", opts.Shard, opts.Shard.N, opts.Warehouses, opts.Warehouses)
	}
	if opts.Procedures && !db.T.Procedures(ctx) {
		return nil, fmt.Errorf("--mode procedures is not available on %s (%s): use --mode sql", db.T.Engine, db.T.NoProcedures(ctx))
	}
	if opts.PaceScale <= 0 {
		opts.PaceScale = 1
	}
	if opts.MaxRetries <= 0 {
		opts.MaxRetries = 10
	}
	c := NewRunConstants(NewRand(opts.Seed, 1<<40), meta.C)
	return &Workload{db: db, opts: opts, meta: meta, C: c}, nil
}

// Meta is the build record of the database under test.
func (w *Workload) Meta() *Meta { return w.meta }

// Options are the effective run options.
func (w *Workload) Options() RunOptions { return w.opts }

// Transactions implements runner.Workload.
func (w *Workload) Transactions() []string { return TxNames }

// NewWorker implements runner.Workload: one terminal with its own connection and random stream.
func (w *Workload) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	s, err := w.db.newSession(ctx)
	if err != nil {
		return nil, err
	}
	t := w.terminal(vu)
	t.s = s
	t.Set(s.Interrupter())
	return t, nil
}

// NewTerminal implements runner.Terminals: terminal i's state, without a connection (it borrows one for each
// transaction: Connection.Do). Its home and random stream are the i-th virtual user's.
func (w *Workload) NewTerminal(i int) runner.Terminal { return w.terminal(i) }

// terminal is terminal (or virtual user) vu's state: its random stream, home warehouse and Stock-Level district.
func (w *Workload) terminal(vu int) *Terminal {
	t := &Terminal{w: w, r: NewRand(w.opts.Seed, 1<<41|uint64(vu)), c: w.C, warehouses: w.opts.Warehouses, procs: w.opts.Procedures,
		listsAsText: !w.db.T.Engine.Arrays, districtNext: w.db.Stmts["no_district_next"] != nil}
	t.lo, t.hi = w.opts.homes()
	t.home = t.lo + vu%(t.hi-t.lo)
	t.cur = t.home
	t.did = (vu/(t.hi-t.lo))%DistrictsPerWH + 1
	return t
}

// NewConnection implements runner.Terminals: one connection of the pool the terminals share.
func (w *Workload) NewConnection(ctx context.Context, i int) (runner.Connection, error) {
	s, err := w.db.newSession(ctx)
	if err != nil {
		return nil, err
	}
	c := &connection{w: w, s: s}
	c.Set(s.Interrupter())
	return c, nil
}

// connection is one connection of the terminals' pool: a terminal's transaction runs on its session.
type connection struct {
	runner.Cut // interrupts the session's connection
	w          *Workload
	s          *engine.Session
}

// Do runs terminal t's transaction tx on the connection's session: the terminal borrows it for the
// transaction (its retries included).
func (c *connection) Do(ctx context.Context, t runner.Terminal, tx int) runner.Outcome {
	term := t.(*Terminal)
	term.s = c.s
	defer func() { term.s = nil }()
	return term.Do(ctx, tx)
}

// Reconnect implements runner.Connection.
func (c *connection) Reconnect(ctx context.Context) error {
	return c.Reopen(ctx, &c.s, c.w.db.newSession)
}

// Close implements runner.Connection.
func (c *connection) Close() { c.s.Close() }

// Terminal is one virtual user: an emulated terminal with a home warehouse and, for Stock-Level, a fixed
// district (clause 2.8.1.1). A virtual user's holds its own session; one of a run of terminals (--terminals)
// holds none but while a connection runs its transaction.
type Terminal struct {
	runner.Cut  // interrupts the current session's connection (a virtual user's)
	w           *Workload
	s           *engine.Session // nil for a terminal between transactions
	r           *Rand
	c           Constants
	warehouses  int
	home, cur   int
	lo, hi      int // the home warehouses of the run's (or its shard's) terminals: [lo, hi)
	did         int
	procs       bool
	listsAsText bool
	// districtNext: the dialect's no_district_next takes the district's next order number in one statement
	// (instead of no_district's locking read and no_district_update)
	districtNext bool
	deck         []int
	idBuf        []int
}

func (t *Terminal) homeWID() int { return t.cur }

// Next draws the next transaction from a shuffled deck of 100 cards in the 45/43/4/4/4 mix, so every 100
// transactions hold the mix exactly (clause 5.2.4.2 allows a deck).
func (t *Terminal) Next() (int, time.Duration, time.Duration) {
	if len(t.deck) == 0 {
		cards := mix[:]
		if t.w.opts.Mix.Custom {
			cards = t.w.opts.Mix.Cards()
		}
		for tx, n := range cards {
			for i := 0; i < n; i++ {
				t.deck = append(t.deck, tx)
			}
		}
		t.r.r.Shuffle(len(t.deck), func(i, j int) { t.deck[i], t.deck[j] = t.deck[j], t.deck[i] })
	}
	tx := t.deck[len(t.deck)-1]
	t.deck = t.deck[:len(t.deck)-1]
	if t.w.opts.AllWarehouses {
		t.cur = t.lo + (t.cur-t.lo+1)%(t.hi-t.lo)
	}
	if !t.w.opts.KeyingThinking {
		return tx, 0, 0
	}
	sc := float64(time.Second)
	if t.w.opts.PaceScale > 0 { // NewWorkload makes it 1 when not given
		sc *= t.w.opts.PaceScale
	}
	return tx, time.Duration(keyingTime[tx] * sc), time.Duration(t.r.Exp(thinkMean[tx]) * sc)
}

// Do runs one transaction, retrying serialization failures and deadlocks with the same input.
func (t *Terminal) Do(ctx context.Context, tx int) runner.Outcome {
	var run func() error
	switch tx {
	case NewOrder:
		in := t.newOrderInput()
		run = func() error { _, err := t.newOrder(ctx, in); return err }
	case Payment:
		in := t.paymentInput()
		run = func() error { return t.payment(ctx, in) }
	case OrderStatus:
		in := t.orderStatusInput()
		run = func() error { return t.orderStatus(ctx, in) }
	case Delivery:
		w, carrier := t.homeWID(), t.r.Int(1, 10)
		run = func() error { return t.delivery(ctx, w, carrier) }
	case StockLevel:
		w, threshold := t.homeWID(), t.r.Int(10, 20)
		run = func() error { _, err := t.stockLevel(ctx, w, t.did, threshold); return err }
	}
	retry := runner.Retry{Engine: t.w.db.T.Engine, Tries: t.w.opts.MaxRetries + 1}
	return retry.Do(ctx, func(int) runner.Outcome {
		err := run()
		if err == nil {
			return runner.Outcome{}
		}
		lost := t.w.db.connLost(err)
		if !t.procs && !lost {
			// A procedure ends its own transaction (PostgreSQL's implicit one aborts with the error, MySQL's exit
			// handler and SQL Server's XACT_ABORT roll back, an unused item rolls back): another ROLLBACK would
			// be counted again by PostgreSQL (with a warning) and MySQL, doubling the server's rollbacks.
			t.s.Rollback(ctx)
		}
		switch {
		case errors.Is(err, errRollback):
			return runner.Outcome{RolledBack: true}
		case lost:
			return runner.Outcome{Err: fmt.Errorf("%s: connection lost: %w", TxNames[tx], err), ConnLost: true}
		default:
			return runner.Outcome{Err: fmt.Errorf("%s: %w", TxNames[tx], err)}
		}
	})
}

// isItemNotFound reports the error dbdyno's New-Order procedure raises for the 1% of orders with an unused item.
func (t *Terminal) isItemNotFound(err error) bool {
	msg, ok := t.w.db.T.Engine.Raised(err)
	return ok && strings.HasPrefix(msg, "dbdyno: item not found")
}

// Reconnect implements runner.Worker.
func (t *Terminal) Reconnect(ctx context.Context) error {
	return t.Reopen(ctx, &t.s, t.w.db.newSession)
}

// Close implements runner.Worker.
func (t *Terminal) Close() { t.s.Close() }

package ch

import (
	"context"
	"fmt"
	"io"
	"maps"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workloads/tpcc"
)

// numTx is the number of TPC-C's transactions: the run's units of work are those five, then the 22 queries.
var numTx = len(tpcc.TxNames)

// queryStmts are the queries' statement names (q1 .. q22), as QueryNames' order.
var queryStmts = func() []string {
	out := make([]string, len(QueryNames))
	for i, n := range QueryNames {
		out[i] = strings.ToLower(n)
	}
	return out
}()

// unitNames are the run's units of work: TPC-C's five transactions, then Q1 .. Q22.
func unitNames() []string { return append(append([]string{}, tpcc.TxNames...), QueryNames...) }

// runSession is one `ch run` against one target: the analytic streams (users 0 .. streams-1) and the TPC-C
// terminals (the users after them, tpcc's own), in the runner's one loop.
type runSession struct {
	db            *DB
	setup         *runner.Setup
	o             *RunFlags
	wl            *tpcc.Workload
	set           sqlfile.Set // the streams' statements: TPC-C's and the queries
	serverVersion string
}

func open(ctx context.Context, setup *runner.Setup, o *RunFlags) (runner.Session, error) {
	t := setup.Target
	db, err := Open(ctx, t)
	if err != nil {
		return nil, err
	}
	s, err := openOn(ctx, db, setup, o)
	if err != nil {
		db.Close()
		return nil, err
	}
	fmt.Fprintf(setup.Out, "dbdyno ch on %s (%s): %d of %d warehouses, %d transaction users (mode %s), %d analytic streams, seed %d\n",
		s.serverVersion, t, s.wl.Options().Warehouses, s.wl.Meta().Warehouses, o.VUs, setup.Mode, o.Streams, o.Seed)
	return s, nil
}

func openOn(ctx context.Context, db *DB, setup *runner.Setup, o *RunFlags) (*runSession, error) {
	if len(setup.Steps) > 0 && !o.Together {
		return nil, fmt.Errorf("--steps: each step would need its sides alone too; add --together (the steps' terminals beside the --streams streams at once), or sweep --vus or --streams instead")
	}
	for _, st := range setup.Steps {
		if st.VUs == 0 {
			return nil, fmt.Errorf("--steps --by rate: ch runs closed loop, as CH-benCHmark does: step the terminals (--steps 1,2,4)")
		}
	}
	if err := db.Ready(ctx); err != nil {
		return nil, err
	}
	wl, err := db.TPCC.NewWorkload(ctx, tpcc.RunOptions{Warehouses: o.Warehouses, Procedures: setup.Mode == "procedures", Seed: o.Seed, Shard: o.Shard})
	if err != nil {
		return nil, err
	}
	q, err := Queries(db.TPCC.T.Engine)
	if err != nil {
		return nil, err
	}
	set := maps.Clone(db.TPCC.Stmts)
	maps.Copy(set, q)
	return &runSession{db: db, setup: setup, o: o, wl: wl, set: set, serverVersion: db.ServerVersion(ctx)}, nil
}

func (s *runSession) ServerVersion() string { return s.serverVersion }

func (s *runSession) Options() map[string]any {
	out, wl := s.setup.Options(), s.wl
	out["vus"], out["streams"], out["alone"] = s.o.VUs, s.o.Streams, s.alone()
	out["warehouses"], out["warehouses_built"] = wl.Options().Warehouses, wl.Meta().Warehouses
	out["nurand_c_run"], out["nurand_c_load"], out["build_seed"] = wl.C, wl.Meta().C, fmt.Sprint(wl.Meta().Seed)
	if o := wl.Options(); o.Shard.On() {
		o.Shard.Record(out, "warehouses", o.Warehouses, 1) // the terminals' homes
	}
	return out
}

// alone says whether each side runs alone before they run together (unless --together).
func (s *runSession) alone() bool { return !s.o.Together }

func (s *runSession) Transactions() []string { return unitNames() }

// NewWorker: the analytic streams are the first users, the terminals those after them, so that a stepped run's
// steps (users added last) add terminals beside the same streams.
func (s *runSession) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	if vu < s.o.Streams {
		return s.newStream(ctx, vu)
	}
	return s.wl.NewWorker(ctx, vu-s.o.Streams)
}

// StepUsers: a step of N terminals runs them beside the --streams streams.
func (s *runSession) StepUsers(terminals int) int { return terminals + s.o.Streams }

// Sides are the transaction users and the analytic streams, each alone before both together (unless --together).
// A query may take longer than a progress interval: the streams alone stall only when none completes in the
// whole measured window (together, the transactions complete all along).
func (s *runSession) Sides() []runner.Side {
	if !s.alone() {
		return nil
	}
	tx, q := make([]int, s.o.VUs), make([]int, s.o.Streams)
	for i := range q {
		q[i] = i
	}
	for i := range tx {
		tx[i] = s.o.Streams + i
	}
	return []runner.Side{{Name: "transactions", Users: tx, Figure: "nopm", Key: true}, {Name: "queries", Users: q, Figure: "qphh", StallLimit: s.setup.Duration}}
}

func (s *runSession) Configure(cfg *runner.Config) {
	cfg.VUs = s.o.VUs + s.o.Streams
	cfg.KeyTx, cfg.KeyLabel, cfg.RateLabel = tpcc.NewOrder, "NOPM", "tx+queries/min"
}

// Figures are the headline numbers: NOPM and the client's TPM over the transactions, QphH over the queries
// (each completed query counts, as go-tpc and the paper count them: queries per hour of the measured window).
func (s *runSession) Figures(m *result.Measurement) map[string]any {
	fig := map[string]any{"nopm": 0.0, "client_tpm": 0.0, "qphh": 0.0, "queries": int64(0)}
	if m.MeasuredSecs <= 0 {
		return fig
	}
	var tx, q int64
	for i, n := range unitNames() {
		st := m.Transactions[n]
		if i < numTx {
			tx += st.Count + st.Rollbacks
		} else {
			q += st.Count
		}
	}
	fig["nopm"] = runner.Round(float64(m.Transactions[tpcc.TxNames[tpcc.NewOrder]].Count)/(m.MeasuredSecs/60), 1)
	fig["client_tpm"] = runner.Round(float64(tx)/(m.MeasuredSecs/60), 1)
	fig["qphh"] = runner.Round(float64(q)/(m.MeasuredSecs/3600), 1)
	fig["queries"] = q
	return fig
}

func (s *runSession) Finish(_ context.Context, res *result.Result) { printSummary(s.setup.Out, res) }

func (s *runSession) Check(ctx context.Context, w io.Writer) ([]result.Check, error) {
	return runner.RunChecks(ctx, w, s.db.Check)
}

func (s *runSession) Close() { s.db.Close() }

// stream is one analytic stream: its own connection, running the 22 queries in order from its own first (stream
// i starts at query i+1, as go-tpc's do), each read to its last row.
type stream struct {
	runner.Cut
	r    *runSession
	s    *engine.Session
	next int
}

func (r *runSession) newStream(ctx context.Context, i int) (*stream, error) {
	st := &stream{r: r, next: i % len(QueryNames)}
	if err := st.Reconnect(ctx); err != nil {
		return nil, err
	}
	return st, nil
}

func (st *stream) Next() (int, time.Duration, time.Duration) {
	q := st.next
	st.next = (st.next + 1) % len(QueryNames)
	return numTx + q, 0, 0
}

func (st *stream) Do(ctx context.Context, tx int) runner.Outcome {
	q := tx - numTx
	e := st.r.db.TPCC.T.Engine
	return runner.Retry{Engine: e}.Do(ctx, func(int) runner.Outcome {
		_, err := st.s.Count(ctx, queryStmts[q])
		switch {
		case err == nil:
			return runner.Outcome{}
		case e.Classify(err) == engine.ConnLost:
			return runner.Outcome{Err: fmt.Errorf("%s: connection lost: %w", QueryNames[q], err), ConnLost: true}
		default:
			return runner.Outcome{Err: fmt.Errorf("%s: %w", QueryNames[q], err)}
		}
	})
}

func (st *stream) Reconnect(ctx context.Context) error {
	return st.Reopen(ctx, &st.s, func(ctx context.Context) (*engine.Session, error) {
		return runner.Connect(ctx, st.r.db.TPCC.Data.SQL, st.r.db.TPCC.T, st.r.set)
	})
}

func (st *stream) Close() { st.s.Close() }

func printSummary(w io.Writer, res *result.Result) {
	m := res.Measurement
	if m == nil {
		return
	}
	f := res.Figures
	fmt.Fprintf(w, "\n%s after %.1fs measured: NOPM %.0f  client TPM %.0f  QphH %.1f (%d queries)\n", strings.ToUpper(res.Status), m.MeasuredSecs,
		f["nopm"], f["client_tpm"], f["qphh"], f["queries"])
	if len(res.Sides) > 0 {
		fmt.Fprintf(w, "each side alone, then together (the share of its figure it kept beside the other):\n")
		for _, k := range [][2]string{{"nopm", "NOPM"}, {"qphh", "QphH"}} {
			if a, ok := f[k[0]+"_alone"]; ok {
				fmt.Fprintf(w, "  %-5s alone %10.1f  together %10.1f  kept %5.1f%%\n", k[1], a, f[k[0]], f[k[0]+"_kept_pct"])
			}
		}
	} else {
		fmt.Fprintln(w, "no side ran alone (--together): the interference is not measured; leave --together out to measure each side alone first")
	}
	// the units that ran in the window: a stream of a short window gets through a few of the 22 queries
	var ran []string
	for _, n := range unitNames() {
		if t := m.Transactions[n]; t.Count+t.Rollbacks+t.Errors > 0 {
			ran = append(ran, n)
		}
	}
	if q := len(ran) - numTx; q < len(QueryNames) {
		fmt.Fprintf(w, "%d of the 22 queries completed in the window (a query in flight at its end is not counted):\n", max(q, 0))
	}
	runner.PrintTable(w, m, "transaction/query", ran)
	fmt.Fprintf(w, "client CPU: %.2fs user + %.2fs system; reconnects %d\n", m.ClientCPU.UserSeconds, m.ClientCPU.SystemSeconds, m.Reconnects)
	runner.PrintErrors(w, res)
}

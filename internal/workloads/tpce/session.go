package tpce

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// RunFlags are `tpce run`'s options.
type RunFlags struct {
	runner.Users
	runner.Modes      `mode.help:"sql (each frame's statements from the client) or procedures (each frame one stored-procedure call; the default where the engine has them)"`
	workload.Sharding `shard.help:"drive shard I of N (I/N, e.g. 2/4) of a run driven by N processes: its customers are the I-th of N even ranges of the customers' load units, its trade ids of its own (shard 1 runs Data-Maintenance); merge the shards' results with dbdyno results merge (tpsE: their sum)"`
	Mix               string `flag:"mix" help:"the customer emulator's weights, e.g. trade_order=30,trade_status=40,market_watch=30 (relative; a transaction not named does not run; trade_result and market_feed follow trade_order, as the market exchange emulator starts them); a mix other than the standard broker_volume=4.9,customer_position=13,market_watch=18,security_detail=14,trade_lookup=8,trade_order=10.1,trade_status=19,trade_update=2 marks the result \"custom mix\" and compare sets it only beside the same mix"`
}

// Disclaimer goes with every tpce result.
const Disclaimer = "TPC-E-derived, not EGen data, not audited"

type runSession struct {
	*Workload
	setup   *runner.Setup
	version string
	mix     workload.Mix
	// warmed is what the pending limit orders' warm-up did (wasWarmed: it ran), set at the window's start
	warmed          warmResult
	wasWarmed, said bool
	fixedStart      bool // the window starts at --start-at: the warm-up may not hold it back
}

func open(ctx context.Context, setup *runner.Setup, o *RunFlags) (runner.Session, error) {
	if e := setup.Target.Engine; setup.Mode == "procedures" && !e.Procedures {
		return nil, fmt.Errorf("--mode procedures is not available on %s: use --mode sql", e)
	}
	m, err := ParseMix(o.Mix)
	if err != nil {
		return nil, err
	}
	db, err := Open(ctx, setup.Target)
	if err != nil {
		return nil, err
	}
	w, err := db.newWorkload(ctx, o.Seed, setup.Mode == "procedures", o.Shard)
	if err != nil {
		db.Close()
		return nil, err
	}
	if m.Custom {
		w.cards = m.Cards()
	}
	w.warmAfter(setup.Users.Rampup / 2)
	s := &runSession{Workload: w, setup: setup, version: db.ServerVersion(ctx), mix: m}
	custom := ""
	if m.Custom {
		custom = ", custom mix " + m.Text
	}
	fmt.Fprintf(setup.Out, "dbdyno tpce on %s (%s): %d customers, %d trade days, %d VUs, mode %s%s, seed %d (%s)\n",
		s.version, setup.Target, w.meta.Size.Customers, w.meta.Size.TradeDays, o.VUs, setup.Mode, custom, o.Seed, Disclaimer)
	return s, nil
}

func (s *runSession) ServerVersion() string { return s.version }

func (s *runSession) Options() map[string]any {
	out := s.setup.Options()
	out["customers"] = s.meta.Size.Customers
	out["trade_days"] = s.meta.Size.TradeDays
	out["build_seed"] = fmt.Sprint(s.meta.Seed)
	out["data"] = Disclaimer
	out["mode"] = s.setup.Mode
	if s.mix.Custom {
		out["mix"] = s.mix.Text // a custom mix: compare sets it only beside the same mix (Work)
	}
	s.shard.Record(out, "customer load units", int(s.meta.Size.Customers/LoadUnit), 1)
	return out
}

func (s *runSession) Configure(cfg *runner.Config) {
	cfg.KeyTx, cfg.KeyLabel, cfg.RateLabel, cfg.PerSecond = TR, "tpsE", "tps", true
	cfg.AtMeasureStart = s.atWindow
	s.fixedStart = !cfg.MeasureAt.IsZero()
}

// atWindow, the measured window's start, waits for the pending limit orders' warm-up (book.go) and says what it
// did.
func (s *runSession) atWindow(ctx context.Context) error {
	res, ran, err := s.awaitWarmup(ctx, s.fixedStart)
	switch {
	case err != nil:
		return err
	case s.said: // a stepped run's later step: the same book
	case !ran:
		fmt.Fprintf(s.setup.Out, "%9s the pending limit orders start empty (no ramp-up to size them by): the window's Trade-Results lag its Trade-Orders\n", "")
	case res.Cut:
		fmt.Fprintf(s.setup.Out, "%9s limit orders warmed: %d of the %d pending of the 900 s before the run, for %.1f Trade-Orders/s (the first %.1fs): cut short at the window's start (--start-at), the window's Trade-Results may lag\n",
			"", res.Orders, res.Planned, res.Rate, res.Over.Seconds())
	default:
		fmt.Fprintf(s.setup.Out, "%9s limit orders warmed: %d pending of the 900 s before the run, for %.1f Trade-Orders/s (the first %.1fs), placed in %.1fs\n",
			"", res.Orders, res.Rate, res.Over.Seconds(), res.Took.Seconds())
	}
	s.warmed, s.wasWarmed, s.said = res, ran, true
	return nil
}

// Figures: tpsE (completed Trade-Results a second), the measured mix beside the required one, each
// transaction's p90 beside its limit, and the sizing warning.
func (s *runSession) Figures(m *result.Measurement) map[string]any {
	fig := figures(m, s.meta.Size.Customers)
	if rt := s.trips.perTx(); rt > 0 {
		fig["round_trips_per_tx"] = runner.Round(rt, 2) // the client's, over the whole run (ramp-up included)
	}
	if s.wasWarmed {
		fig["warmed_limit_orders"] = s.warmed.Orders // placed in the ramp-up, for the rate below
		fig["warmed_for_to_per_s"] = runner.Round(s.warmed.Rate, 2)
		if s.warmed.Cut {
			fig["warmed_cut_of"] = s.warmed.Planned // cut short at the window's fixed start: placed of planned
		}
	}
	return fig
}

func figures(m *result.Measurement, customers int64) map[string]any {
	fig := map[string]any{"data": Disclaimer, "nominal_tpse": float64(customers) / CustomersPerTPS}
	tr := m.Transactions[TxNames[TR]]
	if m.MeasuredSecs > 0 {
		fig["tpse"] = runner.Round(float64(tr.Count)/m.MeasuredSecs, 2)
	}
	var total int64
	for tx := BV; tx <= MF; tx++ {
		st := m.Transactions[TxNames[tx]]
		total += st.Count + st.Rollbacks
	}
	for tx := BV; tx <= MF; tx++ {
		st := m.Transactions[TxNames[tx]]
		if total > 0 {
			fig["mix_pct_"+TxNames[tx]] = runner.Round(100*float64(st.Count+st.Rollbacks)/float64(total), 2)
		}
		if st.Count > 0 {
			p90 := float64(st.Latency.P90) / 1e6
			fig["p90_s_"+TxNames[tx]] = runner.Round(p90, 4)
			fig["p90_within_limit_"+TxNames[tx]] = p90 <= Limits[tx]
		}
	}
	if off := mixOutside(fig); len(off) > 0 {
		fig["mix_outside"] = "the measured mix is outside the required one (each within " + units.Percent(100*MixTolerance).String() + " of its share): " +
			strings.Join(off, ", ") + "; " + mixWhy
	}
	if to := m.Transactions[TxNames[TO]]; to.Count+to.Rollbacks > 0 {
		fig["to_rollback_pct"] = runner.Round(100*float64(to.Rollbacks)/float64(to.Count+to.Rollbacks), 2)
	}
	if v, ok := fig["tpse"].(float64); ok && v > float64(customers)/CustomersPerTPS {
		fig["warning"] = fmt.Sprintf("tpsE %.2f exceeds customers/500 = %.2f: the specification's sizing rule needs a database of at least %d customers for this rate",
			v, float64(customers)/CustomersPerTPS, int64(v*CustomersPerTPS+999)/1000*1000)
	}
	return fig
}

// MixTolerance is how far, as a share of its own required share, a transaction's measured share may be from it
// before the run says its mix is not the specification's (dbdyno's bound: the specification's own bounds are
// not in open code; 5% holds Trade-Result to 9.5-10.5% and Market-Feed to 0.95-1.05%).
const MixTolerance = 0.05

// mixWhy is why a run's Trade-Result and Market-Feed may be off, and the fix.
const mixWhy = "a limit order completes only when the market emulator's price (a 900 s swing) crosses it, and the pending ones are " +
	"warmed to their steady state in the ramp-up for its Trade-Order rate: with no ramp-up they start empty and Trade-Results and " +
	"Market-Feeds read low, and a rate that changes after the ramp-up leaves more or fewer pending than it needs; give a ramp-up " +
	"(--rampup 10s or more) and a steady rate (--rate), or run longer (--duration 30m) for the specification's steady state"

// mixOutside lists the transactions whose measured share is outside MixTolerance of the required (with a
// custom --mix, of the standard: then it is expected and not said).
func mixOutside(fig map[string]any) []string {
	var off []string
	for tx := BV; tx <= MF; tx++ {
		got, ok := fig["mix_pct_"+TxNames[tx]].(float64)
		want := RequiredMix[tx]
		if ok && math.Abs(got-want) > MixTolerance*want {
			off = append(off, fmt.Sprintf("%s %v%% (required %v%%)", TxNames[tx], got, want))
		}
	}
	return off
}

func (s *runSession) Finish(_ context.Context, res *result.Result) { printSummary(s.setup.Out, res) }

func (s *runSession) Check(ctx context.Context, w io.Writer) ([]result.Check, error) {
	return runner.RunChecks(ctx, w, s.db.Check)
}

func (s *runSession) Close() {
	s.stopWarmup()
	s.db.Close()
}

func printSummary(w io.Writer, res *result.Result) {
	m := res.Measurement
	if m == nil {
		return
	}
	fmt.Fprintf(w, "\n%s after %.1fs measured: tpsE %v (completed Trade-Results a second; nominal for this size %v) — %s\n",
		strings.ToUpper(res.Status), m.MeasuredSecs, res.Figures["tpse"], res.Figures["nominal_tpse"], Disclaimer)
	if v, ok := res.Figures["warning"]; ok {
		fmt.Fprintf(w, "warning: %v\n", v)
	}
	runner.PrintTable(w, m, "transaction", TxNames)
	required := "required"
	if _, custom := res.Options["mix"]; custom {
		required = "standard" // the specification's mix, beside a custom one
	}
	fmt.Fprintf(w, "%-18s %9s %9s %9s %9s %s\n", "transaction", "mix %", required, "p90 (s)", "limit", "p90 ok")
	txs := make([]int, 0, len(RequiredMix))
	for tx := range RequiredMix {
		txs = append(txs, tx)
	}
	sort.Ints(txs)
	for _, tx := range txs {
		n := TxNames[tx]
		ok := "-"
		if v, has := res.Figures["p90_within_limit_"+n]; has {
			ok = map[bool]string{true: "pass", false: "FAIL"}[v.(bool)]
		}
		fmt.Fprintf(w, "%-18s %9v %9v %9v %9v %s\n", n, res.Figures["mix_pct_"+n], RequiredMix[tx], orDash(res.Figures["p90_s_"+n]), Limits[tx], ok)
	}
	if v, ok := res.Figures["to_rollback_pct"]; ok {
		fmt.Fprintf(w, "Trade-Order intentional rollbacks: %v%% (the specification's 1 in 101)\n", v)
	}
	if _, custom := res.Options["mix"]; !custom {
		if v, ok := res.Figures["mix_outside"]; ok {
			fmt.Fprintf(w, "warning: %v\n", v)
		}
	}
	runner.PrintErrors(w, res)
}

func orDash(v any) any {
	if v == nil {
		return "-"
	}
	return v
}

var (
	tpsE      = workload.MetricDesc{Name: "tpsE", Unit: "tps", Better: result.Higher, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"}
	txP95     = workload.MetricDesc{Name: "<transaction> p95 latency", Unit: "ms", Better: result.Lower}
	toRollPct = workload.MetricDesc{Name: "Trade-Order rollbacks", Unit: "%", Better: result.Lower}
)

func metrics(r *result.Result, m *result.Measurement) []result.Metric {
	out := runner.FigureMetric(nil, tpsE.WithNoise(result.TxNoise(m.KeyTx)), r, "tpse")
	out = runner.P95Metrics(out, txP95, m, TxNames)
	return runner.FigureMetric(out, toRollPct, r, "to_rollback_pct")
}

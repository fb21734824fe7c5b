package tpce_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/workloads/tpce"
)

// TestMixHoldsInTheFirstMinute: a 60 s run (the default 10 s ramp-up) on SQLite measures Trade-Result and
// Market-Feed at the specification's 10% and 1% of the mix, each within MixTolerance of its share, and so says
// nothing of its mix being outside: the pending limit orders are warmed to their steady state in the ramp-up.
// Before, a fifth of the window's Trade-Orders were still pending at its end (Trade-Result 7.8-8.4%, Market-Feed
// 0.8%). The run is an open loop at a fixed rate (--rate), so that the counts asserted on do not follow the
// machine's speed (a rate that changes after the ramp-up moves the mix, and the run says so), and it runs alone
// among the package's tests (not parallel: beside three others on the 2-core machine a run of 300 a second held
// 108, its book sized for the ramp-up's 300); --check then wants the run's trades, the warmed ones among them,
// consistent.
func TestMixHoldsInTheFirstMinute(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "tpce.db")
	tpce.TinyAt(t, url)
	file := filepath.Join(dir, "run.json")
	clitest.Must(t, "tpce", "run", "--target", url, "--vus", "4", "--rate", "300", "--duration", "60s", "--check",
		"--store", "", "--result", file, "--seed", "47")
	res, _ := clitest.ReadResult(t, file)
	tx := res.Measurement.Transactions
	var total int64
	for _, name := range tpce.TxNames[:tpce.DM] {
		total += tx[name].Count + tx[name].Rollbacks
	}
	for _, c := range []int{tpce.TR, tpce.MF} {
		name, want := tpce.TxNames[c], tpce.RequiredMix[c]
		got := 100 * float64(tx[name].Count) / float64(total)
		if math.Abs(got-want) > tpce.MixTolerance*want {
			t.Errorf("%s: %d of %d transactions, %.2f%% of the mix, want %v%% within %v of it", name, tx[name].Count, total, got, want, tpce.MixTolerance)
		}
	}
	if w, ok := res.Figures["mix_outside"]; ok {
		t.Errorf("the run says its mix is outside: %v", w)
	}
	if n, _ := res.Figures["warmed_limit_orders"].(float64); n < 100 {
		t.Errorf("%v limit orders warmed", res.Figures["warmed_limit_orders"])
	}
	for _, c := range res.Checks {
		if !c.Passed {
			t.Errorf("check %s failed after the run: %+v", c.Name, c)
		}
	}
	if len(res.Checks) == 0 {
		t.Error("no checks ran")
	}
	t.Logf("%d transactions (%.0f a second of the 300 asked): trade_order %d (+%d rolled back), trade_result %d, market_feed %d; %v limit orders warmed",
		total, float64(total)/res.Measurement.MeasuredSecs, tx["trade_order"].Count, tx["trade_order"].Rollbacks, tx["trade_result"].Count, tx["market_feed"].Count, res.Figures["warmed_limit_orders"])
}

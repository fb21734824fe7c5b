package tpcc

import (
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// The specification's checks, against its numbers: NOPM's ceiling of 12.86 per warehouse, the p90 limits of
// clause 5.2.5.4 (5 s, and 20 s for Stock-Level), the keying times and think time means of clause 5.2.5.7.
func TestSpecChecksAgainstTheSpecification(t *testing.T) {
	m := func(nopm float64, p90 [numTx]float64, keying, think [numTx]float64, n int64) *result.Measurement {
		out := &result.Measurement{MeasuredSecs: 600, Transactions: map[string]result.TxStats{},
			Terminals: &result.Terminals{Terminals: 100, Connections: 10, Pacing: map[string]result.Pacing{}}}
		for tx, name := range TxNames {
			out.Transactions[name] = result.TxStats{Count: n, Latency: result.Latency{P90: int64(p90[tx] * 1e6)}}
			out.Terminals.Pacing[name] = result.Pacing{Count: n, KeyingMeanS: keying[tx], ThinkMeanS: think[tx]}
		}
		out.Transactions[TxNames[NewOrder]] = result.TxStats{Count: int64(nopm * 10), Latency: result.Latency{P90: int64(p90[NewOrder] * 1e6)}}
		return out
	}
	o := RunOptions{Warehouses: 10, KeyingThinking: true, PaceScale: 1}
	fast := [numTx]float64{4.9, 4.9, 4.9, 4.9, 19.9}
	spec := m(128.6, fast, keyingTime, thinkMean, 10000)
	for _, c := range specChecks(spec, o, 100, 128.6) {
		if !c.Passed {
			t.Errorf("a run at the specification's numbers fails %s: %s", c.Name, c.Detail)
		}
	}
	failed := func(m *result.Measurement, nopm float64) map[string]bool {
		out := map[string]bool{}
		for _, c := range specChecks(m, o, 100, nopm) {
			if !c.Passed {
				out[c.Name] = true
			}
		}
		return out
	}
	// NOPM 12.86 per warehouse: over 10 minutes, 1,400 new orders are 8% above their mean by chance at most; 140
	// on 10 warehouses is 8.9% above the ceiling, 135 is 5% above
	if f := failed(m(140, fast, keyingTime, thinkMean, 10000), 140); !f["spec_nopm_ceiling"] || len(f) != 1 {
		t.Errorf("NOPM 140 on 10 warehouses: failed %v", f)
	}
	if f := failed(m(135, fast, keyingTime, thinkMean, 10000), 135); len(f) != 0 {
		t.Errorf("NOPM 135 on 10 warehouses over 10 minutes: failed %v", f)
	}
	slow := fast
	slow[Payment], slow[StockLevel] = 5.1, 20.1
	if f := failed(m(120, slow, keyingTime, thinkMean, 10000), 120); !f["spec_payment_p90"] || !f["spec_stock_level_p90"] || len(f) != 2 {
		t.Errorf("p90 of 5.1 s for Payment and 20.1 s for Stock-Level: failed %v", f)
	}
	short := keyingTime
	short[NewOrder] = 17
	quick := thinkMean
	quick[Delivery] = 4.5 // 10% under 5 s, over 10,000 think times (3% by chance)
	if f := failed(m(120, fast, short, quick, 10000), 120); !f["spec_new_order_keying"] || !f["spec_delivery_think"] || len(f) != 2 {
		t.Errorf("keying 17 s for New-Order, think 4.5 s for Delivery: failed %v", f)
	}
	// over 100 think times, 10% under the mean is chance (3 standard errors: 30%)
	if f := failed(m(120, fast, keyingTime, quick, 100), 120); f["spec_delivery_think"] {
		t.Errorf("a mean think time 10%% under over 100: failed %v", f)
	}
	// without keying and think times, no check: the specification's pacing is not the run's
	if c := specChecks(spec, RunOptions{Warehouses: 10}, 0, 128.6); c != nil {
		t.Errorf("checks of a run without keying and think times: %+v", c)
	}
}

package results_test

import (
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
)

// The merge of open-loop shards is open loop at the whole rate: the shards' rates (rate/N each), starts,
// completions, skips and late units add up, the lag's mean is weighted by the starts, its max the largest.
// Before, the merged result had no open-loop part, and compare took the merge of an open-loop run for a
// closed loop.
func TestMergeKeepsTheOpenLoop(t *testing.T) {
	start := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	shard := func(id, i string, from, to int, ol *result.OpenLoop) *result.Result {
		return &result.Result{RunID: id, Workload: "webstore", Status: result.StatusOK, StartedAt: start, EndedAt: start.Add(time.Minute),
			Options: map[string]any{"shard": i, "rate": 300.0, "shard_share": map[string]any{"unit": "customers", "from": float64(from), "to": float64(to), "of": float64(8)}},
			Measurement: &result.Measurement{MeasureStart: start, MeasureEnd: start.Add(time.Minute), MeasuredSecs: 60, Transactions: map[string]result.TxStats{},
				OpenLoop: ol}}
	}
	a := &result.OpenLoop{RatePerS: 150, WholeRatePerS: 300, Started: 9000, Completed: 8990, Skipped: 10, Late: 4, LagMeanUS: 100, LagMaxUS: 5000, LatencyLimitUS: 50000}
	b := &result.OpenLoop{RatePerS: 150, WholeRatePerS: 300, Started: 3000, Completed: 2990, Skipped: 2, Late: 1, LagMeanUS: 500, LagMaxUS: 9000, LatencyLimitUS: 50000}
	m, err := results.MergeResults([]*result.Result{shard("a", "1/2", 0, 4, a), shard("b", "2/2", 4, 8, b)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := result.OpenLoop{RatePerS: 300, Started: 12000, Completed: 11980, Skipped: 12, Late: 5, LagMeanUS: 200, LagMaxUS: 9000, LatencyLimitUS: 50000}
	if got := m.Measurement.OpenLoop; got == nil || *got != want {
		t.Fatalf("merged open loop %+v, want %+v", got, want)
	}
	// a closed-loop shard among them: no open-loop part
	m, err = results.MergeResults([]*result.Result{shard("a", "1/2", 0, 4, a), shard("b", "2/2", 4, 8, nil)}, nil)
	if err != nil || m.Measurement.OpenLoop != nil {
		t.Fatalf("open and closed shards: %v, open loop %+v, want none", err, m.Measurement.OpenLoop)
	}
}

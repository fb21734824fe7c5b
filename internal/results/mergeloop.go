package results

import (
	"math"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// mergeOpenLoop is the open-loop part of the merged measurement of a run's shards: the shards' schedules
// together are the whole run's (each of rate/N), so the rates, starts, completions, skips and late units add
// up, the lag's mean is weighted by the starts and its max is the largest. nil when any shard ran closed loop
// (the shards of one run share --rate).
func mergeOpenLoop(shards []*result.Result) *result.OpenLoop {
	if len(shards) == 0 {
		return nil
	}
	out := &result.OpenLoop{}
	var lagSum float64
	for _, s := range shards {
		if s.Measurement == nil || s.Measurement.OpenLoop == nil {
			return nil
		}
		o := s.Measurement.OpenLoop
		out.RatePerS += o.RatePerS
		out.Started += o.Started
		out.Completed += o.Completed
		out.Skipped += o.Skipped
		out.Late += o.Late
		out.LatencyLimitUS = max(out.LatencyLimitUS, o.LatencyLimitUS)
		out.LagMaxUS = max(out.LagMaxUS, o.LagMaxUS)
		lagSum += o.LagMeanUS * float64(o.Started)
	}
	if out.Started > 0 {
		out.LagMeanUS = math.Round(lagSum/float64(out.Started)*10) / 10
	}
	return out
}

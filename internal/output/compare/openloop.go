package compare

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// openLoop says whether a run ran open loop: on a schedule of intended starts (--rate), its latency counted
// from them (queueing included), its throughput set by the rate while the target keeps up. A latency limit
// alone leaves a run closed loop.
func openLoop(r *result.Result) bool {
	return r.Measurement != nil && r.Measurement.OpenLoop != nil && r.Measurement.OpenLoop.RatePerS > 0
}

// Loop words how a run was driven: "open loop at 200/s" or "closed loop".
func Loop(r *result.Result) string {
	if openLoop(r) {
		return fmt.Sprintf("open loop at %g/s", r.Measurement.OpenLoop.RatePerS)
	}
	return "closed loop"
}

// checkLoops refuses to set an open-loop run beside a closed-loop one: an open loop's latency counts from the
// intended start (queueing behind a slow target is in it) and its throughput follows the rate, a closed loop's
// latency is service time and its throughput what the users get done; their figures are not like-for-like.
func checkLoops(sets [][]*result.Result) error {
	var open, closed *result.Result
	for _, set := range sets {
		for _, r := range set {
			switch {
			case openLoop(r) && open == nil:
				open = r
			case !openLoop(r) && closed == nil:
				closed = r
			}
		}
	}
	if open == nil || closed == nil {
		return nil
	}
	return fmt.Errorf("run %s ran %s and run %s %s: an open loop's latency counts from the intended start and its throughput follows the rate, so their figures are not like-for-like; compare runs of one kind of loop, or give %s to set them side by side",
		open.RunID, Loop(open), closed.RunID, Loop(closed), AllowDifferentWorkFlag)
}

// OpenFigures are a configuration's open-loop figures, each the median over its repeats (nil for a
// configuration whose runs were not all open loop).
type OpenFigures struct {
	TargetPerS, AchievedPerS float64 // the scheduled rate; completed units of work per measured second
	LagMeanMs, LagMaxMs      float64 // how late the units started behind their intended starts
	Skipped, Late            float64 // starts skipped behind schedule; completed units over the latency limit
	LatencyLimitMs           float64 // 0: none
}

func openFigures(runs []*result.Result) *OpenFigures {
	var target, achieved, lagMean, lagMax, skipped, late, limit []float64
	for _, r := range runs {
		if !openLoop(r) {
			return nil
		}
		m, o := r.Measurement, r.Measurement.OpenLoop
		a := math.NaN()
		if m.MeasuredSecs > 0 {
			a = float64(o.Completed) / m.MeasuredSecs
		}
		target, achieved = append(target, o.RatePerS), append(achieved, a)
		lagMean, lagMax = append(lagMean, o.LagMeanUS/1000), append(lagMax, float64(o.LagMaxUS)/1000)
		skipped, late = append(skipped, float64(o.Skipped)), append(late, float64(o.Late))
		limit = append(limit, float64(o.LatencyLimitUS)/1000)
	}
	if len(runs) == 0 {
		return nil
	}
	return &OpenFigures{TargetPerS: Median(target), AchievedPerS: Median(achieved), LagMeanMs: Median(lagMean), LagMaxMs: Median(lagMax),
		Skipped: Median(skipped), Late: Median(late), LatencyLimitMs: Median(limit)}
}

// printLoops writes, when every configuration ran open loop, their open-loop figures side by side (with the
// change from the first); when their loops differ (compared with --allow-different-work), how each was
// driven and that they are not like-for-like.
func printLoops(w io.Writer, sums []Summary) error {
	all, loops := true, map[string]bool{}
	for _, s := range sums {
		all = all && s.Open != nil
		loops[s.Loop] = true
	}
	if !all {
		open := false
		for _, s := range sums {
			open = open || s.Open != nil
		}
		if open {
			fmt.Fprintln(w, "\nNOT LIKE-FOR-LIKE: open and closed loops (an open loop's latency counts from the intended start):")
			for _, s := range sums {
				fmt.Fprintf(w, "  %s  %s\n", s.Alias, s.Loop)
			}
		}
		return nil
	}
	fmt.Fprintln(w, "\nopen loop")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	columnHeads(tw, "figure", sums)
	limit := false
	for _, s := range sums {
		limit = limit || s.Open.LatencyLimitMs > 0
	}
	rows := []struct {
		name string
		get  func(o *OpenFigures) float64
		dir  Direction
		show bool
	}{
		{"target rate (/s)", func(o *OpenFigures) float64 { return o.TargetPerS }, HigherIsBetter, true},
		{"achieved rate (/s)", func(o *OpenFigures) float64 { return o.AchievedPerS }, HigherIsBetter, true},
		{"schedule lag mean (ms)", func(o *OpenFigures) float64 { return o.LagMeanMs }, LowerIsBetter, true},
		{"schedule lag max (ms)", func(o *OpenFigures) float64 { return o.LagMaxMs }, LowerIsBetter, true},
		{"latency limit (ms)", func(o *OpenFigures) float64 { return o.LatencyLimitMs }, LowerIsBetter, limit},
		{"skipped behind schedule", func(o *OpenFigures) float64 { return o.Skipped }, LowerIsBetter, limit},
		{"late (over the limit)", func(o *OpenFigures) float64 { return o.Late }, LowerIsBetter, limit},
	}
	for _, r := range rows {
		if !r.show {
			continue
		}
		fmt.Fprint(tw, r.name)
		for _, s := range sums {
			fmt.Fprintf(tw, "\t%s", Format(r.get(s.Open)))
		}
		a := r.get(sums[0].Open)
		for _, s := range sums[1:] {
			b := r.get(s.Open)
			switch {
			case r.name == "target rate (/s)" || r.name == "latency limit (ms)":
				fmt.Fprintf(tw, "\t%s", Words(Change(a, b))) // a setting, not a result: no verdict
			case a == 0 && b == 0:
				fmt.Fprint(tw, "\tthe same")
			default:
				fmt.Fprintf(tw, "\t%s", Judged(Change(a, b), r.dir))
			}
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

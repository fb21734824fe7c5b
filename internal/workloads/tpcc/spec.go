package tpcc

import (
	"fmt"
	"io"
	"math"

	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// nopmCeiling is the most new orders per minute a warehouse's 10 terminals can submit with the specification's
// keying and think times (clause 4.2.2: a reported tpmC above 12.86 per warehouse is not valid).
const nopmCeiling = 12.86

// terminalsPerWarehouse is the specification's (clause 4.2.2).
const terminalsPerWarehouse = 10

// p90Limit is each transaction's 90th percentile response time limit in seconds (clause 5.2.5.4). Delivery's is
// for its interactive part (the queueing of the deferred batch); dbdyno's Delivery runs whole, so its response
// time is held to the interactive part's limit.
var p90Limit = [numTx]float64{5, 5, 5, 5, 20}

// specChecks are the specification's checks of a run with keying and think times: NOPM within its ceiling for
// the warehouses the terminals have as homes, each transaction's p90 response time within its limit, and, for a
// run of terminals, the keying and think times' measured means against the required ones (clause 5.2.5.7).
// None for a run without keying and think times (not the specification's pacing).
func specChecks(m *result.Measurement, o RunOptions, terminals int, nopm float64) []result.Check {
	if m == nil || !o.KeyingThinking || m.MeasuredSecs <= 0 {
		return nil
	}
	scale := o.PaceScale
	if scale <= 0 {
		scale = 1
	}
	lo, hi := o.homes()
	homes := hi - lo
	var out []result.Check
	ceiling := nopmCeiling * float64(homes) / scale
	// the window's new orders are a sample of the terminals' submissions: a count of n is above its mean by
	// chance up to three standard deviations (√n) at most
	n := float64(m.Transactions[TxNames[NewOrder]].Count)
	chance := 0.0
	if n > 0 {
		chance = 3 / math.Sqrt(n)
	}
	c := result.Check{Name: "spec_nopm_ceiling", Passed: nopm <= ceiling*(1+chance)}
	c.Detail = fmt.Sprintf("NOPM %.1f against the ceiling of %.2f per warehouse: %.1f for %d warehouses (%.0f%% more by chance over %.0f new orders)",
		nopm, nopmCeiling/scale, ceiling, homes, 100*chance, n)
	if scale != 1 {
		c.Detail += fmt.Sprintf(" (keying and think times scaled by %g)", scale)
	}
	if terminals > 0 && terminals != terminalsPerWarehouse*homes {
		c.Detail += fmt.Sprintf("; the ceiling assumes %d terminals per warehouse, this run has %d for %d warehouses", terminalsPerWarehouse, terminals, homes)
	} else if terminals == 0 {
		c.Detail += fmt.Sprintf("; the ceiling assumes %d terminals per warehouse (--terminals %d)", terminalsPerWarehouse, terminalsPerWarehouse*homes)
	}
	out = append(out, c)
	for tx, name := range TxNames {
		s, ok := m.Transactions[name]
		if !ok || s.Count+s.Rollbacks == 0 {
			continue
		}
		p90 := float64(s.Latency.P90) / 1e6
		out = append(out, result.Check{Name: "spec_" + name + "_p90", Passed: p90 <= p90Limit[tx],
			Detail: fmt.Sprintf("%s p90 response time %.3fs against the limit of %gs (clause 5.2.5.4)", name, p90, p90Limit[tx])})
	}
	if m.Terminals == nil {
		return out
	}
	for tx, name := range TxNames {
		p, ok := m.Terminals.Pacing[name]
		if !ok || p.Count == 0 {
			continue
		}
		keying := keyingTime[tx] * scale
		// a keying time is a fixed minimum: the mean is it (to the millisecond the result keeps)
		out = append(out, result.Check{Name: "spec_" + name + "_keying", Passed: p.KeyingMeanS >= keying-0.0005,
			Detail: fmt.Sprintf("%s mean keying time %.3fs over %d against the required %.3gs (clause 5.2.5.2)", name, p.KeyingMeanS, p.Count, keying)})
		think := thinkMean[tx] * scale
		tol := runner.PacingTolerance(p.Count)
		out = append(out, result.Check{Name: "spec_" + name + "_think", Passed: math.Abs(p.ThinkMeanS-think) <= tol*think+0.0005,
			Detail: fmt.Sprintf("%s mean think time %.3fs over %d against the required %.3gs (within %.0f%%: clause 5.2.5.7)", name, p.ThinkMeanS, p.Count, think, 100*tol)})
	}
	return out
}

// printSpecChecks prints the specification's checks of a run, as the consistency checks are.
func printSpecChecks(w io.Writer, checks []result.Check) {
	if len(checks) == 0 {
		return
	}
	failed := 0
	for _, c := range checks {
		if !c.Passed {
			failed++
		}
	}
	fmt.Fprintf(w, "the specification's checks of the run (%d of %d passed):\n", len(checks)-failed, len(checks))
	for _, c := range checks {
		v := "PASS"
		if !c.Passed {
			v = "FAIL"
		}
		fmt.Fprintf(w, "  %s  %s\n", v, c.Detail)
	}
}

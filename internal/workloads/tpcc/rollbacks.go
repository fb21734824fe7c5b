package tpcc

import (
	"fmt"
	"io"
	"math"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// rollbackShare is the share of New-Order transactions the specification has roll back (clause 2.4.1.4: an
// unused item number in 1% of them).
const rollbackShare = 0.01

// rollbackCheck is a failed check when more New-Orders rolled back than the specification's 1% and chance
// allow (three standard deviations over the share, for the transactions run): a sign of missing items or
// keys, which make the run's figures not TPC-C's. nil when within.
func rollbackCheck(m *result.Measurement) *result.Check {
	if m == nil {
		return nil
	}
	no := m.Transactions[TxNames[NewOrder]]
	n := no.Count + no.Rollbacks
	if n == 0 {
		return nil
	}
	limit := rollbackShare + 3*math.Sqrt(rollbackShare*(1-rollbackShare)/float64(n))
	if share := float64(no.Rollbacks) / float64(n); share > limit {
		return &result.Check{Name: "new_order_rollbacks", Passed: false, Detail: fmt.Sprintf(
			"%d of %d New-Orders rolled back (%.1f%%), more than the specification's 1%% (at most %.1f%% by chance): items may be missing from the database",
			no.Rollbacks, n, 100*share, 100*limit)}
	}
	return nil
}

// warnRollbacks prints and records (a failed check in the result) too many New-Order rollbacks.
func warnRollbacks(w io.Writer, res *result.Result) *result.Check {
	c := rollbackCheck(res.Measurement)
	if c != nil {
		fmt.Fprintf(w, "WARNING: %s\n", c.Detail)
		res.Checks = append(res.Checks, *c)
	}
	return c
}

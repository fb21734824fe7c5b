package webstore_test

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// No verdict without a noise estimate, and the estimate is honest: one configuration run 12 times (SQLite,
// runs of 12 intervals of a second, 32 virtual users each thinking a mean 1 s, as DVD Store's do) and every
// one of the 66 pairs compared as `compare` compares two runs: at most 5% of them are called better or worse.
// Half the users at the same think time (half the orders, 12 runs) is called worse in at least 95% of the 144
// pairs of one run of each. Think time, not the machine, sets the rate, so the test does not depend on the
// machine's speed: the load asks a tenth of a core. Both loads think alike, so both settle alike in their
// ramp-up (three times the think time was still settling when measuring began, in a CI run), and each
// interval holds enough orders for its run's noise to be told from a halving (8 intervals of half a second
// held 7 orders each, and half the orders was within noise in 7% of the pairs).
func TestIdenticalRunsAreNotJudged(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("24 runs of 14 s")
	}
	url := "sqlite://" + filepath.Join(t.TempDir(), "ws.db")
	clitest.Must(t, "webstore", "build", "--target", url, "--customers", "2000", "--products", "1000", "--orders-per-month", "100", "--reviews-per-product", "2")
	runs := func(vus string, n int) []*result.Result {
		var out []*result.Result
		for i := 0; i < n; i++ {
			file := filepath.Join(t.TempDir(), fmt.Sprintf("r%d.json", i))
			clitest.Must(t, "webstore", "run", "--target", url, "--vus", vus, "--rampup", "2s", "--duration", "12s", "--interval", "1s",
				"--think", "1s", "--store", "", "--result", file)
			r, _ := clitest.ReadResult(t, file)
			// each interval's end kept to the millisecond: a rate is a count over its span, as the interval's own
			// rate (over its exact span) says (they were kept to a tenth of a second, 0.25 s as 0.3 or 0.2 s, and
			// every rate found from them moved by a fifth)
			prev := 0.0
			for k, iv := range r.Measurement.Intervals {
				n := 0.0
				for _, tx := range iv.Transactions {
					n += float64(tx.Count)
				}
				if rate := n * 60 / (iv.ElapsedSeconds - prev); iv.PerMinute > 0 && math.Abs(rate/iv.PerMinute-1) > 0.02 {
					t.Fatalf("%s: interval %d's rate from its end is %.0f/min, its own %.0f/min", r.RunID, k+1, rate, iv.PerMinute)
				}
				prev = iv.ElapsedSeconds
			}
			out = append(out, r)
		}
		return out
	}
	judge := func(a, b *result.Result) compare.Row {
		for _, r := range compare.Table(compare.Summaries([][]*result.Result{{a}, {b}})) {
			if r.Desc.Headline {
				return r
			}
		}
		t.Fatalf("no headline compared between %s and %s", a.RunID, b.RunID)
		return compare.Row{}
	}
	same := runs("32", 12)
	judged, pairs := 0, 0
	for i := range same {
		for j := i + 1; j < len(same); j++ {
			pairs++
			r := judge(same[i], same[j])
			switch r.Verdict(1) {
			case compare.Better, compare.Worse:
				judged++
				t.Logf("%s vs %s: %s", same[i].RunID, same[j].RunID, r.Words(1))
			case compare.NoiseUnknown:
				t.Fatalf("%s vs %s: %s: eight measured intervals give an estimate", same[i].RunID, same[j].RunID, r.Words(1))
			}
		}
	}
	if pairs != 66 || judged*20 > pairs {
		t.Errorf("%d of %d pairs of identical runs judged better or worse, want at most 5%%", judged, pairs)
	}
	slower := runs("16", 12)
	called, cross := 0, 0
	for _, a := range same {
		for _, b := range slower {
			cross++
			if r := judge(a, b); r.Verdict(1) == compare.Worse {
				called++
			} else if cross-called <= 10 {
				t.Logf("half the users: %s", r.Words(1))
			}
		}
	}
	if called*20 < cross*19 {
		t.Errorf("half the users called worse in %d of %d pairs, want at least 95%%", called, cross)
	}
}

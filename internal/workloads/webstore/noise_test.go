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

// No verdict without a noise estimate, and the estimate is honest: one configuration run 20 times (SQLite,
// short runs of 8 intervals of half a second, 32 virtual users each thinking a mean 1 s, as DVD Store's do) and
// every one of the 190 pairs compared as `compare` compares two runs: at most 5% of them are called better or
// worse. The same load with three times the think time (a third of the orders, 20 runs) is called worse in at
// least 95% of the 400 pairs of one run of each. Think time, not the machine, sets the rate, so the test does
// not depend on the machine's speed: the load asks a tenth of a core, and even a machine that gives it half of
// what it asks still leaves the slower load well below the faster one (128 users asked half a core; a loaded CI
// machine held the 1 s load to 70% of its rate and twice the think time was only 30% lower, within noise).
func TestIdenticalRunsAreNotJudged(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("40 runs of 6 s")
	}
	url := "sqlite://" + filepath.Join(t.TempDir(), "ws.db")
	clitest.Must(t, "webstore", "build", "--target", url, "--customers", "2000", "--products", "1000", "--orders-per-month", "100", "--reviews-per-product", "2")
	runs := func(think string, n int) []*result.Result {
		var out []*result.Result
		for i := 0; i < n; i++ {
			file := filepath.Join(t.TempDir(), fmt.Sprintf("r%d.json", i))
			clitest.Must(t, "webstore", "run", "--target", url, "--vus", "32", "--rampup", "2s", "--duration", "4s", "--interval", "500ms",
				"--think", think, "--store", "", "--result", file)
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
	same := runs("1s", 20)
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
	if pairs != 190 || judged*20 > pairs {
		t.Errorf("%d of %d pairs of identical runs judged better or worse, want at most 5%%", judged, pairs)
	}
	slower := runs("3s", 20)
	called, cross := 0, 0
	for _, a := range same {
		for _, b := range slower {
			cross++
			if r := judge(a, b); r.Verdict(1) == compare.Worse {
				called++
			} else if cross-called <= 10 {
				t.Logf("three times the think time: %s", r.Words(1))
			}
		}
	}
	if called*20 < cross*19 {
		t.Errorf("three times the think time called worse in %d of %d pairs, want at least 95%%", called, cross)
	}
}

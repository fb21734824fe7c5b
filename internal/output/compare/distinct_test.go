package compare

import (
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// A configuration given twice is refused, whatever order its runs come in; configurations that share some runs
// (a sweep's group and one of its runs) are not the same configuration; runs nothing names are never taken for
// one another.
func TestCheckRefusesAConfigurationGivenTwice(t *testing.T) {
	r := func(id, digest string) *result.Result {
		return &result.Result{RunID: id, Digest: digest, Workload: "w", Status: result.StatusOK,
			Metrics: []result.Metric{{Name: "m", Better: result.Higher, Value: 1, Headline: true}}}
	}
	a, b := r("a", ""), r("b", "")
	for _, c := range []struct {
		sets [][]*result.Result
		want string
	}{
		{[][]*result.Result{{a}, {r("a", "")}}, "run a is given twice"},
		{[][]*result.Result{{a, b}, {b, a}}, "the same 2 runs (a ...) are given twice"},
		{[][]*result.Result{{r("", "sha256:1")}, {r("", "sha256:1")}}, "run sha256:1 is given twice"},
		{[][]*result.Result{{a, b}, {a}}, ""},
		{[][]*result.Result{{a}, {b}}, ""},
		{[][]*result.Result{{r("", "")}, {r("", "")}}, ""},
	} {
		err := Check(c.sets, Options{})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%d and %d runs: %v, want %q", len(c.sets[0]), len(c.sets[1]), err, c.want)
		}
	}
}

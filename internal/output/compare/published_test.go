package compare

import (
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// A published figure (dbdyno results import) is not compared with measured runs unless asked: one line names it
// and the leaderboard; two published figures compare.
func TestPublishedFigureIsNotComparedWithRuns(t *testing.T) {
	fig := func(id string, pub bool) *result.Result {
		r := &result.Result{RunID: id, Workload: "w", Status: result.StatusOK, Metrics: []result.Metric{{Name: "NOPM", Better: result.Higher, Value: 1, Headline: true}}}
		if pub {
			r.Published = &result.Published{System: "S", Source: "a study"}
		}
		return r
	}
	err := Check([][]*result.Result{{fig("r1", false)}, {fig("p1", true)}}, Options{})
	if err == nil || err.Error() != "run p1 is a published figure (a study), not a run dbdyno measured: rank them with dbdyno leaderboard, or give --allow-different-work to compare the headline" {
		t.Fatalf("measured against published: %v", err)
	}
	if err := Check([][]*result.Result{{fig("p1", true)}, {fig("r1", false)}}, Options{}); err == nil || !strings.HasPrefix(err.Error(), "run p1 is a published figure") {
		t.Fatalf("published first: %v", err)
	}
	if err := Check([][]*result.Result{{fig("r1", false)}, {fig("p1", true)}}, Options{AllowDifferentWork: true}); err != nil {
		t.Fatalf("asked: %v", err)
	}
	if err := Check([][]*result.Result{{fig("p1", true)}, {fig("p2", true)}}, Options{}); err != nil {
		t.Fatalf("two published figures: %v", err)
	}
}

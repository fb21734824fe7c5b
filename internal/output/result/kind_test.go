package result

import (
	"strings"
	"testing"
)

// A registered workload's results are checked for its sections, upgraded with its metrics, and compared by its
// work; a sweep over its flag takes its wording.
func TestKindHooks(t *testing.T) {
	// version-1 documents name one of the first workloads; no workload is registered in this package's tests
	RegisterKind(&Kind{Workload: "tpcc", Sections: []string{"measurement"},
		Derive:      func(r *Result) []Metric { return []Metric{{Name: "m", Better: Higher, Value: 7, Headline: true}} },
		Work:        func(r *Result) string { return "scale " + r.Target.ServerVersion },
		SweepTitles: map[string]string{"streams": "N concurrent streams"}})
	r := sample()
	r.SchemaVersion = 1
	b, _ := r.Marshal()
	got, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := got.Headline(); !ok || h.Value != 7 {
		t.Errorf("a version-1 result was not given its workload's metrics: %+v", got.Metrics)
	}
	r.Measurement = nil
	b, _ = r.Marshal()
	if _, err := Parse(b); err == nil || !strings.Contains(err.Error(), "has no measurement section") {
		t.Errorf("a result without its workload's section: %v", err)
	}
	if !sample().Has("measurement") || sample().Has("analytic") || sample().Has("no such key") {
		t.Error("Has does not tell the sections a result holds")
	}
	a, c := sample(), sample()
	c.Target.ServerVersion = "PostgreSQL 16"
	if err := Comparable([]*Result{a, c}); err == nil || !strings.Contains(err.Error(), "did other work") {
		t.Errorf("runs of other work compared: %v", err)
	}
	if err := Comparable([]*Result{a, sample()}); err != nil {
		t.Errorf("runs of the same work not compared: %v", err)
	}
	if WorkOf(a) != "tpcc: scale PostgreSQL 15" {
		t.Errorf("work %q", WorkOf(a))
	}
	if SweepTitle("tpcc", "streams") != "N concurrent streams" || SweepTitle("tpcc", "vus") != "by vus" || SweepTitle("w", "vus") != "by vus" {
		t.Error("sweep titles")
	}
}

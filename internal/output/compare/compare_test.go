package compare

import (
	"math"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

func TestFasterMatchesTheSeedReports(t *testing.T) {
	// The seed study: 74 s on A against 56 s on B is "B is 32.14% faster".
	p := Faster(74, 56, LowerIsBetter)
	if math.Abs(p-32.142857) > 1e-4 {
		t.Fatalf("74 s vs 56 s: %.4f%%, want 32.14%%", p)
	}
	if s := Sentence("Es_v3", "Eds_v4", p, LowerIsBetter); s != "Eds_v4 is 32.14% faster than Es_v3" {
		t.Fatalf("sentence %q", s)
	}
	// the other way round names the other system
	q := Faster(56, 74, LowerIsBetter)
	if math.Abs(q+32.142857) > 1e-4 || Sentence("A", "B", q, LowerIsBetter) != "A is 32.14% faster than B" {
		t.Fatalf("56 s vs 74 s: %.4f %s", q, Sentence("A", "B", q, LowerIsBetter))
	}
	// rates: 1000 vs 1364 NOPM is 36.4% higher
	if r := Faster(1000, 1364, HigherIsBetter); math.Abs(r-36.4) > 1e-9 {
		t.Fatalf("rate %.4f", r)
	}
	if r := Faster(1364, 1000, HigherIsBetter); math.Abs(r+36.4) > 1e-9 {
		t.Fatalf("rate the other way %.4f", r)
	}
	if !math.IsNaN(Faster(0, 5, HigherIsBetter)) {
		t.Fatal("a zero cannot be compared")
	}
}

func TestMedianAndRepeats(t *testing.T) {
	if Median([]float64{3, 1, 2}) != 2 || Median([]float64{4, 1, 3, 2}) != 2.5 {
		t.Fatal("median")
	}
	mk := func(nopm float64) *result.Result {
		return &result.Result{Metrics: []result.Metric{
			{Name: "NOPM", Better: result.Higher, Value: nopm, Headline: true, PerCore: true, PerPrice: true, Aggregate: "sum"},
			{Name: "TPM", Better: result.Higher, Value: nopm * 2, PerCore: true, PerPrice: true, Aggregate: "sum"}}}
	}
	runs := []*result.Result{mk(100), mk(300), mk(200)}
	if i := MedianIndex(runs); i != 2 {
		t.Fatalf("median run %d, want 2 (NOPM 200)", i)
	}
	s := Summarise("A", runs)
	if st := s.Metrics["NOPM"]; st.Median != 200 || st.Min != 100 || st.Max != 300 {
		t.Fatalf("NOPM stat %+v", st)
	}
	b := Summarise("B", []*result.Result{mk(250)})
	a := s
	a.Cores, b.Cores = 8, 8
	a.Price, b.Price = 1.0, 2.0
	rows := Table([]Summary{a, b})
	byName := map[string]Row{}
	for _, r := range rows {
		byName[r.Metric] = r
	}
	if r := byName["NOPM"]; math.Abs(r.Pct[1]-25) > 1e-9 || r.Words[1] != "B is 25.00% higher than A" {
		t.Fatalf("NOPM row %+v", r)
	}
	if r := byName["NOPM per physical core"]; r.Values[0] != 25 || r.Values[1] != 31.25 {
		t.Fatalf("per core %+v", r)
	}
	if r := byName["NOPM per $/hour"]; r.Values[0] != 200 || r.Values[1] != 125 || r.Words[1] != "A is 60.00% higher than B" {
		t.Fatalf("per price %+v", r)
	}
}

// Configurations that would read alike get what tells them apart: the labels they differ in, else the target,
// else the group; a multi-target run is named by its aggregate.
func TestNamesTellConfigurationsApart(t *testing.T) {
	mk := func(url, group string, labels map[string]any) []*result.Result {
		return []*result.Result{{RunID: "r-" + group, Target: result.Target{URL: url, Engine: "sqlite", ServerVersion: "SQLite 3.54.1"},
			Labels: labels, Group: &result.Group{ID: group, Repeats: 1}}}
	}
	got := Names([][]*result.Result{
		mk("sqlite:///d/a.db", "g1", map[string]any{"cache": "1GB", "disk": "ssd"}),
		mk("sqlite:///d/a.db", "g2", map[string]any{"cache": "4GB", "disk": "ssd"}),
		mk("sqlite:///d/b.db", "g3", nil),
		mk("sqlite:///d/c.db", "g4", nil),
		mk("sqlite:///d/c.db", "g5", nil),
		mk("postgres://u:xxxxx@db1:5432/tpcc", "g6", map[string]any{"system": "E16ds_v5"}),
	})
	want := []string{"SQLite 3.54.1 (cache=1GB, disk=ssd)", "SQLite 3.54.1 (cache=4GB, disk=ssd)", "SQLite 3.54.1 (b.db)", "SQLite 3.54.1 (c.db) (group g4)",
		"SQLite 3.54.1 (c.db) (group g5)", "E16ds_v5"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("name %d: %q, want %q", i, got[i], want[i])
		}
	}
	agg := mk("2 targets", "g7", nil)
	agg[0].Group.Aggregate, agg[0].Group.Targets = true, 2
	part := mk("sqlite:///d/a.db", "g7", nil)
	part[0].Group.Target, part[0].Group.Targets = 1, 2
	if n := Names([][]*result.Result{append(part, agg...)}); n[0] != "SQLite 3.54.1 aggregate of 2 targets" {
		t.Errorf("a multi-target run is named by its aggregate: %q", n[0])
	}
	// one run of a configuration against all its repeats: the same group and target, told apart by the run;
	// the same run twice is numbered
	one := mk("sqlite:///d/a.db", "g8", nil)
	both := append(append([]*result.Result(nil), one...), mk("sqlite:///d/a.db", "g8", nil)[0])
	both[1].RunID = "r-g8b"
	if n := Names([][]*result.Result{one, both, one}); n[0] != "SQLite 3.54.1 (run r-g8) #1" || n[1] != "SQLite 3.54.1 (2 runs)" || n[2] != "SQLite 3.54.1 (run r-g8) #2" {
		t.Errorf("configurations of one group: %q", n)
	}
}

package leaderboard

import (
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

func run(id string, nopm float64, cores int, g *result.Group) *result.Result {
	r := &result.Result{RunID: id, Workload: "w", Status: result.StatusOK, Group: g,
		Target:  result.Target{URL: "postgres://u@db-7.example:5432/d", Engine: "postgres", ServerVersion: "PostgreSQL 17.2 (Debian 17.2-1.pgdg120+1) on x86_64"},
		Metrics: []result.Metric{{Name: "NOPM", Better: result.Higher, Value: nopm, Headline: true}}}
	if cores >= 0 {
		r.Environment = &result.Environment{DBHostCores: cores}
	}
	return r
}

// A configuration counts once (its median repeat, a multi-target run's aggregate, never one of its targets);
// runs that did not end ok are not ranked; a run without known cores or with another headline is left out and
// said why; the system is the target's host when nothing better names it.
func TestBuildKeepsOneRowPerConfiguration(t *testing.T) {
	runs := []*result.Result{
		run("rep1", 900, 4, &result.Group{ID: "g1", Repeat: 1, Repeats: 3}),
		run("rep2", 1000, 4, &result.Group{ID: "g1", Repeat: 2, Repeats: 3, Median: true}),
		run("rep3", 1100, 4, &result.Group{ID: "g1", Repeat: 3, Repeats: 3}),
		run("t1", 500, 2, &result.Group{ID: "g2", Repeat: 1, Repeats: 1, Target: 1, Targets: 2}),
		run("t2", 500, 2, &result.Group{ID: "g2", Repeat: 1, Repeats: 1, Target: 2, Targets: 2}),
		run("agg", 1000, 2, &result.Group{ID: "g2", Repeat: 1, Repeats: 1, Targets: 2, Aggregate: true}),
		run("nocores", 5000, 0, nil),
		run("noenv", 5000, -1, nil),
		run("failed", 9000, 1, nil),
	}
	runs[8].Status = result.StatusFailed
	other := run("tpm", 7000, 1, nil)
	other.Metrics[0].Name = "TPM"
	// a published figure of another metric, first in the store: the measured runs' headline is the one ranked
	pub, err := Parse("f.csv", strings.NewReader("workload,metric,score,system,processor,cores,sockets,threads_per_core,source\nw,NOPM/core,99,S,P,2,1,,s\n"), time.Now(), "test")
	if err != nil {
		t.Fatal(err)
	}
	runs = append(append(pub, runs...), other, &result.Result{RunID: "x", Workload: "v", Status: result.StatusOK})
	b, err := Build(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Rows) != 2 || b.Rows[0].RunID != "agg" || b.Rows[0].ScorePerCore != 500 || b.Rows[1].RunID != "rep2" || b.Rows[1].ScorePerCore != 250 {
		t.Fatalf("rows %+v", b.Rows)
	}
	if r := b.Rows[1]; r.System != "db-7.example" || r.EngineText() != "postgres 17.2" || r.LicenseTotal != nil {
		t.Fatalf("row %+v (engine %q)", r, r.EngineText())
	}
	var why []string
	for _, l := range b.LeftOut {
		why = append(why, l.RunID+": "+l.Why)
	}
	want := pub[0].RunID + ": its headline is NOPM/core, not NOPM|nocores: its database host's physical cores are unknown (run it with --agent, or --label db_cores=N)|" +
		"noenv: its database host's physical cores are unknown (run it with --agent, or --label db_cores=N)|tpm: its headline is TPM, not NOPM"
	if strings.Join(why, "|") != want {
		t.Fatalf("left out:\n%s", strings.Join(why, "\n"))
	}
	if _, err := Build(runs, Options{Workload: "none"}); err == nil || !strings.Contains(err.Error(), "no run of none ended ok with a headline figure") {
		t.Fatalf("a workload without runs: %v", err)
	}
}

// Amounts print with thousands separators and cents only when there are some.
func TestThousands(t *testing.T) {
	for v, want := range map[float64]string{247392: "247,392", 6872: "6,872", 999: "999", 1000.5: "1,000.50", 1234567: "1,234,567", 0: "0"} {
		if got := thousands(v); got != want {
			t.Errorf("%g: %q, want %q", v, got, want)
		}
	}
}

// A published figure's CSV row becomes a result that validates against the schema and reads back as it was.
func TestParsedFigureIsAValidResult(t *testing.T) {
	runs, err := Parse("f.csv", strings.NewReader("Workload,Metric,Score,System,Processor,Cores,Sockets,Threads per core,Source,Base MHz,Max MHz,Price_per_hour,Date\n"+
		"tpce,tpsE,\"3,777.08\",PRIMERGY RX2540 M1,Intel Xeon E5-2699 v3,36,2,2,study,2300,3600,12.5,2014-09-08\n"), time.Now(), "test")
	if err != nil {
		t.Fatal(err)
	}
	b, err := runs[0].Marshal()
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Parse(b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	h, _ := r.Headline()
	p := r.Published
	if h.Name != "tpsE" || h.Value != 3777.08 || p == nil || p.Host.PhysicalCores != 36 || p.Host.ThreadsPerCore != 2 || p.Host.BaseMHz != 2300 ||
		p.Host.MaxMHz != 3600 || r.Labels["price_per_hour"] != 12.5 || r.Labels[Published] != true || r.StartedAt.Format("2006-01-02") != "2014-09-08" {
		t.Fatalf("read back %+v %+v %v", r, p, r.Labels)
	}
}

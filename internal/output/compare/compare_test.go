package compare

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// A change is said in the words of its direction, in per cent of the first figure, with its verdict: a time,
// a latency or a cost that went down is "lower" (better), never "faster"; no "125% faster" for a latency that
// fell to 44%.
func TestChangeInTheRightWords(t *testing.T) {
	// the seed study: 74 s on A against 56 s on B
	p := Change(74, 56)
	if math.Abs(p+24.324324) > 1e-4 {
		t.Fatalf("74 s vs 56 s: %.4f%%, want -24.32%%", p)
	}
	if s := Sentence("A", "B", "time to complete", p, LowerIsBetter); s != "B's time to complete is 24.32% lower than A's (better)" {
		t.Fatalf("sentence %q", s)
	}
	if s := Judged(Change(100, 225), LowerIsBetter); s != "125.00% higher (worse)" {
		t.Fatalf("a latency that rose to 2.25 times: %q", s)
	}
	if s := Judged(Change(225, 100), LowerIsBetter); s != "55.56% lower (better)" {
		t.Fatalf("a latency that fell to 44%%: %q", s)
	}
	if s := Sentence("A", "B", "CPU cost", Change(1000, 991.7), LowerIsBetter); s != "B's CPU cost is 0.83% lower than A's (better)" {
		t.Fatalf("cost: %q", s)
	}
	// rates: 1000 vs 1364 NOPM is 36.4% higher, better; the other way 26.69% lower, worse
	if r := Change(1000, 1364); math.Abs(r-36.4) > 1e-9 || Judged(r, HigherIsBetter) != "36.40% higher (better)" {
		t.Fatalf("rate %.4f %s", r, Judged(r, HigherIsBetter))
	}
	if s := Judged(Change(1364, 1000), HigherIsBetter); s != "26.69% lower (worse)" {
		t.Fatalf("rate the other way %s", s)
	}
	if !math.IsNaN(Change(0, 5)) || Judged(Change(0, 5), HigherIsBetter) != "not comparable" || Judged(Change(5, 5), LowerIsBetter) != "the same" {
		t.Fatal("a zero cannot be compared; equal figures are the same")
	}
	for _, s := range []string{Judged(-50, LowerIsBetter), Judged(50, LowerIsBetter), Sentence("A", "B", "x", -3, LowerIsBetter)} {
		if strings.Contains(s, "faster") || strings.Contains(s, "slower") {
			t.Errorf("%q", s)
		}
	}
}

func TestAliases(t *testing.T) {
	for i, want := range map[int]string{0: "A", 1: "B", 25: "Z", 26: "AA", 27: "AB", 51: "AZ", 52: "BA", 701: "ZZ", 702: "AAA"} {
		if got := Alias(i); got != want {
			t.Errorf("Alias(%d) = %q, want %q", i, got, want)
		}
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
	if r := byName["NOPM"]; math.Abs(r.Change[1]-25) > 1e-9 || Judged(r.Change[1], r.Better) != "25.00% higher (better)" {
		t.Fatalf("NOPM row %+v", r)
	}
	// B is one run with no noise estimate of its own: neither better nor worse, and it says so and how to get one
	if r := byName["NOPM"]; r.Words(1) != "25.00% higher (noise unknown: one run; --repeat 3)" || r.Verdict(1) != NoiseUnknown {
		t.Fatalf("NOPM of one run: %q", r.Words(1))
	}
	// repeats against repeats: a 95% t-interval each; within when they overlap, judged when they do not
	tight := func(vs ...float64) Summary {
		var rs []*result.Result
		for _, v := range vs {
			rs = append(rs, mk(v))
		}
		return Summarise("x", rs)
	}
	base := tight(190, 210, 200)
	if r := Table([]Summary{base, tight(195, 215, 205)})[0]; r.Verdict(1) != Same || r.Words(1) != "2.50% higher (within noise: the spread of 3 repeats)" {
		t.Fatalf("NOPM within the repeats' intervals: %q", r.Words(1))
	}
	if r := Table([]Summary{base, tight(400, 410, 390)})[0]; r.Words(1) != "100.00% higher (better)" || r.Verdict(1) != Better {
		t.Fatalf("NOPM beyond the repeats' intervals: %q", r.Words(1))
	}
	if r := byName["NOPM per physical core"]; r.Values[0] != 25 || r.Values[1] != 31.25 {
		t.Fatalf("per core %+v", r)
	}
	if r := byName["NOPM per $/hour"]; r.Values[0] != 200 || r.Values[1] != 125 || Judged(r.Change[1], r.Better) != "37.50% lower (worse)" {
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

// compare's one rule, for every workload: configurations of other work (the workload's account of it) or of
// other metrics (tests that measured different things) are refused in one line naming what differs and the
// flag that allows it; with the flag, what they share is compared, the rest named in one line.
func TestCheckRefusesOtherWorkTheSameWayForEveryWorkload(t *testing.T) {
	result.RegisterKind(&result.Kind{Workload: "checktest", Work: func(r *result.Result) string {
		return "scale " + r.Options["scale"].(string) + ", tests " + r.Options["tests"].(string)
	}})
	mk := func(id, scale, tests string, metrics ...string) []*result.Result {
		r := &result.Result{RunID: id, Workload: "checktest", Status: result.StatusOK, Options: map[string]any{"scale": scale, "tests": tests},
			Target: result.Target{Engine: "duckdb", ServerVersion: "DuckDB v1.4.1", URL: "duckdb:///d/" + id + ".db"}, Group: &result.Group{ID: "g-" + id, Repeats: 1}}
		for i, m := range metrics {
			r.Metrics = append(r.Metrics, result.Metric{Name: m, Unit: "s", Better: result.Lower, Value: 10, Headline: i == 0})
		}
		return []*result.Result{r}
	}
	a := mk("r1", "1", "power", "power time", "geomean")
	for _, c := range []struct {
		b    []*result.Result
		want string
	}{
		{mk("r2", "10", "power", "power time", "geomean"), "run r2 did other work than run r1 (scale 10, not scale 1): compare runs of the same work, or give --allow-different-work"},
		{mk("r3", "1", "power", "throughput time", "geomean"), "runs r1 and r3 measured different things (headline throughput time, not power time): compare runs of the same tests, or give --allow-different-work"},
	} {
		err := Check([][]*result.Result{a, c.b}, Options{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("refusal %v\nwant %s", err, c.want)
		}
		if err := Check([][]*result.Result{a, c.b}, Options{AllowDifferentWork: true}); err != nil {
			t.Errorf("with the flag: %v", err)
		}
	}
	var out bytes.Buffer
	if err := Print(&out, Summaries([][]*result.Result{a, mk("r3", "10", "throughput", "throughput time", "geomean")})); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"all: DuckDB v1.4.1\nA  r1.db\n   run r1, group g-r1, target duckdb:///d/r1.db\n   checktest: scale 1, tests power\n",
		"B  r3.db\n", "metric       A   B   B vs A\n", "geomean (s)  10  10  the same\n",
		"not compared (not in every configuration):\n  power time (A)\n  throughput time (B)\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("compare lacks %q:\n%s", want, text)
		}
	}
	// the same headline, other metrics lacking (an aggregate lacks its targets' latencies): what is shared is
	// compared, the rest named
	if err := Check([][]*result.Result{a, mk("r6", "1", "power", "power time")}, Options{}); err != nil {
		t.Errorf("the same headline: %v", err)
	}
	// a different workload is never compared; a failed run only with --include-failed
	other := mk("r4", "1", "power", "power time", "geomean")
	other[0].Workload = "elsewhere"
	if err := Check([][]*result.Result{a, other}, Options{AllowDifferentWork: true}); err == nil || !strings.Contains(err.Error(), "compare runs of one workload") {
		t.Errorf("two workloads: %v", err)
	}
	failed := mk("r5", "1", "power", "power time", "geomean")
	failed[0].Status = result.StatusFailed
	if err := Check([][]*result.Result{a, failed}, Options{}); err == nil || !strings.Contains(err.Error(), "--include-failed") {
		t.Errorf("a failed run: %v", err)
	}
}

// No line of a comparison is long: the configurations' full descriptions are in the legend, the table is by
// alias.
func TestPrintedLinesAreShort(t *testing.T) {
	long := "PostgreSQL 17.2 (Debian 17.2-1.pgdg120+1) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit"
	var sets [][]*result.Result
	for i, label := range []string{"1GB", "4GB", "16GB"} {
		sets = append(sets, []*result.Result{{RunID: "r" + label, Workload: "w", Status: result.StatusOK, Labels: map[string]any{"cache": label},
			Target: result.Target{Engine: "postgres", ServerVersion: long, URL: "postgres://u@db1:5432/bench"}, Group: &result.Group{ID: "g20261125T180221-3189d" + string(rune('0'+i)), Repeats: 1},
			Metrics: []result.Metric{{Name: "NOPM", Unit: "new orders/min", Better: result.Higher, Value: 1000 + 100*float64(i), Headline: true},
				{Name: "new_order p95 latency", Unit: "ms", Better: result.Lower, Value: 10 - float64(i)},
				{Name: "client CPU per transaction", Unit: "µs", Better: result.Lower, Value: 100 + float64(i)}}}})
	}
	var out bytes.Buffer
	if err := Print(&out, Summaries(sets)); err != nil {
		t.Fatal(err)
	}
	table := false
	for _, l := range strings.Split(out.String(), "\n") {
		table = table || strings.HasPrefix(l, "metric")
		if n := len([]rune(l)); table && n > 120 || !table && n > 160 {
			t.Errorf("a line of %d characters: %q", n, l)
		}
		if strings.Contains(l, "faster") {
			t.Errorf("%q", l)
		}
	}
	if !strings.Contains(out.String(), "client CPU per transaction (µs)  100   101   102   1.00% higher [1]   2.00% higher [1]") ||
		!strings.Contains(out.String(), "new_order p95 latency (ms)       10    9     8     10.00% lower [1]   20.00% lower [1]") ||
		!strings.Contains(out.String(), "\n[1] noise unknown: one run; --repeat 3\n") || strings.Contains(out.String(), "better") {
		t.Errorf("compare:\n%s", out.String())
	}
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/leaderboard"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

func board(t *testing.T, args ...string) *leaderboard.Board {
	t.Helper()
	r := cli(context.Background(), append([]string{"leaderboard", "--output-format", "json"}, args...)...)
	if r.code != 0 {
		t.Fatalf("leaderboard: exit %d %s", r.code, r.stderr)
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	var b leaderboard.Board
	if err := dec.Decode(&b); err != nil || dec.More() {
		t.Fatalf("standard output is not one board: %v\n%s", err, r.stdout)
	}
	return &b
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// Two tpcc runs on SQLite (one on this machine's cores, one labelled as a 1-core host with its own license
// price) rank beside published figures imported from a CSV written around the measured score, so the order does
// not depend on this machine's speed: score per core is the headline over the database host's physical cores,
// the license total is the price per core times those cores, the run's label wins over the flag.
func TestLeaderboardRanksMeasuredBesidePublished(t *testing.T) {
	t.Parallel() // on files of its own
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "t.db")
	st := filepath.Join(dir, "results.db")
	clitest.TPCCBuiltAt(t, url)
	for _, labels := range [][]string{{"--label", "system=this-box", "--label", "price_per_hour=0.25"}, {"--label", "db_cores=1", "--label", "license_per_core=100", "--repeat", "3"}} {
		args := append([]string{"tpcc", "run", "--target", url, "--rampup", "0s", "--transactions", "200", "--store", st}, labels...)
		if r := cli(context.Background(), args...); r.code != 0 {
			t.Fatalf("run: exit %d %s", r.code, r.stderr)
		}
	}
	measured := board(t, "--store", st)
	if measured.Workload != "tpcc" || measured.Metric != "NOPM" || len(measured.Rows) != 2 {
		t.Fatalf("measured board %+v", measured)
	}
	var local leaderboard.Row
	for _, r := range measured.Rows {
		if r.System == "this-box" {
			local = r
		}
	}
	if local.PhysicalCores < 1 || local.CPUModel == "" || local.Sockets < 1 || local.ThreadsPerCore < 1 || local.Engine != "sqlite" || local.Published ||
		local.PricePerHour == nil || *local.PricePerHour != 0.25 || local.LicenseTotal != nil {
		t.Fatalf("the measured run's row %+v", local)
	}
	per := local.Score / float64(local.PhysicalCores)
	// published figures around the measured ones: ten times its score per core on 16 cores, a tenth of it on 4
	csv := filepath.Join(dir, "published.csv")
	os.WriteFile(csv, []byte(fmt.Sprintf("workload,metric,score,system,processor,cores,sockets,threads_per_core,source,engine,price_per_hour\n"+
		"tpcc,NOPM,%g,Big Box,Xeon Test 1,16,2,2,vendor sheet A,Other DB 9,4.5\n"+
		"tpcc,NOPM,%g,Small Box,Xeon Test 2,4,1,1,vendor sheet B,,\n", 10*per*16, per/10*4)), 0o644)
	if r := cli(context.Background(), "results", "import", csv, "--store", st); r.code != 0 || !strings.Contains(r.stdout, "imported 2 published figure(s)") {
		t.Fatalf("import: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := cli(context.Background(), "results", "import", csv, "--store", st); r.code != 0 || !strings.Contains(r.stdout, "imported 0 published figure(s)") ||
		!strings.Contains(r.stdout, "(2 already there)") {
		t.Fatalf("import again: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	b := board(t, "--store", st, "--workload", "tpcc", "--license-per-core", "6872")
	if len(b.Rows) != 4 || b.LicensePerCore != 6872 {
		t.Fatalf("board %+v", b)
	}
	var order []string
	for i, r := range b.Rows {
		order = append(order, r.System)
		if r.Rank != i+1 || !near(r.ScorePerCore, r.Score/float64(r.PhysicalCores)) || r.LicensePerCore == nil || r.LicenseTotal == nil ||
			!near(*r.LicenseTotal, *r.LicensePerCore*float64(r.PhysicalCores)) {
			t.Fatalf("row %d: %+v", i, r)
		}
		if i > 0 && r.ScorePerCore > b.Rows[i-1].ScorePerCore {
			t.Fatalf("row %d ranks above a better one: %+v", i, b.Rows)
		}
		switch r.System {
		case "Big Box":
			if !r.Published || r.Source != "vendor sheet A" || r.PhysicalCores != 16 || r.Sockets != 2 || r.ThreadsPerCore != 2 || r.CPUModel != "Xeon Test 1" ||
				r.Engine != "Other DB 9" || *r.PricePerHour != 4.5 || *r.LicenseTotal != 16*6872 || !near(r.ScorePerCore, 10*per) {
				t.Fatalf("Big Box %+v", r)
			}
		case "Small Box":
			if !r.Published || r.PricePerHour != nil || *r.LicenseTotal != 4*6872 || !near(r.ScorePerCore, per/10) {
				t.Fatalf("Small Box %+v", r)
			}
		case "this-box":
			if *r.LicenseTotal != 6872*float64(local.PhysicalCores) {
				t.Fatalf("this-box %+v", r)
			}
		default: // the runs labelled db_cores=1, repeated: their median alone, with its own license price
			if r.Published || r.PhysicalCores != 1 || *r.LicensePerCore != 100 || *r.LicenseTotal != 100 || r.ScorePerCore != r.Score {
				t.Fatalf("the db_cores=1 run %+v", r)
			}
			show := cli(context.Background(), "results", "show", r.RunID, "--store", st)
			if !strings.Contains(show.stdout, `"median": true`) || !strings.Contains(show.stdout, `"repeats": 3`) {
				t.Fatalf("the repeated configuration's row is not its median run:\n%s", show.stdout)
			}
		}
	}
	if order[0] != "Big Box" || order[3] != "Small Box" {
		t.Fatalf("order %v", order)
	}
	// the table says the same, best first, with the license columns
	r := cli(context.Background(), "leaderboard", "--store", st, "--license-per-core", "6872")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 6 || !strings.Contains(lines[0], "tpcc: NOPM per physical core") || !strings.Contains(lines[1], "license total") ||
		!strings.Contains(lines[2], "Big Box") || !strings.Contains(lines[2], "109,952") || !strings.Contains(lines[5], "Small Box") ||
		!strings.Contains(lines[5], "27,488") || !strings.Contains(lines[2], "published: vendor sheet A") {
		t.Fatalf("table: exit %d %s\n%s", r.code, r.stderr, r.stdout)
	}
	// runs of another workload in the store: the leaderboard asks which
	if r := cli(context.Background(), "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--rampup", "0s", "--duration", "300ms", "--store", st); r.code != 0 {
		t.Fatalf("ping: %s", r.stderr)
	}
	if r := cli(context.Background(), "leaderboard", "--store", st); r.code == 0 || !strings.Contains(r.stderr, "runs of tpcc, ping: name one with --workload") {
		t.Fatalf("two workloads: exit %d %s", r.code, r.stderr)
	}
	if r := cli(context.Background(), "leaderboard", "--store", st, "--workload", "ping"); r.code == 0 || !strings.Contains(r.stderr, "is better lower: only a rate divides by cores") {
		t.Fatalf("a latency headline: exit %d %s", r.code, r.stderr)
	}
	for _, bad := range [][]string{{"--output-format", "xml"}, {"--license-per-core", "-1"}} {
		if r := cli(context.Background(), append([]string{"leaderboard", "--store", st}, bad...)...); r.code == 0 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Fatalf("%v: exit %d %q", bad, r.code, r.stderr)
		}
	}
}

// The examples' ten published TPC-E figures (the 2014 study's table) rank in the study's order, with its score
// per core and its license totals at $6,872 per core (16 cores about $109,952, 36 cores about $247,392).
func TestLeaderboardOfTheExamplesTable(t *testing.T) {
	st := filepath.Join(t.TempDir(), "results.db")
	if r := cli(context.Background(), "results", "import", filepath.Join("..", "..", "examples", "tpce-score-per-core-2014.csv"), "--store", st); r.code != 0 ||
		!strings.Contains(r.stdout, "imported 10 published figure(s)") {
		t.Fatalf("import: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	b := board(t, "--store", st, "--license-per-core", "6872")
	// the study's score/core column; its 108.00 for the 24-core E5-2697 v2 is 2590.93/24 = 107.96
	want := []struct {
		system string
		per    float64
		total  float64
	}{{"HP ProLiant DL380p Gen8", 117.61, 109952}, {"PRIMERGY RX300 S7", 116.99, 109952}, {"IBM System x3650 M4", 116.45, 109952},
		{"IBM System x3650 M4", 107.96, 164928}, {"HP ProLiant DL380 G7", 107.01, 82464}, {"PRIMERGY RX300 S6 12x2.5", 105.69, 82464},
		{"PRIMERGY RX2540 M1", 104.92, 247392}, {"PRIMERGY RX300 S6", 103.84, 82464}, {"PRIMERGY RX300 S8", 103.02, 164928},
		{"IBM System x3650 M2", 102.14, 54976}}
	if b.Workload != "tpce" || b.Metric != "tpsE" || len(b.Rows) != len(want) {
		t.Fatalf("board %+v", b)
	}
	for i, w := range want {
		r := b.Rows[i]
		if r.System != w.system || math.Round(r.ScorePerCore*100)/100 != w.per || *r.LicenseTotal != w.total || r.Sockets != 2 || !r.Published {
			t.Fatalf("rank %d: %+v, want %+v", i+1, r, w)
		}
	}
}

// A bad CSV adds nothing and gets one line naming the file, the line and the column.
func TestImportRefusesBadCSV(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "results.db")
	head := "workload,metric,score,system,processor,cores,sockets,threads_per_core,source\n"
	good := "tpce,tpsE,1881.76,HP DL380p,Xeon E5-2690,16,2,2,study\n"
	cases := []struct{ name, text, want string }{
		{"empty.csv", "", "empty.csv line 1: the file is empty"},
		{"nocol.csv", "workload,metric,score,system,processor,cores,sockets,source\n" + good, `nocol.csv line 1: no "threads_per_core" column`},
		{"extra.csv", strings.TrimSuffix(head, "\n") + ",colour\n" + good, `extra.csv line 1, column 10: "colour" is not a column dbdyno reads`},
		{"twice.csv", strings.TrimSuffix(head, "\n") + ",Score\n" + good, `twice.csv line 1, column 10: "Score" is there twice`},
		{"cores.csv", head + good + "tpce,tpsE,1.5,X,Y,sixteen,2,2,s\n", `cores.csv line 3, column 6 (cores): "sixteen" is not a whole number of at least 1`},
		{"score.csv", head + "tpce,tpsE,-3,X,Y,16,2,2,s\n", `score.csv line 2, column 3 (score): "-3" is not a number above 0`},
		{"system.csv", head + "tpce,tpsE,3,,Y,16,2,2,s\n", `system.csv line 2, column 4 (system): empty: give the system`},
		{"split.csv", head + "tpce,tpsE,3,X,Y,15,2,2,s\n", `split.csv line 2, column 6 (cores): 15 cores do not split evenly over 2 sockets`},
		{"workload.csv", head + "TPC-E,tpsE,3,X,Y,16,2,2,s\n", `workload.csv line 2, column 1 (workload): "TPC-E" is not a workload name`},
		{"fields.csv", head + good + "tpce,tpsE,3,X\n", `fields.csv line 3, column 1: wrong number of fields`},
		{"quote.csv", head + "tpce,tpsE,3,\"X,Y,16,2,2,s\n", `quote.csv line 2, column `},
		{"dup.csv", head + good + good, `dup.csv line 3: the same figure as line 2`},
		{"date.csv", strings.TrimSuffix(head, "\n") + ",date\n" + strings.TrimSuffix(good, "\n") + ",June 2014\n", `date.csv line 2, column 10 (date): "June 2014" is not a date as 2014-06-30`},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		os.WriteFile(p, []byte(c.text), 0o644)
		r := cli(context.Background(), "results", "import", p, "--store", st)
		if r.code == 0 || !strings.Contains(r.stderr, p+" "+strings.TrimPrefix(c.want, c.name+" ")) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("%s: exit %d %q, want %q", c.name, r.code, r.stderr, c.want)
		}
	}
	if r := cli(context.Background(), "results", "import", filepath.Join(dir, "missing.csv"), "--store", st); r.code == 0 || !strings.Contains(r.stderr, "missing.csv") {
		t.Errorf("a missing file: exit %d %q", r.code, r.stderr)
	}
	if r := cli(context.Background(), "results", "import", filepath.Join(dir, "cores.csv"), "--store", ""); r.code == 0 || !strings.Contains(r.stderr, `--store "" keeps nothing`) {
		t.Errorf("no store: exit %d %q", r.code, r.stderr)
	}
	if _, err := os.Stat(st); err == nil {
		if r := cli(context.Background(), "results", "list", "--store", st); strings.Contains(r.stdout, "pub-") {
			t.Fatalf("a bad file added figures:\n%s", r.stdout)
		}
	}
}

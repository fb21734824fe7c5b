package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// oneLine fails unless the command failed with one line on stderr that starts with want.
func oneLine(t *testing.T, what string, r cliResult, want string) {
	t.Helper()
	if r.code == 0 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.HasPrefix(r.stderr, "dbdyno: "+want) {
		t.Errorf("%s: exit %d, stderr %q; want one line starting %q", what, r.code, r.stderr, "dbdyno: "+want)
	}
}

// compare and report trust a result file only as the run wrote it: a headline edited by hand (x100) is refused
// in one line, not compared as "9900.00% higher"; the same run twice (the file twice, or a copy of it) is
// refused; a result written before results carried a digest is compared, its legend saying it is unverified.
func TestCompareRefusesEditedResultsAndTheSameRunTwice(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	target := "sqlite://" + filepath.Join(dir, "p.db")
	a1, a2 := filepath.Join(dir, "a1.json"), filepath.Join(dir, "a2.json")
	for _, f := range []string{a1, a2} {
		clitest.Must(t, "ping", "--target", target, "--rampup", "0s", "--duration", "1s", "--interval", "1s", "--store", "", "--result", f)
	}
	if r := cli(ctx, "compare", a1, a2); r.code != 0 || strings.Contains(r.stdout, "unverified") {
		t.Fatalf("compare of two runs as written: exit %d %s\n%s", r.code, r.stderr, r.stdout)
	}
	b, err := os.ReadFile(a1)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	json.Unmarshal(b, &doc)
	for _, m := range doc["metrics"].([]any) {
		if m := m.(map[string]any); m["headline"] == true {
			m["value"] = m["value"].(float64) * 100
		}
	}
	edited := filepath.Join(dir, "edited.json")
	e, _ := json.MarshalIndent(doc, "", "  ")
	os.WriteFile(edited, e, 0o644)
	want := edited + " was changed after the run wrote it (its digest does not match): compare the files runs wrote"
	oneLine(t, "compare with an edited result", cli(ctx, "compare", a1, edited), want)
	oneLine(t, "report of an edited result", cli(ctx, "report", "--store", "", "-o", filepath.Join(dir, "r.html"), a1, edited), want)

	copied := filepath.Join(dir, "copy of a1.json")
	os.WriteFile(copied, b, 0o644)
	for _, refs := range [][]string{{a1, a1}, {a1, copied}} {
		oneLine(t, "compare "+strings.Join(refs, " "), cli(ctx, append([]string{"compare"}, refs...)...), "run "+doc["run_id"].(string)+" is given twice")
	}

	v1 := func(name string) string {
		return filepath.Join("..", "..", "internal", "method", "testdata", "v1", name)
	}
	r := cli(ctx, "compare", v1("tpcc.json"), v1("tpcc-target2.json"))
	if r.code != 0 || strings.Count(r.stdout, "unverified: no digest (written before results carried one)") != 2 || !strings.Contains(r.stdout, "NOPM") {
		t.Errorf("compare of results written before digests: exit %d %s\n%s", r.code, r.stderr, r.stdout)
	}
}

// results pull --all verifies every stored document: in a PostgreSQL store one run's status edited with SQL (failed, not ok)
// and another's document cut short, the pull copies the good run, says what it left out, and fails in one line
// naming the two corrupt run IDs.
func TestResultsPullRefusesCorruptRuns(t *testing.T) {
	ctx := context.Background()
	st := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_cli_pull_corrupt")
	testsrv.Exec(t, st, "DROP TABLE IF EXISTS results, monitor_samples, store_meta, schema_version")
	dir := t.TempDir()
	target := "sqlite://" + filepath.Join(dir, "p.db")
	var ids []string
	for range 3 {
		r := clitest.Must(t, "ping", "--target", target, "--rampup", "0s", "--duration", "1s", "--interval", "1s", "--store", st)
		m := regexp.MustCompile(`(?m)^run (\S+)`).FindStringSubmatch(r.Stdout)
		if m == nil {
			t.Fatalf("no run line:\n%s", r.Stdout)
		}
		ids = append(ids, m[1])
	}
	good, edited, cut := ids[0], ids[1], ids[2]
	testsrv.Exec(t, st,
		`UPDATE results SET document = replace(document, '"status": "ok"', '"status": "failed"') WHERE run_id = '`+edited+`'`,
		`UPDATE results SET document = left(document, 100) WHERE run_id = '`+cut+`'`)
	mine := filepath.Join(dir, "mine.db")
	r := cli(ctx, "results", "pull", "--store", mine, "--from", st, "--all")
	oneLine(t, "pull of a store with corrupt runs", r, "2 stored run(s) in ")
	for _, id := range []string{edited, cut} {
		if !strings.Contains(r.stderr, id+" (") {
			t.Errorf("the error does not name %s: %s", id, r.stderr)
		}
	}
	if strings.Contains(r.stderr, good) || !strings.Contains(r.stdout, "copied 1 run(s)") || !strings.Contains(r.stdout, "2 corrupt, not copied") {
		t.Errorf("pull: stdout %q stderr %q", r.stdout, r.stderr)
	}
	clitest.NoPassword(t, st, r.stdout, r.stderr)
	l := cli(ctx, "results", "list", "--store", mine)
	if l.code != 0 || !strings.Contains(l.stdout, good) || strings.Contains(l.stdout, edited) || strings.Contains(l.stdout, cut) {
		t.Errorf("the pulled store holds:\n%s%s", l.stdout, l.stderr)
	}
}

// A --store that cannot be opened is named for what it is, in one line.
func TestStoreThatCannotBeOpenedSaysWhy(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	csv := filepath.Join(dir, "f.csv")
	os.WriteFile(csv, []byte("workload,metric,score,system,processor,cores,sockets,threads_per_core,source\ntpce,tpsE,1881.76,HP DL380p,Xeon E5-2690,16,2,2,study\n"), 0o644)
	oneLine(t, "a folder as the store", cli(ctx, "results", "list", "--store", dir), "the results store "+dir+" is a folder, not a file")
	missing := filepath.Join(dir, "typo", "r.db")
	oneLine(t, "a store in a missing folder", cli(ctx, "results", "import", csv, "--store", missing),
		"cannot create the results store "+missing+": its folder "+filepath.Dir(missing)+" does not exist")
	oneLine(t, "a run into a store in a missing folder", cli(ctx, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--duration", "1s", "--store", missing),
		"cannot create the results store "+missing)
}

// results import bounds every number: a score of 1e308 (the leaderboard would print 300 digits) is refused
// naming the file, line and column, and so is a price beyond what a float holds.
func TestImportRefusesAbsurdNumbers(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "results.db")
	head := "workload,metric,score,system,processor,cores,sockets,threads_per_core,source,price_per_hour\n"
	for name, c := range map[string]struct{ text, want string }{
		"score.csv": {head + "tpce,tpsE,1881.76,X,Y,16,2,2,s,\ntpce,tpsE,1e308,X,Y,16,2,2,s,\n", `score.csv line 3, column 3 (score): "1e308" is not a number below 1e12`},
		"inf.csv":   {head + "tpce,tpsE,inf,X,Y,16,2,2,s,\n", `inf.csv line 2, column 3 (score): "inf" is not a number below 1e12`},
		"price.csv": {head + "tpce,tpsE,3,X,Y,16,2,2,s,1e400\n", `price.csv line 2, column 10 (price_per_hour): "1e400" is not a number below 1e12`},
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(c.text), 0o644)
		oneLine(t, name, cli(context.Background(), "results", "import", p, "--store", st), p+" "+strings.TrimPrefix(c.want, name+" "))
	}
	if _, err := os.Stat(st); err == nil {
		if r := cli(context.Background(), "results", "list", "--store", st); strings.Contains(r.stdout, "pub-") {
			t.Fatalf("a refused file added figures:\n%s", r.stdout)
		}
	}
}

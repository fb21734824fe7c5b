package method_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

func fileSum(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b[:min(len(b), 4096)]) + string(rune(len(b)))
}

// An output path that is one of the command's inputs, a directory, or a file of another kind is refused
// before any work starts, and the file is left as it was.
func TestOutputPathsNeverReplaceInputs(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "t.db")
	url := "sqlite://" + dbPath
	st := filepath.Join(dir, "results.db")
	clitest.TPCCBuiltAt(t, url)
	clitest.Must(t, "tpcc", "run", "--target", url, "--rampup", "0s", "--duration", "1s", "--store", st)
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte("my notes, not a result"), 0o644)
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	before := map[string]string{dbPath: fileSum(t, dbPath), st: fileSum(t, st), notes: fileSum(t, notes)}
	run := func(extra ...string) clitest.Result {
		args := append([]string{"tpcc", "run", "--target", url, "--rampup", "0s", "--duration", "30s", "--store", st}, extra...)
		r := clitest.Run(context.Background(), args...)
		if strings.Contains(r.Stdout, "running ") { // the run's first line: what happened, not how long it took
			t.Fatalf("%v: the run went ahead before refusing:\n%s", extra, r.Stdout)
		}
		return r
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--result", st}, "is also an input of this command"},
		{[]string{"--result", dbPath}, "is also an input of this command"},
		{[]string{"--result", notes}, "is not a dbdyno result JSON: refusing to replace it"},
		{[]string{"--result", filepath.Join(dir, "out")}, "is a directory"},
		{[]string{"--result", "/nonexistent-dir/r.json"}, "cannot write --result"},
	} {
		if r := run(c.args...); r.Code == 0 || !strings.Contains(r.Stderr, c.want) || strings.Count(r.Stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want one line saying %q", c.args, r.Code, r.Stderr, c.want)
		}
	}
	if r := clitest.Run(context.Background(), "tpcc", "run", "--target", url, "--store", dbPath); r.Code == 0 || !strings.Contains(r.Stderr, "is a target's database") {
		t.Errorf("--store naming the target: %d %q", r.Code, r.Stderr)
	}
	if r := clitest.Run(context.Background(), "tpcc", "run", "--target", url, "--store", notes); r.Code == 0 || !strings.Contains(r.Stderr, "not a dbdyno results store") {
		t.Errorf("--store naming a text file: %d %q", r.Code, r.Stderr)
	}
	other := filepath.Join(dir, "other.db")
	clitest.TPCCBuiltAt(t, "sqlite://"+other)
	otherSum := fileSum(t, other)
	if r := clitest.Run(context.Background(), "tpcc", "run", "--target", url, "--store", other, "--duration", "1s"); r.Code == 0 || !strings.Contains(r.Stderr, "not a dbdyno results store") {
		t.Errorf("--store naming another database: %d %q", r.Code, r.Stderr)
	}
	ctx := context.Background()
	if _, err := results.Report(ctx, os.Stderr, st, nil, store.Filter{}, "t", st); err == nil || !strings.Contains(err.Error(), "is also an input") {
		t.Errorf("report -o the store: %v", err)
	}
	if _, err := results.Report(ctx, os.Stderr, st, nil, store.Filter{}, "t", notes); err == nil || !strings.Contains(err.Error(), "not a dbdyno HTML report") {
		t.Errorf("report -o a text file: %v", err)
	}
	for _, format := range []string{"csv", "json"} {
		if _, err := results.Export(ctx, nil, os.Stderr, st, nil, store.Filter{}, format, st); err == nil || !strings.Contains(err.Error(), "is also an input") {
			t.Errorf("export -o the store: %v", err)
		}
	}
	for path, sum := range before {
		if fileSum(t, path) != sum {
			t.Errorf("%s was changed", path)
		}
	}
	if fileSum(t, other) != otherSum {
		t.Error("a database given as --store was changed")
	}
	// writing over a report, an export or a result dbdyno wrote is fine
	html := filepath.Join(dir, "r.html")
	for i := 0; i < 2; i++ {
		if _, err := results.Report(ctx, os.Stderr, st, nil, store.Filter{}, "t", html); err != nil {
			t.Fatal(err)
		}
		if _, err := results.Export(ctx, nil, os.Stderr, st, nil, store.Filter{}, "csv", filepath.Join(dir, "e.csv")); err != nil {
			t.Fatal(err)
		}
	}
}

// A result that cannot be written at the end is kept in a fallback file the output names, and the command
// fails; a failed store write is reported, not counted as recorded.
func TestFailedWritesAreReportedAndKept(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	url := "sqlite://" + filepath.Join(dir, "t.db")
	clitest.TPCCBuiltAt(t, url)
	res := filepath.Join(dir, "r.json")
	st := filepath.Join(dir, "results.db")
	// once the run has begun (an event, not a time a loaded machine may not have reached the run by)
	broke := &clitest.On{Text: "running ", Do: func() {
		os.Mkdir(res, 0o755) // the result's path turns into a directory during the run
		db, err := sql.Open("sqlite", st)
		if err == nil {
			db.Exec("DROP TABLE results") // and the store loses its table
			db.Close()
		}
	}}
	r := clitest.RunOn(context.Background(), broke, "tpcc", "run", "--target", url, "--rampup", "0s", "--duration", "3s", "--store", st, "--result", res)
	if r.Code == 0 || !strings.Contains(r.Stderr, "result write(s) failed") {
		t.Fatalf("exit %d, stderr %q", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stdout, "is stored in") || !strings.Contains(r.Stdout, "could not record run") || !strings.Contains(r.Stdout, "could not write the result") {
		t.Fatalf("output:\n%s", r.Stdout)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "dbdyno-unsaved-*.json"))
	if len(kept) != 1 || !strings.Contains(r.Stdout, "is kept in "+kept[0]) {
		t.Fatalf("fallback files %v\n%s", kept, r.Stdout)
	}
	if rr, _ := clitest.ReadResult(t, kept[0]); rr.Measurement.Committed == 0 {
		t.Fatal("the fallback file lacks the run's figures")
	}
}

// Processes creating one new store at the same time all succeed.
func TestStoreCreationIsSafeUnderConcurrency(t *testing.T) {
	for round := 0; round < 5; round++ {
		path := filepath.Join(t.TempDir(), "s.db")
		errs := make(chan error, 16)
		for i := 0; i < 16; i++ {
			go func() {
				st, err := store.Open(context.Background(), path)
				if err == nil {
					st.Close()
				}
				errs <- err
			}()
		}
		for i := 0; i < 16; i++ {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
	}
}

// A result whose workload's section was removed is refused when read, never compared as "the same".
func TestDamagedResultsAreRefused(t *testing.T) {
	var doc map[string]any
	b, _ := os.ReadFile(filepath.Join("testdata", "v1", "tpch.json"))
	json.Unmarshal(b, &doc)
	delete(doc, "analytic")
	damaged := filepath.Join(t.TempDir(), "damaged.json")
	b, _ = json.Marshal(doc)
	os.WriteFile(damaged, b, 0o644)
	var out bytes.Buffer
	err := results.Compare(context.Background(), &out, "", []string{filepath.Join("testdata", "v1", "tpch.json"), damaged})
	if err == nil || !strings.Contains(err.Error(), "has no analytic section") {
		t.Fatalf("compare with a damaged result: %v\n%s", err, out.String())
	}
}

// compare refuses what cannot be compared: runs of different workloads, runs that did other work, runs that
// did not end ok, and a prefix that names more than one run.
func TestCompareRefusesTheIncomparable(t *testing.T) {
	v1 := func(name string) string { return filepath.Join("testdata", "v1", name) }
	failed := filepath.Join(t.TempDir(), "failed.json")
	var doc map[string]any
	b, _ := os.ReadFile(v1("tpcc-target2.json"))
	json.Unmarshal(b, &doc)
	doc["status"], doc["error"] = "failed", "connection lost and not re-established within 2s"
	b, _ = json.Marshal(doc)
	os.WriteFile(failed, b, 0o644)
	ctx := context.Background()
	for _, c := range []struct {
		refs []string
		want string
	}{
		{[]string{v1("tpcc.json"), v1("tpch.json")}, "compare runs of one workload"},
		{[]string{v1("tpch.json"), v1("tpchsweep.json")}, `did other work than run r20261123T103827-7f677a (queries 1,6, not with refresh): compare runs of the same work, or give --allow-different-work`},
		{[]string{v1("tpcc.json"), failed}, "ended failed (connection lost"},
	} {
		var out bytes.Buffer
		if err := results.Compare(ctx, &out, "", c.refs); err == nil || !strings.Contains(err.Error(), c.want) || out.Len() > 0 {
			t.Errorf("%v: %v, output %q; want an error saying %q", c.refs, err, out.String(), c.want)
		}
	}
	var out bytes.Buffer
	if err := results.Compare(ctx, &out, "", []string{v1("tpcc.json"), v1("tpcc-target2.json")}); err != nil {
		t.Fatalf("two runs of the same work: %v", err)
	}
	// asked for, runs of other work compare what they share, each one's work in the legend
	out.Reset()
	if err := results.CompareWith(ctx, &out, "", []string{v1("tpch.json"), v1("tpchsweep.json")}, results.CompareOptions{AllowDifferentWork: true}); err != nil ||
		!strings.Contains(out.String(), `   tpch: SF 0.01, with refresh`) || !strings.Contains(out.String(), "no metric is in every configuration:\n  power test") {
		t.Fatalf("other work, allowed: %v\n%s", err, out.String())
	}
	// a prefix of several run IDs in the store
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"tpcc.json", "tpcc-target2.json"} {
		r, err := result.Read(v1(f))
		if err != nil {
			t.Fatal(err)
		}
		st.Add(ctx, r, "")
	}
	st.Close()
	if err := results.Compare(ctx, &out, path, []string{"r2026", v1("tpcc.json")}); err == nil || !strings.Contains(err.Error(), "is the start of 2 run IDs") {
		t.Fatalf("an ambiguous prefix: %v", err)
	}
}

// One damaged document in the store is named and left out; report and export go on with the rest.
func TestOneBrokenStoredRunDoesNotBreakTheRest(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "s.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range []string{"tpcc.json", "tpcc-target2.json", "tpch.json"} {
		r, err := result.Read(filepath.Join("testdata", "v1", f))
		if err != nil {
			t.Fatal(err)
		}
		st.Add(ctx, r, "")
		ids = append(ids, r.RunID)
	}
	st.Close()
	db, _ := sql.Open("sqlite", path)
	db.Exec("UPDATE results SET document = substr(document, 1, 100) WHERE run_id = ?", ids[1])
	db.Close()
	var warn bytes.Buffer
	n, err := results.Report(ctx, &warn, path, nil, store.Filter{}, "r", filepath.Join(dir, "r.html"))
	if err != nil || n != 2 || !strings.Contains(warn.String(), ids[1]) {
		t.Fatalf("report: %d runs, %v; warning %q", n, err, warn.String())
	}
	warn.Reset()
	n, err = results.Export(ctx, nil, &warn, path, nil, store.Filter{}, "csv", filepath.Join(dir, "e.csv"))
	if err != nil || n != 2 || !strings.Contains(warn.String(), ids[1]) {
		t.Fatalf("export: %d runs, %v; warning %q", n, err, warn.String())
	}
	// named on its own, the broken run is an error
	if err := results.Compare(ctx, &warn, path, []string{ids[1], ids[0]}); err == nil || !strings.Contains(err.Error(), ids[1]) {
		t.Fatalf("compare naming the broken run: %v", err)
	}
}

// Ctrl-C before the runs were done ends the command aborted (exit status and line), never as a success with
// runs silently left out (before: exit 0), nor as a failure of whatever a run's set-up was doing when it came
// (before: "listing tables: context canceled", exit 1).
func TestCtrlCBeforeTheRunsAreDoneIsAborted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := clitest.Run(ctx, "ping", "--target", "sqlite://"+filepath.Join(t.TempDir(), "p.db"), "--duration", "1s", "--store", "")
	if r.Code != method.ExitAborted || !strings.Contains(r.Stderr, "run aborted before every run was done") {
		t.Fatalf("exit %d: %q", r.Code, r.Stderr)
	}
	url := "duckdb://" + filepath.Join(t.TempDir(), "c.duckdb")
	clitest.Must(t, "tpch", "build", "--target", url, "--scale", "0.01")
	r = clitest.Run(ctx, "tpch", "run", "--target", url, "--streams", "1", "--no-warmup", "--store", "")
	if r.Code != method.ExitAborted || !strings.Contains(r.Stderr, "run aborted") || strings.Contains(r.Stderr, "context canceled") && !strings.Contains(r.Stderr, "before measuring began") {
		t.Fatalf("tpch: exit %d: %q", r.Code, r.Stderr)
	}
}

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/store"
)

func TestPlanCheckRejectsBadPlansWithTheLine(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"name: x\ntargets: [duckdb://a.duckdb]\nsteps:\n  - run: {workload: tpch, streemz: 2}\n":                 "bad.yaml:4: step 1: tpch run has no option \"streemz\"",
		"name: x\ntargets: [sqlite://a.db]\nsteps:\n  - run: {workload: tpcc, duration: soon}\n":                 "bad.yaml:4: step 1: duration: \"soon\" is not a duration",
		"name: x\ntargets: [sqlite://a.db]\nsteps:\n  - build: {workload: tpcd}\n":                               "bad.yaml:4: step 1: unknown workload \"tpcd\"",
		"name: x\ntargets: [sqlite://a.db]\nsteps:\n  - build: {workload: tpcc}\n  - launch: {workload: tpcc}\n": "bad.yaml:5: step 2: unknown step \"launch\"",
		"name: x\ntargetz: [sqlite://a.db]\n":                                                                    "bad.yaml:2: unknown key \"targetz\"",
		"targets: [sqlite://a.db]\nsteps:\n  - build: {workload: tpcc}\n":                                        "bad.yaml:1: the plan has no name",
		"name: x\ntargets: [sqlite://a.db]\nsteps:\n  - run: {workload: tpcc, vus: [1, two]}\n":                  "bad.yaml:4: step 1: vus: \"two\" is not a whole number",
	}
	for text, want := range cases {
		path := filepath.Join(dir, "bad.yaml")
		os.WriteFile(path, []byte(text), 0o644)
		r := cli(context.Background(), "plan", "run", path)
		if r.code == 0 || !strings.Contains(r.stderr, want) || r.stdout != "" {
			t.Errorf("plan:\n%s\nexit %d, stdout %q, stderr %q; want %q and nothing run", text, r.code, r.stdout, r.stderr, want)
		}
	}
}

// examplePlan copies an example into a scratch directory with its targets moved there.
func examplePlan(t *testing.T, name, dir string) string {
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer("duckdb://plan-", "duckdb://"+dir+"/plan-", "sqlite://plan-", "sqlite://"+dir+"/plan-").Replace(string(b))
	path := filepath.Join(dir, name)
	os.WriteFile(path, []byte(text), 0o644)
	return path
}

func TestExamplePlans(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.yaml"))
	if len(files) < 3 {
		t.Fatalf("examples: %v", files)
	}
	for _, f := range files {
		if r := cli(context.Background(), "plan", "check", f); r.code != 0 || !strings.Contains(r.stdout, "is valid") {
			t.Fatalf("%s: %s %s", f, r.stdout, r.stderr)
		}
	}
	dir := t.TempDir()
	before := countStored(t)
	r := mustCLI(t, "plan", "run", examplePlan(t, "tpch-streams.yaml", dir))
	if !strings.Contains(r.stdout, "== step 2") || !strings.Contains(r.stdout, "configuration medians") {
		t.Fatalf("plan output:\n%s", r.stdout)
	}
	if n := countStored(t) - before; n != 3 {
		t.Fatalf("tpch-streams stored %d runs, want 3 repeats", n)
	}
	html := filepath.Join(dir, "r.html")
	mustCLI(t, "report", "--label", "plan=tpch-streams", "-o", html)
	page, _ := os.ReadFile(html)
	if !strings.Contains(string(page), "Time to complete N concurrent streams") || !strings.Contains(string(page), "local-duckdb") {
		t.Fatal("the plan's report lacks its stream scaling")
	}
	r = mustCLI(t, "plan", "run", examplePlan(t, "two-target-aggregate.yaml", dir))
	if strings.Count(r.stdout, "aggregate of 2 targets") != 2 {
		t.Fatalf("two-target plan:\n%s", r.stdout)
	}
}

func countStored(t *testing.T) int {
	st, err := store.Open(context.Background(), store.DefaultPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e, err := st.List(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(e)
}

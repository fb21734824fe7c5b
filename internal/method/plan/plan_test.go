package plan_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/method/plan"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

func TestMain(m *testing.M) { clitest.Main(m) }

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
		// options derive from the commands' declared flags: the method's are there, the plan's own are not
		"name: x\ntargets: [sqlite://a.db]\nsteps:\n  - run: {workload: tpcc, label: a=b}\n": "bad.yaml:4: step 1: tpcc run has no option \"label\"",
	}
	for text, want := range cases {
		path := filepath.Join(dir, "bad.yaml")
		os.WriteFile(path, []byte(text), 0o644)
		if _, err := plan.Load(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("plan:\n%s\nerror %v; want %q", text, err, want)
		}
	}
}

// Every flag a command declares can be set from a plan under its plan key, the method's included
// (metrics_interval) and the ones that once could not be (no_restore).
func TestPlanOptionsComeFromTheFlags(t *testing.T) {
	text := "name: x\ntargets: [duckdb://a.duckdb]\nsteps:\n  - run: {workload: tpch, streams: 2, no_restore: true, metrics_interval: 2s, repeat: 2}\n" +
		"  - run: {workload: ping, vus: [1, 2], duration: 1s}\n  - check: {workload: tpcc}\n"
	p, err := plan.Parse("p.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.Commands(p.Steps[0])[0], " ")
	for _, want := range []string{"tpch run", "--streams 2", "--no-restore", "--metrics-interval 2s", "--repeat 2", "--target duckdb://a.duckdb", "--label plan=x"} {
		if !strings.Contains(got, want) {
			t.Errorf("step 1 is %q, lacking %q", got, want)
		}
	}
	if got := strings.Join(p.Commands(p.Steps[1])[0], " "); !strings.HasPrefix(got, "ping --vus 1,2 --duration 1s") {
		t.Errorf("step 2 is %q", got)
	}
	if got := strings.Join(p.Commands(p.Steps[2])[0], " "); got != "tpcc check --target duckdb://a.duckdb" {
		t.Errorf("step 3 is %q", got)
	}
}

// examplePlan copies an example into a scratch directory with its targets moved there.
func examplePlan(t *testing.T, name, dir string) string {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer("duckdb://plan-", "duckdb://"+dir+"/plan-", "sqlite://plan-", "sqlite://"+dir+"/plan-").Replace(string(b))
	path := filepath.Join(dir, name)
	os.WriteFile(path, []byte(text), 0o644)
	return path
}

func runPlan(t *testing.T, path string) string {
	t.Helper()
	out, err := runPlanErr(path)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return out
}

// runPlanErr runs a plan, returning its output and error (it may run on a goroutine of its own).
func runPlanErr(path string) (string, error) {
	p, err := plan.Load(path)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	ctx := context.Background()
	err = p.Run(ctx, &out, func(args []string) error { return method.Invoke(ctx, args, &out, "test") })
	return out.String(), err
}

func TestExamplePlans(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*.yaml"))
	if len(files) < 3 {
		t.Fatalf("examples: %v", files)
	}
	for _, f := range files {
		p, err := plan.Load(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var out bytes.Buffer
		if p.Check(&out); !strings.Contains(out.String(), "is valid") {
			t.Fatalf("%s: %s", f, out.String())
		}
	}
	dir := t.TempDir()
	// the two-target plan's 5 s windows made 1 s
	two := examplePlan(t, "two-target-aggregate.yaml", dir)
	if b, err := os.ReadFile(two); err != nil || !strings.Contains(string(b), "duration: 5s, interval: 5s") {
		t.Fatalf("%s: %v, want duration: 5s, interval: 5s to shorten", two, err)
	} else if err := os.WriteFile(two, []byte(strings.Replace(string(b), "duration: 5s, interval: 5s", "duration: 1s, interval: 1s", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	before := countStored(t, "plan=tpch-streams")
	out := runPlan(t, examplePlan(t, "tpch-streams.yaml", dir))
	if !strings.Contains(out, "== step 2") || !strings.Contains(out, "configuration medians") {
		t.Fatalf("plan output:\n%s", out)
	}
	// 4 points of the stream sweep, 3 repeats each, after one warm-up run
	if n := countStored(t, "plan=tpch-streams") - before; n != 4*3+1 {
		t.Fatalf("tpch-streams stored %d runs, want 13", n)
	}
	html := filepath.Join(dir, "r.html")
	if _, err := results.Report(context.Background(), os.Stderr, store.DefaultPath, nil, store.Filter{Label: "plan=tpch-streams"}, "r", html); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(html)
	if !strings.Contains(string(page), "Time to complete N concurrent streams") || !strings.Contains(string(page), "local-duckdb") {
		t.Fatal("the plan's report lacks its stream scaling")
	}
	out = runPlan(t, two)
	if strings.Count(out, "aggregate of 2 targets") != 2 {
		t.Fatalf("two-target plan:\n%s", out)
	}
}

// countStored is how many runs the default store holds with the label (all of them with "").
func countStored(t *testing.T, label string) int {
	st, err := store.Open(context.Background(), store.DefaultPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e, err := st.List(context.Background(), store.Filter{Label: label})
	if err != nil {
		t.Fatal(err)
	}
	return len(e)
}

// plan check prints the steps' command lines without the targets' passwords.
func TestPlanCheckHidesPasswords(t *testing.T) {
	p, err := plan.Parse("p.yaml", []byte("name: x\ntargets:\n  - postgres://u:Sup3rS3cr3t@127.0.0.1:5432/d\n  - mysql://u@127.0.0.1:3306/d?password=Sup3rS3cr3t\n"+
		"steps:\n  - build: {workload: tpcc}\n  - run: {workload: tpcc, duration: 1s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p.Check(&out)
	if strings.Contains(out.String(), "Sup3rS3cr3t") || !strings.Contains(out.String(), "u:xxxxx@127.0.0.1") {
		t.Fatalf("plan check:\n%s", out.String())
	}
}

// A plan of storage probes needs no targets; its measured steps carry the plan's labels into the store. A
// plan whose step needs a target and has none says so.
func TestStoragePlanNeedsNoTargets(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "io.yaml")
	os.WriteFile(path, []byte("name: io-small\nlabels: {system: scratch}\nsteps:\n  - run: {workload: io, directory: "+dir+
		", size: 4m, iodepth: [1, 4], runtime: 0.3}\n"), 0o644)
	before := countStored(t, "")
	out := runPlan(t, path)
	if n := countStored(t, "") - before; n != 2 || !strings.Contains(out, "--label plan=io-small --label system=scratch") {
		t.Fatalf("stored %d runs; output:\n%s", n, out)
	}
	os.WriteFile(path, []byte("name: x\nsteps:\n  - build: {workload: tpcc}\n"), 0o644)
	if _, err := plan.Load(path); err == nil || !strings.Contains(err.Error(), "no targets and step 1 (tpcc build) needs one") {
		t.Fatalf("a plan without targets: %v", err)
	}
}

// instances: N runs a several-target command on the plan's first N targets; more than the plan has is refused
// at its line.
func TestPlanInstances(t *testing.T) {
	text := "name: inst\ntargets: [sqlite://a.db, sqlite://b.db, sqlite://c.db]\nsteps:\n" +
		"  - run: {workload: webstore, instances: 2, duration: 5s}\n  - run: {workload: webstore, duration: 5s}\n"
	p, err := plan.Parse("inst.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{2, 3} {
		cmds := p.Commands(p.Steps[i])
		if len(cmds) != 1 || strings.Count(strings.Join(cmds[0], " "), "--target ") != want {
			t.Errorf("step %d: %v, want %d targets", i+1, cmds, want)
		}
	}
	bad := strings.Replace(text, "instances: 2", "instances: 4", 1)
	if _, err := plan.Parse("inst.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "inst.yaml:4") || !strings.Contains(err.Error(), "instances: 4, but the plan has 3 target(s)") {
		t.Errorf("too many instances: %v", err)
	}
}

// plan run --metrics-addr gives every step that serves live figures the address (one scrape target for the
// whole plan: virtual users, TPC-H's queries), and no step that cannot serve it (a build).
func TestPlanMetricsAddrGoesToUserDrivenSteps(t *testing.T) {
	text := "name: live\ntargets: [duckdb://a.duckdb]\nsteps:\n" +
		"  - build: {workload: tpch, scale: 0.01}\n  - run: {workload: tpch}\n  - run: {workload: ping, duration: 5s}\n"
	p, err := plan.Parse("live.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	p.MetricsAddr, p.MetricsTokenFile = "127.0.0.1:9464", "/etc/dbdyno/token"
	for i, want := range []bool{false, true, true} {
		line := strings.Join(p.Commands(p.Steps[i])[0], " ")
		if got := strings.Contains(line, "--metrics-addr 127.0.0.1:9464 --metrics-token-file /etc/dbdyno/token"); got != want {
			t.Errorf("step %d: %s (the address given: %v, want %v)", i+1, line, got, want)
		}
	}
}

package plan_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/method/plan"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/store"
)

// A plan's configurations: each has its own targets, labels, settings and set-up, and runs every step alone,
// one configuration after the other; every measured run is labelled with its configuration's name, and the
// study's table is compared configuration against configuration at each point.
func TestPlanConfigurationsRunOneAfterTheOther(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "st.db")
	marks := filepath.Join(dir, "marks")
	text := "name: two-systems\nstore: " + st + "\nconfigurations:\n" +
		"  - name: older\n    targets: [sqlite://" + dir + "/old.db]\n    labels: {vm: Es_v3}\n    setup: [\"echo setup-older >> " + marks + "\"]\n" +
		"  - name: newer\n    targets: [sqlite://" + dir + "/new.db]\n    settings: {cold_cmd: \"echo cold-newer >> " + marks + "\", vus: 2}\n" +
		"steps:\n  - build: {workload: tpcc, warehouses: 1, drop: true}\n" +
		"  - run: {workload: tpcc, vus: 1, rampup: 0s, duration: 1s, interval: 1s}\n"
	path := filepath.Join(dir, "two.yaml")
	os.WriteFile(path, []byte(text), 0o644)
	p, err := plan.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var chk bytes.Buffer
	p.Check(&chk)
	// the setting replaces the step's own value, and adds the option the step did not give
	if c := chk.String(); !strings.Contains(c, "tpcc run --vus 2 --rampup 0s --duration 1s --interval 1s --cold-cmd 'echo cold-newer >> ") ||
		!strings.Contains(c, "--label configuration=newer") || !strings.Contains(c, "2 configuration(s), each alone through 2 step(s)") {
		t.Fatalf("plan check:\n%s", c)
	}
	out := runPlan(t, path)
	// one configuration after the other: the older's set-up, its build and run, then the newer's
	order := []string{"=== configuration 1 of 2: older", "set-up command 1 of 1", "tpcc build", "tpcc run", "=== configuration 2 of 2: newer", "tpcc build", "tpcc run --vus 2"}
	at := 0
	for _, w := range order {
		i := strings.Index(out[at:], w)
		if i < 0 {
			t.Fatalf("%q is not after what came before it:\n%s", w, out)
		}
		at += i + len(w)
	}
	if b, _ := os.ReadFile(marks); string(b) != "setup-older\ncold-newer\n" {
		t.Fatalf("set-up and cold start ran %q", b)
	}
	ctx := context.Background()
	s, err := store.Open(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := results.Resolve(ctx, s, nil, store.Filter{Labels: []string{"plan=two-systems"}}, nil)
	s.Close()
	if err != nil || len(runs) != 2 {
		t.Fatalf("%d runs stored (%v)", len(runs), err)
	}
	if runs[0].Labels["configuration"] != "older" || runs[0].Labels["vm"] != "Es_v3" || runs[1].Labels["configuration"] != "newer" || runs[1].ColdStart == nil {
		t.Fatalf("labels %v and %v", runs[0].Labels, runs[1].Labels)
	}
	var cmp bytes.Buffer
	if err := results.CompareWith(ctx, &cmp, st, nil, results.CompareOptions{Labels: []string{"plan=two-systems"}, Format: "md"}); err != nil {
		t.Fatal(err)
	}
	if c := cmp.String(); !strings.Contains(c, "| configuration | NOPM (new orders/min) | vs older |") || !strings.Contains(c, "| older | ") || !strings.Contains(c, "| baseline |") {
		t.Fatalf("compare --label plan=two-systems --format md:\n%s", c)
	}
}

// A configuration's mistakes are refused at their line: no name, a setting no step takes, a setting of the
// wrong kind, a name twice.
func TestPlanConfigurationsRefusedAtTheirLine(t *testing.T) {
	head := "name: x\nconfigurations:\n"
	steps := "steps:\n  - run: {workload: ping, duration: 1s}\n"
	for text, want := range map[string]string{
		head + "  - targets: [sqlite://a.db]\n" + steps:                                                         "c.yaml:3: the configuration has no name",
		head + "  - name: a\n    targets: [sqlite://a.db]\n    settings: {warehouses: 2}\n" + steps:             "c.yaml:5: settings: no step takes \"warehouses\"",
		head + "  - name: a\n    targets: [sqlite://a.db]\n    settings: {vus: many}\n" + steps:                 "c.yaml:5: settings: vus: \"many\" is not a count",
		head + "  - name: a\n    targets: [sqlite://a.db]\n  - name: a\n    targets: [sqlite://b.db]\n" + steps: "c.yaml:5: configuration \"a\" is named twice",
		head + "  - name: a\n" + steps: "configuration a has no targets and step 1 (ping run) needs one",
		head + "  - name: a\n    targets: [sqlite://a.db]\n    labels: {configuration: b}\n" + steps: "c.yaml:5: labels: configuration is the configuration's name",
	} {
		if _, err := plan.Parse("c.yaml", []byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("plan:\n%s\nerror %v; want %q", text, err, want)
		}
	}
}

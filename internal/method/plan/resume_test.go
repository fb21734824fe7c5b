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
	"github.com/dbdyno/dbdyno/internal/store"
)

// A plan interrupted after its first step (Ctrl-C as the second begins) resumes with --resume: the finished
// step is skipped, the others run, and the plan's runs in the store are those of all three steps. A plan file
// changed since is refused in one line, and so is --resume of a plan never run.
func TestPlanResume(t *testing.T) {
	dir := t.TempDir()
	st := filepath.Join(dir, "results.db")
	path := filepath.Join(dir, "three.yaml")
	text := "name: three\nstore: " + st + "\ntargets: [sqlite://" + filepath.Join(dir, "p.db") + "]\nsteps:\n" +
		"  - run: {workload: ping, rampup: 0s, duration: 1s, interval: 1s}\n" +
		"  - run: {workload: ping, rampup: 0s, duration: 1s, interval: 1s, vus: 2}\n" +
		"  - run: {workload: ping, rampup: 0s, duration: 1s, interval: 1s, vus: 3}\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := plan.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := p.RunResuming(context.Background(), &out, nil, true); err == nil || !strings.Contains(err.Error(), "has no run to resume") {
		t.Fatalf("--resume of a plan never run: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var ran [][]string
	err = p.Run(ctx, &out, func(args []string) error {
		ran = append(ran, args)
		if len(ran) == 2 {
			cancel() // Ctrl-C as step 2 starts
		}
		return method.Invoke(ctx, args, &out, "test")
	})
	if err == nil || !strings.Contains(err.Error(), "stopped at step 2") || len(ran) != 2 {
		t.Fatalf("interrupted plan: %v after %d steps\n%s", err, len(ran), out.String())
	}

	out.Reset()
	ran = nil
	ctx = context.Background()
	if err := p.RunResuming(ctx, &out, func(args []string) error {
		ran = append(ran, args)
		return method.Invoke(ctx, args, &out, "test")
	}, true); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(ran) != 2 || !strings.Contains(strings.Join(ran[0], " "), "--vus 2") || !strings.Contains(strings.Join(ran[1], " "), "--vus 3") ||
		!strings.Contains(out.String(), "== step 1 (line 5): done before") {
		t.Fatalf("resumed plan ran %v\n%s", ran, out.String())
	}
	s, err := store.Open(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.List(ctx, store.Filter{Label: "plan=three"})
	if err != nil {
		t.Fatal(err)
	}
	steps := map[string]int{}
	for _, r := range runs {
		if r.Status == "ok" {
			for i := 1; i <= 3; i++ {
				if strings.Contains(r.Labels, p.StepKey(p.Steps[i-1], 0)) {
					steps[p.StepKey(p.Steps[i-1], 0)]++
				}
			}
		}
	}
	if len(steps) != 3 {
		t.Fatalf("the plan's stored runs cover steps %v, want all three: %+v", steps, runs)
	}

	// the plan changed: its steps are not the ones recorded
	if err := os.WriteFile(path, []byte(strings.Replace(text, "vus: 3", "vus: 4", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	changed, err := plan.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	err = changed.RunResuming(ctx, &out, func([]string) error { t.Fatal("a changed plan ran a step"); return nil }, true)
	if err == nil || !strings.Contains(err.Error(), "changed since the run being resumed") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("--resume of a changed plan: %v", err)
	}
}

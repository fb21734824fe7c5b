package results_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// compare on stored open-loop runs shows their open-loop figures side by side (target and achieved rate,
// schedule lag mean and max, and with a latency limit the skipped and late counts), each as the stored result
// holds it; an open-loop run beside a closed-loop one is refused in one line as not like-for-like, and with
// --allow-different-work set side by side under a warning that names each one's loop.
func TestCompareShowsOpenLoopFigures(t *testing.T) {
	dir := t.TempDir()
	db, st := "sqlite://"+filepath.Join(dir, "m.db"), filepath.Join(dir, "s.db")
	run := func(name string, extra ...string) string {
		res := filepath.Join(dir, name+".json")
		clitest.Must(t, append([]string{"probe", "mixed", "--target", db, "--rows", "1000", "--vus", "2", "--rampup", "0s", "--transactions", "200",
			"--interval", "1s", "--store", st, "--result", res}, extra...)...)
		r, _ := clitest.ReadResult(t, res)
		return r.RunID
	}
	a := run("a", "--rate", "300", "--latency-limit", "50ms")
	b := run("b", "--rate", "150.5", "--latency-limit", "50ms")
	c := run("c")

	cmp := func(o results.CompareOptions, refs ...string) (string, error) {
		var b strings.Builder
		o.AllowChanged = true // the runs share one database, which each changes
		err := results.CompareWith(context.Background(), &b, st, refs, o)
		return b.String(), err
	}
	out, err := cmp(results.CompareOptions{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(out, "\nopen loop\n")
	if i < 0 {
		t.Fatalf("no open-loop table in:\n%s", out)
	}
	table := out[i:]
	for _, id := range []string{a, b} {
		r, _ := clitest.ReadResult(t, filepath.Join(dir, map[string]string{a: "a", b: "b"}[id]+".json"))
		o, m := r.Measurement.OpenLoop, r.Measurement
		for row, v := range map[string]float64{"target rate (/s)": o.RatePerS, "achieved rate (/s)": float64(o.Completed) / m.MeasuredSecs,
			"schedule lag mean (ms)": o.LagMeanUS / 1000, "schedule lag max (ms)": float64(o.LagMaxUS) / 1000, "latency limit (ms)": 50,
			"skipped behind schedule": float64(o.Skipped), "late (over the limit)": float64(o.Late)} {
			line := ""
			for _, l := range strings.Split(table, "\n") {
				if strings.HasPrefix(l, row) {
					line = l
				}
			}
			if !strings.Contains(line, " "+compare.Format(v)+" ") {
				t.Errorf("run %s's %s is %s: the row reads %q", id, row, compare.Format(v), line)
			}
		}
	}
	if !strings.Contains(table, "49.83% lower") { // 150.5 against 300: the target rate's change, no verdict
		t.Errorf("the target rates' change is not in:\n%s", table)
	}

	_, err = cmp(results.CompareOptions{}, a, c)
	want := fmt.Sprintf("run %s ran open loop at 300/s and run %s closed loop", a, c)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "not like-for-like") {
		t.Errorf("open against closed loop: %v (want one line saying %q)", err, want)
	}
	if out, err = cmp(results.CompareOptions{AllowDifferentWork: true}, c, a); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "NOT LIKE-FOR-LIKE") || !strings.Contains(out, "A  closed loop") || !strings.Contains(out, "B  open loop at 300/s") || strings.Contains(out, "\nopen loop\n") {
		t.Errorf("open against closed loop, allowed: the loops are not flagged in:\n%s", out)
	}
}

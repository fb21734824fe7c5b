package method_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// checkSteps checks a stepped result: one step per load in order, each with its own measured window (its
// ramp-up left out), throughput and p95, exactly one headline step whose figures are the result's.
func checkSteps(t *testing.T, r *result.Result, by string, loads []float64, stepDur, rampup time.Duration) {
	t.Helper()
	if r.Status != result.StatusOK || len(r.Steps) != len(loads) {
		t.Fatalf("stepped result: %s %q, %d steps, want %d", r.Status, r.Error, len(r.Steps), len(loads))
	}
	heads := 0
	for i, s := range r.Steps {
		if s.By != by || s.Load != loads[i] || s.Status != result.StatusOK {
			t.Fatalf("step %d: %s=%g %s, want %s=%g ok", i+1, s.By, s.Load, s.Status, by, loads[i])
		}
		// the ramp-up left out of the window: the window at most the step's own span less its ramp-up (half of it:
		// the step's start and its ramp-up's may be apart by a moment), however late a loaded machine ended it
		if span := s.EndedAt.Sub(s.StartedAt).Seconds(); s.RampupS != rampup.Seconds() || s.MeasuredS <= 0 || s.MeasuredS > span-rampup.Seconds()/2 {
			t.Fatalf("step %d: ramp-up %gs, measured %gs of a %s step (%.3fs from its start to its end) with a %s ramp-up", i+1, s.RampupS, s.MeasuredS, stepDur, span, rampup)
		}
		if s.ThroughputPerS <= 0 || s.Committed <= 0 || s.P95Ms <= 0 || len(s.Transactions) == 0 || len(s.Metrics) == 0 {
			t.Fatalf("step %d has no figures of its own: %+v", i+1, s)
		}
		if i > 0 && !s.StartedAt.After(r.Steps[i-1].StartedAt) {
			t.Fatalf("step %d started at %s, before step %d (%s)", i+1, s.StartedAt, i, r.Steps[i-1].StartedAt)
		}
		if s.Headline {
			heads++
			h, _ := r.Headline()
			sh := -1.0
			for _, m := range s.Metrics {
				if m.Headline {
					sh = m.Value
				}
			}
			if sh != h.Value || r.Measurement == nil || r.Measurement.Committed != s.Committed || r.Measurement.RampupSeconds != rampup.Seconds() {
				t.Fatalf("the headline step's figures are not the result's: step %g, result %g", sh, h.Value)
			}
		}
	}
	if heads != 1 {
		t.Fatalf("%d headline steps, want 1", heads)
	}
	if !r.StartedAt.Equal(r.Steps[0].StartedAt) || !r.EndedAt.Equal(r.Steps[len(r.Steps)-1].EndedAt) {
		t.Fatalf("the result spans %s..%s, its steps %s..%s", r.StartedAt, r.EndedAt, r.Steps[0].StartedAt, r.Steps[len(r.Steps)-1].EndedAt)
	}
}

// --steps runs each load in turn on the same database and keeps one result whose parts are the steps: one run
// in the store, each step with its own figures; the report draws them.
func TestSteppedLoadOnSQLite(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "p.db")
	st, res := filepath.Join(dir, "results.db"), filepath.Join(dir, "r.json")
	out := clitest.Must(t, "ping", "--target", url, "--steps", "1,2", "--step-duration", "2s", "--step-rampup", "500ms",
		"--store", st, "--result", res)
	sto, err := store.Open(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := sto.List(context.Background(), store.Filter{})
	sto.Close()
	if err != nil || len(runs) != 1 {
		t.Fatalf("a stepped run is one stored result: %v, %d runs", err, len(runs))
	}
	r, _ := clitest.ReadResult(t, res)
	checkSteps(t, r, "vus", []float64{1, 2}, 2*time.Second, 500*time.Millisecond)
	if r.Options["steps"] != "1,2" || r.Options["steps_by"] != "vus" {
		t.Fatalf("options: %v", r.Options)
	}
	if !strings.Contains(out.Stdout, "steps (vus): throughput/s, p95 ms") || !strings.Contains(out.Stdout, "<- headline (the best step)") {
		t.Fatalf("no steps table in the progress:\n%s", out.Stdout)
	}
	// one loop of users: the run opened once (one banner), step 2 kept step 1's user and added one, and the steps
	// follow each other without a gap; each step's users are its own load
	if n := strings.Count(out.Stdout, "dbdyno ping on "); n != 1 || !strings.Contains(out.Stdout, "adding 1 virtual users to the 1 running") {
		t.Fatalf("the steps are not one loop: %d runs opened, no user added to the running one:\n%s", n, out.Stdout)
	}
	if !r.Steps[1].StartedAt.Equal(r.Steps[0].EndedAt) || r.Measurement.VUs != int(r.Steps[0].Load) && r.Measurement.VUs != int(r.Steps[1].Load) {
		t.Fatalf("step 2 started at %s, step 1 ended at %s; the result's measurement has %d users", r.Steps[1].StartedAt, r.Steps[0].EndedAt, r.Measurement.VUs)
	}
	if vus, _ := r.Options["vus"].(float64); int(vus) != r.Measurement.VUs || len(r.Measurement.Users.Transactions) != r.Measurement.VUs {
		t.Fatalf("the headline step's options say %v users, its measurement %d, its per-user figures %d", r.Options["vus"], r.Measurement.VUs, len(r.Measurement.Users.Transactions))
	}
	var html strings.Builder
	if err := report.Write(&html, "steps", []*result.Result{r}); err != nil {
		t.Fatal(err)
	}
	b := html.String()
	for _, want := range []string{"<h3>Steps</h3>", `<table class="steps">`, "Throughput by step", "p95 latency by step"} {
		if !strings.Contains(b, want) {
			t.Fatalf("the report has no %q", want)
		}
	}
}

// Steps by users that go down and up again (3, 1, 2) are one loop too: the run opens once, the step to 1
// stops 2 of the 3 users (after their work in flight) and the step to 2 connects one again; each step has its
// own figures, and the headline step's measurement holds its own users' figures, as many as its load.
func TestSteppedLoadDownAndUpIsOneLoop(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "r.json")
	out := clitest.Must(t, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--steps", "3,1,2", "--step-duration", "1s", "--step-rampup", "200ms",
		"--store", "", "--result", res)
	r, _ := clitest.ReadResult(t, res)
	checkSteps(t, r, "vus", []float64{3, 1, 2}, time.Second, 200*time.Millisecond)
	if n := strings.Count(out.Stdout, "dbdyno ping on "); n != 1 || !strings.Contains(out.Stdout, "stopping 2 of the 3 running virtual users") ||
		!strings.Contains(out.Stdout, "adding 1 virtual users to the 1 running") || !strings.Contains(out.Stdout, "vus=1, 1 of the 3 users running kept") {
		t.Fatalf("steps 3,1,2 are not one loop: %d runs opened, or no line saying users were stopped and added:\n%s", n, out.Stdout)
	}
	// the workload's own summary names the step it is of (it read as the whole run's)
	if !strings.Contains(out.Stdout, "\nthe last step (3 of 3), ok: ") {
		t.Errorf("ping's summary does not say it is the last step's:\n%s", out.Stdout)
	}
	for i := 1; i < len(r.Steps); i++ {
		if !r.Steps[i].StartedAt.Equal(r.Steps[i-1].EndedAt) {
			t.Fatalf("step %d started at %s, step %d ended at %s: one loop's steps follow each other", i+1, r.Steps[i].StartedAt, i, r.Steps[i-1].EndedAt)
		}
	}
	for _, s := range r.Steps {
		if s.Headline && (r.Measurement.VUs != int(s.Load) || len(r.Measurement.Users.Transactions) != int(s.Load)) {
			t.Fatalf("the headline step has %g users, its measurement %d with %d users' figures", s.Load, r.Measurement.VUs, len(r.Measurement.Users.Transactions))
		}
	}
	if vus, _ := r.Options["vus"].(float64); int(vus) != r.Measurement.VUs {
		t.Fatalf("the headline step's options say %v users, its measurement %d", r.Options["vus"], r.Measurement.VUs)
	}
}

// Combinations that make no sense are refused in one line before anything runs.
func TestSteppedLoadRefusals(t *testing.T) {
	url := "sqlite://" + filepath.Join(t.TempDir(), "p.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ping", "--steps", "1,2", "--find-peak"}, "--steps runs the loads given and --find-peak chooses its own: give one of them"},
		{[]string{"tpcc", "run", "--steps", "1,2", "--transactions", "100"}, "--steps times each step with --step-duration and --transactions ends a run by a count"},
		{[]string{"ping", "--steps", "1,2", "--vus", "1,2"}, "--steps sets each step's load: give --vus one value (or none), not a list"},
		{[]string{"ping", "--steps", "1,2", "--duration", "5s"}, "--duration and --rampup time a plain run"},
		{[]string{"ping", "--step-duration", "5s"}, "--step-duration is an option of a stepped load: add --steps"},
		{[]string{"ping", "--steps", "1,0"}, `--steps "1,0": each step is a whole number of users of at least 1`},
		{[]string{"ping", "--steps", "1,100000"}, `--steps "1,100000": a step is at most 1000 users, as --vus is (got 100000)`},
		{[]string{"ping", "--steps", "1,x"}, `--steps "1,x": each step is a whole number of users of at least 1`},
		{[]string{"ping", "--steps", "1,1.5"}, `--steps "1,1.5": users are whole: "1.5" is not a number of users; give whole numbers, e.g. --steps 1,2,4, or step the open-loop rate with --by rate`},
		{[]string{"script", "run", "--builtin", "select-only", "--steps", "2.5,0", "--by", "rate"}, `--steps "2.5,0": each step is a rate above 0 in units of work per second, e.g. --steps 0.5,1,2.5 (got "0")`},
		{[]string{"script", "run", "--builtin", "select-only", "--steps", "2.5,-1", "--by", "rate"}, `--steps "2.5,-1": each step is a rate above 0`},
		{[]string{"script", "run", "--builtin", "select-only", "--steps", "2.5,inf", "--by", "rate"}, `--steps "2.5,inf": each step is a rate above 0`},
		{[]string{"ping", "--steps", "1,2", "--start-at", "+1h"}, "--start-at +1h starts one measured run, and this command makes several (--repeat, a sweep, --find-peak or --steps)"},
		{[]string{"ping", "--steps", "1,2", "--by", "rate"}, "--by rate steps the open-loop --rate, and this command has none"},
		{[]string{"ping", "--steps", "1,2", "--step-duration", "2s", "--step-rampup", "2s"}, "--step-rampup 2s must be at least 0 and shorter than --step-duration 2s"},
	} {
		r := clitest.Run(context.Background(), append(c.args, "--target", url, "--store", "")...)
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) || strings.Count(r.Stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want one line saying %q", c.args, r.Code, r.Stderr, c.want)
		}
	}
}

// On PostgreSQL the steps may be open-loop rates (--by rate): the mixed probe at two rates, each a step with
// its own figures, the rate each step ran at recorded in its options.
func TestSteppedRatesOnPostgreSQL(t *testing.T) {
	url := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_steps")
	res := filepath.Join(t.TempDir(), "r.json")
	clitest.Must(t, "probe", "mixed", "--target", url, "--rows", "2000", "--rebuild", "--threads", "2", "--steps", "20,40", "--by", "rate",
		"--step-duration", "2s", "--step-rampup", "500ms", "--interval", "500ms", "--store", "", "--result", res)
	r, _ := clitest.ReadResult(t, res)
	checkSteps(t, r, "rate", []float64{20, 40}, 2*time.Second, 500*time.Millisecond)
	hi := 0
	for i, s := range r.Steps {
		if s.Headline {
			hi = i
		}
	}
	if rate, _ := r.Options["rate"].(float64); rate != r.Steps[hi].Load {
		t.Fatalf("the headline step ran at rate %v, its step says %g", r.Options["rate"], r.Steps[hi].Load)
	}
}

// --steps with --by rate takes rates with decimals (pgbench -R 2.5): each step runs at its rate exactly, recorded
// as given (2.5, not 2 or 3), and the transactions each step's window counts are a Poisson count of that rate over
// the window: within 5 standard deviations (the square root of the expected count) of it, whatever the
// machine's speed (a SELECT 1 on SQLite takes microseconds beside the 200 ms mean gap; one transaction more at
// each end of the window for the ones in flight).
func TestSteppedFractionalRatesOnSQLite(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "p.db")
	f, res := filepath.Join(dir, "one.sql"), filepath.Join(dir, "r.json")
	for p, text := range map[string]string{f: "SELECT 1;\n", filepath.Join(dir, "p.db"): ""} { // an empty file is an empty SQLite database
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := clitest.Must(t, "script", "run", f, "--target", url, "--vus", "2", "--steps", "2.5,5", "--by", "rate",
		"--step-duration", "7s", "--step-rampup", "1s", "--interval", "1s", "--seed", "7", "--store", "", "--result", res)
	r, _ := clitest.ReadResult(t, res)
	checkSteps(t, r, "rate", []float64{2.5, 5}, 7*time.Second, time.Second)
	// one loop of the run's users, the schedule's rate set at each step (they were a run each)
	if !strings.Contains(out.Stdout, "one loop of virtual users, each setting the rate") || !strings.Contains(out.Stdout, "setting the rate to 5/s") {
		t.Errorf("the rate steps are not one loop:\n%s", out.Stdout)
	}
	// the workload's own summary (the last step's figures) says whose it is
	if !strings.Contains(out.Stdout, "\nthe last step (2 of 2):\nOK after ") {
		t.Errorf("the script's summary does not say it is the last step's:\n%s", out.Stdout)
	}
	if r.Options["steps"] != "2.5,5" || r.Options["steps_by"] != "rate" {
		t.Fatalf("options: steps %v by %v, want 2.5,5 by rate", r.Options["steps"], r.Options["steps_by"])
	}
	for i, s := range r.Steps {
		want := s.Load * s.MeasuredS
		if n := float64(s.Committed + s.Errors); math.Abs(n-want) > 5*math.Sqrt(want)+2 {
			t.Errorf("step %d (rate %g): %g transactions in %.3fs, want %.1f ± %.1f (a Poisson count)", i+1, s.Load, n, s.MeasuredS, want, 5*math.Sqrt(want)+2)
		}
		if s.Headline {
			if rate, _ := r.Options["rate"].(float64); rate != s.Load {
				t.Fatalf("the headline step ran at rate %v, its step says %g", r.Options["rate"], s.Load)
			}
		}
	}
	for _, want := range []string{"== step 1 of 2: rate=2.5 (1s ramp-up, 6s measured)", "step 1 of 2: rate=2.5: ok", "  1. rate=2.5: ", "  2. rate=5: "} {
		if !strings.Contains(out.Stdout, want) {
			t.Fatalf("the progress has no %q:\n%s", want, out.Stdout)
		}
	}
}

// Each step of a stepped run by users has its own system metrics: the samples whose time falls in its window
// (between its window's edges, in the run's series' seconds; the windows apart), summarised over
// them, their mean CPU busy % in the step's row of the progress table and of the report; the embedded engine's
// process IO is read at each step's window edges. The result's own system metrics are the whole run's.
func TestSteppedLoadSystemMetricsPerStepOnSQLite(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "r.json")
	out := clitest.Must(t, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--steps", "2,1,2", "--step-duration", "1500ms", "--step-rampup", "300ms",
		"--metrics-interval", "100ms", "--store", "", "--result", res)
	r, _ := clitest.ReadResult(t, res)
	checkSteps(t, r, "vus", []float64{2, 1, 2}, 1500*time.Millisecond, 300*time.Millisecond)
	seen := 0 // the steps' samples, each in one step's window (the windows apart)
	for i, s := range r.Steps {
		sys := s.System
		if sys == nil || len(sys.Samples) == 0 {
			t.Fatalf("step %d has no system metrics of its own: %+v", i+1, sys)
		}
		seen += len(sys.Samples)
		if w := sys.MeasureToS - sys.MeasureFromS; math.Abs(w-s.MeasuredS) > 0.11 {
			t.Fatalf("step %d: its system metrics' window is %.1fs..%.1fs, its measured window %.3fs long", i+1, sys.MeasureFromS, sys.MeasureToS, s.MeasuredS)
		}
		if i > 0 && sys.MeasureFromS < r.Steps[i-1].System.MeasureToS {
			t.Fatalf("step %d's window starts at %.1fs, before step %d's ends (%.1fs)", i+1, sys.MeasureFromS, i, r.Steps[i-1].System.MeasureToS)
		}
		for _, x := range sys.Samples {
			if x.T < sys.MeasureFromS || x.T > sys.MeasureToS {
				t.Fatalf("step %d: a sample at %.1fs, outside its window %.1fs..%.1fs", i+1, x.T, sys.MeasureFromS, sys.MeasureToS)
			}
		}
		if c := sys.Summary["cpu_busy_pct"]; s.CPUBusyPct != c.Mean || len(sys.Samples) == len(r.System.Samples) {
			t.Fatalf("step %d: CPU busy %g%%, its samples' mean %g%%; %d samples of the run's %d", i+1, s.CPUBusyPct, c.Mean, len(sys.Samples), len(r.System.Samples))
		}
		if d := s.DBCounters; d == nil || d.Source != "process" || len(d.Delta) == 0 {
			t.Fatalf("step %d: no process IO read at its window's edges: %+v", i+1, d)
		}
		if !strings.Contains(out.Stdout, fmt.Sprintf("  %d. vus=%g: ", i+1, s.Load)) || !strings.Contains(out.Stdout, ", CPU "+compare.Format(s.CPUBusyPct)+"%, ") {
			t.Fatalf("the progress table has no CPU busy %g%% for step %d:\n%s", s.CPUBusyPct, i+1, out.Stdout)
		}
	}
	if r.System == nil || len(r.System.Samples) <= seen {
		t.Fatalf("the result's system metrics are not the whole run's: %d samples, the steps' %d", len(r.System.Samples), seen)
	}
	var html strings.Builder
	if err := report.Write(&html, "steps", []*result.Result{r}); err != nil {
		t.Fatal(err)
	}
	if b := html.String(); !strings.Contains(b, "<th>CPU busy (%)</th>") || strings.Contains(b, "database host CPU busy") {
		t.Fatal("the report's steps table has no CPU busy column (or a database host's without an agent)")
	}
}

// On PostgreSQL each step of a stepped run by users has the database's counters read at its window's edges:
// transactions committed in each step (> 0), the steps' together no more than the whole run's (the windows are
// apart, inside the run), and the waits sampled in each window, fewer samples than the whole run's.
func TestSteppedLoadCountersPerStepOnPostgreSQL(t *testing.T) {
	url := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_steps")
	res := filepath.Join(t.TempDir(), "r.json")
	clitest.Must(t, "ping", "--target", url, "--steps", "2,1", "--step-duration", "3s", "--step-rampup", "500ms", "--interval", "500ms",
		"--store", "", "--result", res)
	r, _ := clitest.ReadResult(t, res)
	checkSteps(t, r, "vus", []float64{2, 1}, 3*time.Second, 500*time.Millisecond)
	if r.DBCounters == nil || r.Waits == nil {
		t.Fatalf("the run has no counters or waits: %+v %+v", r.DBCounters, r.Waits)
	}
	whole := r.DBCounters.Delta["xact_commit"]
	sum, samples := 0.0, 0
	for i, s := range r.Steps {
		if s.DBCounters == nil || s.DBCounters.Delta["xact_commit"] <= 0 || s.DBCounters.Source != "database" {
			t.Fatalf("step %d: no transactions committed read at its window's edges: %+v", i+1, s.DBCounters)
		}
		sum += s.DBCounters.Delta["xact_commit"]
		if s.Waits == nil || s.Waits.Samples <= 0 || s.Waits.Samples >= r.Waits.Samples {
			t.Fatalf("step %d: waits %+v, the run's %d samples", i+1, s.Waits, r.Waits.Samples)
		}
		samples += s.Waits.Samples
	}
	if sum > whole || samples > r.Waits.Samples {
		t.Fatalf("the steps committed %g transactions and took %d wait samples, the whole run %g and %d", sum, samples, whole, r.Waits.Samples)
	}
}

package ch_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

func TestMain(m *testing.M) {
	clitest.AtLeastParallel(4)
	clitest.Main(m)
}

// TestCHOnEveryEngine builds CH-benCHmark at one warehouse on every OLTP engine, runs two terminals and one
// analytic stream, each side alone and then together, and checks what the result says: both sides' figures
// alone and together, the share each kept, every query's and transaction's counts, the consistency checks.
func TestCHOnEveryEngine(t *testing.T) {
	t.Parallel()
	for _, e := range clitest.OLTPEngines(t) {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			url := e.URL
			if e.Name != "sqlite" {
				url = testsrv.Beside(t, e.URL, "dbdyno_ch")
			}
			b := clitest.Must(t, "ch", "build", "--target", url, "--warehouses", "1", "--threads", "2", "--drop")
			clitest.NoPassword(t, url, b.Stdout, b.Stderr)
			res := filepath.Join(t.TempDir(), "ch.json")
			out := clitest.Must(t, "ch", "run", "--target", url, "--vus", "2", "--streams", "1", "--rampup", "1s", "--duration", "4s",
				"--interval", "2s", "--check", "--result", res, "--store", "")
			clitest.NoPassword(t, url, out.Stdout, out.Stderr)
			r, _ := clitest.ReadResult(t, res)
			if r.Status != result.StatusOK {
				t.Fatalf("status %s: %s\n%s", r.Status, r.Error, out.Stdout)
			}
			if len(r.Sides) != 2 || r.Sides[0].Name != "transactions" || r.Sides[1].Name != "queries" {
				t.Fatalf("sides %+v", r.Sides)
			}
			for _, s := range r.Sides {
				if s.Status != result.StatusOK || s.Measurement == nil || s.Measurement.MeasuredSecs <= 0 {
					t.Fatalf("side %s: %+v", s.Name, s)
				}
			}
			// alone, each side does only its own work
			if n := r.Sides[0].Figures["queries"]; n != 0.0 {
				t.Errorf("the transactions alone ran %v queries", n)
			}
			if n := r.Sides[1].Figures["nopm"]; n != 0.0 {
				t.Errorf("the queries alone made new orders: NOPM %v", n)
			}
			f := r.Figures
			for _, k := range []string{"nopm", "qphh", "nopm_alone", "qphh_alone", "nopm_kept_pct", "qphh_kept_pct"} {
				if v, ok := f[k].(float64); !ok || v <= 0 {
					t.Errorf("figure %s = %v", k, f[k])
				}
			}
			if f["nopm_alone"] != r.Sides[0].Figures["nopm"] || f["qphh_alone"] != r.Sides[1].Figures["qphh"] {
				t.Errorf("the figures alone %v %v are not the sides' %v %v", f["nopm_alone"], f["qphh_alone"], r.Sides[0].Figures["nopm"], r.Sides[1].Figures["qphh"])
			}
			var queries int64
			for i := 1; i <= 22; i++ {
				q := r.Measurement.Transactions[fmt.Sprintf("Q%d", i)]
				if q.Errors != 0 {
					t.Errorf("Q%d together: %+v", i, q)
				}
				queries += q.Count
			}
			if queries < 1 || float64(queries) != f["queries"] {
				t.Errorf("%d queries together, the figure says %v", queries, f["queries"])
			}
			if no := r.Measurement.Transactions["new_order"]; no.Count < 1 {
				t.Errorf("new_order together: %+v", no)
			}
			if len(r.Checks) == 0 {
				t.Error("--check ran no check")
			}
			for _, c := range r.Checks {
				if !c.Passed {
					t.Errorf("check %s failed: %s", c.Name, c.Detail)
				}
			}
			for _, want := range []string{"side 1 of 2, alone: transactions (2 users)", "side 2 of 2, alone: queries (1 users)", "kept", "QphH"} {
				if !strings.Contains(out.Stdout, want) {
					t.Errorf("output lacks %q:\n%s", want, out.Stdout)
				}
			}
			c := clitest.Must(t, "ch", "check", "--target", url)
			if !strings.Contains(c.Stdout, "contents as built") {
				t.Errorf("check says nothing of the tables' contents:\n%s", c.Stdout)
			}
			clitest.Must(t, "ch", "drop", "--target", url)
			if r := clitest.Run(t.Context(), "ch", "run", "--target", url, "--duration", "1s", "--store", ""); r.Code == 0 {
				t.Errorf("a run after the drop succeeded:\n%s", r.Stdout)
			}
		})
	}
}

// TestCHRefusals: options that cannot run, and a database with TPC-C's tables alone.
func TestCHRefusals(t *testing.T) {
	t.Parallel()
	url := "sqlite://" + filepath.Join(t.TempDir(), "c.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--streams", "0"}, "--streams must be at least 1"},
		{[]string{"--shard", "1/2"}, "add --together"},
		{[]string{"--rate", "10"}, "closed loop"},
		{[]string{"--transactions", "100"}, "give --duration instead"},
	} {
		r := clitest.Run(t.Context(), append([]string{"ch", "run", "--target", url, "--store", ""}, c.args...)...)
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, r.Code, r.Stderr, c.want)
		}
	}
	clitest.Must(t, "tpcc", "build", "--target", url, "--warehouses", "1", "--threads", "1")
	r := clitest.Run(t.Context(), "ch", "run", "--target", url, "--duration", "1s", "--store", "")
	if r.Code == 0 || !strings.Contains(r.Stderr, "no CH-benCHmark tables") || !strings.Contains(r.Stderr, "dbdyno ch build") {
		t.Errorf("a run on TPC-C's tables alone: exit %d, stderr %q", r.Code, r.Stderr)
	}
	r = clitest.Run(t.Context(), "ch", "build", "--target", url, "--warehouses", "1")
	if r.Code == 0 || !strings.Contains(r.Stderr, "--drop") {
		t.Errorf("a build over tpcc's tables: exit %d, stderr %q", r.Code, r.Stderr)
	}
}

// TestCtrlCInASideAlone: Ctrl-C while the queries run alone writes a result marked aborted that keeps the side
// that ran and the one cut short, and no figures of a together part that never ran.
func TestCtrlCInASideAlone(t *testing.T) {
	t.Parallel()
	url := "sqlite://" + filepath.Join(t.TempDir(), "c.db")
	clitest.Must(t, "ch", "build", "--target", url, "--warehouses", "1", "--threads", "1")
	file := filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	// Ctrl-C once the queries side has started: an event of the run, not a time a loaded machine outlasts
	watch := func(line string) {
		if strings.Contains(line, "side 2 of 2, alone: queries") {
			once.Do(cancel)
		}
	}
	r := clitest.RunWatching(ctx, watch, "ch", "run", "--target", url, "--vus", "1", "--streams", "1", "--rampup", "0s", "--duration", "2s",
		"--interval", "1s", "--result", file, "--store", "")
	if r.Code != method.ExitAborted {
		t.Fatalf("exit %d, want %d\n%s%s", r.Code, method.ExitAborted, r.Stdout, r.Stderr)
	}
	res, _ := clitest.ReadResult(t, file)
	if res.Status != result.StatusAborted || len(res.Sides) != 2 || res.Sides[0].Status != result.StatusOK || res.Sides[1].Status != result.StatusAborted {
		t.Fatalf("status %s, sides %+v", res.Status, res.Sides)
	}
	if res.Sides[0].Figures["nopm"].(float64) <= 0 {
		t.Errorf("the transactions alone: %v", res.Sides[0].Figures)
	}
	if _, ok := res.Figures["nopm_kept_pct"]; ok {
		t.Errorf("an aborted run before its together part has a share kept: %v", res.Figures)
	}
}

// TestCHSteps: a stepped load steps the terminals, the streams running in every step; without --together the
// steps are refused (each step would need its sides alone).
func TestCHSteps(t *testing.T) {
	t.Parallel()
	url := "sqlite://" + filepath.Join(t.TempDir(), "c.db")
	clitest.Must(t, "ch", "build", "--target", url, "--warehouses", "1", "--threads", "1")
	res := filepath.Join(t.TempDir(), "s.json")
	out := clitest.Must(t, "ch", "run", "--target", url, "--streams", "1", "--together", "--steps", "1,2", "--step-duration", "3s",
		"--step-rampup", "0s", "--interval", "1s", "--result", res, "--store", "")
	r, _ := clitest.ReadResult(t, res)
	if r.Status != result.StatusOK || len(r.Steps) != 2 || r.Steps[0].Load != 1 || r.Steps[1].Load != 2 {
		t.Fatalf("status %s, steps %+v\n%s", r.Status, r.Steps, out.Stdout)
	}
	var queries int64
	for i, s := range r.Steps {
		if s.Transactions["new_order"].Count == 0 {
			t.Errorf("step %d made no new order: %+v", i+1, s.Transactions)
		}
		for n, tx := range s.Transactions {
			if strings.HasPrefix(n, "Q") {
				queries += tx.Count
			}
		}
	}
	if queries == 0 {
		t.Error("the stream ran no query in either step")
	}
	if r := clitest.Run(t.Context(), "ch", "run", "--target", url, "--steps", "1,2", "--step-duration", "2s", "--store", ""); r.Code == 0 || !strings.Contains(r.Stderr, "add --together") {
		t.Errorf("steps without --together: exit %d, %s", r.Code, r.Stderr)
	}
}

package method_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/store"
)

// noiseRun is a constructed tpcc result: its headline and, when given, its measured intervals' rates.
func noiseRun(id, group string, rep, reps int, nopm float64, intervals []float64) *result.Result {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m := &result.Measurement{Intervals: []result.Interval{}, VUs: 4, MeasuredSecs: float64(len(intervals)), PerMinute: nopm * 2.2, MeasureStart: at, MeasureEnd: at.Add(time.Minute),
		Transactions: map[string]result.TxStats{"new_order": {Count: 100}}, KeyTx: "new_order", KeyLabel: "NOPM"}
	for i, v := range intervals {
		m.Intervals = append(m.Intervals, result.Interval{ElapsedSeconds: float64(i + 1), Measured: true, PerMinute: v, Transactions: map[string]result.IntervalTxStat{}})
	}
	return &result.Result{SchemaVersion: result.SchemaVersion, Tool: result.Tool{Name: "dbdyno", Version: "test"}, Workload: "tpcc",
		RunID: id, Status: result.StatusOK, StartedAt: at, EndedAt: at.Add(time.Minute), Command: []string{"tpcc", "run"},
		Options:     map[string]any{"warehouses": 1.0, "vus": 4.0, "mode": "sql"},
		Target:      result.Target{Engine: "sqlite", URL: "sqlite://x.db", ServerVersion: "3"},
		Measurement: m, Figures: map[string]any{"nopm": nopm},
		Metrics: []result.Metric{{Name: "NOPM", Unit: "new orders/min", Better: result.Higher, Value: nopm, Headline: true}},
		Group:   &result.Group{ID: group, Repeat: rep, Repeats: reps, Median: rep == 2 || reps == 1}}
}

// TestDifferencesAgainstNoise: compare says "within noise" of a 1% difference where repeats spread by 10%, or
// where a single run's per-interval throughput spreads by 10%, and judges a 30% difference as one.
func TestDifferencesAgainstNoise(t *testing.T) {
	ctx := context.Background()
	st := filepath.Join(t.TempDir(), "results.db")
	s, err := store.Open(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	add := func(r *result.Result) {
		if err := s.Add(ctx, r, ""); err != nil {
			t.Fatal(err)
		}
	}
	// repeats: A spreads 95..105 (10%), B is 1% higher, C 30% higher
	for i, base := range map[string]float64{"gA": 100, "gB": 101, "gC": 130} {
		for rep, f := range []float64{0.95, 1, 1.05} {
			add(noiseRun(fmt.Sprintf("r%s%d", i, rep), i, rep+1, 3, base*f, nil))
		}
	}
	// single runs: per-interval rates spread by 10% around their median
	spread := []float64{0.95, 1.04, 0.97, 1.05, 1.0, 0.96, 1.03, 0.99, 1.02, 0.98, 1.01, 1.0}
	for i, base := range map[string]float64{"sA": 1000, "sB": 1010, "sC": 1300} {
		var iv []float64
		for _, f := range spread {
			iv = append(iv, base*2.2*f)
		}
		add(noiseRun("run-"+i, "g-"+i, 1, 1, base, iv))
	}
	s.Close()
	cmp := func(a, b string) (string, string) {
		var out bytes.Buffer
		if err := results.Compare(ctx, &out, st, []string{a, b}); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(l, "NOPM") {
				return l, out.String()
			}
		}
		t.Fatalf("no NOPM row:\n%s", out.String())
		return "", ""
	}
	for _, c := range []struct{ a, b, want string }{
		{"gA", "gB", "[1] within noise: the spread of 3 repeats"},
		{"run-sA", "run-sB", "[1] within noise: a bootstrap over its 12 intervals"},
	} {
		if l, all := cmp(c.a, c.b); !strings.HasSuffix(l, "1.00% higher [1]") || !strings.Contains(all, c.want) {
			t.Errorf("%s vs %s: %q, want 1.00%% higher [1] and %q:\n%s", c.b, c.a, l, c.want, all)
		}
	}
	for _, c := range [][2]string{{"gA", "gC"}, {"run-sA", "run-sC"}} {
		if l, _ := cmp(c[0], c[1]); !strings.HasSuffix(l, "30.00% higher (better)") {
			t.Errorf("%s vs %s: %q, want a 30%% difference judged as one", c[1], c[0], l)
		}
	}
}

package runner

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// twoKinds is a session of two kinds of users: user 0 runs quick units ("quick"), user 1 slow ones ("slow",
// each slowFor long); Figures count each kind's units.
type twoKinds struct {
	slowFor time.Duration
}

type kindWorker struct {
	tx int
	d  time.Duration
}

func (s *twoKinds) Transactions() []string { return []string{"quick", "slow"} }
func (s *twoKinds) NewWorker(ctx context.Context, vu int) (Worker, error) {
	if vu == 0 {
		return &kindWorker{0, time.Millisecond}, nil
	}
	return &kindWorker{1, s.slowFor}, nil
}
func (s *twoKinds) ServerVersion() string                  { return "none" }
func (s *twoKinds) Options() map[string]any                { return map[string]any{} }
func (s *twoKinds) Configure(*Config)                      {}
func (s *twoKinds) Finish(context.Context, *result.Result) {}
func (s *twoKinds) Close()                                 {}
func (s *twoKinds) Figures(m *result.Measurement) map[string]any {
	return map[string]any{"quick": float64(m.Transactions["quick"].Count), "slow": float64(m.Transactions["slow"].Count)}
}

func (w *kindWorker) Next() (int, time.Duration, time.Duration) { return w.tx, 0, 0 }
func (w *kindWorker) Do(ctx context.Context, tx int) Outcome {
	select {
	case <-time.After(w.d):
	case <-ctx.Done():
	}
	return Outcome{}
}
func (w *kindWorker) Reconnect(context.Context) error { return nil }
func (w *kindWorker) Close()                          {}

// TestSidesRunAloneThenTogether: each side alone runs only its own users, with its own stall limit (a side of
// units longer than a progress interval is not stalled), and the figures gain each side's alone and kept.
func TestSidesRunAloneThenTogether(t *testing.T) {
	s := &twoKinds{slowFor: 2500 * time.Millisecond}
	sides := []Side{{Name: "quick", Users: []int{0}, Figure: "quick", Key: true}, {Name: "slow", Users: []int{1}, Figure: "slow", StallLimit: 4 * time.Second}}
	var out strings.Builder
	cfg := Config{VUs: 2, Duration: 4 * time.Second, Interval: time.Second, Progress: &out, KeyTx: 0, KeyLabel: "QPM"}
	ran, err := runSides(context.Background(), s, sides, cfg)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(ran) != 2 || ran[0].Users != 1 || ran[1].Users != 1 || ran[0].Status != result.StatusOK || ran[1].Status != result.StatusOK {
		t.Fatalf("sides %+v", ran)
	}
	if q, sl := ran[0].Measurement.Transactions, ran[1].Measurement.Transactions; q["slow"].Count != 0 || q["quick"].Count == 0 || sl["quick"].Count != 0 || sl["slow"].Count == 0 {
		t.Fatalf("a side ran the other's users: quick alone %+v, slow alone %+v", q, sl)
	}
	if !strings.Contains(out.String(), "side 2 of 2, alone: slow (1 users)") {
		t.Errorf("progress:\n%s", out.String())
	}
	fig := map[string]any{"quick": ran[0].Figures["quick"].(float64) / 2, "slow": ran[1].Figures["slow"]}
	sideFigures(fig, sides, ran)
	if fig["quick_alone"] != ran[0].Figures["quick"] || fig["quick_kept_pct"] != 50.0 || fig["slow_kept_pct"] != 100.0 {
		t.Errorf("figures %v", fig)
	}

	// without the side's own limit the slow units alone stall the run (an interval of work in flight, none done)
	sides[1].StallLimit = 0
	ran, err = runSides(context.Background(), s, sides, cfg)
	if err == nil || !strings.Contains(err.Error(), "slow alone") || len(ran) != 2 || ran[1].Status != result.StatusFailed {
		t.Fatalf("err %v, sides %+v", err, ran)
	}
}

// TestSidesAbortedKeepTheirParts: a side cut short by Ctrl-C is aborted and the sides after it do not run.
func TestSidesAbortedKeepTheirParts(t *testing.T) {
	s := &twoKinds{slowFor: time.Millisecond}
	sides := []Side{{Name: "quick", Users: []int{0}}, {Name: "slow", Users: []int{1}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{VUs: 2, Duration: time.Hour, Interval: 100 * time.Millisecond, Progress: io.Discard}
	cfg.AtMeasureStart = func(context.Context) error { t.Error("a side alone read the window's edges"); return nil }
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	ran, err := runSides(ctx, s, sides, cfg)
	if err == nil || len(ran) != 1 || ran[0].Status != result.StatusAborted || ran[0].Measurement == nil {
		t.Fatalf("err %v, sides %+v", err, ran)
	}
}

// TestAbbrevKeepsALettersNumber: the progress line names CH's queries Q1 .. Q22, not all "Q".
func TestAbbrevKeepsALettersNumber(t *testing.T) {
	for in, want := range map[string]string{"Q9": "Q9", "Q22": "Q22", "new_order": "NO", "step_13": "S13", "q": "Q", "Qx": "Q"} {
		if got := abbrev(in); got != want {
			t.Errorf("abbrev(%q) = %q, want %q", in, got, want)
		}
	}
}

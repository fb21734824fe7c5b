package peak_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/workload"
)

func TestMain(m *testing.M) { clitest.Main(m) }

// kneeFlags are the options of a test workload with a synthetic capacity: each unit of work is a query on
// SQLite made while holding one of --slots for --hold, so throughput grows with users up to --slots and stays
// there: the knee is at --slots users.
type kneeFlags struct {
	runner.Users
	Slots int           `flag:"slots" default:"4" help:"units of work at the same time"`
	Hold  time.Duration `flag:"hold" default:"20ms" help:"time each unit holds its slot"`
}

var mUnits = workload.MetricDesc{Name: "units per second", Unit: "units/s", Better: result.Higher, Headline: true}

func init() {
	workload.Register(&workload.Meta{
		Name: "kneetest", Short: "a synthetic capacity for the knee search's test", NeedsDB: true,
		Sections: []string{"measurement"},
		Metrics:  []workload.MetricDesc{mUnits},
		Derive: func(r *result.Result) []result.Metric {
			if m := r.Measurement; m != nil && m.MeasuredSecs > 0 {
				return []result.Metric{mUnits.Value(float64(m.Committed) / m.MeasuredSecs)}
			}
			return nil
		},
		Commands: []*workload.Command{
			workload.NewMeasured(workload.Command{Name: "run", Short: "run", Target: workload.ManyTargets}, &kneeFlags{},
				runner.VU[kneeFlags]{Open: openKnee}),
		},
	})
}

type kneeSession struct {
	db    *sql.DB
	slots chan struct{}
	hold  time.Duration
	o     *kneeFlags
}

func openKnee(ctx context.Context, s *runner.Setup, o *kneeFlags) (runner.Session, error) {
	db, err := s.Target.Open(ctx)
	if err != nil {
		return nil, err
	}
	return &kneeSession{db: db, slots: make(chan struct{}, o.Slots), hold: o.Hold, o: o}, nil
}

func (k *kneeSession) Transactions() []string { return []string{"unit"} }
func (k *kneeSession) ServerVersion() string  { return "sqlite" }
func (k *kneeSession) Options() map[string]any {
	return map[string]any{"vus": k.o.VUs, "slots": k.o.Slots, "hold_s": k.o.Hold.Seconds()}
}
func (k *kneeSession) Configure(cfg *runner.Config)                   { cfg.RateLabel, cfg.PerSecond = "units/s", true }
func (k *kneeSession) Figures(m *result.Measurement) map[string]any   { return map[string]any{} }
func (k *kneeSession) Finish(ctx context.Context, res *result.Result) {}
func (k *kneeSession) Close()                                         { k.db.Close() }
func (k *kneeSession) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	return &kneeWorker{k}, nil
}

type kneeWorker struct{ k *kneeSession }

func (w *kneeWorker) Next() (int, time.Duration, time.Duration) { return 0, 0, 0 }
func (w *kneeWorker) Reconnect(ctx context.Context) error       { return nil }
func (w *kneeWorker) Close()                                    {}
func (w *kneeWorker) Do(ctx context.Context, tx int) runner.Outcome {
	select {
	case w.k.slots <- struct{}{}:
	case <-ctx.Done():
		return runner.Outcome{Err: ctx.Err()}
	}
	defer func() { <-w.k.slots }()
	var one int
	if err := w.k.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return runner.Outcome{Err: err}
	}
	t := time.NewTimer(w.k.hold)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return runner.Outcome{}
}

// TestFindPeakFindsAKnownKnee: throughput that stops growing at --slots users is found there. The synthetic
// limit puts the knee at --slots (within two users when the machine is so loaded that a unit's overhead grows
// with the users), and the points the search measured must agree with it: every load below the knee gave less
// than the knee's throughput. (An earlier check derived the knee from the one-user rate, assuming each user adds
// that rate; under a load average of 40 one user ran at 30/s and four at 154/s, so it expected 6.) Each measured
// interval holds some 25 units per user or more (20 ms units, 500 ms intervals, 6 of them): with 40 ms units in
// 250 ms intervals one unit was a fifth of an interval's count, and under a load average of 30 the bootstrap
// band of such coarse counts took the first doubling (+42%) for run-to-run noise and put the knee at 1 user.
func TestFindPeakFindsAKnownKnee(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "k.db")
	st := filepath.Join(dir, "results.db")
	const slots = 4
	r := clitest.Must(t, "kneetest", "run", "--target", url, "--slots", fmt.Sprint(slots), "--hold", "20ms", "--rampup", "0s",
		"--duration", "3s", "--interval", "500ms", "--store", st, "--find-peak", "--vus", "1")
	for _, l := range strings.Split(r.Stdout, "\n") {
		if strings.HasPrefix(l, "find-peak:") {
			t.Log(l)
		}
	}
	if !strings.Contains(r.Stdout, "find-peak: the knee is ") || !strings.Contains(r.Stdout, "limited by") {
		t.Fatalf("no knee in the summary:\n%s", r.Stdout)
	}
	runs := storedGroup(t, st)
	var knee *result.Knee
	rate := map[float64]float64{}
	for _, res := range runs {
		if res.Group.Sweep != "vus" || res.Group.Knee == nil {
			t.Fatalf("run %s is not a point of the knee search: %+v", res.RunID, res.Group)
		}
		knee = res.Group.Knee
		rate[res.Group.Value] = res.Measurement.PerMinute / 60
	}
	t.Logf("throughput by users %v; the synthetic limit: %d", rate, slots)
	if !knee.Found || math.Abs(knee.Value-slots) > 2 {
		t.Fatalf("knee %+v, expected the limit %d within 2 (loads run %v)", knee, slots, rate)
	}
	for load, r := range rate {
		if load < knee.Value && r >= rate[knee.Value] {
			t.Fatalf("knee at %g users (%.1f/s), but %g users gave %.1f/s already (loads run %v)", knee.Value, rate[knee.Value], load, r, rate)
		}
	}
	if _, ok := rate[2]; !ok || len(rate) < 4 {
		t.Fatalf("the search raised 1, 2, 4 ... and bisected: loads %v", rate)
	}
	// the report draws throughput and p95 against the load with the knee marked
	var b strings.Builder
	if err := report.Write(&b, "knee", runs); err != nil {
		t.Fatal(err)
	}
	if html := b.String(); !strings.Contains(html, "knee at "+fmt.Sprint(knee.Value)) || !strings.Contains(html, "p95 latency") {
		t.Fatalf("the report marks no knee")
	}
}

func storedGroup(t *testing.T, path string) []*result.Result {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.List(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*result.Result
	for _, row := range rows {
		rs, err := s.Get(ctx, row.RunID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rs...)
	}
	if len(out) == 0 {
		t.Fatal("nothing stored")
	}
	return out
}

// TestBadSLA: an SLA that cannot be read is one line naming the problem, and nothing runs.
func TestBadSLA(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "k.db")
	for sla, want := range map[string]string{
		"p95=50ms":          "no '<'",
		"p97<50ms":          "not a latency statistic",
		"p95<fast":          "not a positive duration",
		"new_order.p90<5s,": "no '<'",
	} {
		r := clitest.Run(context.Background(), "kneetest", "run", "--target", url, "--find-peak", "--sla", sla, "--duration", "1s")
		if r.Code == 0 || !strings.Contains(r.Stderr, want) || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
			t.Fatalf("--sla %q: exit %d, %q (want one line with %q)", sla, r.Code, r.Stderr, want)
		}
	}
	r := clitest.Run(context.Background(), "kneetest", "run", "--target", url, "--find-peak", "--sla", "nosuch.p95<1s", "--duration", "1s", "--store", "")
	if r.Code == 0 || !strings.Contains(r.Stderr, `names transaction "nosuch"`) {
		t.Fatalf("an SLA naming no transaction of the workload: exit %d, %q", r.Code, r.Stderr)
	}
	r = clitest.Run(context.Background(), "kneetest", "run", "--target", url, "--sla", "p95<1s", "--duration", "1s")
	if r.Code == 0 || !strings.Contains(r.Stderr, "add --find-peak") {
		t.Fatalf("--sla without --find-peak: exit %d, %q", r.Code, r.Stderr)
	}
	_ = os.Remove
}

package runner

import (
	"bufio"
	"context"
	"database/sql"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// The open loop's arrivals are a Poisson process: the times between intended starts have an exponential
// distribution of mean 1/rate (its variance is the mean squared, and P(gap > mean) = 1/e), not a fixed
// interval, and the same seed gives the same schedule.
func TestPoissonSchedule(t *testing.T) {
	const rate, n = 1000.0, 40000
	start := time.Unix(1_700_000_000, 0)
	gaps := func(seed uint64) []float64 {
		s := newSchedule(start, rate, seed, 0)
		prev := start
		out := make([]float64, n)
		for i := range out {
			at, skipped := s.take(start) // a user always free at the start: nothing is skipped without a limit
			if skipped != 0 {
				t.Fatalf("skipped %d without a latency limit", skipped)
			}
			out[i] = at.Sub(prev).Seconds()
			prev = at
		}
		return out
	}
	g := gaps(42)
	var sum, sum2 float64
	above := 0
	for _, x := range g {
		sum += x
		sum2 += x * x
	}
	mean := sum / n
	variance := sum2/n - mean*mean
	for _, x := range g {
		if x > mean {
			above++
		}
	}
	// standard errors at n = 40000: the mean's 0.5%, the variance's ~1.1%, the share's 0.24 points
	if want := 1 / rate; math.Abs(mean-want)/want > 0.03 {
		t.Fatalf("mean gap %.6fs, want %.6fs", mean, want)
	}
	if cv2 := variance / (mean * mean); cv2 < 0.9 || cv2 > 1.1 {
		t.Fatalf("variance/mean² %.3f, want 1 (exponential; a fixed interval gives 0)", cv2)
	}
	if share := float64(above) / n; math.Abs(share-1/math.E) > 0.015 {
		t.Fatalf("share of gaps above the mean %.4f, want 1/e = %.4f", share, 1/math.E)
	}
	again, other := gaps(42), gaps(43)
	for i := range g {
		if again[i] != g[i] {
			t.Fatalf("seed 42 gave another schedule at arrival %d", i)
		}
	}
	if other[0] == g[0] && other[1] == g[1] {
		t.Fatal("seeds 42 and 43 gave the same schedule")
	}
}

// A latency limit skips the intended starts already more than the limit behind when a user is free for them.
func TestScheduleSkipsWhatIsTooFarBehind(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	s := newSchedule(start, 1000, 7, 10*time.Millisecond)
	ref := newSchedule(start, 1000, 7, 0)
	now := start.Add(time.Second) // a user free only after a second: ~1000 starts are behind
	at, skipped := s.take(now)
	if at.Before(now.Add(-10*time.Millisecond)) || at.After(now) {
		t.Fatalf("took %s, want within the 10ms limit before %s", at.Sub(start), now.Sub(start))
	}
	var behind int64
	for {
		r, _ := ref.take(start)
		if !r.Before(now.Add(-10 * time.Millisecond)) {
			if !r.Equal(at) {
				t.Fatalf("the start taken %s is not the first within the limit %s", at.Sub(start), r.Sub(start))
			}
			break
		}
		behind++
	}
	if skipped != behind || skipped < 900 {
		t.Fatalf("skipped %d, want the %d starts more than the limit behind", skipped, behind)
	}
}

// stallTarget is a SQLite database each unit of work updates one row of; the test stalls it by holding the
// write lock.
type stallTarget struct{ db *sql.DB }

type stallWorker struct{ db *sql.DB }

func (s *stallTarget) Transactions() []string { return []string{"update"} }
func (s *stallTarget) NewWorker(context.Context, int) (Worker, error) {
	return &stallWorker{db: s.db}, nil
}
func (w *stallWorker) Next() (int, time.Duration, time.Duration) { return 0, 0, 0 }
func (w *stallWorker) Do(ctx context.Context, _ int) Outcome {
	_, err := w.db.ExecContext(ctx, "UPDATE t SET v = v + 1 WHERE id = 1")
	return Outcome{Err: err}
}
func (w *stallWorker) Reconnect(context.Context) error { return nil }
func (w *stallWorker) Close()                          {}

func openStallTarget(t *testing.T) (*stallTarget, time.Duration) {
	tg, err := engine.Parse("sqlite://" + filepath.Join(t.TempDir(), "stall.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := tg.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, s := range []string{"CREATE TABLE t (id integer PRIMARY KEY, v integer)", "INSERT INTO t VALUES (1, 0)"} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	// the reference: this machine's service time of one unit of work, now
	const n = 200
	t0 := time.Now()
	for range n {
		if _, err := db.ExecContext(ctx, "UPDATE t SET v = v + 1 WHERE id = 1"); err != nil {
			t.Fatal(err)
		}
	}
	return &stallTarget{db: db}, time.Since(t0) / n
}

// stall holds the target's write lock for d, from a while after the measured window starts; held is how long
// it was held (from the lock's taking to its release).
type stall struct {
	db   *sql.DB
	d    time.Duration
	wg   sync.WaitGroup
	held time.Duration
	err  error
}

func (s *stall) start(ctx context.Context) error {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		time.Sleep(s.d / 2)
		tx, err := s.db.BeginTx(context.Background(), nil) // BEGIN IMMEDIATE: the write lock
		if err != nil {
			s.err = err
			return
		}
		t0 := time.Now()
		time.Sleep(s.d)
		s.err = tx.Commit()
		s.held = time.Since(t0)
	}()
	return nil
}

// logged reads a latency log: each completed unit of work's latency in µs.
func logged(t *testing.T, path string) (lat []int64, errs int) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if f[4] == "error" {
			errs++
			continue
		}
		us, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		lat = append(lat, us)
	}
	return lat, errs
}

// When the target stalls, an open loop's latency includes the time the work queued behind the stall (its p99
// is about the stall), while a closed loop's latency is service time: one unit of work waits out the stall and
// the others are not issued meanwhile (its p99 stays far below the stall). The stall, the rate and the window
// are sized from this machine's service time, measured first; the bounds from the stall as it was held.
func TestOpenLoopLatencyIncludesQueueingBehindAStall(t *testing.T) {
	target, tau := openStallTarget(t)
	d := max(500*time.Millisecond, 400*tau)
	rate := math.Min(2000, 1/(4*tau.Seconds())) // a quarter of one user's capacity: little queueing but in the stall
	limit := d / 4
	t.Logf("service time %s: stall %s, rate %.0f/s, latency limit %s", tau, d, rate, limit)

	run := func(rate float64, limit time.Duration) (*stall, string, *result.Measurement) {
		st := &stall{db: target.db, d: d}
		log := filepath.Join(t.TempDir(), "lat.log")
		m, err := Run(context.Background(), target, Config{VUs: 1, Duration: 3 * d, Interval: d, Rate: rate, Seed: 1,
			LatencyLimit: limit, AtMeasureStart: st.start, LatencyLog: log})
		st.wg.Wait()
		if err != nil || st.err != nil {
			t.Fatalf("run: %v; stall: %v", err, st.err)
		}
		if st.held < d {
			t.Fatalf("the lock was held %s, less than %s", st.held, d)
		}
		return st, log, m
	}

	closed, closedLog, cm := run(0, limit)
	open, _, om := run(rate, 0)
	c, o := cm.Transactions["update"].Latency, om.Transactions["update"].Latency
	t.Logf("closed loop: %d done, p99 %dµs max %dµs (stall held %s); open loop: %d done, p99 %dµs max %dµs (stall held %s), lag mean %.0fµs max %dµs",
		cm.Committed, c.P99, c.Max, closed.held, om.Committed, o.P99, o.Max, open.held, om.OpenLoop.LagMeanUS, om.OpenLoop.LagMaxUS)
	// closed: the one unit of work in flight when the lock was taken waited it out, the rest is service time
	if c.Max < (closed.held*9/10).Microseconds() || c.P99 > (closed.held/2).Microseconds() {
		t.Fatalf("closed loop: p99 %dµs max %dµs, want max ~ the stall %s and p99 far below it", c.P99, c.Max, closed.held)
	}
	// open: the work that arrived early in the stall waited most of it, and it is more than 1% of the window's
	if o.P99 < (open.held * 9 / 10).Microseconds() {
		t.Fatalf("open loop: p99 %dµs, want at least 90%% of the stall %s (queueing counted from the intended start)", o.P99, open.held)
	}
	if ol := om.OpenLoop; ol == nil || ol.RatePerS != rate || ol.Started != om.Committed || ol.LagMaxUS < (open.held/2).Microseconds() || ol.Skipped != 0 {
		t.Fatalf("open loop figures %+v: want the rate, every unit started, the lag behind the stall, none skipped", ol)
	}

	// the closed loop's latency limit: late counted (the stalled unit among them), nothing skipped; exactly the
	// logged latencies above the limit
	lat, _ := logged(t, closedLog)
	var late int64
	for _, us := range lat {
		if us > limit.Microseconds() {
			late++
		}
	}
	if ol := cm.OpenLoop; ol == nil || ol.Late != late || late < 1 || ol.Skipped != 0 || ol.Completed != int64(len(lat)) || ol.Started != 0 {
		t.Fatalf("closed loop with a latency limit: %+v, want %d late of %d completed, none skipped", cm.OpenLoop, late, len(lat))
	}
}

// With a rate and a latency limit, the intended starts that fell more than the limit behind in a stall are
// skipped and counted (not run), the lag stays within the limit, and the completed units over the limit are
// counted late: exactly those the latency log shows over it.
func TestLatencyLimitSkipsAndCountsLate(t *testing.T) {
	target, tau := openStallTarget(t)
	d := max(500*time.Millisecond, 400*tau)
	rate := math.Min(2000, 1/(4*tau.Seconds()))
	limit := d / 4
	st := &stall{db: target.db, d: d}
	log := filepath.Join(t.TempDir(), "lat.log")
	m, err := Run(context.Background(), target, Config{VUs: 1, Duration: 3 * d, Interval: d, Rate: rate, Seed: 2,
		LatencyLimit: limit, AtMeasureStart: st.start, LatencyLog: log})
	st.wg.Wait()
	if err != nil || st.err != nil {
		t.Fatalf("run: %v; stall: %v", err, st.err)
	}
	ol := m.OpenLoop
	t.Logf("service time %s, stall held %s, rate %.0f/s, limit %s: %+v", tau, st.held, rate, limit, *ol)
	lat, errs := logged(t, log)
	var late int64
	for _, us := range lat {
		if us > limit.Microseconds() {
			late++
		}
	}
	if errs != 0 || ol.Completed != int64(len(lat)) || ol.Late != late || late < 1 {
		t.Fatalf("late %d of %d completed, want the log's %d of %d (errors %d)", ol.Late, ol.Completed, late, len(lat), errs)
	}
	// the arrivals of the stall's last three quarters (more than the limit behind when the user was free again):
	// at least half of the expected rate x (held - limit), a Poisson count far above that bound
	if want := rate * (st.held - limit).Seconds() / 2; float64(ol.Skipped) < want {
		t.Fatalf("skipped %d, want at least %.0f", ol.Skipped, want)
	}
	// a start taken is at most the limit behind when the user takes it (slack: the user's own scheduling)
	if ol.LagMaxUS > (2 * limit).Microseconds() {
		t.Fatalf("lag max %dµs, want within the limit %s", ol.LagMaxUS, limit)
	}
	if ol.Started != int64(len(lat)) {
		t.Fatalf("started %d, completed %d", ol.Started, len(lat))
	}
}

// unequal is a workload whose virtual user 1 is ten times slower than the others (it waits 10 ms a unit of work,
// they 1 ms), and whose user 2 fails every third unit of work.
type unequal struct{}

type unequalWorker struct{ vu, n int }

func (unequal) Transactions() []string { return []string{"a", "b"} }
func (unequal) NewWorker(_ context.Context, vu int) (Worker, error) {
	return &unequalWorker{vu: vu}, nil
}
func (w *unequalWorker) Next() (int, time.Duration, time.Duration) { return w.n % 2, 0, 0 }
func (w *unequalWorker) Do(context.Context, int) Outcome {
	w.n++
	d := time.Millisecond
	if w.vu == 1 {
		d = 10 * time.Millisecond
	}
	time.Sleep(d)
	if w.vu == 2 && w.n%3 == 0 {
		return Outcome{Err: errFailed}
	}
	return Outcome{}
}
func (w *unequalWorker) Reconnect(context.Context) error { return nil }
func (w *unequalWorker) Close()                          {}

var errFailed = os.ErrDeadlineExceeded

// Each virtual user's figures are in the measurement: they add up to the window's, and the slow user shows as
// the starved one (its p50 at least its 10 ms wait, above the others').
func TestPerUserFigures(t *testing.T) {
	m, err := Run(context.Background(), unequal{}, Config{VUs: 3, Duration: time.Second, Interval: time.Second, MaxErrorRate: 100})
	if err != nil {
		t.Fatal(err)
	}
	u := m.Users
	if u == nil || len(u.Transactions) != 3 || len(u.PerMinute) != 3 || len(u.P50) != 3 || len(u.P95) != 3 || len(u.Errors) != 3 {
		t.Fatalf("per-user figures %+v, want 3 users", u)
	}
	var done, errs int64
	for i := range u.Transactions {
		done, errs = done+u.Transactions[i], errs+u.Errors[i]
		if want := Round(float64(u.Transactions[i])/(m.MeasuredSecs/60), 1); u.PerMinute[i] != want {
			t.Fatalf("user %d: %v per minute, want %v", i, u.PerMinute[i], want)
		}
	}
	if done != m.Committed+m.Rollbacks || errs != m.Errors || u.Errors[2] == 0 || u.Errors[0] != 0 || u.Errors[1] != 0 {
		t.Fatalf("users' %d done and %v errors, the window's %d and %d", done, u.Errors, m.Committed+m.Rollbacks, m.Errors)
	}
	if u.P50[1] < 10_000 || u.P50[1] <= u.P50[0] || u.Transactions[1] >= u.Transactions[0] {
		t.Fatalf("the slow user 1 is not the starved one: %+v", u)
	}
	var b strings.Builder
	PrintUsers(&b, m)
	if lines := strings.Split(strings.TrimSpace(b.String()), "\n"); len(lines) != 4 || !strings.Contains(lines[0], "p95") {
		t.Fatalf("per-user table:\n%s", b.String())
	}
	if m.OpenLoop != nil {
		t.Fatalf("a closed loop without a latency limit has open-loop figures: %+v", m.OpenLoop)
	}
}

// A stepped open-loop run changes its schedule's rate at a step's start: the starts after it come at the new
// rate (a Poisson count of it over a span: within 5 standard deviations), those already due stay due, and
// the next start is drawn afresh at the new rate (not the rest of a long gap of the old one).
func TestScheduleTakesANewRate(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	s := newSchedule(t0, 0.001, 1, 0) // a start every 1,000 s on average
	at := t0.Add(time.Second)
	s.setRate(at, 200)
	n := 0
	for {
		next, _ := s.take(at)
		if next.Before(at) {
			t.Fatalf("a start at %s, before the new rate's %s", next, at)
		}
		if next.After(at.Add(10 * time.Second)) {
			break
		}
		n++
	}
	if want := 2000.0; math.Abs(float64(n)-want) > 5*math.Sqrt(want) {
		t.Errorf("%d starts in 10 s at 200/s", n)
	}
	// starts already due stay due: a backlog is not wiped by a new rate
	s = newSchedule(t0, 1000, 2, 0)
	due, _ := s.take(t0)
	s.setRate(t0.Add(time.Hour), 1)
	if next, _ := s.take(t0.Add(time.Hour)); !next.Before(t0.Add(time.Second)) || next.Before(due) {
		t.Errorf("a start due before the new rate moved to %s", next)
	}
}

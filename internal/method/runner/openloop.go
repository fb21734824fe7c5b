package runner

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// schedule hands out the intended start times of an open-loop run (Config.Rate): arrivals of a Poisson process
// of the rate over all virtual users, so the times between intended starts are exponentially distributed with
// mean 1/rate (pgbench -R), drawn from the run's seed. A virtual user that is free takes the next intended
// start and waits for it; one that is behind takes it late (the lag, counted), or with a latency limit skips
// (and counts) the starts that are already more than the limit behind (pgbench --latency-limit).
type schedule struct {
	mu    sync.Mutex
	next  time.Time
	mean  float64 // nanoseconds between intended starts, on average
	rng   *rand.Rand
	limit time.Duration // skip starts more than this behind; 0: never skip
}

// scheduleSeed makes the schedule's random stream differ from the workers' streams of the same seed.
const scheduleSeed = 0x5c4ed01e

func newSchedule(start time.Time, rate float64, seed uint64, limit time.Duration) *schedule {
	s := &schedule{next: start, mean: float64(time.Second) / rate, rng: rand.New(rand.NewPCG(seed, scheduleSeed)), limit: limit}
	s.advance()
	return s
}

// gap is the time to the next arrival: exponential with the schedule's mean (at most maxGap: a rate so low
// that its draw overflows a duration starts nothing in any run).
func (s *schedule) gap() time.Duration {
	g := -math.Log(1-s.rng.Float64()) * s.mean
	if !(g < float64(maxGap)) {
		return maxGap
	}
	return time.Duration(g)
}

// maxGap is the longest time between two intended starts: a hundred years.
const maxGap = 100 * 365 * 24 * time.Hour

func (s *schedule) advance() { s.next = s.next.Add(s.gap()) }

// setRate changes the rate from at on (a stepped open-loop run's next step): the next intended start not yet
// due is drawn again at the new rate from at (the process is memoryless: the rest of the old gap means
// nothing at the new rate); starts already due stay due (a backlog is the new step's to catch up on, or skip).
func (s *schedule) setRate(at time.Time, rate float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mean = float64(time.Second) / rate
	if s.next.After(at) {
		s.next = at
		s.advance()
	}
}

// take is the next intended start for a virtual user free at now, and how many starts were skipped before it
// (only with a latency limit: those more than the limit behind now).
func (s *schedule) take(now time.Time) (at time.Time, skipped int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limit > 0 {
		for late := now.Add(-s.limit); s.next.Before(late); s.advance() {
			skipped++
		}
	}
	at = s.next
	s.advance()
	return at, skipped
}

// openStats are the measured window's open-loop figures (lag and skips with a rate, late work with a latency
// limit), gathered by all virtual users at once.
type openStats struct {
	started, lagSum, lagMax atomic.Int64 // lag in ns
	skipped, late, done     atomic.Int64
}

func (o *openStats) lag(d time.Duration) {
	if d < 0 {
		d = 0
	}
	o.started.Add(1)
	o.lagSum.Add(int64(d))
	for {
		m := o.lagMax.Load()
		if int64(d) <= m || o.lagMax.CompareAndSwap(m, int64(d)) {
			return
		}
	}
}

// result is the open-loop part of the measurement; nil for a closed loop without a latency limit.
func (o *openStats) result(cfg Config) *result.OpenLoop {
	if cfg.Rate <= 0 && cfg.LatencyLimit <= 0 {
		return nil
	}
	r := &result.OpenLoop{RatePerS: cfg.Rate, WholeRatePerS: cfg.WholeRate, LatencyLimitUS: cfg.LatencyLimit.Microseconds(), Skipped: o.skipped.Load(),
		Late: o.late.Load(), Completed: o.done.Load()}
	if cfg.Rate > 0 {
		r.Started = o.started.Load()
		if r.Started > 0 {
			r.LagMeanUS = Round(float64(o.lagSum.Load())/float64(r.Started)/1e3, 1)
		}
		r.LagMaxUS = time.Duration(o.lagMax.Load()).Microseconds()
	}
	return r
}

// userStat is one virtual user's measured window: written by its own loop only, read when the loops are done.
type userStat struct {
	count, errors int64
	hist          *hdrhistogram.Histogram // two significant digits: a histogram per user stays small
}

func newUserStat() *userStat { return &userStat{hist: hdrhistogram.New(1, maxLatencyUS, 2)} }

func (u *userStat) add(us int64, out Outcome) {
	if out.Err != nil {
		u.errors++
		return
	}
	u.count++
	u.hist.RecordValue(min(max(us, 1), maxLatencyUS))
}

// perUser is the virtual users' figures, in user order, over the measured window of secs seconds.
func perUser(users []*userStat, secs float64) *result.PerUser {
	p := &result.PerUser{}
	for _, u := range users {
		pm := 0.0
		if secs > 0 {
			pm = Round(float64(u.count)/(secs/60), 1)
		}
		var p50, p95 int64
		if u.count > 0 {
			p50, p95 = u.hist.ValueAtQuantile(50), u.hist.ValueAtQuantile(95)
		}
		p.Transactions, p.Errors = append(p.Transactions, u.count), append(p.Errors, u.errors)
		p.PerMinute, p.P50, p.P95 = append(p.PerMinute, pm), append(p.P50, p50), append(p.P95, p95)
	}
	return p
}

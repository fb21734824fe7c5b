package method

import (
	"context"
	"database/sql"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/host/sysmetrics"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// dbSampler reads the database's counters every interval (an embedded engine's: the process's IO) and, where
// the engine can tell, samples its active sessions' wait events every waitInterval, each on its own
// connection, until stop.
type dbSampler struct {
	start  time.Time
	cancel context.CancelFunc
	wg     sync.WaitGroup

	interval time.Duration
	source   string
	series   []result.CounterSample

	waitEvery time.Duration
	waits     *waitTally
}

// first is the counters as read at the run's start (the first interval's base; not read again).
func startDBSampler(ctx context.Context, t *engine.Target, db *sql.DB, interval, waitEvery time.Duration, start time.Time, first map[string]float64) *dbSampler {
	ctx, cancel := context.WithCancel(ctx)
	s := &dbSampler{start: start, cancel: cancel, interval: interval, waitEvery: waitEvery}
	read := func(ctx context.Context) map[string]float64 { return sysmetrics.ProcessIO() }
	s.source = "process"
	if !t.Engine.Embedded {
		if db == nil {
			cancel()
			return s
		}
		s.source = "database"
		read = func(ctx context.Context) map[string]float64 { return t.Engine.ReadCounters(ctx, db) }
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.counters(ctx, read, first)
	}()
	if !t.Engine.Embedded && waitEvery > 0 && t.Engine.HasWaits() {
		s.waits = &waitTally{counts: map[key]*tally{}, perSecond: map[int]map[key]int{}}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.sampleWaits(ctx, t, db)
		}()
	}
	return s
}

func (s *dbSampler) counters(ctx context.Context, read func(context.Context) map[string]float64, prev map[string]float64) {
	at := time.Now()
	if prev == nil {
		prev = read(ctx)
	}
	tk := time.NewTicker(s.interval)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
		}
		cur, now := read(ctx), time.Now()
		if ctx.Err() != nil {
			return // a read cut short by the end of the run is partial: not a sample
		}
		secs := now.Sub(at).Seconds()
		if cur == nil || prev == nil || secs <= 0 {
			prev, at = cur, now
			continue
		}
		rates := map[string]float64{}
		for k, v := range cur {
			if engine.Gauge(k) {
				rates[k] = v
			} else if p, ok := prev[k]; ok {
				rates[k] = math.Round((v-p)/secs*1000) / 1000
			}
		}
		s.series = append(s.series, result.CounterSample{T: math.Round(now.Sub(s.start).Seconds()*10) / 10, Rates: rates})
		prev, at = cur, now
	}
}

type key struct{ class, event string }

type tally struct {
	n, own int64
}

type waitTally struct {
	mu        sync.Mutex // the sampler's writes against a step edge's mark
	samples   int
	obs       int64
	counts    map[key]*tally
	perSecond map[int]map[key]int // second of the run -> event -> observations
	ticks     map[int]int         // second of the run -> samples taken in it
	note      string
}

// sampleWaits asks the engine what its active sessions wait on, on a connection of its own; the first error
// ends sampling and is kept as the note (a disabled performance schema, a missing privilege).
func (s *dbSampler) sampleWaits(ctx context.Context, t *engine.Target, db *sql.DB) {
	w := s.waits
	w.ticks = map[int]int{}
	conn, err := db.Conn(ctx)
	if err != nil {
		w.note = t.Scrub(err.Error())
		return
	}
	defer conn.Close()
	if err := t.Engine.WaitsReady(ctx, conn); err != nil {
		w.note = "wait events not sampled: " + t.Scrub(err.Error())
		return
	}
	tk := time.NewTicker(s.waitEvery)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
		}
		got, err := t.Engine.Waits(ctx, conn)
		if err != nil {
			if ctx.Err() == nil {
				w.note = "wait events not sampled: " + t.Scrub(err.Error())
			}
			return
		}
		sec := int(time.Since(s.start).Seconds())
		w.mu.Lock()
		w.samples++
		w.ticks[sec]++
		if w.perSecond[sec] == nil {
			w.perSecond[sec] = map[key]int{}
		}
		for _, x := range got {
			k := key{x.Class, x.Event}
			c := w.counts[k]
			if c == nil {
				c = &tally{}
				w.counts[k] = c
			}
			c.n++
			if x.Own {
				c.own++
			}
			w.obs++
			w.perSecond[sec][k]++
		}
		w.mu.Unlock()
	}
}

// waitMark is the wait tally at one moment (a stepped run's window edge): a window's waits are the difference
// of its edges' marks.
type waitMark struct {
	at      time.Time
	samples int
	obs     int64
	counts  map[key]tally
}

// mark is the wait tally now; the zero mark when waits are not sampled.
func (s *dbSampler) mark() waitMark {
	if s == nil || s.waits == nil {
		return waitMark{}
	}
	w := s.waits
	w.mu.Lock()
	defer w.mu.Unlock()
	m := waitMark{at: time.Now(), samples: w.samples, obs: w.obs, counts: map[key]tally{}}
	for k, c := range w.counts {
		m.counts[k] = *c
	}
	return m
}

// between is the waits sampled from mark a to mark b (after stop): the samples and observations between them,
// each event's share of those, and the seconds of the run whose whole second lies between them. nil when
// waits were not sampled.
func (s *dbSampler) between(a, b waitMark) *result.Waits {
	if s == nil || s.waits == nil || a.counts == nil || b.counts == nil {
		return nil
	}
	w := s.waits
	w.mu.Lock()
	defer w.mu.Unlock()
	counts := map[key]*tally{}
	for k, c := range b.counts {
		d := tally{n: c.n - a.counts[k].n, own: c.own - a.counts[k].own}
		if d.n > 0 {
			counts[k] = &d
		}
	}
	from, to := a.at.Sub(s.start).Seconds(), b.at.Sub(s.start).Seconds()
	return waitsOf(s.waitEvery, b.samples-a.samples, b.obs-a.obs, counts, w, w.note, func(sec int) bool {
		return float64(sec) >= from && float64(sec+1) <= to
	})
}

// stop ends sampling; the counters' series and the waits (nil when not sampled).
func (s *dbSampler) stop() ([]result.CounterSample, *result.Waits) {
	s.cancel()
	s.wg.Wait()
	if s.waits == nil {
		return s.series, nil
	}
	w := s.waits
	return s.series, waitsOf(s.waitEvery, w.samples, w.obs, w.counts, w, w.note, func(int) bool { return true })
}

// waitsOf makes the waits of samples and observations with counts by event, the series from w's seconds that
// in says.
func waitsOf(every time.Duration, samples int, obs int64, counts map[key]*tally, w *waitTally, note string, in func(sec int) bool) *result.Waits {
	out := &result.Waits{IntervalMs: float64(every.Milliseconds()), Samples: samples, Observations: obs, Note: note}
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := counts[keys[i]].n, counts[keys[j]].n
		if a != b {
			return a > b
		}
		return keys[i].event < keys[j].event
	})
	if len(keys) > 10 {
		keys = keys[:10]
	}
	for _, k := range keys {
		c := counts[k]
		ws := result.WaitShare{Class: k.class, Event: k.event}
		if obs > 0 {
			ws.Share = round3(float64(c.n) / float64(obs))
		}
		if c.n > 0 {
			ws.OwnShare = round3(float64(c.own) / float64(c.n))
		}
		if samples > 0 {
			ws.AvgActive = round3(float64(c.n) / float64(samples))
		}
		out.Top = append(out.Top, ws)
	}
	var secs []int
	for sec := range w.ticks {
		if in(sec) {
			secs = append(secs, sec)
		}
	}
	sort.Ints(secs)
	for _, sec := range secs {
		p := result.WaitSecond{T: float64(sec + 1), Active: map[string]float64{}}
		for _, k := range keys {
			p.Active[k.event] = round3(float64(w.perSecond[sec][k]) / float64(w.ticks[sec]))
		}
		out.Series = append(out.Series, p)
	}
	if out.Top == nil {
		out.Top = []result.WaitShare{}
	}
	if out.Series == nil {
		out.Series = []result.WaitSecond{}
	}
	return out
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

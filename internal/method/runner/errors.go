package runner

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// DefaultMaxErrorRate is --max-error-rate's default: the percentage of a run's units of work that may fail
// with errors of one class before the run is failed.
const DefaultMaxErrorRate = 1.0

// guard watches a run for the signs that it did not do its work: errors of a class that ends a run at once
// (schema, read-only, corruption), too many errors of one class, and stalls. Run sets one up in its Config.
type guard struct {
	classify func(error) engine.Class
	maxRate  float64 // percent; negative: none allowed
	limit    time.Duration

	mu     sync.Mutex
	counts map[engine.Class]int64 // the measured window's errors by class

	stall stallWatch
}

func newGuard(cfg Config) *guard {
	g := &guard{classify: cfg.Classify, maxRate: cfg.MaxErrorRate, counts: map[engine.Class]int64{}}
	if g.maxRate == 0 {
		g.maxRate = DefaultMaxErrorRate
	}
	g.limit = StallLimit(cfg.Interval, cfg.Duration)
	if cfg.StallLimit > 0 {
		g.limit = cfg.StallLimit
	}
	g.stall.limit, g.stall.progress = g.limit, cfg.Progress
	g.stall.last.Store(time.Now().UnixNano())
	return g
}

// class is what a failed outcome's error means.
func (g *guard) class(out Outcome) engine.Class {
	switch {
	case out.ConnLost:
		return engine.ConnLost
	case g.classify != nil:
		return g.classify(out.Err)
	}
	return engine.Other
}

// done records one finished unit of work; a non-nil error is the reason the run must end now (the first error of
// a fatal class, with the engine's message).
func (g *guard) done(out Outcome, measured bool) error {
	g.stall.completed()
	if out.Err == nil {
		return nil
	}
	c := g.class(out)
	if measured {
		g.mu.Lock()
		g.counts[c]++
		g.mu.Unlock()
	}
	if c.Fatal() {
		return fmt.Errorf("%s: %v", c.Describe(), out.Err)
	}
	return nil
}

// finish records the error classes and the stall in the measurement and says why the run failed, if it did:
// a class of errors above the maximum rate, a stall, or no work done at all.
func (g *guard) finish(m *result.Measurement, keyTx, keyLabel string, measured bool) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	var problems []string
	if len(g.counts) > 0 {
		m.ErrorClasses = map[string]int64{}
	}
	done := m.Committed + m.Rollbacks + m.Errors
	classes := make([]engine.Class, 0, len(g.counts))
	for c, n := range g.counts {
		m.ErrorClasses[c.String()] = n
		classes = append(classes, c)
	}
	sort.Slice(classes, func(i, j int) bool { return g.counts[classes[i]] > g.counts[classes[j]] })
	for _, c := range classes {
		n := g.counts[c]
		if pct := 100 * float64(n) / float64(max(done, 1)); pct > g.maxRate {
			problems = append(problems, fmt.Sprintf("%d of %d units of work (%.1f%%) failed with %s errors, above --max-error-rate %g%%",
				n, done, pct, c.Describe(), max(g.maxRate, 0)))
		}
	}
	if s := g.stall.result(); s != nil {
		m.Stall = s
		problems = append(problems, s.Describe())
	}
	if measured && m.MeasuredSecs > 0 {
		switch {
		case m.Committed == 0:
			problems = append(problems, "no unit of work completed in the measured window")
		case keyTx != "" && keyLabel != "" && m.Transactions[keyTx].Count == 0:
			problems = append(problems, fmt.Sprintf("no %s committed in the measured window (%s 0)", keyTx, keyLabel))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(problems, "; "))
}

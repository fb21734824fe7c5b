package method

import (
	"context"
	"database/sql"
	"math"
	"runtime"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/host/agent"
	"github.com/dbdyno/dbdyno/internal/host/envinfo"
	"github.com/dbdyno/dbdyno/internal/host/sysmetrics"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

func goVersion() string { return runtime.Version() }

// measured is what surrounds one run: the environment's fingerprint, database counters at its start, and the
// system metrics sampled during it.
type measured struct {
	start   time.Time // the counters' series and the waits count from it
	t       *engine.Target
	db      *sql.DB
	env     *result.Environment
	c0      map[string]float64
	sampler *sysmetrics.Sampler
	dbs     *dbSampler
}

func startMeasured(ctx context.Context, t *engine.Target, engineVersion string, s *settings) *measured {
	start := time.Now()
	m := &measured{t: t, start: start}
	if t == nil {
		m.env = envinfo.Machine(ctx)
		m.sampler = sysmetrics.Start(ctx, s.interval, "this machine")
		return m
	}
	db, err := t.Open(ctx) // best effort: the run reports its own connection errors
	if err != nil {
		db = nil
	}
	m.env = envinfo.Collect(ctx, t, db, engineVersion)
	var q engine.Queryer // never a nil *sql.DB: the engine asks a nil Queryer nothing
	if db != nil {
		q = db
	}
	m.env.DBHostCores, m.env.DBHostCoresSource = t.HostCores(ctx, q, m.env.Cores, result.LocalCores)
	switch {
	case db == nil:
	case t.Engine.Embedded:
		db.Close() // an embedded database's file stays the run's alone while it is measured
		m.c0 = sysmetrics.ProcessIO()
	default:
		m.db, m.c0 = db, t.Engine.ReadCounters(ctx, db)
	}
	if db != nil {
		m.dbs = startDBSampler(ctx, t, m.db, s.interval, s.waitInterval, start, m.c0)
	}
	m.sampler = sysmetrics.Start(ctx, s.interval, envinfo.Scope(t))
	return m
}

func (m *measured) finish(ctx context.Context, r *result.Result) {
	r.System = m.sampler.Stop()
	r.Environment = m.env
	var series []result.CounterSample
	if m.dbs != nil {
		series, r.Waits = m.dbs.stop()
	}
	switch {
	case m.db != nil:
		end, cancel := runner.EndContext(ctx)
		r.DBCounters = envinfo.Delta(m.c0, m.t.Engine.ReadCounters(end, m.db))
		cancel()
		m.db.Close()
	case m.c0 != nil:
		r.DBCounters = envinfo.Delta(m.c0, sysmetrics.ProcessIO())
	}
	if r.DBCounters != nil && m.dbs != nil {
		r.DBCounters.IntervalS, r.DBCounters.Series, r.DBCounters.Source = m.dbs.interval.Seconds(), series, m.dbs.source
	}
}

// counters reads the database's counters now (an embedded engine's: the process's IO), as at the run's edges:
// a stepped run's step edge; nil where the run reads none.
func (m *measured) counters(ctx context.Context) map[string]float64 {
	switch {
	case m == nil:
		return nil
	case m.db != nil:
		return m.t.Engine.ReadCounters(ctx, m.db)
	case m.c0 != nil:
		return sysmetrics.ProcessIO()
	}
	return nil
}

// secs is t in seconds from the run's surroundings' start (the counters' series' T), rounded as a sample's.
func (m *measured) secs(t time.Time) float64 { return math.Round(t.Sub(m.start).Seconds()*10) / 10 }

// serverMetrics records the agent's samples of the run as the result's server metrics: the whole run, the
// measured window marked (the measurement's, else the run's); the database host's physical cores then come
// from the agent.
func serverMetrics(ctx context.Context, rec *agent.Recorder, r *result.Result) {
	from, to := r.StartedAt, r.EndedAt
	if m := r.Measurement; m != nil && !m.MeasureStart.IsZero() && !m.MeasureEnd.IsZero() {
		from, to = m.MeasureStart, m.MeasureEnd
	}
	r.ServerSystem = rec.Stop(ctx, r.StartedAt, r.EndedAt, from, to)
	if e := r.Environment; e != nil && rec.Host.PhysicalCores > 0 {
		e.DBHostCores, e.DBHostCoresSource = rec.Host.PhysicalCores, "dbdyno agent at "+r.ServerSystem.Source+" ("+rec.Host.Hostname+")"
		h := result.CPU{PhysicalCores: rec.Host.PhysicalCores}
		if rec.Host.CPU != nil {
			h = *rec.Host.CPU
		}
		h.Host, h.Source = rec.Host.Hostname, e.DBHostCoresSource
		e.DBHost = &h
	}
}

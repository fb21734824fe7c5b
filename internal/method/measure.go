package method

import (
	"context"
	"database/sql"
	"runtime"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/envinfo"
	"github.com/dbdyno/dbdyno/internal/result"
	"github.com/dbdyno/dbdyno/internal/sysmetrics"
)

func goVersion() string { return runtime.Version() }

// measured is what surrounds one run: the environment's fingerprint, database counters at its start, and the
// system metrics sampled during it.
type measured struct {
	t       *engine.Target
	db      *sql.DB
	env     *result.Environment
	c0      map[string]float64
	sampler *sysmetrics.Sampler
}

func startMeasured(ctx context.Context, t *engine.Target, engineVersion string, interval time.Duration) *measured {
	m := &measured{t: t}
	if t == nil {
		m.env = envinfo.Machine(ctx)
		m.sampler = sysmetrics.Start(ctx, interval, "this machine")
		return m
	}
	if !t.Engine.Embedded {
		m.db, _ = t.Open(ctx) // best effort: the run reports its own connection errors
	}
	m.env = envinfo.Collect(ctx, t, m.db, engineVersion)
	if m.db == nil && t.Engine.Embedded {
		if db, err := t.Open(ctx); err == nil {
			m.env.Settings = t.Engine.Settings(ctx, db)
			db.Close()
		}
	}
	var q engine.Queryer
	if m.db != nil {
		q = m.db
	}
	m.env.DBHostCores, m.env.DBHostCoresSource = t.HostCores(ctx, q, m.env.Cores)
	m.c0 = t.Engine.ReadCounters(ctx, m.db)
	m.sampler = sysmetrics.Start(ctx, interval, envinfo.Scope(t))
	return m
}

func (m *measured) finish(ctx context.Context, r *result.Result) {
	r.System = m.sampler.Stop()
	r.Environment = m.env
	if m.db != nil {
		r.DBCounters = envinfo.Delta(m.c0, m.t.Engine.ReadCounters(context.WithoutCancel(ctx), m.db))
		m.db.Close()
	}
}

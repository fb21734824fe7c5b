package probe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/host/sysmetrics"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

type counter struct{ atomic.Int64 }

// stepper is one run of a stepped probe (read, write, cpu, memory): its tables built, its connection open, and
// the steps it measures one after the other.
type stepper struct {
	kind, rate string
	spec       workload.Spec
	e          *engine.Engine
	data       *bulk.DB
	conn       *sql.Conn // one session for every step
	st         sqlfile.Set
	version    string
	options    map[string]any
	probe      *result.Probe
	steps      func(ctx context.Context, s *stepper) error
}

// open opens the probe's session on a built dataset (after any cold start).
func (s *stepper) open(ctx context.Context, d *bulk.Dataset) error {
	db, err := bulk.Open(ctx, d, s.spec.Target)
	if err != nil {
		return err
	}
	if err := db.Ready(ctx); err != nil {
		db.Close()
		return err
	}
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		db.Close()
		return err
	}
	s.data, s.conn, s.e = db, conn, s.spec.Target.Engine
	if s.st, err = statements(s.e); err != nil {
		return err
	}
	s.version = db.ServerVersion(ctx)
	return nil
}

func (s *stepper) ServerVersion() string   { return s.version }
func (s *stepper) Options() map[string]any { return s.options }

func (s *stepper) Measure(ctx context.Context, res *result.Result) (bool, error) {
	s.probe = &result.Probe{Kind: s.kind, Rate: s.rate, Counters: "engine"}
	if s.e.Embedded {
		s.probe.Counters = "process"
	}
	if l := s.spec.Live; l != nil {
		l.Phase(s.kind)
		l.Users(1)
		defer l.Phase("ended")
	}
	err := s.steps(ctx, s)
	if len(s.probe.Steps) == 0 {
		return false, err
	}
	res.Probe = s.probe
	res.Figures = figures(s.probe, s.options)
	if errors.Is(err, context.Canceled) {
		err = fmt.Errorf("%w: %v", workload.ErrAborted, err)
	}
	return true, err
}

func (s *stepper) Finish(ctx context.Context, res *result.Result) error {
	printFigures(s.spec.Out, res)
	return nil
}

func (s *stepper) Close() {
	if s.conn != nil {
		s.conn.Close()
	}
	if s.data != nil {
		s.data.Close()
	}
}

// table is a statement bound to one of the probe's tables.
func (s *stepper) table(name, table string) *sqlfile.Statement {
	return s.st[name].Ident("part", table)
}

// step times one step's work and reads the engine's storage counters (and, for an embedded engine, the
// process's CPU time) around it. The rate is MB/min of bytes.
func (s *stepper) step(ctx context.Context, name string, x float64, rows, bytes int64, do func(context.Context) error) (result.ProbeStep, error) {
	c0 := s.counters(ctx)
	cpu0 := processCPU()
	t0 := time.Now()
	err := do(ctx)
	secs := time.Since(t0).Seconds()
	st := result.ProbeStep{Name: name, X: x, Seconds: round(secs, 4), Rows: rows, Bytes: bytes}
	if l := s.spec.Live; l != nil { // each step a unit of the probe's kind, with its time
		outcome := "committed"
		if err != nil {
			outcome = s.e.Classify(err).String()
		}
		l.Done(s.kind, time.Since(t0), outcome, 0, true)
	}
	if err != nil {
		return st, err
	}
	if s.e.Embedded {
		st.CPUSeconds = round(processCPU()-cpu0, 3)
	}
	if c1 := s.counters(ctx); c0 != nil && c1 != nil {
		st.Counters = map[string]float64{}
		for k, v := range c1 {
			st.Counters[k] = v - c0[k]
		}
	}
	if secs > 0 {
		st.Rate = round(float64(bytes)/1e6/(secs/60), 1)
	}
	return st, nil
}

// counters are the engine's storage counters, or for an embedded engine the process's own IO: read_bytes, and
// written_bytes (log and data alike) in place of log_bytes.
func (s *stepper) counters(ctx context.Context) map[string]float64 {
	if !s.e.Embedded {
		return s.e.StorageCounters(ctx, s.conn)
	}
	io := sysmetrics.ProcessIO()
	if io == nil {
		return nil
	}
	return map[string]float64{"read_bytes": io["process_read_bytes"], "written_bytes": io["process_write_bytes"]}
}

// cached sets the step's share of bytes that did not come from storage, by the engine's read counter.
func cached(st *result.ProbeStep) {
	rb, ok := st.Counters["read_bytes"]
	if !ok || st.Bytes <= 0 {
		return
	}
	c := round(100*(1-rb/float64(st.Bytes)), 1)
	c = max(0, min(100, c))
	st.Cached = &c
}

func processCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// count runs a statement that answers one number.
func (s *stepper) count(ctx context.Context, st *sqlfile.Statement, args ...any) (int64, error) {
	var n sql.NullInt64
	err := s.conn.QueryRowContext(ctx, st.SQL, st.Args(args)...).Scan(&n)
	return n.Int64, err
}

// cold makes the next reads come from storage: the method's cold start (the user's --cold-cmd: restart the
// server, drop the caches, then the wait for the target; nil when none), run before each repeat; for an
// embedded engine dbdyno also drops its database file's pages from the operating system's cache itself (after
// the file is closed).
func cold(ctx context.Context, t *engine.Target, cmd func(context.Context) error) error {
	if cmd != nil {
		if err := cmd(ctx); err != nil {
			return err
		}
	}
	if t.Engine.Embedded {
		for _, f := range []string{t.Path, t.Path + "-wal", t.Path + ".wal"} {
			dropPages(f)
		}
	}
	return nil
}

// dropPages writes a file's dirty pages and asks the kernel to drop its cached ones.
func dropPages(path string) {
	f, err := os.Open(filepath.Clean(path))
	if err != nil {
		return
	}
	defer f.Close()
	f.Sync()
	fadviseDontNeed(int(f.Fd()))
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64{}, v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func round(v float64, digits int) float64 {
	p := 1.0
	for i := 0; i < digits; i++ {
		p *= 10
	}
	if v < 0 {
		return -float64(int64(-v*p+0.5)) / p
	}
	return float64(int64(v*p+0.5)) / p
}

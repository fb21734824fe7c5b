package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/compare"
	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/envinfo"
	"github.com/dbdyno/dbdyno/internal/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/sysmetrics"
	"github.com/spf13/cobra"
)

// methodFlags are the settings every workload's run shares: repeats, labels, the results store, metrics.
type methodFlags struct {
	repeat          int
	labels          []string
	storePath       string
	metricsInterval time.Duration
	resultFile      string
}

func addMethodFlags(c *cobra.Command, m *methodFlags) {
	c.Flags().IntVar(&m.repeat, "repeat", 1, "run each configuration this many times and report the median")
	c.Flags().StringArrayVar(&m.labels, "label", nil, "label the results, key=value (repeatable), e.g. system=E16ds_v4, price_per_hour=1.008")
	c.Flags().StringVar(&m.storePath, "store", store.DefaultPath, "results store (SQLite file); \"\" to keep results out of it")
	c.Flags().DurationVar(&m.metricsInterval, "metrics-interval", time.Second, "system metrics sampling interval")
	c.Flags().StringVar(&m.resultFile, "result", "", "write the result JSON to this file (FILE.2.json, FILE.3.json ... for further runs)")
}

func (m *methodFlags) validate() (map[string]any, error) {
	if m.repeat < 1 {
		return nil, fmt.Errorf("--repeat must be at least 1 (got %d)", m.repeat)
	}
	if m.metricsInterval < 100*time.Millisecond {
		return nil, fmt.Errorf("--metrics-interval must be at least 100ms (got %s)", m.metricsInterval)
	}
	labels, err := parseLabels(m.labels)
	if err != nil {
		return nil, err
	}
	if m.resultFile != "" {
		if err := checkWritable(m.resultFile); err != nil {
			return nil, err
		}
	}
	return labels, nil
}

// parseLabels reads key=value pairs; numbers stay numbers (price_per_hour=1.008).
func parseLabels(in []string) (map[string]any, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := map[string]any{}
	for _, l := range in {
		k, v, ok := strings.Cut(l, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("--label %q: use key=value, e.g. system=E16ds_v4", l)
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			out[k] = f
		} else {
			out[k] = v
		}
	}
	return out, nil
}

func newID(prefix string) string {
	b := make([]byte, 3)
	rand.Read(b)
	return prefix + time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b)
}

// context of one run: fingerprint, counters and system metrics around it.
type measured struct {
	t       *engine.Target
	db      *sql.DB
	env     *result.Environment
	c0      map[string]float64
	sampler *sysmetrics.Sampler
}

func startMeasured(ctx context.Context, t *engine.Target, engineVersion string, interval time.Duration) *measured {
	m := &measured{t: t}
	if !t.Engine.Embedded {
		m.db, _ = t.Open(ctx) // best effort: the run reports its own connection errors
	}
	m.env = envinfo.Collect(ctx, t, m.db, engineVersion)
	if m.env != nil && m.db == nil && t.Engine.Embedded {
		if db, err := t.Open(ctx); err == nil {
			m.env.Settings = t.Engine.Settings(ctx, db)
			db.Close()
		}
	}
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

// runSet keeps the results of one command: it names files, records runs in the store, and marks medians.
type runSet struct {
	a       *app
	flags   methodFlags
	labels  map[string]any
	st      *store.Store
	results []*result.Result
	mu      sync.Mutex
}

func (a *app) newRunSet(ctx context.Context, f methodFlags, labels map[string]any) (*runSet, error) {
	rs := &runSet{a: a, flags: f, labels: labels}
	if f.storePath != "" {
		st, err := store.Open(ctx, f.storePath)
		if err != nil {
			return nil, err
		}
		rs.st = st
	}
	return rs, nil
}

// add records a finished run (in the store at once, so an interrupted command keeps what it completed).
func (rs *runSet) add(ctx context.Context, r *result.Result) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r.RunID == "" {
		r.RunID = newID("r")
	}
	if len(rs.labels) > 0 {
		merged := map[string]any{}
		for k, v := range rs.labels {
			merged[k] = v
		}
		for k, v := range r.Labels {
			merged[k] = v
		}
		r.Labels = merged
	}
	rs.results = append(rs.results, r)
	return nil
}

// markMedians marks, in each configuration's repeats, the run whose headline is the median.
func (rs *runSet) markMedians() {
	byConf := map[string][]*result.Result{}
	var order []string
	for _, r := range rs.results {
		if r.Group == nil {
			continue
		}
		k := fmt.Sprintf("%s/%g/%d", r.Group.ID, r.Group.Value, r.Group.Target)
		if _, ok := byConf[k]; !ok {
			order = append(order, k)
		}
		byConf[k] = append(byConf[k], r)
	}
	for _, k := range order {
		runs := byConf[k]
		runs[compare.MedianIndex(runs)].Group.Median = true
	}
}

// close writes the result files and the store, and prints what each configuration's median was.
func (rs *runSet) close(ctx context.Context) error {
	rs.markMedians()
	var firstErr error
	for i, r := range rs.results {
		if rs.flags.resultFile != "" {
			path := rs.flags.resultFile
			if i > 0 {
				ext := filepath.Ext(path)
				path = strings.TrimSuffix(path, ext) + fmt.Sprintf(".%d", i+1) + ext
			}
			if err := r.WriteFile(path); err != nil && firstErr == nil {
				firstErr = err
			} else if err == nil {
				fmt.Fprintf(rs.a.stdout, "result %s (%s) written to %s\n", r.RunID, r.Status, path)
			}
		}
		if rs.st != nil {
			h := ""
			if m, ok := compare.Headline(r); ok {
				h = fmt.Sprintf("%s %.1f", m.Name, m.Value)
			}
			if err := rs.st.Add(context.WithoutCancel(ctx), r, h); err != nil && firstErr == nil {
				firstErr = err
			}
		}
	}
	if rs.st != nil {
		if len(rs.results) > 0 {
			fmt.Fprintf(rs.a.stdout, "%d run(s) recorded in %s\n", len(rs.results), rs.flags.storePath)
		}
		rs.st.Close()
	}
	rs.printMedians()
	return firstErr
}

func (rs *runSet) printMedians() {
	if len(rs.results) < 2 {
		return
	}
	fmt.Fprintln(rs.a.stdout, "\nconfiguration medians:")
	seen := map[string]bool{}
	for _, r := range rs.results {
		g := r.Group
		if g == nil || !g.Median {
			continue
		}
		k := fmt.Sprintf("%g/%d", g.Value, g.Target)
		if seen[k] {
			continue
		}
		seen[k] = true
		var runs []*result.Result
		for _, o := range rs.results {
			if o.Group != nil && o.Group.ID == g.ID && o.Group.Value == g.Value && o.Group.Target == g.Target {
				runs = append(runs, o)
			}
		}
		s := compare.Summarise("", runs)
		h, _ := compare.Headline(r)
		st := s.Metrics[h.Name]
		what := ""
		if g.Sweep != "" {
			what = fmt.Sprintf("%s=%g ", g.Sweep, g.Value)
		}
		if g.Targets > 1 {
			what += fmt.Sprintf("target %d ", g.Target)
		}
		fmt.Fprintf(rs.a.stdout, "  %s%s median %.1f (min %.1f, max %.1f) over %d run(s); median run %s\n", what, h.Name, st.Median, st.Min, st.Max, len(runs), r.RunID)
	}
}

// prefixWriter prefixes each line, so concurrent targets' progress stays readable.
type prefixWriter struct {
	w      io.Writer
	prefix string
	mu     *sync.Mutex
	buf    bytes.Buffer
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf.Write(b)
	for {
		line, err := p.buf.ReadBytes('\n')
		if err != nil {
			p.buf.Write(line)
			break
		}
		p.mu.Lock()
		io.WriteString(p.w, p.prefix)
		p.w.Write(line)
		p.mu.Unlock()
	}
	return len(b), nil
}

// onTargets runs fn against every target at the same time (each with its own line prefix when there are
// several) and returns the results and errors in target order.
func (a *app) onTargets(targets []string, fn func(raw string, out io.Writer) (*result.Result, error)) ([]*result.Result, []error) {
	n := len(targets)
	res := make([]*result.Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, raw := range targets {
		wg.Add(1)
		go func(i int, raw string) {
			defer wg.Done()
			out := a.stdout
			if n > 1 {
				out = &prefixWriter{w: a.stdout, prefix: fmt.Sprintf("[target %d] ", i+1), mu: &mu}
			}
			res[i], errs[i] = fn(raw, out)
		}(i, raw)
	}
	wg.Wait()
	return res, errs
}

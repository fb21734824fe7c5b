package method

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dbdyno/dbdyno/internal/lib/outfile"
	"github.com/dbdyno/dbdyno/internal/lib/shell"
	"github.com/dbdyno/dbdyno/internal/results"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// runSet keeps the results of one command: it labels them, marks each configuration's median, writes the
// result files and records the runs in the store.
type runSet struct {
	out     io.Writer
	s       *settings
	inputs  []string // the targets' database files: no result may replace them
	st      *store.Store
	results []*result.Result
	written map[string]string // run ID -> the result file it was written to
	stored  map[string]bool   // run IDs recorded in the store
	mu      sync.Mutex
}

func newRunSet(ctx context.Context, out io.Writer, s *settings) (*runSet, error) {
	rs := &runSet{out: out, s: s, written: map[string]string{}, stored: map[string]bool{}}
	if s.store != "" {
		st, err := store.Open(ctx, s.store)
		if err != nil {
			return nil, err
		}
		rs.st = st
	}
	return rs, nil
}

// add keeps a finished run with the command's labels; a db_cores label gives the database host's cores (an
// aggregate's come from its parts).
func (rs *runSet) add(r *result.Result) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r.RunID == "" {
		r.RunID = result.NewID("r")
	}
	if len(rs.s.labels) > 0 {
		merged := map[string]any{}
		for k, v := range rs.s.labels {
			merged[k] = v
		}
		for k, v := range r.Labels {
			merged[k] = v
		}
		r.Labels = merged
	}
	if c, ok := r.Labels["db_cores"].(float64); ok && c >= 1 && r.Environment != nil && (r.Group == nil || !r.Group.Aggregate) {
		r.Environment.DBHostCores, r.Environment.DBHostCoresSource = int(c), "label db_cores"
	}
	rs.results = append(rs.results, r)
}

// configurations groups the runs by configuration (the repeats of one setting), in the order they came.
func (rs *runSet) configurations() [][]*result.Result {
	at := map[string]int{}
	var out [][]*result.Result
	for _, r := range rs.results {
		if r.Group == nil || r.IsWarmup() {
			continue
		}
		k := r.Configuration()
		if i, ok := at[k]; ok {
			out[i] = append(out[i], r)
			continue
		}
		at[k] = len(out)
		out = append(out, []*result.Result{r})
	}
	return out
}

// markMedians marks, in each configuration's repeats, the run whose headline is the median.
func (rs *runSet) markMedians() {
	for _, runs := range rs.configurations() {
		runs[compare.MedianIndex(runs)].Group.Median = true
	}
}

// close writes the result files and the store, and prints what each configuration's median was. Every failed
// write is reported and makes the command fail; a run neither written nor stored is kept in a fallback file.
func (rs *runSet) close(ctx context.Context) error {
	rs.markMedians()
	var errs []error
	for i, r := range rs.results {
		kept := false
		if rs.s.result != "" {
			path := rs.s.result
			if i > 0 {
				ext := filepath.Ext(path)
				path = strings.TrimSuffix(path, ext) + fmt.Sprintf(".%d", i+1) + ext
			}
			err := results.CheckOutput("--result", path, results.ResultJSON, append(rs.inputs, rs.s.store)...)
			if err == nil {
				err = r.WriteFile(path)
			}
			if err != nil {
				errs = append(errs, err)
				fmt.Fprintf(rs.out, "could not write the result of run %s: %v\n", r.RunID, err)
			} else {
				kept = true
				rs.written[r.RunID] = path
				fmt.Fprintf(rs.out, "result %s (%s) written to %s\n", r.RunID, r.Status, path)
			}
		}
		if rs.st != nil {
			h := ""
			if m, ok := r.Headline(); ok {
				h = m.Name + " " + results.WithUnit(m, m.Value)
			}
			if err := rs.st.Add(context.WithoutCancel(ctx), r, h); err != nil {
				errs = append(errs, err)
				fmt.Fprintf(rs.out, "could not record run %s in %s: %v\n", r.RunID, results.StoreName(rs.s.store), err)
			} else {
				kept = true
				rs.stored[r.RunID] = true
			}
		}
		if !kept && (rs.st != nil || rs.s.result != "") {
			if path, err := fallback(r); err == nil {
				fmt.Fprintf(rs.out, "run %s is kept in %s\n", r.RunID, path)
			} else {
				fmt.Fprintf(rs.out, "run %s could not be kept anywhere: %v\n", r.RunID, err)
			}
		}
	}
	if rs.st != nil {
		rs.st.Close() // where the runs are stored is said last (printNext)
	}
	rs.printMedians()
	rs.printNext()
	if len(errs) > 0 {
		return fmt.Errorf("%d result write(s) failed, first: %w", len(errs), errs[0])
	}
	return nil
}

// fallback writes a result that could be kept nowhere else: dbdyno-unsaved-RUN.json in the working
// directory, else in the temporary directory.
func fallback(r *result.Result) (string, error) {
	name := "dbdyno-unsaved-" + r.RunID + ".json"
	var err error
	for _, dir := range []string{".", os.TempDir()} {
		path := filepath.Join(dir, name)
		if err = r.WriteFile(path); err == nil {
			return filepath.Abs(path)
		}
	}
	return "", err
}

func (rs *runSet) printMedians() {
	if len(rs.results) < 2 {
		return
	}
	header := "\nconfigurations:"
	for _, r := range rs.results {
		if r.Group != nil && r.Group.Repeats > 1 {
			header = "\nconfiguration medians:"
		}
	}
	fmt.Fprintln(rs.out, header)
	var all []float64 // every configuration's headline: printed at one precision
	for _, runs := range rs.configurations() {
		if h, ok := runs[compare.MedianIndex(runs)].Headline(); ok {
			all = append(all, h.Value)
		}
	}
	withUnit := func(h result.Metric, v float64) string { return results.UnitAfter(h, compare.FormatAlike(v, all)) }
	for _, runs := range rs.configurations() {
		r := runs[compare.MedianIndex(runs)]
		h, ok := r.Headline()
		if !ok {
			continue
		}
		g := r.Group
		what := ""
		if p := g.Point(); p != "" {
			what = p + " "
		}
		switch {
		case g.Aggregate:
			what += fmt.Sprintf("%d targets together: ", g.Targets)
		case g.Targets > 1:
			what += fmt.Sprintf("target %d ", g.Target)
		}
		if len(runs) == 1 {
			fmt.Fprintf(rs.out, "  %s%s %s (one run: %s)\n", what, h.Name, withUnit(h, h.Value), r.RunID)
			continue
		}
		st := compare.Summarise("", runs).Metrics[h.Name]
		fmt.Fprintf(rs.out, "  %s%s median %s (min %s, max %s) over %d runs; median run %s\n", what, h.Name,
			withUnit(h, st.Median), compare.FormatAlike(st.Min, all), compare.FormatAlike(st.Max, all), len(runs), r.RunID)
	}
}

// aggregate is the result of the targets run at the same time: their rates added up (the metrics marked
// "sum"), the longest of their times ("max"), or what the workload computes over them; the parts are named.
func aggregate(w workload.Measured, parts []*result.Result, targets int) *result.Result {
	p0 := parts[0]
	agg := &result.Result{SchemaVersion: result.SchemaVersion, Tool: p0.Tool, Workload: p0.Workload, RunID: result.NewID("r"),
		Command: p0.Command, Options: p0.Options, Status: result.StatusOK, StartedAt: p0.StartedAt, EndedAt: p0.EndedAt}
	g := *p0.Group
	g.Target, g.Aggregate = 0, true
	agg.Group = &g
	engines, versions := map[string]bool{}, map[string]bool{}
	for _, p := range parts {
		engines[p.Target.Engine], versions[p.Target.ServerVersion] = true, true
		if p.StartedAt.Before(agg.StartedAt) {
			agg.StartedAt = p.StartedAt
		}
		if p.EndedAt.After(agg.EndedAt) {
			agg.EndedAt = p.EndedAt
		}
		switch {
		case p.Status == result.StatusAborted:
			agg.Status = result.StatusAborted
		case p.Status == result.StatusFailed && agg.Status == result.StatusOK:
			agg.Status = result.StatusFailed
		}
		part := result.Part{RunID: p.RunID, Target: p.Target.URL, Engine: p.Target.Engine, Status: p.Status}
		if h, ok := p.Headline(); ok {
			part.Headline = h.Value
		}
		agg.Parts = append(agg.Parts, part)
	}
	if len(parts) < targets && agg.Status == result.StatusOK {
		agg.Status, agg.Error = result.StatusFailed, fmt.Sprintf("%d of %d targets did not run", targets-len(parts), targets)
	}
	agg.Target = result.Target{URL: fmt.Sprintf("%d targets", targets), Engine: results.Only(engines), ServerVersion: results.Only(versions)}
	if a, ok := w.(workload.Aggregator); ok {
		agg.Metrics = a.Aggregate(parts)
	} else {
		agg.Metrics = results.Combine(parts)
	}
	if p0.Environment != nil {
		e := *p0.Environment
		e.Settings, e.Storage = nil, nil
		e.DBHostCores, e.DBHostCoresSource = hostCores(parts)
		for _, p := range parts[1:] { // the database host's fingerprint when every target's is the same, else none
			if h := p.Environment; h == nil || h.DBHost == nil || e.DBHost == nil || *h.DBHost != *e.DBHost {
				e.DBHost = nil
			}
		}
		agg.Environment = &e
	}
	return agg
}

// hostCores are the database cores of the targets together: the machine's own when every database runs on
// it, else the sum over the distinct database hosts when each is known.
func hostCores(parts []*result.Result) (int, string) {
	local, hosts := true, map[string]int{}
	for _, p := range parts {
		e := p.Environment
		if e == nil || e.DBHostCores == 0 {
			return 0, ""
		}
		local = local && e.DBHostCoresSource == result.LocalCores
		host := p.Target.URL
		if u, err := url.Parse(p.Target.URL); err == nil && u.Host != "" {
			host = u.Hostname()
		}
		hosts[host] = e.DBHostCores
	}
	if local {
		return parts[0].Environment.DBHostCores, result.LocalCores
	}
	n := 0
	for _, c := range hosts {
		n += c
	}
	return n, fmt.Sprintf("sum over %d database hosts", len(hosts))
}

func aggregateLine(agg *result.Result, targets int) string {
	h, ok := agg.Headline()
	if !ok {
		return fmt.Sprintf("aggregate of %d targets: %s", targets, agg.Status)
	}
	return fmt.Sprintf("aggregate of %d targets: %s %s", targets, h.Name, results.WithUnit(h, h.Value))
}

// prefixWriter prefixes each line, so concurrent targets' progress stays readable. Held (once its run has
// measured), its lines wait for release: the targets' summaries print in target order, not in the order the
// targets happened to end ([target 2]'s printed before [target 1]'s).
type prefixWriter struct {
	w      io.Writer
	prefix string
	mu     *sync.Mutex
	buf    bytes.Buffer
	held   bool
	kept   bytes.Buffer
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Write(b)
	for {
		line, err := p.buf.ReadBytes('\n')
		if err != nil {
			p.buf.Write(line)
			break
		}
		to := p.w
		if p.held {
			to = &p.kept
		}
		io.WriteString(to, p.prefix)
		to.Write(line)
	}
	return len(b), nil
}

// Hold keeps the lines written from now on until release.
func (p *prefixWriter) Hold() {
	p.mu.Lock()
	p.held = true
	p.mu.Unlock()
}

// release writes the lines held, and what is left of a last line.
func (p *prefixWriter) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.w.Write(p.kept.Bytes())
	if p.buf.Len() > 0 {
		io.WriteString(p.w, p.prefix)
		p.w.Write(p.buf.Bytes())
		io.WriteString(p.w, "\n")
	}
	p.kept.Reset()
	p.buf.Reset()
	p.held = false
}

// onTargets runs fn against every target at the same time (each with its own line prefix when there are
// several) and returns the results and errors in target order.
func onTargets(out io.Writer, targets []*engine.Target, fn func(t *engine.Target, out io.Writer) (*result.Result, error)) ([]*result.Result, []error) {
	n := len(targets)
	res := make([]*result.Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	ws := make([]*prefixWriter, n)
	for i, t := range targets {
		wg.Add(1)
		var w io.Writer = out
		if n > 1 {
			ws[i] = &prefixWriter{w: out, prefix: fmt.Sprintf("[target %d] ", i+1), mu: &mu}
			w = ws[i]
		}
		go func(i int, t *engine.Target) {
			defer wg.Done()
			res[i], errs[i] = fn(t, w)
		}(i, t)
	}
	wg.Wait()
	for _, w := range ws { // each target's summary, in target order
		if w != nil {
			w.release()
		}
	}
	return res, errs
}

// next is what to do with a command's runs: the line saying where they are kept, and the dbdyno report and
// dbdyno compare command lines that use them (with a note on what to put for OTHER).
type next struct {
	Where   string `json:"-"`
	ID      string `json:"id"` // the run, or the group of several
	Report  string `json:"report"`
	Compare string `json:"compare"`
	Note    string `json:"note,omitempty"`
}

// measured are the command's runs but the warm-up's (kept, not reported on).
func (rs *runSet) measured() []*result.Result {
	var runs []*result.Result
	for _, r := range rs.results {
		if r.Group == nil || !strings.HasSuffix(r.Group.ID, "-warmup") {
			runs = append(runs, r)
		}
	}
	return runs
}

// next says what comes after the command's runs (nil when they are kept nowhere but a fallback file).
func (rs *runSet) next() *next {
	runs := rs.measured()
	if len(runs) == 0 {
		return nil
	}
	r0 := runs[0]
	var refs []string // what report and compare are given
	var cmpA, cmpB string
	storeFlag := ""
	n := &next{ID: r0.RunID}
	switch {
	case rs.stored[r0.RunID]:
		if !outfile.SamePath(rs.s.store, store.DefaultPath) {
			storeFlag = " --store " + shell.Quote(results.StoreName(rs.s.store))
		}
		if len(runs) == 1 || r0.Group == nil {
			n.Where = fmt.Sprintf("run %s (%s) is stored in %s", r0.RunID, r0.Status, results.StoreName(rs.s.store))
			refs, cmpA, cmpB = []string{r0.RunID}, "OTHER", r0.RunID
			break
		}
		g := r0.Group
		n.ID = g.ID
		n.Where = fmt.Sprintf("group %s (%d runs) is stored in %s", g.ID, len(runs), results.StoreName(rs.s.store))
		refs, cmpA, cmpB = []string{g.ID}, "OTHER", g.ID
		if g.Sweep != "" {
			first, last := runs[0].Group.Point(), runs[len(runs)-1].Group.Point()
			if first != last {
				cmpA, cmpB = g.ID+"@"+first, g.ID+"@"+last
			}
		}
	case rs.written[r0.RunID] != "":
		n.Where = fmt.Sprintf("run %s (%s) is not in a results store (--store \"\"); its result is %s", r0.RunID, r0.Status, results.AbsPath(rs.written[r0.RunID]))
		for _, r := range runs {
			if p := rs.written[r.RunID]; p != "" {
				refs = append(refs, shell.Quote(results.AbsPath(p)))
			}
		}
		cmpA, cmpB = "OTHER.json", refs[len(refs)-1]
		if len(refs) > 1 {
			cmpA = refs[0]
		}
	default:
		return nil
	}
	self := shell.Self() // go run ./cmd/dbdyno after go run: no dbdyno on the PATH to paste
	n.Report = fmt.Sprintf("%s report %s%s -o report.html", self, strings.Join(refs, " "), storeFlag)
	n.Compare = fmt.Sprintf("%s compare %s %s%s", self, cmpA, cmpB, storeFlag)
	switch cmpA {
	case "OTHER":
		n.Note = "OTHER: another run or group ID, from " + self + " results list" + storeFlag
	case "OTHER.json":
		n.Note = "OTHER.json: another run's result file"
	}
	return n
}

// printNext ends every measured command with what to do with its runs: the run (or group) ID, where it is
// kept, and the dbdyno report and dbdyno compare command lines that use it, ready to paste.
func (rs *runSet) printNext() {
	runs := rs.measured()
	n := rs.next()
	if n == nil {
		return
	}
	warm := 0
	for _, r := range rs.results {
		if rs.stored[r.RunID] {
			warm++
		}
	}
	if warm -= len(runs); warm > 0 && rs.stored[runs[0].RunID] {
		what := "the warm-up run is"
		if warm > 1 {
			what = fmt.Sprintf("the %d warm-up runs are", warm)
		}
		fmt.Fprintf(rs.out, "%s stored too (group %s-warmup), never compared\n", what, runs[0].Group.ID)
	}
	fmt.Fprintf(rs.out, "\n%s\nnext:\n  %s\n  %s\n", n.Where, n.Report, n.Compare)
	if n.Note != "" {
		fmt.Fprintf(rs.out, "  (%s)\n", n.Note)
	}
}

package results

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/store"
)

// shardOptions are options the shards of one run differ in, left out of the merged result's: their random
// seeds, their share of the work and the driver's CPU settings. The shards must do the same work (the
// workload's account of it: scale, mode ...) and plan the same measured time.
var shardOptions = []string{"seed", "shard", "shard_range", "shard_share", "shard_region", "clock", "driver_gomaxprocs"}

// windowTolerance is how far apart (a fraction of the measured duration) the shards' measured windows may
// start.
const windowTolerance = 0.01

// Merge turns the stored results of the shards of one run (the same workload and options, run at the same
// time) into one stored result: counts and rates added up, latency percentiles those of the union of the
// shards' samples (their histograms added), the measured window their common one, the shards named as its
// parts. A shard is a run ID in the store or a result file (FILE.json). A shard that is missing, failed or was
// aborted leaves the merge incomplete (it says which); shards without histograms, of different work or
// measured time, or of windows that start apart are refused.
func Merge(ctx context.Context, w io.Writer, storePath string, refs []string, labels []string, version string) (*result.Result, error) {
	if len(refs) < 2 {
		return nil, errors.New("name at least two shards to merge (run IDs or result files)")
	}
	if storePath == "" {
		return nil, errors.New(`--store "" keeps nothing: name the results store the merged result goes into`)
	}
	lab, err := ParseLabels(labels)
	if err != nil {
		return nil, err
	}
	open := store.Open // result files alone: the store that keeps the merged result may be new
	for _, ref := range refs {
		if !strings.HasSuffix(ref, ".json") {
			open = OpenStore
		}
	}
	st, err := open(ctx, storePath)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var shards []*result.Result
	var missing []string
	for _, ref := range refs {
		if strings.HasSuffix(ref, ".json") {
			r, err := result.Read(ref)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				missing = append(missing, ref)
			case err != nil:
				return nil, err
			default:
				shards = append(shards, r)
			}
			continue
		}
		rs, err := getShard(ctx, st, ref)
		var broken *store.BrokenError
		switch {
		case errors.As(err, &broken):
			return nil, err
		case err != nil:
			missing = append(missing, ref)
			continue
		case len(rs) != 1:
			return nil, fmt.Errorf("%s names %d runs: name each shard by its run ID", ref, len(rs))
		}
		shards = append(shards, rs[0])
	}
	if len(shards) == 0 {
		return nil, fmt.Errorf("none of the shards was found (run IDs in the results store %s, or result files)", store.Display(storePath))
	}
	m, err := MergeResults(shards, missing)
	if err != nil {
		return nil, err
	}
	m.Tool.Version = version
	m.Command = append([]string{"dbdyno", "results", "merge"}, refs...)
	for k, v := range lab {
		if m.Labels == nil {
			m.Labels = map[string]any{}
		}
		m.Labels[k] = v
	}
	headline := ""
	if h, ok := m.Headline(); ok {
		headline = h.Name + " " + WithUnit(h, h.Value)
	}
	if err := st.Add(ctx, m, headline); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "merged %d shard(s) into %s (%s", len(refs), m.RunID, m.Status)
	if headline != "" {
		fmt.Fprintf(w, ", %s", headline)
	}
	fmt.Fprintln(w, ")")
	if m.Status != result.StatusOK {
		return m, fmt.Errorf("%w: %s is stored, %s", ErrIncomplete, m.RunID, m.Error)
	}
	return m, nil
}

// getShard reads a shard from the store: by run ID, or by its labels (label:KEY=VALUE,KEY=VALUE: the one run
// that has them all, as a scheduler that cannot know run IDs names its shards; none is a missing shard).
func getShard(ctx context.Context, st *store.Store, ref string) ([]*result.Result, error) {
	sel, ok := strings.CutPrefix(ref, "label:")
	if !ok {
		return st.Get(ctx, ref)
	}
	es, err := st.List(ctx, store.Filter{Labels: strings.Split(sel, ",")})
	switch {
	case err != nil:
		return nil, err
	case len(es) == 0:
		return nil, store.ErrNotFound
	case len(es) > 1:
		return make([]*result.Result, len(es)), nil // refused as a reference to several runs
	}
	return st.Get(ctx, es[0].RunID)
}

// ErrIncomplete is returned (wrapped) with a merged result that was stored incomplete: the command exits
// non-zero, as a run that is not ok does.
var ErrIncomplete = errors.New("the merge is incomplete")

// MergeResults merges the shards' results (missing names the shards that could not be found): see Merge.
func MergeResults(shards []*result.Result, missing []string) (*result.Result, error) {
	p0 := shards[0]
	var done []*result.Result // the shards whose figures count
	var left []string         // why the merge is incomplete
	for _, ref := range missing {
		left = append(left, ref+" is missing")
	}
	seen := map[string]bool{}
	for _, s := range shards {
		if seen[s.RunID] {
			return nil, fmt.Errorf("shard %s is named twice: name each shard once", s.RunID)
		}
		seen[s.RunID] = true
		if s.Workload != p0.Workload {
			return nil, fmt.Errorf("shard %s is a %s run, %s a %s run: merge the shards of one run", s.RunID, s.Workload, p0.RunID, p0.Workload)
		}
		if s.Published != nil || s.Group != nil && s.Group.Aggregate || len(s.Parts) > 0 {
			return nil, fmt.Errorf("%s is not one shard's measured run (a published figure or an aggregate): merge the shards' own runs", s.RunID)
		}
		if a, b := result.WorkOf(p0), result.WorkOf(s); a != b {
			return nil, fmt.Errorf("shard %s did other work than %s (%s, not %s): merge the shards of one run", s.RunID, p0.RunID, b, a)
		}
		if a, b := plannedSeconds(p0), plannedSeconds(s); a != b {
			return nil, fmt.Errorf("shard %s was to measure %gs, %s %gs: merge the shards of one run", s.RunID, b, p0.RunID, a)
		}
		sec := mergedSection(s)
		if s.Status == result.StatusOK && sec == "" {
			return nil, fmt.Errorf("shard %s is a %s run without a section the merge adds (a measurement of transactions, a TPC-H-derived throughput test, storage tests): compare its shards run by run", s.RunID, s.Workload)
		}
		if s0 := mergedSection(p0); sec != "" && s0 != "" && sec != s0 {
			return nil, fmt.Errorf("shard %s holds %s, %s holds %s: merge the shards of one run", s.RunID, sec, p0.RunID, s0)
		}
		if s.Status != result.StatusOK || sec == "" {
			why := s.Status
			if s.Error != "" {
				why += ": " + s.Error
			}
			left = append(left, fmt.Sprintf("shard %s %s", s.RunID, why))
			continue
		}
		for name, tx := range measuredTx(s) {
			if tx.Histogram == "" && tx.Count+tx.Rollbacks > 0 {
				return nil, fmt.Errorf("shard %s has no latency histogram for %s (written by a dbdyno without them): its percentiles cannot be merged exactly; rerun the shards with this dbdyno", s.RunID, name)
			}
		}
		done = append(done, s)
	}
	notNamed, err := coverage(shards)
	if err != nil {
		return nil, err
	}
	left = append(left, notNamed...)
	if len(done) == 0 {
		return nil, fmt.Errorf("no shard completed: %s", strings.Join(left, "; "))
	}
	m := &result.Result{SchemaVersion: result.SchemaVersion, Tool: p0.Tool, Workload: p0.Workload, RunID: result.NewID("r"),
		Options: maps.Clone(p0.Options), Status: result.StatusOK, StartedAt: p0.StartedAt, EndedAt: p0.EndedAt}
	for _, k := range shardOptions {
		delete(m.Options, k)
	}
	m.Options["shards"] = len(shards) + len(missing)
	engines, versions, urls := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range shards {
		engines[s.Target.Engine], versions[s.Target.ServerVersion], urls[s.Target.URL] = true, true, true
		if s.StartedAt.Before(m.StartedAt) {
			m.StartedAt = s.StartedAt
		}
		if s.EndedAt.After(m.EndedAt) {
			m.EndedAt = s.EndedAt
		}
		part := result.Part{RunID: s.RunID, Target: s.Target.URL, Engine: s.Target.Engine, Status: s.Status}
		if h, ok := s.Headline(); ok {
			part.Headline = h.Value
		}
		m.Parts = append(m.Parts, part)
	}
	for _, ref := range missing {
		m.Parts = append(m.Parts, result.Part{RunID: ref, Target: "", Engine: "", Status: "missing"})
	}
	m.Target = result.Target{URL: Only(urls), Engine: Only(engines), ServerVersion: Only(versions)}
	if len(urls) > 1 {
		m.Target.URL = fmt.Sprintf("%d targets", len(urls))
	}
	if p0.Environment != nil {
		e := *p0.Environment
		m.Environment = &e
	}
	switch mergedSection(done[0]) {
	case "analytic":
		m.Analytic, err = mergeAnalytic(done)
	case "io":
		m.IO, err = mergeIO(done)
	default:
		m.Measurement, err = mergeMeasurements(done)
	}
	if err != nil {
		return nil, err
	}
	if len(left) > 0 {
		m.Status = result.StatusIncomplete
		m.Error = fmt.Sprintf("%d of %d shard(s) left out (%s); the figures are those of the rest", len(left), len(shards)+len(missing), strings.Join(left, "; "))
	}
	if m.Measurement != nil {
		m.Metrics = mergeMetrics(m, done)
	} else if k, ok := result.KindOf(m.Workload); ok && k.Derive != nil {
		m.Metrics = k.Derive(m) // every figure computed again from the merged section, as a single run's are
	}
	return m, nil
}

// mergeMetrics are the merged result's metrics, in the shards' order: those the shards add up ("sum": rates)
// their sum, the rest derived again from the merged measurement (latency percentiles of the union); a metric
// that is neither is left out (the longest of the shards' times says nothing of the union).
func mergeMetrics(m *result.Result, shards []*result.Result) []result.Metric {
	var derived []result.Metric
	if k, ok := result.KindOf(m.Workload); ok && k.Derive != nil {
		derived = k.Derive(m)
	}
	summed := Combine(shards)
	var out []result.Metric
	for _, x := range shards[0].Metrics {
		if i := slices.IndexFunc(summed, func(o result.Metric) bool { return o.Name == x.Name }); i >= 0 && x.Aggregate == "sum" {
			out = append(out, summed[i])
		} else if i := slices.IndexFunc(derived, func(o result.Metric) bool { return o.Name == x.Name }); i >= 0 {
			out = append(out, derived[i])
		}
	}
	return out
}

// coverage checks the shards' own account of their share (the "shard" option, I/N, of runs given --shard):
// either none has one, or every one does, of the same N, each I at most once; the shares no shard named
// took are returned.
func coverage(shards []*result.Result) ([]string, error) {
	n, seen := 0, map[int]string{}
	for _, s := range shards {
		v, ok := s.Options["shard"].(string)
		if !ok || v == "" { // "": a command that records its every option, run without --shard
			if n > 0 || len(seen) > 0 {
				return nil, fmt.Errorf("shard %s was not run with --shard, others were: merge the shards of one run", s.RunID)
			}
			continue
		}
		var i, of int
		if _, err := fmt.Sscanf(v, "%d/%d", &i, &of); err != nil || i < 1 || i > of {
			return nil, fmt.Errorf("shard %s records shard %q, not I/N", s.RunID, v)
		}
		if n != 0 && of != n {
			return nil, fmt.Errorf("shard %s is shard %s, another of %d: merge the shards of one run", s.RunID, v, n)
		}
		if len(seen) == 0 && n == 0 && s != shards[0] {
			return nil, fmt.Errorf("shard %s was run with --shard, %s was not: merge the shards of one run", s.RunID, shards[0].RunID)
		}
		if o, dup := seen[i]; dup {
			return nil, fmt.Errorf("shards %s and %s are both shard %s: name each shard once", o, s.RunID, v)
		}
		n, seen[i] = of, s.RunID
	}
	var left []string
	for i := 1; i <= n; i++ {
		if seen[i] == "" {
			left = append(left, fmt.Sprintf("shard %d/%d was not named", i, n))
		}
	}
	gaps, err := shares(shards)
	if len(left) > 0 { // the shards not named left the gaps
		return left, err
	}
	return gaps, err
}

// share is a shard's share of the work as its result records it (workload.Shard.Record): [from, to) of "of"
// things of one unit (warehouses, customers, streams ...), whatever the workload.
type share struct {
	unit         string
	from, to, of int
	run          string
}

// shares checks the shards' recorded shares cover the work once: all of one unit and one total, none
// overlapping another (refused); the ranges no shard took are returned (the merge is then incomplete).
func shares(shards []*result.Result) ([]string, error) {
	var sh []share
	for _, s := range shards {
		m, ok := s.Options["shard_share"].(map[string]any)
		if !ok {
			if len(sh) > 0 {
				return nil, fmt.Errorf("shard %s records no share of the work, %s does: merge the shards of one run", s.RunID, sh[0].run)
			}
			continue
		}
		x := share{run: s.RunID}
		x.unit, _ = m["unit"].(string)
		var ok1, ok2, ok3 bool
		x.from, ok1 = whole(m["from"])
		x.to, ok2 = whole(m["to"])
		x.of, ok3 = whole(m["of"])
		if x.unit == "" || !ok1 || !ok2 || !ok3 || x.from < 0 || x.to < x.from || x.of < x.to {
			return nil, fmt.Errorf("shard %s records a share of the work that does not read (%v)", s.RunID, m)
		}
		if len(sh) > 0 && (x.unit != sh[0].unit || x.of != sh[0].of) {
			return nil, fmt.Errorf("shard %s took a share of %d %s, %s of %d %s: merge the shards of one run", s.RunID, x.of, x.unit, sh[0].run, sh[0].of, sh[0].unit)
		}
		if len(sh) == 0 && s != shards[0] {
			return nil, fmt.Errorf("shard %s records a share of the work, %s does not: merge the shards of one run", s.RunID, shards[0].RunID)
		}
		sh = append(sh, x)
	}
	slices.SortFunc(sh, func(a, b share) int { return a.from - b.from })
	var left []string
	next := 0
	for i, x := range sh {
		if i > 0 && x.from < sh[i-1].to {
			p := sh[i-1]
			return nil, fmt.Errorf("shards %s and %s both took %s %d..%d: each share of the work must be driven once", p.run, x.run, x.unit, x.from+1, min(x.to, p.to))
		}
		if x.from > next {
			left = append(left, fmt.Sprintf("%s %d..%d were driven by no shard", x.unit, next+1, x.from))
		}
		next = x.to
	}
	if len(sh) > 0 && next < sh[0].of {
		left = append(left, fmt.Sprintf("%s %d..%d were driven by no shard", sh[0].unit, next+1, sh[0].of))
	}
	return left, nil
}

// whole reads a whole number from a result's options (an int in memory, a float64 read back from JSON).
func whole(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case float64:
		return int(n), n == float64(int(n))
	}
	return 0, false
}

// plannedSeconds is how long a run was to measure (0 when it has no measurement).
func plannedSeconds(r *result.Result) float64 {
	if r.Measurement == nil {
		return 0
	}
	return r.Measurement.PlannedSeconds
}

// mergeMeasurements adds up the shards' measurements over their common window, each shard's window read on
// the reference clock it recorded (--clock-ref: its start and end corrected by its clock's offset).
func mergeMeasurements(shards []*result.Result) (*result.Measurement, error) {
	m0 := shards[0].Measurement
	off0 := ClockOffset(shards[0].Options)
	out := &result.Measurement{RampupSeconds: m0.RampupSeconds, PlannedSeconds: m0.PlannedSeconds, MeasureStart: m0.MeasureStart.Add(off0),
		MeasureEnd: m0.MeasureEnd.Add(off0), KeyTx: m0.KeyTx, KeyLabel: m0.KeyLabel, PerSecond: m0.PerSecond, Transactions: map[string]result.TxStats{}, Intervals: []result.Interval{}}
	first, last := out.MeasureStart, out.MeasureStart
	for _, s := range shards {
		sm, off := s.Measurement, ClockOffset(s.Options)
		start, end := sm.MeasureStart.Add(off), sm.MeasureEnd.Add(off)
		if start.Before(first) {
			first = start
		}
		if start.After(last) {
			last = start
		}
		if start.After(out.MeasureStart) {
			out.MeasureStart = start
		}
		if end.Before(out.MeasureEnd) {
			out.MeasureEnd = end
		}
	}
	dur := time.Duration(m0.MeasuredSecs * float64(time.Second))
	if spread := last.Sub(first); spread > time.Duration(float64(dur)*windowTolerance) {
		return nil, fmt.Errorf("the shards' measured windows start %s apart, more than 1%% of their %s: start them together (the same --start-at, with --clock-ref on hosts of different clocks) and merge again",
			spread.Round(time.Millisecond), dur.Round(time.Millisecond))
	}
	if out.MeasureEnd.Before(out.MeasureStart) {
		out.MeasureEnd = out.MeasureStart
	}
	out.MeasuredSecs = out.MeasureEnd.Sub(out.MeasureStart).Seconds()
	hists := map[string]*hdrhistogram.Histogram{}
	for _, s := range shards {
		sm := s.Measurement
		out.VUs += sm.VUs
		out.Committed += sm.Committed
		out.Rollbacks += sm.Rollbacks
		out.Errors += sm.Errors
		out.Retries += sm.Retries
		out.Reconnects += sm.Reconnects
		out.DisconnectedSecs += sm.DisconnectedSecs
		out.PerMinute += sm.PerMinute
		out.ClientCPU.UserSeconds += sm.ClientCPU.UserSeconds
		out.ClientCPU.SystemSeconds += sm.ClientCPU.SystemSeconds
		for k, v := range sm.ErrorClasses {
			if out.ErrorClasses == nil {
				out.ErrorClasses = map[string]int64{}
			}
			out.ErrorClasses[k] += v
		}
		if len(out.ErrorSamples) < 10 {
			out.ErrorSamples = append(out.ErrorSamples, sm.ErrorSamples...)
		}
		for name, tx := range sm.Transactions {
			t := out.Transactions[name]
			t.Count += tx.Count
			t.Rollbacks += tx.Rollbacks
			t.Errors += tx.Errors
			t.Retries += tx.Retries
			t.PerMinute += tx.PerMinute
			out.Transactions[name] = t
			if tx.Histogram == "" {
				continue
			}
			h, err := result.DecodeHistogram(tx.Histogram)
			if err != nil {
				return nil, fmt.Errorf("shard %s, %s: %w", s.RunID, name, err)
			}
			if hists[name] == nil {
				hists[name] = h
			} else if dropped := hists[name].Merge(h); dropped > 0 {
				return nil, fmt.Errorf("shard %s, %s: %d latencies out of the histogram's range", s.RunID, name, dropped)
			}
		}
		mergeIntervals(out, sm.Intervals)
	}
	for name, h := range hists {
		t := out.Transactions[name]
		t.Latency, t.Histogram = result.LatencyOf(h), result.EncodeHistogram(h)
		out.Transactions[name] = t
	}
	if out.Committed > 0 {
		out.ClientCPU.MicrosPerTx = (out.ClientCPU.UserSeconds + out.ClientCPU.SystemSeconds) * 1e6 / float64(out.Committed)
	}
	if len(out.ErrorSamples) > 10 {
		out.ErrorSamples = out.ErrorSamples[:10]
	}
	out.OpenLoop = mergeOpenLoop(shards) // mergeloop.go
	return out, nil
}

// mergeIntervals adds a shard's progress intervals to the merged ones, interval by interval: counts and rates
// added up; an interval's percentiles are the largest shard's, an upper bound of the union's (the intervals
// keep no histograms).
func mergeIntervals(out *result.Measurement, in []result.Interval) {
	for i, iv := range in {
		if i == len(out.Intervals) {
			out.Intervals = append(out.Intervals, result.Interval{ElapsedSeconds: iv.ElapsedSeconds, Measured: iv.Measured,
				Transactions: map[string]result.IntervalTxStat{}})
		}
		o := &out.Intervals[i]
		o.PerMinute += iv.PerMinute
		o.Errors += iv.Errors
		o.Measured = o.Measured && iv.Measured
		for name, t := range iv.Transactions {
			ot := o.Transactions[name]
			ot.Count += t.Count
			ot.P50, ot.P95, ot.P99 = max(ot.P50, t.P50), max(ot.P95, t.P95), max(ot.P99, t.P99)
			o.Transactions[name] = ot
		}
	}
}

package tpch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
	"github.com/dbdyno/dbdyno/internal/workloads/tpch/dbgen"
)

// RunOptions are `tpch run`'s settings.
type RunOptions struct {
	Power      bool
	Throughput bool
	Streams    int // streams of the throughput test, or of a plain set of concurrent streams
	Refresh    bool
	Queries    []int // the queries to run (default all 22)
	Timeout    time.Duration
	Seed       uint64
	Warmup     bool           // a warm-up run: one stream, nothing else
	NoRestore  bool           // leave dbgen's update sets applied after the run; the next run goes on with the following sets
	MaxDOP     int            // hold each query to this many parallel workers, the engine's way (0: the engine's own choice)
	Shard      workload.Shard // --shard: the throughput test's streams are the shard's range of 1..Streams
	Progress   io.Writer
	// Live, when set (--metrics-addr, --live), takes each query's end (as the unit "Q6"), the streams running
	// and the phase: the test's kind (power, throughput, streams, warmup), then ended.
	Live workload.Live
}

// ErrAborted marks a run stopped by its context (Ctrl-C), as every workload reports an abort.
var ErrAborted = workload.ErrAborted

// MinStreams is the specification's minimum number of throughput streams for a scale factor (clause 5.3.4).
func MinStreams(sf float64) int {
	switch {
	case sf >= 100000:
		return 11
	case sf >= 30000:
		return 10
	case sf >= 10000:
		return 9
	case sf >= 3000:
		return 8
	case sf >= 1000:
		return 7
	case sf >= 300:
		return 6
	case sf >= 100:
		return 5
	case sf >= 30:
		return 4
	case sf >= 10:
		return 3
	}
	return 2
}

type runner struct {
	d    *DB
	opts RunOptions
	sf   float64
	pair int
	sets setRange   // update sets applied: RF1 of set sets.hi+1 comes next
	mu   sync.Mutex // progress lines, pair and set numbers

	outer     context.Context    // the run's own context: cancelled by Ctrl-C (the streams run on one derived from it)
	stop      context.CancelFunc // ends every stream at once
	fatalOnce sync.Once
	fatalErr  error // the error of a fatal class that ended the run
}

// fatal ends the whole run at once when err is of a class after which the run cannot measure what it meant to
// (the schema missing or changed, a database that takes no writes, damaged data: engine.Class.Fatal): the other
// streams are cancelled and no further query or refresh function runs. It says whether err was one.
func (r *runner) fatal(where string, err error) bool {
	if err == nil || r.outer.Err() != nil {
		return false
	}
	c := r.d.T.Engine.Classify(err)
	if !c.Fatal() {
		return false
	}
	r.fatalOnce.Do(func() {
		r.mu.Lock()
		r.fatalErr = fmt.Errorf("%s: %s: %v", where, c.Describe(), err)
		r.mu.Unlock()
		r.stop()
	})
	return true
}

// ended is the fatal error that ended the run, nil while none has.
func (r *runner) ended() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fatalErr
}

// cut is a query's or refresh function's status and error once the run's context ended it: aborted by Ctrl-C, or
// cut short by another stream's fatal error.
func (r *runner) cut() (string, string) {
	if err := r.ended(); err != nil && r.outer.Err() == nil {
		return result.StatusAborted, "cancelled: the run ended on " + err.Error()
	}
	return result.StatusAborted, "run aborted"
}

// Run executes the tests and returns what they measured; the error tells why the run did not complete (the
// returned Analytic holds the partial figures in every case).
func (d *DB) Run(ctx context.Context, opts RunOptions) (*result.Analytic, error) {
	sf, err := d.Scale(ctx)
	if err != nil {
		return nil, err
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	if len(opts.Queries) == 0 {
		for q := 1; q <= 22; q++ {
			opts.Queries = append(opts.Queries, q)
		}
	}
	r := &runner{d: d, opts: opts, sf: sf, outer: ctx}
	ctx, r.stop = context.WithCancel(ctx) // the streams' context: ended by Ctrl-C or by a fatal error (r.fatal)
	defer r.stop()
	started := time.Now()
	if opts.MaxDOP > 0 {
		if err := d.LimitParallelism(ctx, opts.MaxDOP); err != nil {
			return nil, err
		}
	}
	layout, _ := d.data.Meta(ctx, metaLayout)
	a := &result.Analytic{Scale: sf, Seed: strconv.FormatUint(opts.Seed, 10), Refresh: opts.Refresh, Queries: opts.Queries,
		TimeoutS: opts.Timeout.Seconds(), Tests: []result.AnalyticTest{}, MaxDOP: opts.MaxDOP, Layout: layout,
		Note: "TPC-H-derived: metrics computed as clause 5.4 defines them, not comparable with audited TPC-H results"}
	if opts.Refresh {
		dbgen.TextPool() // built once, before anything is timed
		if err := r.startRefresh(ctx); err != nil {
			return a, err
		}
		defer func() { a.Note += r.endRefresh(r.outer) }() // after a fatal error too: restoring is not part of the run
	}
	if opts.Live != nil {
		defer opts.Live.Phase("ended")
	}
	var firstErr error
	add := func(t result.AnalyticTest, err error) {
		a.Tests = append(a.Tests, t)
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if opts.Warmup {
		add(r.streamSet(ctx, "warmup", []int{0}, false))
		if err := r.ended(); err != nil {
			return a, err
		}
		if ctx.Err() != nil {
			return a, fmt.Errorf("%w after %.1fs; the partial figures are kept", ErrAborted, time.Since(started).Seconds())
		}
		return a, firstErr
	}
	var power, through *float64
	if opts.Power && ctx.Err() == nil {
		t, err := r.powerTest(ctx)
		power = t.PowerAtSize
		add(t, err)
	}
	if n := opts.Streams; n > 0 && ctx.Err() == nil {
		lo, hi := opts.Shard.Range(n)
		streams := make([]int, hi-lo)
		for i := range streams {
			streams[i] = lo + i + 1
		}
		if opts.Throughput {
			t, err := r.streamSet(ctx, "throughput", streams, opts.Refresh)
			through = t.ThroughputAtSize
			add(t, err)
		} else {
			add(r.streamSet(ctx, "streams", streams, false))
		}
	}
	if power != nil && through != nil {
		q := math.Sqrt(*power * *through)
		a.QphH = &q
	}
	if err := r.ended(); err != nil {
		return a, err // the fatal error ends the run as failed, with the engine's message
	}
	if ctx.Err() != nil {
		return a, fmt.Errorf("%w after %.1fs; the partial figures are kept", ErrAborted, time.Since(started).Seconds())
	}
	return a, firstErr
}

func (r *runner) say(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.opts.Progress, format, args...)
}

// runStream runs one stream's queries in its permutation's order on its own connection.
func (r *runner) runStream(ctx context.Context, stream int) (qs result.QueryStream) {
	qs = result.QueryStream{Stream: stream, Status: result.StatusOK, Queries: []result.QueryTime{}}
	t0 := time.Now()
	defer func() { qs.Seconds = time.Since(t0).Seconds() }() // qs is the named result: this sets what returns
	gen := NewParamGen(r.opts.Seed, stream, r.sf)
	params := map[int]Params{}
	for q := 1; q <= 22; q++ { // every stream draws all 22 in order, so a subset keeps the same parameters
		params[q] = gen.Query(q)
	}
	want := map[int]bool{}
	for _, q := range r.opts.Queries {
		want[q] = true
	}
	conn, err := r.d.conn(ctx)
	if err != nil {
		qt := result.QueryTime{Query: StreamOrder(stream)[0], Status: "failed", Error: err.Error()}
		qs.Status = result.StatusFailed
		if ctx.Err() != nil { // waiting for a connection (an embedded engine has one) when the run ended
			qs.Status = result.StatusAborted
			qt.Status, qt.Error = r.cut()
		}
		qs.Queries = append(qs.Queries, qt)
		return qs
	}
	defer func() { conn.Close() }() // conn is replaced after a failure
	done := 0
	for _, q := range StreamOrder(stream) {
		if !want[q] {
			continue
		}
		if ctx.Err() != nil {
			qs.Status = result.StatusAborted
			return qs
		}
		qt := result.QueryTime{Query: q, Status: "ok", Params: params[q].String()}
		qctx, cancel := ctx, context.CancelFunc(func() {})
		if r.opts.Timeout > 0 {
			qctx, cancel = context.WithTimeout(ctx, r.opts.Timeout)
		}
		res, el, err := r.d.Query(qctx, conn, q, params[q], false)
		cancel()
		qt.Seconds = el.Seconds()
		switch {
		case err == nil:
			qt.Rows = len(res.Rows)
		case ctx.Err() != nil:
			qt.Status, qt.Error = r.cut()
		case errors.Is(qctx.Err(), context.DeadlineExceeded):
			qt.Status, qt.Error = "timeout", fmt.Sprintf("exceeded --timeout %s", r.opts.Timeout)
		default:
			qt.Status, qt.Error = "failed", err.Error()
		}
		fatal := qt.Status == "failed" && r.fatal(fmt.Sprintf("stream %d Q%d", stream, q), err)
		if qt.Status != "ok" && qs.Status == result.StatusOK {
			qs.Status = result.StatusFailed
			if qt.Status == "aborted" {
				qs.Status = result.StatusAborted
			}
			// a lost or broken connection must not fail the rest of the stream
			conn.Close()
			if c, err := r.d.conn(context.WithoutCancel(ctx)); err == nil {
				conn = c
			}
		}
		qs.Queries = append(qs.Queries, qt)
		if r.opts.Live != nil {
			outcome := qt.Status // ok is the query's answer read; timeout, failed, aborted as the result says
			if outcome == "ok" {
				outcome = "committed"
			}
			r.opts.Live.Done(fmt.Sprintf("Q%d", q), el, outcome, 0, !r.opts.Warmup)
		}
		done++
		state := ""
		if qt.Status != "ok" {
			state = "  " + qt.Status + ": " + qt.Error
		}
		r.say("stream %2d  Q%-2d %9.3fs  %6d rows  (%d/%d)%s\n", stream, q, qt.Seconds, qt.Rows, done, len(r.opts.Queries), state)
		if fatal {
			qs.Status = result.StatusFailed
			return qs
		}
	}
	return qs
}

func (r *runner) powerTest(ctx context.Context) (result.AnalyticTest, error) {
	t := result.AnalyticTest{Kind: "power", Streams: 1, Status: result.StatusOK, Refresh: []result.RefreshPair{}}
	r.say("power test: %s\n", map[bool]string{true: "RF1, stream 0, RF2", false: "stream 0 (no refresh functions: add --refresh)"}[r.opts.Refresh])
	if r.opts.Live != nil {
		r.opts.Live.Phase("power")
		r.opts.Live.Users(1)
	}
	t0 := time.Now()
	var pair result.RefreshPair
	if r.opts.Refresh {
		pair = r.rf1(ctx)
	}
	qs := r.runStream(ctx, 0)
	if r.opts.Refresh {
		r.rf2(ctx, &pair)
		t.Refresh = append(t.Refresh, pair)
	}
	t.Seconds = time.Since(t0).Seconds()
	t.QueryStreams = []result.QueryStream{qs}
	err := r.finish(ctx, &t)
	if t.Status == result.StatusOK {
		times := queryTimes(t.QueryStreams)
		if r.opts.Refresh {
			times = append(times, pair.RF1, pair.RF2)
		} else {
			t.Note = "Power@Size over the queries only: no refresh functions were run"
		}
		if len(r.opts.Queries) < 22 {
			t.Note = joinNote(t.Note, fmt.Sprintf("over %d of the 22 queries", len(r.opts.Queries)))
		}
		p := 3600 * r.sf / Geomean(PowerAdjust(times))
		t.PowerAtSize = &p
		r.say("power test: %.1fs, Power@Size %.1f\n", t.Seconds, p)
	}
	return t, err
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// streamSet runs streams concurrently, with a refresh stream of one RF1/RF2 pair per query stream when
// refresh is set (the throughput test).
func (r *runner) streamSet(ctx context.Context, kind string, streams []int, refresh bool) (result.AnalyticTest, error) {
	t := result.AnalyticTest{Kind: kind, Streams: len(streams), Status: result.StatusOK, Refresh: []result.RefreshPair{}}
	r.say("%s: %d concurrent stream(s)%s\n", kind, len(streams), map[bool]string{true: " and a refresh stream", false: ""}[refresh])
	if r.opts.Live != nil {
		r.opts.Live.Phase(kind)
		r.opts.Live.Users(len(streams))
	}
	t0 := time.Now()
	t.StartUnixS = float64(t0.UnixNano()) / 1e9 // the merge of shards reads each one's window on one clock
	out := make([]result.QueryStream, len(streams))
	var wg sync.WaitGroup
	for i, s := range streams {
		wg.Add(1)
		go func(i, s int) {
			defer wg.Done()
			out[i] = r.runStream(ctx, s)
		}(i, s)
	}
	if refresh {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range streams {
				if ctx.Err() != nil {
					return
				}
				p := r.rf1(ctx)
				r.rf2(ctx, &p)
				t.Refresh = append(t.Refresh, p)
			}
		}()
	}
	wg.Wait()
	t.Seconds = time.Since(t0).Seconds()
	t.QueryStreams = out
	err := r.finish(ctx, &t)
	if t.Status == result.StatusOK && kind == "throughput" {
		th := result.ThroughputAtSize(len(streams), len(r.opts.Queries), t.Seconds, r.sf)
		t.ThroughputAtSize = &th
		if !refresh {
			t.Note = "no refresh stream: add --refresh"
		}
		r.say("throughput test: %d streams in %.1fs, Throughput@Size %.1f\n", len(streams), t.Seconds, th)
	} else if t.Status == result.StatusOK {
		r.say("%s: %d stream(s) completed in %.3fs\n", kind, len(streams), t.Seconds)
	}
	return t, err
}

// finish sets the test's status and geometric mean: any failed query or refresh fails the test and leaves its
// aggregates empty rather than computing them over what happened to succeed.
func (r *runner) finish(ctx context.Context, t *result.AnalyticTest) error {
	var bad []string
	for _, s := range t.QueryStreams {
		for _, q := range s.Queries {
			if q.Status != "ok" {
				bad = append(bad, fmt.Sprintf("stream %d Q%d %s", s.Stream, q.Query, q.Status))
			}
		}
		if s.Status == result.StatusAborted {
			t.Status = result.StatusAborted
		}
	}
	for _, p := range t.Refresh {
		if p.Status != result.StatusOK {
			bad = append(bad, fmt.Sprintf("refresh pair %d %s", p.Pair, p.Status))
		}
	}
	if err := r.ended(); err != nil {
		t.Status = result.StatusFailed
		t.Note = joinNote(t.Note, fmt.Sprintf("no metrics: the run ended on %v", err))
		return err
	}
	if ctx.Err() != nil {
		t.Status = result.StatusAborted
		return ErrAborted
	}
	if len(bad) > 0 {
		t.Status = result.StatusFailed
		t.Note = joinNote(t.Note, fmt.Sprintf("no metrics: %d failure(s): %v", len(bad), bad))
		return fmt.Errorf("%s test: %d failure(s), first: %s", t.Kind, len(bad), bad[0])
	}
	g := Geomean(queryTimes(t.QueryStreams))
	t.GeomeanSeconds = &g
	return nil
}

func queryTimes(streams []result.QueryStream) []float64 { return result.QueryTimes(streams) }

// Geomean is the geometric mean (result.Geomean: a merge of shards computes it there too).
func Geomean(v []float64) float64 { return result.Geomean(v) }

// PowerAdjust applies clause 5.4.1.4: when the longest timing is more than 1000 times the shortest, timings
// below 1/1000 of the longest are raised to it.
func PowerAdjust(v []float64) []float64 {
	longest := 0.0
	for _, x := range v {
		longest = math.Max(longest, x)
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Max(x, longest/1000)
	}
	return out
}

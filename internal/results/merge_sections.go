package results

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// What a merge of shards means for each section a shard's result can hold:
//
//   - measurement (virtual-user runs): counts and rates added over the common measured window, percentiles
//     those of the union of the shards' histograms (mergeMeasurements).
//   - analytic (a TPC-H-derived throughput test split by --shard: its streams partitioned over the shards,
//     started together by --start-at): the query streams put together in stream order, Ts the time from the
//     first shard's start to the last one's end on the reference clock (each shard's start corrected by its
//     --clock-ref offset), and the geometric mean and Throughput@Size computed from those as a single run
//     computes them (result.Geomean, result.ThroughputAtSize). A power test or a refresh stream is one per run
//     and is never split: shards that hold one are refused.
//   - io (storage tests, each shard on its own file or range): per test, IOs and bytes added, the window
//     the first shard's start to the last one's end (as one run takes its jobs' group window), IOPS and MB/s
//     the IOs and bytes over that window, the latency percentiles those of the union of the shards'
//     histograms (result.IODirOf, as one run computes them over its jobs). A test of several passes keeps
//     each shard's best pass, which are not one window: refused.
//
// Either way the shards' windows must start within 1% of the measured time of each other.

// mergedSection is the section of a shard's result the merge adds ("" when it holds none of them).
func mergedSection(r *result.Result) string {
	switch {
	case r.Measurement != nil:
		return "measurement"
	case r.Analytic != nil:
		return "analytic"
	case r.IO != nil:
		return "io"
	}
	return ""
}

// measuredTx are a result's transactions (none without a measurement).
func measuredTx(r *result.Result) map[string]result.TxStats {
	if r.Measurement == nil {
		return nil
	}
	return r.Measurement.Transactions
}

// window is a shard's measured window: its start in Unix seconds on the reference clock, and its length.
type window struct {
	run         string
	start, secs float64
}

// union is the windows' span, from the first start to the last end (each end taken from the first start, so
// one shard's length is kept exactly when it spans the rest), refused when their starts lie more than 1% of
// the span apart.
func union(ws []window) (start, secs float64, err error) {
	start, last := math.Inf(1), math.Inf(-1)
	for _, w := range ws {
		start, last = min(start, w.start), max(last, w.start)
	}
	for _, w := range ws {
		secs = max(secs, (w.start-start)+w.secs)
	}
	if spread := last - start; spread > secs*windowTolerance {
		return 0, 0, fmt.Errorf("the shards' measured windows start %s apart, more than 1%% of their %s: start them together (the same --start-at, with --clock-ref on hosts of different clocks) and merge again",
			time.Duration(spread*1e9).Round(time.Millisecond), time.Duration(secs*1e9).Round(time.Millisecond))
	}
	return start, secs, nil
}

// mergeAnalytic merges the shards' throughput tests: see the top of this file.
func mergeAnalytic(shards []*result.Result) (*result.Analytic, error) {
	a0 := shards[0].Analytic
	out := &result.Analytic{Scale: a0.Scale, Seed: a0.Seed, Refresh: a0.Refresh, Queries: a0.Queries, TimeoutS: a0.TimeoutS, MaxDOP: a0.MaxDOP,
		Layout: a0.Layout, Comparable: a0.Comparable, Note: a0.Note}
	var t0 *result.AnalyticTest
	var ws []window
	var streams []result.QueryStream
	for _, s := range shards {
		a := s.Analytic
		if a.Scale != a0.Scale || a.Seed != a0.Seed || !slices.Equal(a.Queries, a0.Queries) || a.MaxDOP != a0.MaxDOP || a.Layout != a0.Layout {
			return nil, fmt.Errorf("shard %s ran other queries than %s (scale, seed, queries or maxdop differ): merge the shards of one run", s.RunID, shards[0].RunID)
		}
		var t *result.AnalyticTest
		for i := range a.Tests {
			switch tt := &a.Tests[i]; tt.Kind {
			case "throughput", "streams":
				if t != nil {
					return nil, fmt.Errorf("shard %s holds more than one set of streams: merge shards of one throughput test each", s.RunID)
				}
				t = tt
			case "warmup":
			default:
				return nil, fmt.Errorf("shard %s holds a %s test, which is one per run and is not split by --shard: merge the shards of a throughput test run with --shard", s.RunID, tt.Kind)
			}
		}
		switch {
		case t == nil:
			return nil, fmt.Errorf("shard %s holds no throughput test: merge the shards of a throughput test run with --shard", s.RunID)
		case len(t.Refresh) > 0:
			return nil, fmt.Errorf("shard %s ran a refresh stream, which is one per run: run the shards without --refresh", s.RunID)
		case t0 != nil && t.Kind != t0.Kind:
			return nil, fmt.Errorf("shard %s ran a %s test, %s a %s test: merge the shards of one run", s.RunID, t.Kind, shards[0].RunID, t0.Kind)
		case t.StartUnixS == 0:
			return nil, fmt.Errorf("shard %s does not record when its test started (written by an older dbdyno): its Ts cannot be merged exactly; rerun the shards with this dbdyno", s.RunID)
		}
		if t0 == nil {
			t0 = t
		}
		start := t.StartUnixS + ClockOffset(s.Options).Seconds()
		ws = append(ws, window{s.RunID, start, t.Seconds})
		streams = append(streams, t.QueryStreams...)
	}
	slices.SortStableFunc(streams, func(a, b result.QueryStream) int { return a.Stream - b.Stream })
	for i := 1; i < len(streams); i++ {
		if streams[i].Stream == streams[i-1].Stream {
			return nil, fmt.Errorf("stream %d ran in two shards: each stream must be driven once", streams[i].Stream)
		}
	}
	start, secs, err := union(ws)
	if err != nil {
		return nil, err
	}
	t := result.AnalyticTest{Kind: t0.Kind, Streams: len(streams), Seconds: secs, StartUnixS: start, Status: result.StatusOK,
		QueryStreams: streams, Refresh: []result.RefreshPair{}, Note: t0.Note}
	for _, s := range streams {
		if s.Status != result.StatusOK {
			t.Status = result.StatusFailed
		}
	}
	if t.Status == result.StatusOK {
		g := result.Geomean(result.QueryTimes(streams))
		t.GeomeanSeconds = &g
		if t.Kind == "throughput" {
			th := result.ThroughputAtSize(len(streams), len(out.Queries), secs, out.Scale)
			t.ThroughputAtSize = &th
		}
	}
	out.Tests = []result.AnalyticTest{t}
	return out, nil
}

// mergeIO merges the shards' storage tests, test by test: see the top of this file.
func mergeIO(shards []*result.Result) (*result.IO, error) {
	io0 := shards[0].IO
	out := &result.IO{Files: []result.IOFile{}, Tests: []result.IOTest{}}
	for _, s := range shards {
		if len(s.IO.Tests) != len(io0.Tests) {
			return nil, fmt.Errorf("shard %s ran %d tests, %s %d: merge the shards of one run", s.RunID, len(s.IO.Tests), shards[0].RunID, len(io0.Tests))
		}
		out.Files = append(out.Files, s.IO.Files...)
	}
	for i := range io0.Tests {
		t, err := mergeIOTest(shards, i)
		if err != nil {
			return nil, err
		}
		out.Tests = append(out.Tests, t)
	}
	return out, nil
}

func mergeIOTest(shards []*result.Result, i int) (result.IOTest, error) {
	t0 := shards[0].IO.Tests[i]
	same := func(t result.IOTest) bool {
		return t.Name == t0.Name && t.RW == t0.RW && t.BS == t0.BS && t.IODepth == t0.IODepth && t.NumJobs == t0.NumJobs &&
			t.RWMixRead == t0.RWMixRead && t.IOEngine == t0.IOEngine && t.Direct == t0.Direct && t.RateIOPS == t0.RateIOPS &&
			t.RuntimeS == t0.RuntimeS && t.TimeBased == t0.TimeBased
	}
	out := result.IOTest{Name: t0.Name, RW: t0.RW, BS: t0.BS, IODepth: t0.IODepth, RWMixRead: t0.RWMixRead, IOEngine: t0.IOEngine,
		Direct: t0.Direct, RateIOPS: t0.RateIOPS, RampS: t0.RampS, RuntimeS: t0.RuntimeS, TimeBased: t0.TimeBased, Passes: 1,
		Status: result.StatusOK, Jobs: []result.IOJob{}, Series: []result.IOSecond{}}
	var ws []window
	var hist [2]*hdrhistogram.Histogram
	var ios, bytes [2]int64
	var latNs [2]float64
	var totS float64 // Little's law: the IOs' whole time in dbdyno's hands, summed
	for _, s := range shards {
		t := s.IO.Tests[i]
		switch {
		case !same(t):
			return out, fmt.Errorf("shard %s's test %d (%s) is not %s's (%s): merge the shards of one run (the same jobs)", s.RunID, i+1, t.Name, shards[0].RunID, t0.Name)
		case t.Passes > 1 || t.CDM != nil:
			return out, fmt.Errorf("test %s ran %d passes and kept each shard's best, which are not one window: merge shards run with one pass (--passes 1, no CrystalDiskMark preset)", t.Name, t.Passes)
		case t.Status != result.StatusOK:
			return out, fmt.Errorf("shard %s's test %s is %s: %s", s.RunID, t.Name, t.Status, t.Error)
		case t.StartUnixS == 0:
			return out, fmt.Errorf("shard %s does not record when test %s's window started (written by an older dbdyno): rerun the shards with this dbdyno", s.RunID, t.Name)
		}
		out.NumJobs += t.NumJobs
		out.Buffered = out.Buffered || t.Buffered
		start := t.StartUnixS + ClockOffset(s.Options).Seconds()
		ws = append(ws, window{s.RunID, start, t.Seconds})
		for d, dir := range []*result.IODir{t.Read, t.Write} {
			if dir == nil || dir.IOs == 0 {
				continue
			}
			if dir.Histogram == "" {
				return out, fmt.Errorf("shard %s has no latency histogram for test %s (written by an older dbdyno): its percentiles cannot be merged exactly; rerun the shards with this dbdyno", s.RunID, t.Name)
			}
			h, err := result.DecodeHistogram(dir.Histogram)
			if err != nil {
				return out, fmt.Errorf("shard %s, test %s: %w", s.RunID, t.Name, err)
			}
			if hist[d] == nil {
				hist[d] = h
			} else if dropped := hist[d].Merge(h); dropped > 0 {
				return out, fmt.Errorf("shard %s, test %s: %d latencies out of the histogram's range", s.RunID, t.Name, dropped)
			}
			ios[d] += dir.IOs
			bytes[d] += dir.Bytes
			latNs[d] += dir.Lat.Mean * 1e3 * float64(dir.IOs)
		}
		if l := t.Little; l != nil {
			totS += l.MeanLatS * l.IOPS * t.Seconds
		}
		out.Jobs = append(out.Jobs, t.Jobs...)
		mergeSeries(&out, t.Series)
		c := &out.CPU
		c.UserS += t.CPU.UserS
		c.SystemS += t.CPU.SystemS
		c.UserPct += t.CPU.UserPct
		c.SysPct += t.CPU.SysPct
		c.JobsUserS += t.CPU.JobsUserS
		c.JobsSystemS += t.CPU.JobsSystemS
	}
	start, secs, err := union(ws)
	if err != nil {
		return out, err
	}
	out.StartUnixS, out.Seconds = start, secs
	if ios[0] > 0 {
		out.Read = result.IODirOf(ios[0], bytes[0], latNs[0], hist[0], secs)
	}
	if ios[1] > 0 {
		out.Write = result.IODirOf(ios[1], bytes[1], latNs[1], hist[1], secs)
	}
	if total := float64(ios[0] + ios[1]); total > 0 {
		out.CPU.PerIOUs = (out.CPU.UserS + out.CPU.SystemS) / total * 1e6
		out.CPU.JobsPerIOUs = (out.CPU.JobsUserS + out.CPU.JobsSystemS) / total * 1e6
		out.CPU.Overhead = "the shards' processes added up"
		depth := 0
		for _, s := range shards {
			if l := s.IO.Tests[i].Little; l != nil {
				depth += l.Depth
			}
		}
		iops := total / secs
		out.Little = &result.LittlesLaw{IOPS: iops, MeanLatS: totS / total, ImpliedDepth: iops * totS / total, Depth: depth}
	}
	// the device's own counters are left out: shards on one host would count its device once per shard
	return out, nil
}

// mergeSeries adds a shard's per-second series to the merged one, second by second: rates added, the mean
// latency weighted by each shard's IOs per second; the device's counters left out (see mergeIOTest).
func mergeSeries(out *result.IOTest, in []result.IOSecond) {
	for j, x := range in {
		if j == len(out.Series) {
			out.Series = append(out.Series, result.IOSecond{T: x.T})
		}
		o := &out.Series[j]
		n0, n1 := o.ReadIOPS+o.WriteIOPS, x.ReadIOPS+x.WriteIOPS
		if n0+n1 > 0 {
			o.MeanLatUs = (o.MeanLatUs*n0 + x.MeanLatUs*n1) / (n0 + n1)
		}
		o.ReadIOPS += x.ReadIOPS
		o.WriteIOPS += x.WriteIOPS
		o.ReadMBs += x.ReadMBs
		o.WriteMBs += x.WriteMBs
	}
}

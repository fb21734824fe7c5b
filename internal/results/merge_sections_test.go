package results_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// clone is a deep copy of a result (through its JSON, as a shard's result travels).
func clone(t *testing.T, r *result.Result) *result.Result {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out result.Result
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// asShard makes a copy of r shard i of n, with its share of "of" things of unit.
func asShard(t *testing.T, r *result.Result, id string, i, n int, unit string, from, to, of int) *result.Result {
	s := clone(t, r)
	s.RunID = id
	s.Options["shard"] = strings.Join([]string{itoa(i), itoa(n)}, "/")
	s.Options["shard_share"] = map[string]any{"unit": unit, "from": float64(from), "to": float64(to), "of": float64(of)}
	return s
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func metricOf(r *result.Result, name string) (float64, bool) {
	for _, m := range r.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

// A TPC-H-derived throughput test of 4 streams, split into the two shards that ran streams 1-2 and 3-4 from the
// same start (shard 2's last stream ending before shard 1's), merges into the single run's figures exactly:
// its streams, Ts, geometric mean and Throughput@Size (computed the single run's way, not averaged); a shard
// whose clock ran 5 s behind merges the same once its --clock-ref offset is applied; shards that started apart,
// hold a power test or a refresh stream, or ran the same stream are refused in one line.
func TestMergeTPCHThroughputShards(t *testing.T) {
	dir := t.TempDir()
	url := "duckdb://" + filepath.Join(dir, "h.duckdb")
	clitest.Must(t, "tpch", "build", "--target", url, "--scale", "0.01")
	file := filepath.Join(dir, "whole.json")
	clitest.Must(t, "tpch", "run", "--target", url, "--throughput", "--streams", "4", "--queries", "1,6,14", "--seed", "9", "--result", file, "--store", "")
	whole, _ := clitest.ReadResult(t, file)
	wt := whole.Analytic.Tests[0]
	if wt.Kind != "throughput" || len(wt.QueryStreams) != 4 || wt.ThroughputAtSize == nil || wt.StartUnixS == 0 {
		t.Fatalf("the single run's test: %+v", wt)
	}
	split := func(id string, i, lo, hi int) *result.Result {
		s := asShard(t, whole, id, i, 2, "streams", lo, hi, 4)
		tt := &s.Analytic.Tests[0]
		tt.QueryStreams = tt.QueryStreams[lo:hi]
		tt.Streams = hi - lo
		longest := 0.0
		for _, qs := range tt.QueryStreams {
			longest = max(longest, qs.Seconds)
		}
		if i == 2 || longest > tt.Seconds {
			tt.Seconds = min(longest, wt.Seconds) // the shard that ends first: Ts is the other's
		}
		th := result.ThroughputAtSize(tt.Streams, 3, tt.Seconds, s.Analytic.Scale)
		tt.ThroughputAtSize = &th
		return s
	}
	a, b := split("rA", 1, 0, 2), split("rB", 2, 2, 4)
	m, err := results.MergeResults([]*result.Result{b, a}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mt := m.Analytic.Tests[0]
	if m.Status != result.StatusOK || mt.Seconds != wt.Seconds || *mt.ThroughputAtSize != *wt.ThroughputAtSize || *mt.GeomeanSeconds != *wt.GeomeanSeconds ||
		mt.Streams != 4 || len(mt.QueryStreams) != 4 || mt.QueryStreams[0].Stream != 1 || mt.QueryStreams[3].Stream != 4 {
		t.Fatalf("merged %s: Ts %v Throughput@Size %v geomean %v streams %d; the single run: Ts %v Throughput@Size %v geomean %v",
			m.Status, mt.Seconds, *mt.ThroughputAtSize, *mt.GeomeanSeconds, mt.Streams, wt.Seconds, *wt.ThroughputAtSize, *wt.GeomeanSeconds)
	}
	got, ok1 := metricOf(m, "Throughput@Size (subset Q1,6,14 of 22)")
	want, ok2 := metricOf(whole, "Throughput@Size (subset Q1,6,14 of 22)")
	if !ok1 || !ok2 || got != want {
		t.Fatalf("merged metric %v (%v), the single run's %v (%v): %+v", got, ok1, want, ok2, m.Metrics)
	}
	if err := validate(m); err != nil {
		t.Fatalf("the merged result does not validate: %v", err)
	}

	// a clock 5 s behind the reference's, its offset recorded: the same merge
	late := clone(t, b)
	late.Analytic.Tests[0].StartUnixS -= 5
	late.Options["clock"] = map[string]any{"ref": "http://127.0.0.1:1", "offset_ms": 5000.0}
	m2, err := results.MergeResults([]*result.Result{a, late}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(m2.Analytic.Tests[0].Seconds - wt.Seconds); d > 1e-6 {
		t.Fatalf("with a clock offset, Ts %v, want %v", m2.Analytic.Tests[0].Seconds, wt.Seconds)
	}
	// without it, the windows start 5 s apart
	skew := clone(t, b)
	skew.Analytic.Tests[0].StartUnixS += 5
	refuse := func(what string, want string, shards ...*result.Result) {
		t.Helper()
		_, err := results.MergeResults(shards, nil)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Fatalf("%s: %v, want one line with %q", what, err, want)
		}
	}
	refuse("windows apart", "start 5s apart", a, skew)
	pw := clone(t, b)
	pw.Analytic.Tests = append(pw.Analytic.Tests, result.AnalyticTest{Kind: "power", Streams: 1, Status: result.StatusOK})
	refuse("a power test", "power test, which is one per run", a, pw)
	rf := clone(t, b)
	rf.Analytic.Tests[0].Refresh = []result.RefreshPair{{Pair: 1, Status: result.StatusOK}}
	refuse("a refresh stream", "refresh stream", a, rf)
	twice := asShard(t, a, "rC", 2, 2, "streams", 2, 4, 4) // claims streams 3-4, ran 1-2
	refuse("a stream twice", "stream 1 ran in two shards", a, twice)
	old := clone(t, b)
	old.Analytic.Tests[0].StartUnixS = 0
	refuse("no start time", "does not record when its test started", a, old)

	// one shard missing: incomplete, named
	m3, err := results.MergeResults([]*result.Result{a}, []string{"rB"})
	if err != nil || m3.Status != result.StatusIncomplete || !strings.Contains(m3.Error, "rB is missing") {
		t.Fatalf("a missing shard: %v, %s %q", err, m3.Status, m3.Error)
	}
}

// Storage tests split over two shards, each with its own IOs: the merged read and write figures are those one
// run computes over the union of the IOs on the same window (result.IODirOf): IOs, bytes, IOPS and MB/s summed,
// every percentile exactly that of the union's histogram (not an average of the shards' percentiles, which
// here differ from it), the mean the IO-weighted one; a test of several passes, or shards without histograms,
// are refused.
func TestMergeIOShards(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const secs = 10.0
	all := [2]*hdrhistogram.Histogram{hdrhistogram.New(1, 3600e9, 2), hdrhistogram.New(1, 3600e9, 2)}
	var allIOs, allBytes [2]int64
	var allLat [2]float64
	shard := func(id string, i int, scale float64, n int) *result.Result {
		var dirs [2]*result.IODir
		for d := range 2 {
			h := hdrhistogram.New(1, 3600e9, 2)
			lat := 0.0
			for range n {
				v := int64(rng.ExpFloat64()*scale*1e3) + 1000 // ns
				h.RecordValue(v)
				all[d].RecordValue(v)
				lat += float64(v)
			}
			allIOs[d] += int64(n)
			allBytes[d] += int64(n) * 4096
			allLat[d] += lat
			dirs[d] = result.IODirOf(int64(n), int64(n)*4096, lat, h, secs)
		}
		tt := result.IOTest{Name: "job1", RW: "randrw", BS: 4096, IODepth: 4, NumJobs: 1, RWMixRead: 50, IOEngine: "psync", RuntimeS: secs,
			TimeBased: true, Passes: 1, Status: result.StatusOK, Seconds: secs, StartUnixS: 1.7e9, Read: dirs[0], Write: dirs[1],
			Jobs: []result.IOJob{{Job: "job1", File: id}}, Series: []result.IOSecond{}}
		r := &result.Result{SchemaVersion: result.SchemaVersion, Tool: result.Tool{Name: "dbdyno"}, Command: []string{"dbdyno", "io", "run"}, Workload: "io", RunID: id, Status: result.StatusOK,
			Options: map[string]any{"shard": itoa(i) + "/2", "shard_share": map[string]any{"unit": "jobs", "from": float64(i - 1), "to": float64(i), "of": 2.0}},
			IO:      &result.IO{Files: []result.IOFile{{Path: id, SizeBytes: 1 << 20}}, Tests: []result.IOTest{tt}}}
		if k, ok := result.KindOf("io"); ok {
			r.Metrics = k.Derive(r)
		}
		return r
	}
	a, b := shard("rA", 1, 100, 20000), shard("rB", 2, 900, 5000) // b's latencies 9x a's: averaging percentiles is wrong
	m, err := results.MergeResults([]*result.Result{a, b}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mt := m.IO.Tests[0]
	for d, got := range []*result.IODir{mt.Read, mt.Write} {
		want := result.IODirOf(allIOs[d], allBytes[d], allLat[d], all[d], secs)
		if got == nil || got.IOs != want.IOs || got.Bytes != want.Bytes || got.IOPS != want.IOPS || got.MBs != want.MBs ||
			got.Lat.P50 != want.Lat.P50 || got.Lat.P90 != want.Lat.P90 || got.Lat.P99 != want.Lat.P99 || got.Lat.P999 != want.Lat.P999 ||
			got.Lat.Min != want.Lat.Min || got.Lat.Max != want.Lat.Max || math.Abs(got.Lat.Mean-want.Lat.Mean) > 1e-9*want.Lat.Mean {
			t.Fatalf("direction %d merged %+v, the union computed as one run: %+v", d, got, want)
		}
		sa, sb := []*result.IODir{a.IO.Tests[0].Read, a.IO.Tests[0].Write}[d], []*result.IODir{b.IO.Tests[0].Read, b.IO.Tests[0].Write}[d]
		if avg := (sa.Lat.P99 + sb.Lat.P99) / 2; avg == got.Lat.P99 {
			t.Fatalf("the shards' averaged p99 %v equals the union's: the test cannot tell them apart", avg)
		}
	}
	iops, ok1 := metricOf(m, "IOPS")
	ia, _ := metricOf(a, "IOPS")
	ib, _ := metricOf(b, "IOPS")
	if !ok1 || math.Abs(iops-(ia+ib)) > 1e-9*iops || m.Status != result.StatusOK || mt.NumJobs != 2 || len(mt.Jobs) != 2 || len(m.IO.Files) != 2 {
		t.Fatalf("merged %s IOPS %v (shards %v + %v), %d jobs, %d files", m.Status, iops, ia, ib, mt.NumJobs, len(m.IO.Files))
	}
	if err := validate(m); err != nil {
		t.Fatalf("the merged result does not validate: %v", err)
	}
	passes := clone(t, b)
	passes.IO.Tests[0].Passes = 3
	if _, err := results.MergeResults([]*result.Result{a, passes}, nil); err == nil || !strings.Contains(err.Error(), "passes") {
		t.Fatalf("several passes: %v", err)
	}
	old := clone(t, b)
	old.IO.Tests[0].Read.Histogram = ""
	if _, err := results.MergeResults([]*result.Result{a, old}, nil); err == nil || !strings.Contains(err.Error(), "no latency histogram") {
		t.Fatalf("no histogram: %v", err)
	}
	skew := clone(t, b)
	skew.IO.Tests[0].StartUnixS += 1
	if _, err := results.MergeResults([]*result.Result{a, skew}, nil); err == nil || !strings.Contains(err.Error(), "apart") {
		t.Fatalf("windows 1 s apart: %v", err)
	}
}

// validate checks a result against the result schema, as a stored result is read back.
func validate(r *result.Result) error {
	r.Command = []string{"dbdyno", "results", "merge"} // as Merge sets it
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return result.Validate(b)
}

package tpch_test

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// A throughput test driven by two dbdyno processes, each given --shard i/2 and one --start-at, on one SQLite
// SF 0.01 build: each runs its half of the streams (each stream its own seed's queries, as one process given
// all of them runs it), neither starts before that instant, and `dbdyno results merge` of the two puts every
// stream in once: the merged totals (streams, queries, rows) are the shards' sums and one process's, Ts spans
// the first start to the last end, and the geometric mean and Throughput@Size are those of the union of the
// shards' query times (a TPC-H result keeps every query's time, not a histogram: the union's percentiles are
// those of the merged times, checked here as the same multiset).
func TestTPCHShardProcessesMerge(t *testing.T) {
	url := builtCopy(t, "sqlite")
	dir := t.TempDir()
	bin := filepath.Join(filepath.Dir(store.DefaultPath), "dbdyno-tpch-shards")
	if !filepath.IsAbs(bin) {
		t.Fatalf("no test directory to build the command into (%s)", store.DefaultPath)
	}
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/dbdyno/dbdyno/cmd/dbdyno").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(args ...string) (string, error) {
		out, err := exec.Command(bin, args...).CombinedOutput()
		return string(out), err
	}
	const streams, queries = 4, "1,6,14"
	common := []string{"tpch", "run", "--target", url, "--throughput", "--streams", fmt.Sprint(streams), "--queries", queries,
		"--seed", "9", "--store", ""}

	// one process, every stream: its set-up time (start to its test's start) sets how far ahead the shards'
	// --start-at is (two processes then share this machine's cores)
	t0 := time.Now()
	if out, err := run(append(common, "--result", filepath.Join(dir, "ref.json"))...); err != nil {
		t.Fatalf("the reference run: %v\n%s", err, out)
	}
	ref := readResult(t, filepath.Join(dir, "ref.json"))
	rt := throughputTest(t, ref)
	setup := time.Unix(0, int64(rt.StartUnixS*1e9)).Sub(t0)

	at := time.Now().Add(max(6*setup, 3*time.Second))
	type proc struct {
		out string
		err error
	}
	files := []string{filepath.Join(dir, "s1.json"), filepath.Join(dir, "s2.json")}
	done := make(chan proc, 2)
	var cmds []*exec.Cmd
	for i, f := range files {
		cmd := exec.Command(bin, append(common, "--shard", fmt.Sprintf("%d/2", i+1), "--start-at", at.UTC().Format(time.RFC3339Nano), "--result", f)...)
		if err := cmd.Start(); err != nil { // two processes of their own, as on two hosts
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for i, cmd := range cmds {
		go func() {
			var b strings.Builder
			cmd.Stdout, cmd.Stderr = &b, &b
			err := cmd.Wait()
			done <- proc{fmt.Sprintf("shard %d/2: %s", i+1, b.String()), err}
		}()
	}
	for range cmds {
		if p := <-done; p.err != nil {
			t.Fatalf("%v\n%s", p.err, p.out)
		}
	}

	var shards []*result.Result
	var union []result.QueryStream
	for i, f := range files {
		r := readResult(t, f)
		st := throughputTest(t, r)
		if r.Options["shard"] != fmt.Sprintf("%d/2", i+1) {
			t.Fatalf("shard %d records shard %v", i+1, r.Options["shard"])
		}
		if start := time.Unix(0, int64(st.StartUnixS*1e9)); start.Before(at) {
			t.Fatalf("shard %d/2 started its test at %s, before --start-at %s", i+1, start.Format(time.RFC3339Nano), at.UTC().Format(time.RFC3339Nano))
		}
		for _, s := range st.QueryStreams {
			if want := i*streams/2 + len(union)%(streams/2) + 1; s.Stream != want {
				t.Fatalf("shard %d/2 ran stream %d, want %d", i+1, s.Stream, want)
			}
			union = append(union, s)
		}
		shards = append(shards, r)
	}
	if len(union) != streams {
		t.Fatalf("the shards ran %d streams, want %d", len(union), streams)
	}
	// each stream is the one process's same stream: its queries, in its order, with its parameters and rows
	for i, s := range union {
		r := rt.QueryStreams[i]
		if s.Stream != r.Stream || len(s.Queries) != len(r.Queries) {
			t.Fatalf("stream %d: %d queries, one process's stream %d %d", s.Stream, len(s.Queries), r.Stream, len(r.Queries))
		}
		for j, q := range s.Queries {
			if rq := r.Queries[j]; q.Query != rq.Query || q.Params != rq.Params || q.Rows != rq.Rows || q.Status != result.StatusOK {
				t.Fatalf("stream %d, query %d: Q%d %q %d rows %s; one process: Q%d %q %d rows", s.Stream, j+1, q.Query, q.Params, q.Rows, q.Status, rq.Query, rq.Params, rq.Rows)
			}
		}
	}

	// the merge, with the starts the shards recorded as clock offsets when this machine started them further
	// apart than the merge takes (1% of the test's time)
	stPath := filepath.Join(dir, "merged.db")
	out, err := run(append([]string{"results", "merge", "--store", stPath}, files...)...)
	if err != nil {
		if !strings.Contains(out, "measured windows start ") {
			t.Fatalf("merge: %v\n%s", err, out)
		}
		t.Logf("the shards started apart: %s; merged with their recorded starts as clock offsets", strings.TrimSpace(out))
		first := min(throughputTest(t, shards[0]).StartUnixS, throughputTest(t, shards[1]).StartUnixS)
		for i, r := range shards {
			c := *r
			c.Options = maps.Clone(r.Options)
			c.Options["clock"] = map[string]any{"ref": "http://127.0.0.1:1", "offset_ms": -(throughputTest(t, r).StartUnixS - first) * 1000, "round_trip_ms": 0.1}
			b, err := c.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			files[i] = filepath.Join(dir, fmt.Sprintf("aligned%d.json", i+1))
			if err := os.WriteFile(files[i], b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if out, err = run(append([]string{"results", "merge", "--store", stPath}, files...)...); err != nil {
			t.Fatalf("merge with the recorded starts: %v\n%s", err, out)
		}
	}
	if !strings.Contains(out, "merged 2 shard(s) into ") {
		t.Fatalf("merge: %s", out)
	}
	m := clitest.StoredOne(t, stPath)
	mt := throughputTest(t, m)
	if m.Status != result.StatusOK || mt.Status != result.StatusOK || len(m.Parts) != 2 || m.Options["shards"] != 2.0 || mt.Streams != streams {
		t.Fatalf("merged: status %s (%s), test %s, %d parts, shards %v, %d streams", m.Status, m.Error, mt.Status, len(m.Parts), m.Options["shards"], mt.Streams)
	}
	if !reflect.DeepEqual(mt.QueryStreams, union) {
		t.Fatalf("the merged streams are not the shards' (each once, in order):\n%+v\n%+v", mt.QueryStreams, union)
	}
	var sumQ, sumRows, refQ, refRows, mQ, mRows int
	for _, s := range union {
		for _, q := range s.Queries {
			sumQ, sumRows = sumQ+1, sumRows+q.Rows
		}
	}
	for _, s := range rt.QueryStreams {
		for _, q := range s.Queries {
			refQ, refRows = refQ+1, refRows+q.Rows
		}
	}
	for _, s := range mt.QueryStreams {
		for _, q := range s.Queries {
			mQ, mRows = mQ+1, mRows+q.Rows
		}
	}
	if mQ != sumQ || mRows != sumRows || mQ != refQ || mRows != refRows || mQ != streams*3 {
		t.Fatalf("queries/rows: merged %d/%d, the shards' sum %d/%d, one process %d/%d", mQ, mRows, sumQ, sumRows, refQ, refRows)
	}
	// Ts: the first start to the last end, on the (corrected) clock of the files merged
	var first, last float64
	for i, f := range files {
		r := readResult(t, f)
		st := throughputTest(t, r)
		s := st.StartUnixS + clockMS(r)/1000
		if i == 0 || s < first {
			first = s
		}
		last = max(last, s+st.Seconds)
	}
	if d := mt.Seconds - (last - first); d > 1e-6 || d < -1e-6 || mt.StartUnixS != first {
		t.Fatalf("merged Ts %g from %f, want %g from %f", mt.Seconds, mt.StartUnixS, last-first, first)
	}
	// the union's statistics: the merged query times are the shards' (the same multiset, so every percentile
	// the same), the geometric mean and Throughput@Size computed from them as one run computes them
	mTimes, uTimes := result.QueryTimes(mt.QueryStreams), result.QueryTimes(union)
	slices.Sort(mTimes)
	slices.Sort(uTimes)
	if !slices.Equal(mTimes, uTimes) {
		t.Fatalf("merged query times %v, the shards' %v", mTimes, uTimes)
	}
	if mt.GeomeanSeconds == nil || *mt.GeomeanSeconds != result.Geomean(result.QueryTimes(union)) {
		t.Fatalf("merged geometric mean %v, the union's %g", mt.GeomeanSeconds, result.Geomean(result.QueryTimes(union)))
	}
	if th := result.ThroughputAtSize(streams, 3, mt.Seconds, 0.01); mt.ThroughputAtSize == nil || *mt.ThroughputAtSize != th {
		t.Fatalf("merged Throughput@Size %v, want %g", mt.ThroughputAtSize, th)
	}
	if !slices.ContainsFunc(m.Metrics, func(x result.Metric) bool {
		return strings.HasPrefix(x.Name, "Throughput@Size") && x.Value == *mt.ThroughputAtSize
	}) {
		t.Fatalf("merged metrics %+v lack its Throughput@Size", m.Metrics)
	}
}

func readResult(t *testing.T, path string) *result.Result {
	t.Helper()
	r, err := result.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// throughputTest is a result's one throughput test.
func throughputTest(t *testing.T, r *result.Result) *result.AnalyticTest {
	t.Helper()
	if r.Analytic != nil {
		for i := range r.Analytic.Tests {
			if r.Analytic.Tests[i].Kind == "throughput" {
				return &r.Analytic.Tests[i]
			}
		}
	}
	t.Fatalf("%s holds no throughput test", r.RunID)
	return nil
}

// clockMS is the clock offset a result recorded (0 without one).
func clockMS(r *result.Result) float64 {
	c, _ := r.Options["clock"].(map[string]any)
	ms, _ := c["offset_ms"].(float64)
	return ms
}

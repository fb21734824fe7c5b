package results_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Two TPC-C shards run at the same time on their own SQLite copies, merged: the counts are their sums and the
// merged percentiles those of the union of their samples, computed here from their stored histograms; a
// shard that was aborted, or is not in the store, leaves the merge incomplete naming it; shards without
// histograms, or whose windows start apart, are refused.
func TestMergeShards(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db"), filepath.Join(dir, "c.db")
	stPath := filepath.Join(dir, "results.db")
	clitest.TPCCBuiltAt(t, "sqlite://"+a)
	copyFile(t, a, b)
	copyFile(t, a, c)
	// a shard aborted (Ctrl-C as soon as it measures): its set-up time (start to measuring, less the ramp-up) is
	// the reference the shards' --start-at derives from (a loaded machine sets up more slowly)
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	t0 := time.Now()
	var setup time.Duration
	clitest.RunWatching(actx, func(line string) {
		if strings.Contains(line, "ramp-up done, measuring") {
			setup = time.Since(t0) - time.Second
			cancel()
		}
	}, "tpcc", "run", "--target", "sqlite://"+c, "--vus", "1", "--rampup", "1s", "--duration", "3s", "--seed", "5", "--store", stPath)
	st, err := store.Open(ctx, stPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.List(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	aborted := ""
	for _, e := range all {
		if e.Status == result.StatusAborted {
			aborted = e.RunID
		}
	}
	if aborted == "" {
		t.Fatal("the interrupted shard stored no aborted run")
	}
	// the shards: one command driving both copies at once, their measured windows starting at one instant
	// (--start-at: without it each target's ramp-up counts from its own start, 208ms apart on a loaded machine),
	// far enough ahead for both targets' set-up, however slow the machine
	startAt := "+" + max(4*setup, 3*time.Second).Round(time.Millisecond).String()
	clitest.Must(t, "tpcc", "run", "--target", "sqlite://"+a, "--target", "sqlite://"+b, "--vus", "1", "--rampup", "1s",
		"--duration", "3s", "--seed", "5", "--store", stPath, "--start-at", startAt)
	entries, err := st.List(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var shards []*result.Result
	for _, e := range entries {
		if e.RunID == aborted {
			continue
		}
		rs, err := st.Get(ctx, e.RunID)
		if err != nil {
			t.Fatal(err)
		}
		if r := rs[0]; !r.Group.Aggregate {
			shards = append(shards, r)
		}
	}
	if len(shards) != 2 {
		t.Fatalf("%d shard runs stored, want 2", len(shards))
	}
	ids := []string{shards[0].RunID, shards[1].RunID}
	// the merge's 1%, against the spread of the starts the targets recorded: refused beyond 1% of both windows,
	// kept within 1% of each (between the two, either: the merge reads one shard's length), and when refused,
	// saying that spread; a loaded machine may start them further apart, and then they are merged once the later
	// one's recorded start is given to the merge as a clock offset (as --clock-ref records one)
	if shards[1].Measurement.MeasureStart.Before(shards[0].Measurement.MeasureStart) {
		shards[0], shards[1], ids[0], ids[1] = shards[1], shards[0], ids[1], ids[0]
	}
	spread := shards[1].Measurement.MeasureStart.Sub(shards[0].Measurement.MeasureStart)
	lo, hi := time.Duration(1<<62), time.Duration(0)
	for _, r := range shards {
		w := time.Duration(r.Measurement.MeasuredSecs * float64(time.Second))
		lo, hi = min(lo, time.Duration(float64(w)*0.01)), max(hi, time.Duration(float64(w)*0.01))
	}
	_, err = results.MergeResults(shards, nil)
	want := "the shards' measured windows start " + spread.Round(time.Millisecond).String() + " apart, more than 1% of their "
	if refused := err != nil; refused && (spread <= lo || !strings.Contains(err.Error(), want)) || !refused && spread > hi {
		t.Fatalf("merge of targets started %s apart (1%% of their windows: %s to %s): %v, want it refused (saying %q) only beyond that", spread, lo, hi, err, want)
	} else if refused {
		t.Logf("the targets started %s apart (1%% of their windows: %s): merged with the later one's recorded start as a clock offset", spread, hi)
		late := *shards[1]
		late.Options = maps.Clone(late.Options)
		late.Options["clock"], late.RunID = map[string]any{"ref": "http://127.0.0.1:1", "offset_ms": -float64(spread.Microseconds()) / 1000, "round_trip_ms": 0.1}, shards[1].RunID+"-aligned"
		if err := st.Add(ctx, &late, ""); err != nil {
			t.Fatal(err)
		}
		shards[1], ids[1] = &late, late.RunID
	}
	var out bytes.Buffer
	merged, err := results.Merge(ctx, &out, stPath, ids, []string{"study=shards"}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "merged 2 shard(s) into "+merged.RunID+" (ok, NOPM ") {
		t.Fatalf("merge said %q", out.String())
	}
	stored, err := st.Get(ctx, merged.RunID)
	if err != nil {
		t.Fatal(err)
	}
	m := stored[0]
	if m.Status != result.StatusOK || len(m.Parts) != 2 || m.Labels["study"] != "shards" {
		t.Fatalf("merged: status %s, %d parts, labels %v", m.Status, len(m.Parts), m.Labels)
	}
	mm := m.Measurement
	if want := shards[0].Measurement.Committed + shards[1].Measurement.Committed; mm.Committed != want || want == 0 {
		t.Fatalf("merged committed %d, shards' sum %d", mm.Committed, want)
	}
	for name, tx := range mm.Transactions {
		var want int64
		union := hdrhistogram.New(1, 3600_000_000, 3)
		for _, s := range shards {
			st := s.Measurement.Transactions[name]
			want += st.Count
			h, err := result.DecodeHistogram(st.Histogram)
			if err != nil {
				t.Fatalf("shard %s %s: %v", s.RunID, name, err)
			}
			union.Merge(h)
		}
		if tx.Count != want {
			t.Errorf("%s: merged count %d, shards' sum %d", name, tx.Count, want)
		}
		if union.TotalCount() == 0 {
			t.Fatalf("%s: no latencies recorded", name)
		}
		if p := union.ValueAtQuantile(99); tx.Latency.P99 != p || tx.Latency.P50 != union.ValueAtQuantile(50) || tx.Latency.Max != union.Max() {
			t.Errorf("%s: merged p99 %d p50 %d max %d, the union's %d %d %d", name, tx.Latency.P99, tx.Latency.P50, tx.Latency.Max, p, union.ValueAtQuantile(50), union.Max())
		}
		if h, err := result.DecodeHistogram(tx.Histogram); err != nil || !h.Equals(union) {
			t.Errorf("%s: the merged result's histogram is not the union (%v)", name, err)
		}
	}
	if h, ok := m.Headline(); !ok || h.Value != shards[0].Metrics[0].Value+shards[1].Metrics[0].Value {
		t.Errorf("merged headline %+v, shards' %v + %v", h, shards[0].Metrics[0].Value, shards[1].Metrics[0].Value)
	}
	// the merged result is a normal stored result: compare reads it
	if err := results.CompareWith(ctx, io.Discard, stPath, []string{merged.RunID, ids[0]}, results.CompareOptions{}); err != nil {
		t.Errorf("compare of the merged result: %v", err)
	}

	// the aborted shard (above) and one that is not in the store
	out.Reset()
	inc, err := results.Merge(ctx, &out, stPath, []string{ids[0], ids[1], aborted, "r-gone"}, nil, "test")
	if !errors.Is(err, results.ErrIncomplete) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), inc.RunID+" is stored") {
		t.Fatalf("an incomplete merge gives %v, want one line naming the stored result", err)
	}
	if inc.Status != result.StatusIncomplete || !strings.Contains(inc.Error, "shard "+aborted+" aborted") || !strings.Contains(inc.Error, "r-gone is missing") ||
		inc.Measurement.Committed != mm.Committed || len(inc.Parts) != 4 {
		t.Fatalf("merge with an aborted and a missing shard: status %s, error %q, committed %d (want %d), %d parts", inc.Status, inc.Error, inc.Measurement.Committed, mm.Committed, len(inc.Parts))
	}

	// refused: a shard without histograms (as written before them), and windows that start apart
	old := *shards[1]
	om := *old.Measurement
	om.Transactions = map[string]result.TxStats{}
	for k, v := range shards[1].Measurement.Transactions {
		v.Histogram = ""
		om.Transactions[k] = v
	}
	old.Measurement, old.RunID = &om, "r-old"
	late := *shards[1]
	lm := *late.Measurement
	lm.MeasureStart = lm.MeasureStart.Add(lm.MeasureEnd.Sub(lm.MeasureStart) / 20)
	late.Measurement, late.RunID = &lm, "r-late"
	other := *shards[1]
	other.Options = map[string]any{}
	for k, v := range shards[1].Options {
		other.Options[k] = v
	}
	other.Options["mode"], other.RunID = "procedures", "r-other"
	for _, r := range []*result.Result{&old, &late, &other} {
		if err := st.Add(ctx, r, ""); err != nil {
			t.Fatal(err)
		}
	}
	for ref, want := range map[string]string{"r-old": "has no latency histogram", "r-late": "measured windows start", "r-other": "did other work",
		ids[0]: "named twice"} {
		if _, err := results.Merge(ctx, io.Discard, stPath, []string{ids[0], ref}, nil, "test"); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("merge with %s: %v, want one line saying %q", ref, err, want)
		}
	}

	// the late shard's clock ran ahead of the reference by as much (--clock-ref recorded it): corrected, its
	// window starts with the others'
	fixed := late
	fixed.Options = maps.Clone(late.Options)
	shift := lm.MeasureStart.Sub(shards[1].Measurement.MeasureStart)
	offset := -float64(shift.Microseconds()) / 1000
	if c, ok := late.Options["clock"].(map[string]any); ok { // the offset that aligned it above, and the shift
		offset += c["offset_ms"].(float64)
	}
	fixed.Options["clock"], fixed.RunID = map[string]any{"ref": "http://127.0.0.1:1", "offset_ms": offset, "round_trip_ms": 0.1}, "r-fixed"
	if fm, err := results.MergeResults([]*result.Result{shards[0], &fixed}, nil); err != nil || fm.Status != result.StatusOK || fm.Options["clock"] != nil {
		t.Fatalf("merge with the late shard's clock offset: %v", err)
	}
	if shards[0].Options["start_at"] == nil || shards[0].Options["start_at"] != shards[1].Options["start_at"] {
		t.Fatalf("the shards run with --start-at record it: %v", shards[0].Options["start_at"])
	}

	// shards given as result files (from drivers that keep their own stores) merge into a new store; a file
	// that is not there is a missing shard
	var files []string
	for i, r := range shards {
		f := filepath.Join(dir, "shard"+string(rune('1'+i))+".json")
		b, err := r.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	fm, err := results.Merge(ctx, io.Discard, filepath.Join(dir, "new.db"), files, nil, "test")
	if err != nil || fm.Status != result.StatusOK || fm.Measurement.Committed != mm.Committed || fm.Measurement.Transactions["new_order"].Latency != mm.Transactions["new_order"].Latency {
		t.Fatalf("merge of result files: %v", err)
	}
	gone := filepath.Join(dir, "shard3.json")
	if fm, err := results.Merge(ctx, io.Discard, filepath.Join(dir, "new.db"), append(files, gone), nil, "test"); !errors.Is(err, results.ErrIncomplete) || fm.Status != result.StatusIncomplete || !strings.Contains(fm.Error, gone+" is missing") {
		t.Fatalf("merge with a missing file: %v", err)
	}

	// shards named by their labels (a scheduler knows its shards' indexes, not their run IDs); one not stored
	// is missing
	l1, l2 := *shards[0], *shards[1]
	l1.RunID, l2.RunID = "r-l1", "r-l2"
	l1.Labels, l2.Labels = map[string]any{"part": "shard-1", "study": "k"}, map[string]any{"part": "shard-2", "study": "k"}
	for _, r := range []*result.Result{&l1, &l2} {
		if err := st.Add(ctx, r, ""); err != nil {
			t.Fatal(err)
		}
	}
	if fm, err := results.Merge(ctx, io.Discard, stPath, []string{"label:study=k,part=shard-1", "label:study=k,part=shard-2", "label:study=k,part=shard-3"}, nil, "test"); !errors.Is(err, results.ErrIncomplete) ||
		!strings.Contains(fm.Error, "label:study=k,part=shard-3 is missing") || fm.Measurement.Committed != mm.Committed {
		t.Fatalf("merge by labels: %v", err)
	}
	if _, err := results.Merge(ctx, io.Discard, stPath, []string{"label:study=k", "r-l1"}, nil, "test"); err == nil || !strings.Contains(err.Error(), "names 2 runs") {
		t.Fatalf("a label naming two runs: %v", err)
	}

	// --shard: recorded in the result; more shards than warehouses refused; the merge checks the shards cover
	// 1..N once (a share no shard took leaves it incomplete, a share taken twice is refused)
	if r := clitest.Run(ctx, "tpcc", "run", "--target", "sqlite://"+c, "--shard", "2/2", "--duration", "1s", "--store", ""); r.Code == 0 ||
		!strings.Contains(r.Stderr, "2 shards of 1 warehouses") {
		t.Fatalf("--shard 2/2 of one warehouse: exit %d, %s", r.Code, r.Stderr)
	}
	one := filepath.Join(dir, "one.json")
	clitest.Must(t, "tpcc", "run", "--target", "sqlite://"+c, "--shard", "1/1", "--rampup", "0s", "--duration", "1s", "--store", "", "--result", one)
	if r, err := result.Read(one); err != nil || r.Options["shard"] != "1/1" || r.Options["shard_range"] != "warehouses 1..1" {
		t.Fatalf("--shard 1/1 recorded %v %v (%v)", r.Options["shard"], r.Options["shard_range"], err)
	}
	s1, s2 := *shards[0], *shards[1]
	s1.Options, s2.Options = map[string]any{"shard": "1/3"}, map[string]any{"shard": "2/3"}
	// each its own options: the later one's holds the clock offset it was aligned by, where the targets started
	// more than 1% apart (it once took the earlier one's, and the merge refused the windows under stress-ng)
	maps.Copy(s1.Options, shards[0].Options)
	maps.Copy(s2.Options, shards[1].Options)
	s1.Options["shard"], s2.Options["shard"] = "1/3", "2/3"
	if fm, err := results.MergeResults([]*result.Result{&s1, &s2}, nil); err != nil || fm.Status != result.StatusIncomplete || !strings.Contains(fm.Error, "shard 3/3 was not named") {
		t.Fatalf("shards 1/3 and 2/3 merged: %v", err)
	}
	s2.Options["shard"] = "1/3"
	if _, err := results.MergeResults([]*result.Result{&s1, &s2}, nil); err == nil || !strings.Contains(err.Error(), "are both shard 1/3") {
		t.Fatalf("shard 1/3 twice: %v", err)
	}
	if _, err := results.MergeResults([]*result.Result{&s1, shards[1]}, nil); err == nil || !strings.Contains(err.Error(), "not run with --shard") {
		t.Fatalf("a shard without --shard among shards with it: %v", err)
	}
}

func TestMergeRefusesNoStore(t *testing.T) {
	if _, err := results.Merge(context.Background(), io.Discard, "", []string{"a.json", "b.json"}, nil, "test"); err == nil || !strings.Contains(err.Error(), `--store "" keeps nothing`) {
		t.Fatalf("merge into no store: %v", err)
	}
	if _, err := results.Merge(context.Background(), io.Discard, filepath.Join(t.TempDir(), "s.db"), []string{"a.json"}, nil, "test"); err == nil || !strings.Contains(err.Error(), "at least two shards") {
		t.Fatalf("merge of one shard: %v", err)
	}
}

package ycsb_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// TestYCSBShardsMerge: a load and a run driven as two shards at one --start-at cover the records and the
// operations once between them (each shard its share), and dbdyno results merge takes them as one run; a
// workload that inserts is refused as a sharded run.
func TestYCSBShardsMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "y.db")
	common := []string{"--target", url, "--workload", "b", "-p", "recordcount=301", "--store", ""}
	shards := func(verb string, merge bool, extra ...string) []*result.Result {
		t.Helper()
		at := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339Nano)
		var wg sync.WaitGroup
		outs := make([]clitest.Result, 2)
		files := make([]string, 2)
		for i := range outs {
			files[i] = filepath.Join(dir, fmt.Sprintf("%s%d.json", verb, i+1))
			wg.Add(1)
			go func() {
				defer wg.Done()
				args := append(append([]string{"ycsb", verb}, common...), extra...)
				outs[i] = clitest.Run(t.Context(), append(args, "--threads", "2", "--shard", fmt.Sprintf("%d/2", i+1), "--start-at", at, "--result", files[i])...)
			}()
		}
		wg.Wait()
		var rs []*result.Result
		for i, o := range outs {
			if o.Code != 0 {
				t.Fatalf("shard %d/2 of %s: exit %d\n%s%s", i+1, verb, o.Code, o.Stdout, o.Stderr)
			}
			r, _ := clitest.ReadResult(t, files[i])
			rs = append(rs, r)
		}
		if !merge {
			return rs
		}
		merged, err := results.MergeResults(rs, nil) // dbdyno results merge's
		if err != nil {
			t.Fatalf("merge of the %s shards: %v", verb, err)
		}
		if merged.Status != result.StatusOK || merged.Measurement.Committed != rs[0].Measurement.Committed+rs[1].Measurement.Committed {
			t.Fatalf("merged %s: status %s (%s), %d committed of %d + %d", verb, merged.Status, merged.Error, merged.Measurement.Committed,
				rs[0].Measurement.Committed, rs[1].Measurement.Committed)
		}
		return append(rs, merged)
	}
	// a load's window is a few milliseconds here: its shards' starts would be more than 1% of it apart, which
	// the merge refuses (the count-based run below is the same); their counts are checked shard by shard
	load := shards("load", false)
	if a, b := load[0].Measurement.Committed, load[1].Measurement.Committed; a != 150 || b != 151 {
		t.Fatalf("the shards loaded %d and %d records, want 150 and 151 of 301", a, b)
	}
	if load[0].Options["insertcount"] != 301.0 || load[0].Options["shard"] != "1/2" || load[1].Options["shard_range"] == nil {
		t.Fatalf("a shard's options: %v", load[0].Options)
	}
	if got := records(t, url, "usertable"); got != 301 {
		t.Fatalf("%d records after the sharded load, want 301", got)
	}
	run := shards("run", false, "-p", "operationcount=200")
	if a, b := run[0].Measurement.Committed, run[1].Measurement.Committed; a != 100 || b != 100 {
		t.Fatalf("the shards ran %d and %d operations, want 100 and 100 of 200", a, b)
	}
	if run[0].Options["operationcount"] != 200.0 || run[1].Options["shard"] != "2/2" {
		t.Fatalf("a shard's options: %v", run[1].Options)
	}
	// a timed run's shards, merged as one run
	timed := shards("run", true, "-p", "operationcount=0", "--duration", "3s")
	if timed[2].Options["shards"] != 2 || timed[2].Measurement.Committed == 0 {
		t.Fatalf("merged: %v, %d operations", timed[2].Options, timed[2].Measurement.Committed)
	}
	if r := clitest.Run(t.Context(), append([]string{"ycsb", "load", "--shard", "1/2", "--drop"}, common...)...); r.Code == 0 || !strings.Contains(r.Stderr, "ycsb drop") {
		t.Errorf("a sharded load with --drop: exit %d, %s", r.Code, r.Stderr)
	}
	r := clitest.Run(t.Context(), append([]string{"ycsb", "run", "--shard", "1/2", "-p", "operationcount=10"}, "--target", url, "--workload", "d", "-p", "recordcount=301", "--store", "")...)
	if r.Code == 0 || !strings.Contains(r.Stderr, "inserts") {
		t.Errorf("a sharded run of workload d: exit %d, %s", r.Code, r.Stderr)
	}
}

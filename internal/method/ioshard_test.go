package method_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// Two `io run --shard i/2` processes on one machine, started together by --start-at in a temp directory: each
// runs its own of the job's 2 clones on its own file, and `dbdyno results merge` of their result files is the
// 2-clone test: IOs added, IOPS the IOs over the window, the p99 exactly that of the union of the shards'
// stored histograms. On a file the clones share, shard 2/2 writes only the second half of it (the first
// half's bytes are unchanged), and a shared file that is still to be laid out is refused.
func TestIOShardProcessesMerge(t *testing.T) {
	dir := t.TempDir()
	bin, err := dbdynoBinary()
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		out, err := exec.Command(bin, args...).CombinedOutput()
		return string(out), err
	}
	must := func(args ...string) string {
		t.Helper()
		out, err := run(args...)
		if err != nil {
			t.Fatalf("dbdyno %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	// the files laid out once, so the shards' set-up is short and alike
	must("io", "run", "--directory", data, "--size", "1m", "--numjobs", "2", "--rw", "read", "--runtime", "0.1", "--store", "")

	at := time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339Nano)
	files := []string{filepath.Join(dir, "s1.json"), filepath.Join(dir, "s2.json")}
	errs := make(chan error, 2)
	outs := make([]string, 2)
	for i := range 2 {
		go func() {
			var err error
			outs[i], err = run("io", "run", "--directory", data, "--size", "1m", "--numjobs", "2", "--rw", "randrw", "--iodepth", "2",
				"--runtime", "5", "--shard", []string{"1/2", "2/2"}[i], "--start-at", at, "--result", files[i], "--store", "")
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("a shard: %v\n%s\n%s", err, outs[0], outs[1])
		}
	}
	var shards []*result.Result
	for i, f := range files {
		r, err := result.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		tt := r.IO.Tests[0]
		want := filepath.Join(data, []string{"dbdyno.0.0", "dbdyno.1.0"}[i])
		if r.Options["shard"] != []string{"1/2", "2/2"}[i] || tt.NumJobs != 1 || len(tt.Jobs) != 1 || tt.Jobs[0].File != want || tt.Read.Histogram == "" {
			t.Fatalf("shard %d: %v, %d clones, jobs %+v (want one on %s)", i+1, r.Options["shard"], tt.NumJobs, tt.Jobs, want)
		}
		shards = append(shards, r)
	}
	st := filepath.Join(dir, "s.db")
	must("results", "merge", files[0], files[1], "--store", st)
	m := clitest.StoredOne(t, st)
	mt := m.IO.Tests[0]
	a, b := shards[0].IO.Tests[0], shards[1].IO.Tests[0]
	union, err := result.DecodeHistogram(a.Read.Histogram)
	if err != nil {
		t.Fatal(err)
	}
	hb, _ := result.DecodeHistogram(b.Read.Histogram)
	union.Merge(hb)
	if m.Status != result.StatusOK || mt.NumJobs != 2 || mt.Read.IOs != a.Read.IOs+b.Read.IOs || mt.Write.IOs != a.Write.IOs+b.Write.IOs ||
		mt.Read.Lat.P99 != float64(union.ValueAtPercentile(99))/1e3 || mt.Read.IOPS != float64(mt.Read.IOs)/mt.Seconds ||
		mt.Seconds < max(a.Seconds, b.Seconds) || mt.Seconds > 1.01*max(a.Seconds, b.Seconds) {
		t.Fatalf("merged %s: %d clones, read IOs %d (shards %d + %d), p99 %v (union %v), IOPS %v over %vs (shards' windows %v, %v)",
			m.Status, mt.NumJobs, mt.Read.IOs, a.Read.IOs, b.Read.IOs, mt.Read.Lat.P99, float64(union.ValueAtPercentile(99))/1e3, mt.Read.IOPS, mt.Seconds, a.Seconds, b.Seconds)
	}

	// a file the clones share: shard 2/2 writes its second half only
	shared := filepath.Join(dir, "shared")
	if out, err := run("io", "run", "--filename", shared, "--size", "2m", "--numjobs", "2", "--rw", "randwrite", "--runtime", "0.2", "--shard", "1/2", "--store", ""); err == nil ||
		!strings.Contains(out, "lay it out first") {
		t.Fatalf("a shared file to lay out: %v\n%s", err, out)
	}
	must("io", "run", "--filename", shared, "--size", "2m", "--rw", "read", "--runtime", "0.1", "--store", "")
	before, err := os.ReadFile(shared)
	if err != nil {
		t.Fatal(err)
	}
	r2 := filepath.Join(dir, "w2.json")
	must("io", "run", "--filename", shared, "--size", "2m", "--numjobs", "2", "--rw", "randwrite", "--runtime", "0.3", "--shard", "2/2", "--result", r2, "--store", "")
	after, err := os.ReadFile(shared)
	if err != nil {
		t.Fatal(err)
	}
	half := len(before) / 2
	if !bytes.Equal(before[:half], after[:half]) || bytes.Equal(before[half:], after[half:]) {
		t.Fatalf("shard 2/2 of a shared file: first half unchanged %v, second half changed %v", bytes.Equal(before[:half], after[:half]), !bytes.Equal(before[half:], after[half:]))
	}
	w, err := result.Read(r2)
	if err != nil || w.Options["shard_region"] != "bytes 1048576..2097151 of "+shared || w.IO.Tests[0].Write.IOs == 0 {
		t.Fatalf("shard 2/2's region %v (%v)", w.Options["shard_region"], err)
	}
}

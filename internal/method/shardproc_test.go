package method_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/output/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// dbdynoBinary builds the command into dir: the shards are processes of their own, as on several hosts. It
// runs on a goroutine of its own: it returns go build's error and output rather than failing the test.
func dbdynoBinary(dir string) (string, error) {
	bin := filepath.Join(dir, "dbdyno")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/dbdyno/dbdyno/cmd/dbdyno").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

// units is the units of work a measurement holds, whatever their outcome (a --transactions window holds exactly
// that many).
func units(m *result.Measurement) (n int64) {
	for _, tx := range m.Transactions {
		n += tx.Count + tx.Rollbacks + tx.Errors
	}
	return n
}

// shardRun starts `dbdyno tpcc run --shard i/n` as a process; onMeasuring (when set) runs as soon as it says
// it measures.
type shardRun struct {
	cmd  *exec.Cmd
	out  strings.Builder
	mu   sync.Mutex
	done chan error
}

func startShard(t *testing.T, bin string, onMeasuring func(*shardRun), args ...string) *shardRun {
	t.Helper()
	s := &shardRun{cmd: exec.Command(bin, args...), done: make(chan error, 1)}
	pipe, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.cmd.Stderr = s.cmd.Stdout
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(pipe)
		fired := false
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.out.WriteString(line + "\n")
			s.mu.Unlock()
			if !fired && onMeasuring != nil && strings.Contains(line, "ramp-up done, measuring") {
				fired = true
				onMeasuring(s)
			}
		}
		s.done <- s.cmd.Wait()
	}()
	return s
}

func (s *shardRun) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// Three dbdyno processes, each given --shard i/3 and one --start-at, drive one PostgreSQL database: their
// measured windows start together (the merge's 1% holds), they finish the same units of work as one process
// given all of them (--transactions: exactly), and the merge of their result files is ok, its histograms
// holding every shard's samples. A shard killed (SIGKILL) while measuring leaves no result, and the merge of
// the three is stored incomplete, the command exiting non-zero.
func TestShardProcessesMerge(t *testing.T) {
	t.Parallel() // on files (or a server) of its own: its timed windows overlap the other parallel tests'
	pg := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_shards")
	dir := t.TempDir()
	// the command is built while the database is: each takes seconds, one of them on the server
	built := make(chan error, 1)
	var bin string
	go func() {
		var err error
		bin, err = dbdynoBinary(dir)
		built <- err
	}()
	t.Cleanup(func() { <-built }) // should the build of the database fail first: go build ends before dir goes
	clitest.Must(t, "tpcc", "build", "--target", pg, "--warehouses", "3", "--drop")
	if err := <-built; err != nil {
		built <- nil
		t.Fatal(err)
	}
	built <- nil
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("dbdyno %s: %v\n%s", strings.Join(args[:2], " "), err, out)
		}
		return string(out)
	}
	// 600 units of work: each shard's 200 hold every transaction type (a deck of 100 has at least 4 of each)
	const total, n = 600, 3
	common := []string{"tpcc", "run", "--target", pg, "--rampup", "1s", "--store", "", "--seed", "7"}

	// the reference: one process, n virtual users, every unit of work; its set-up time (start to measuring,
	// less the ramp-up) sets how far ahead the shards' start is (n processes share this machine's cores)
	t0 := time.Now()
	var setup time.Duration
	ref := startShard(t, bin, func(*shardRun) { setup = time.Since(t0) - time.Second },
		append(common, "--vus", fmt.Sprint(n), "--transactions", fmt.Sprint(total), "--result", filepath.Join(dir, "ref.json"))...)
	if err := <-ref.done; err != nil {
		t.Fatalf("the reference run: %v\n%s", err, ref.output())
	}
	rr, err := result.Read(filepath.Join(dir, "ref.json"))
	if err != nil || units(rr.Measurement) != total {
		t.Fatalf("the reference run holds %v units of work (%v), want %d", rr, err, total)
	}

	shards := func(round string, kill int) ([]string, []*shardRun) {
		at := time.Now().Add(max(time.Duration(2*n)*setup, 3*time.Second) + time.Second).UTC().Format(time.RFC3339Nano)
		var files []string
		var runs []*shardRun
		for i := 1; i <= n; i++ {
			f := filepath.Join(dir, fmt.Sprintf("%s%d.json", round, i))
			files = append(files, f)
			var on func(*shardRun)
			if i == kill {
				on = func(s *shardRun) { s.cmd.Process.Signal(syscall.SIGKILL) }
			}
			runs = append(runs, startShard(t, bin, on, append(common, "--vus", "1", "--transactions", fmt.Sprint(total/n),
				"--shard", fmt.Sprintf("%d/%d", i, n), "--start-at", at, "--seed", fmt.Sprint(i), "--result", f)...))
		}
		for i, r := range runs {
			if err := <-r.done; (err != nil) != (i+1 == kill) {
				t.Fatalf("shard %d/%d ended %v\n%s", i+1, n, err, r.output())
			}
		}
		return files, runs
	}

	files, _ := shards("s", 0)
	var sum int64
	for i, f := range files {
		r, err := result.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		if r.Options["shard"] != fmt.Sprintf("%d/%d", i+1, n) || r.Options["shard_share"] == nil {
			t.Fatalf("shard %d records shard %v, share %v", i+1, r.Options["shard"], r.Options["shard_share"])
		}
		sum += units(r.Measurement)
	}
	if sum != units(rr.Measurement) {
		t.Fatalf("the %d shards finished %d units of work, one process %d", n, sum, units(rr.Measurement))
	}
	st := filepath.Join(dir, "merged.db")
	out := run(append([]string{"results", "merge", "--store", st}, files...)...)
	if !strings.Contains(out, fmt.Sprintf("merged %d shard(s) into ", n)) || !strings.Contains(out, "(ok, NOPM") {
		t.Fatalf("merge: %s", out)
	}
	m := storedMerge(t, st)
	if m.Status != result.StatusOK || units(m.Measurement) != total || len(m.Parts) != n || m.Options["shards"] != float64(n) {
		t.Fatalf("merged: status %s (%s), %d units of work (want %d), %d parts", m.Status, m.Error, units(m.Measurement), total, len(m.Parts))
	}
	for name, tx := range m.Measurement.Transactions {
		h, err := result.DecodeHistogram(tx.Histogram)
		if err != nil || h.TotalCount() == 0 {
			t.Fatalf("%s: merged histogram %v", name, err)
		}
	}

	// a shard killed while it measures: no result file, the merge incomplete
	files, runs := shards("k", 2)
	if _, err := os.Stat(files[1]); !os.IsNotExist(err) || !strings.Contains(runs[1].output(), "measuring") {
		t.Fatalf("the killed shard left %s (%v)", files[1], err)
	}
	st2 := filepath.Join(dir, "incomplete.db")
	cmd := exec.Command(bin, append([]string{"results", "merge", "--store", st2}, files...)...)
	b, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(b), "(incomplete") || strings.Count(strings.TrimSpace(string(b)), "\n") != 1 {
		t.Fatalf("merge with a killed shard: %v\n%s", err, b)
	}
	m = storedMerge(t, st2)
	if m.Status != result.StatusIncomplete || !strings.Contains(m.Error, files[1]+" is missing") || !strings.Contains(m.Error, "shard 2/3 was not named") ||
		units(m.Measurement) != 2*total/n {
		t.Fatalf("merged with a killed shard: status %s, error %q, %d units of work", m.Status, m.Error, units(m.Measurement))
	}
}

// storedMerge is the one result of a store a merge made.
func storedMerge(t *testing.T, path string) *result.Result {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	es, err := s.List(ctx, store.Filter{})
	if err != nil || len(es) != 1 {
		t.Fatalf("%d runs stored (%v), want the merged one", len(es), err)
	}
	rs, err := s.Get(ctx, es[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	return rs[0]
}

package method_test

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// theBinary is the command built once per test process (into the directory of clitest.Main's default store,
// removed when the tests end) for the tests that start it as processes of their own.
var theBinary struct {
	sync.Once
	path string
	err  error
}

// dbdynoBinary builds the command (once per test process): the shards are processes of their own, as on several
// hosts. It may run on a goroutine of its own: it returns go build's error and output rather than failing the
// test.
func dbdynoBinary() (string, error) {
	theBinary.Do(func() {
		bin := filepath.Join(filepath.Dir(store.DefaultPath), "dbdyno")
		if !filepath.IsAbs(bin) {
			theBinary.err = fmt.Errorf("no test directory to build the command into (%s): run the tests with clitest.Main", store.DefaultPath)
			return
		}
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/dbdyno/dbdyno/cmd/dbdyno").CombinedOutput(); err != nil {
			theBinary.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		theBinary.path = bin
	})
	return theBinary.path, theBinary.err
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

// Three dbdyno processes, each given --shard i/3 and one --start-at, drive one PostgreSQL database: none starts
// its measured window before that instant, they finish the same units of work as one process given all of them
// (--transactions: exactly), and the merge of their result files adds them up exactly, its histograms holding
// every shard's samples. The merge keeps their windows as one run's when their starts, as the shards recorded
// them, lie within 1% of the window, and refuses them naming that spread otherwise (a loaded machine starts
// processes late: then the shards' recorded starts, given to the merge as --clock-ref offsets, align them). A
// shard killed (SIGKILL) while measuring leaves no result, and the merge of the three is stored incomplete,
// the command exiting non-zero.
func TestShardProcessesMerge(t *testing.T) {
	t.Parallel() // on files (or a server) of its own: its timed windows overlap the other parallel tests'
	pg := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_shards")
	dir := t.TempDir()
	// the command is built while the database is: each takes seconds, one of them on the server
	built := make(chan error, 1)
	var bin string
	go func() {
		var err error
		bin, err = dbdynoBinary()
		built <- err
	}()
	clitest.Must(t, "tpcc", "build", "--target", pg, "--warehouses", "3", "--drop")
	if err := <-built; err != nil {
		t.Fatal(err)
	}
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
	// less the ramp-up) sets how far ahead the shards' start is (n+1 processes share this machine's cores)
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

	// the n shards, and beside them a second shard 2/n killed as soon as it measures (the merge of shards 1
	// and 3 with its missing file is incomplete): all started for one instant
	at := time.Now().Add(max(time.Duration(2*(n+1))*setup, 3*time.Second) + time.Second)
	shard := func(i int, f string, on func(*shardRun)) *shardRun {
		return startShard(t, bin, on, append(common, "--vus", "1", "--transactions", fmt.Sprint(total/n), "--shard", fmt.Sprintf("%d/%d", i, n),
			"--start-at", at.UTC().Format(time.RFC3339Nano), "--seed", fmt.Sprint(i), "--result", f)...)
	}
	var files []string
	var runs []*shardRun
	for i := 1; i <= n; i++ {
		files = append(files, filepath.Join(dir, fmt.Sprintf("s%d.json", i)))
		runs = append(runs, shard(i, files[i-1], nil))
	}
	killedFile := filepath.Join(dir, "k2.json")
	killed := shard(2, killedFile, func(s *shardRun) { s.cmd.Process.Signal(syscall.SIGKILL) })
	for i, r := range runs {
		if err := <-r.done; err != nil {
			t.Fatalf("shard %d/%d ended %v\n%s", i+1, n, err, r.output())
		}
	}
	if err := <-killed.done; err == nil {
		t.Fatalf("the killed shard ended well\n%s", killed.output())
	}
	if _, err := os.Stat(killedFile); !os.IsNotExist(err) || !strings.Contains(killed.output(), "measuring") {
		t.Fatalf("the killed shard left %s (%v), or ended before measuring:\n%s", killedFile, err, killed.output())
	}

	var sum int64
	var first, last time.Time
	var shards []*result.Result
	for i, f := range files {
		r, err := result.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		if r.Options["shard"] != fmt.Sprintf("%d/%d", i+1, n) || r.Options["shard_share"] == nil {
			t.Fatalf("shard %d records shard %v, share %v", i+1, r.Options["shard"], r.Options["shard_share"])
		}
		ms := r.Measurement.MeasureStart
		if ms.Before(at) {
			t.Fatalf("shard %d measured from %s, before --start-at %s", i+1, ms.Format(time.RFC3339Nano), at.UTC().Format(time.RFC3339Nano))
		}
		if i == 0 || ms.Before(first) {
			first = ms
		}
		if i == 0 || ms.After(last) {
			last = ms
		}
		sum += units(r.Measurement)
		shards = append(shards, r)
	}
	if sum != units(rr.Measurement) {
		t.Fatalf("the %d shards finished %d units of work, one process %d", n, sum, units(rr.Measurement))
	}

	// the merge's 1%, against the spread of the starts the shards recorded: refused beyond 1% of every shard's
	// window, kept within 1% of each (between the two, either: the merge reads one shard's length), and when
	// refused, saying that spread
	st := filepath.Join(dir, "merged.db")
	spread := last.Sub(first)
	lo, hi := time.Duration(1<<62), time.Duration(0)
	for _, r := range shards {
		w := time.Duration(r.Measurement.MeasuredSecs * float64(time.Second))
		lo, hi = min(lo, time.Duration(float64(w)*0.01)), max(hi, time.Duration(float64(w)*0.01))
	}
	b, err := exec.Command(bin, append([]string{"results", "merge", "--store", st}, files...)...).CombinedOutput()
	out := string(b)
	want := fmt.Sprintf("the shards' measured windows start %s apart, more than 1%% of their ", spread.Round(time.Millisecond))
	if refused := err != nil; refused && (spread <= lo || !strings.Contains(out, want)) || !refused && spread > hi {
		t.Fatalf("merge of shards started %s apart (1%% of their windows: %s to %s): %v, want it refused (saying %q) only beyond that\n%s", spread, lo, hi, err, want, out)
	} else if refused {
		t.Logf("the shards started %s apart (1%% of their windows: %s): merged with their recorded starts as clock offsets", spread, hi)
		for i, r := range shards {
			c := *r
			c.Options = maps.Clone(r.Options)
			c.Options["clock"] = map[string]any{"ref": "http://127.0.0.1:1", "offset_ms": -float64(r.Measurement.MeasureStart.Sub(first).Microseconds()) / 1000,
				"round_trip_ms": 0.1}
			b, err := c.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			files[i] = filepath.Join(dir, fmt.Sprintf("aligned%d.json", i+1))
			if err := os.WriteFile(files[i], b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out = run(append([]string{"results", "merge", "--store", st}, files...)...)
	}
	if !strings.Contains(out, fmt.Sprintf("merged %d shard(s) into ", n)) || !strings.Contains(out, "(ok, NOPM") {
		t.Fatalf("merge: %s", out)
	}
	m := clitest.StoredOne(t, st)
	if m.Status != result.StatusOK || units(m.Measurement) != total || len(m.Parts) != n || m.Options["shards"] != float64(n) {
		t.Fatalf("merged: status %s (%s), %d units of work (want %d), %d parts", m.Status, m.Error, units(m.Measurement), total, len(m.Parts))
	}
	for name, tx := range m.Measurement.Transactions {
		h, err := result.DecodeHistogram(tx.Histogram)
		if err != nil {
			t.Fatalf("%s: merged histogram %v", name, err)
		}
		var want, count int64
		for _, s := range shards {
			count += s.Measurement.Transactions[name].Count
			sh, err := result.DecodeHistogram(s.Measurement.Transactions[name].Histogram)
			if err != nil {
				t.Fatalf("shard %s %s: %v", s.RunID, name, err)
			}
			want += sh.TotalCount()
		}
		if h.TotalCount() == 0 || h.TotalCount() != want || tx.Count != count {
			t.Fatalf("%s: the merged histogram holds %d samples, the shards' %d; merged count %d, the shards' %d", name, h.TotalCount(), want, tx.Count, count)
		}
	}

	// the killed shard: no result file, the merge incomplete
	st2 := filepath.Join(dir, "incomplete.db")
	cmd := exec.Command(bin, "results", "merge", "--store", st2, files[0], killedFile, files[2])
	b, err = cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(b), "(incomplete") || strings.Count(strings.TrimSpace(string(b)), "\n") != 1 {
		t.Fatalf("merge with a killed shard: %v\n%s", err, b)
	}
	m = clitest.StoredOne(t, st2)
	if m.Status != result.StatusIncomplete || !strings.Contains(m.Error, killedFile+" is missing") || !strings.Contains(m.Error, "shard 2/3 was not named") ||
		units(m.Measurement) != 2*total/n {
		t.Fatalf("merged with a killed shard: status %s, error %q, %d units of work", m.Status, m.Error, units(m.Measurement))
	}
}

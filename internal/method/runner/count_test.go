package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// logLines reads a latency log, checking every line's form.
func logLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(b) == 0 {
		lines = nil
	}
	for _, l := range lines {
		if !result.LatencyLogLine.MatchString(l) {
			t.Fatalf("latency log line %q is not client tx_no elapsed_us name outcome epoch_s epoch_us", l)
		}
	}
	return lines
}

// A count-based run measures exactly its count of units of work, however many users share them, from the end
// of the ramp-up; its latency log has one line per unit of work measured; its progress lines say how many are
// done and the time left.
func TestTransactionsEndTheWindow(t *testing.T) {
	wl := &sleeper{}
	var out bytes.Buffer
	log := filepath.Join(t.TempDir(), "lat.log")
	m, err := Run(context.Background(), wl, Config{VUs: 4, Rampup: 100 * time.Millisecond, Duration: time.Hour, Transactions: 301,
		Interval: 50 * time.Millisecond, Progress: &out, LatencyLog: log})
	if err != nil {
		t.Fatal(err)
	}
	if n := m.Committed + m.Rollbacks + m.Errors; n != 301 || m.Rollbacks == 0 {
		t.Fatalf("measured %d units of work (%d rollbacks), want exactly 301", n, m.Rollbacks)
	}
	if m.MeasuredSecs <= 0 || m.PlannedSeconds != 0 {
		t.Fatalf("window %.3fs, planned %.0fs", m.MeasuredSecs, m.PlannedSeconds)
	}
	if want := float64(m.Committed) / (m.MeasuredSecs / 60); m.PerMinute < want*0.999 || m.PerMinute > want*1.001 {
		t.Fatalf("per minute %.1f, want %.1f from the real window", m.PerMinute, want)
	}
	if total := wl.calls.Load(); total <= 301 {
		t.Fatalf("the ramp-up's units of work were counted in the window: %d run in all", total)
	}
	lines := logLines(t, log)
	if len(lines) != 301 {
		t.Fatalf("latency log has %d lines, want 301", len(lines))
	}
	// each user numbers its own units of work from 0
	seen := map[string]int{}
	for _, l := range lines {
		f := strings.Fields(l)
		if want := seen[f[0]]; f[1] != itoa(want) {
			t.Fatalf("client %s's transaction number %s, want %d", f[0], f[1], want)
		}
		seen[f[0]]++
	}
	if len(seen) != 4 {
		t.Fatalf("log names %d clients, want 4", len(seen))
	}
	if !strings.Contains(out.String(), "measured until 301 transactions") || !regexp.MustCompile(`s \d+/301 tx ETA \S+ measure `).MatchString(out.String()) {
		t.Fatalf("progress lines lack the count and the ETA:\n%s", out.String())
	}
	if entries, _ := os.ReadDir(filepath.Dir(log)); len(entries) != 1 {
		t.Fatalf("temporary files left beside the log: %v", entries)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A timed run's progress lines show elapsed/total and the time left.
func TestProgressShowsTotalAndETA(t *testing.T) {
	var out bytes.Buffer
	if _, err := Run(context.Background(), &sleeper{}, Config{VUs: 1, Rampup: 100 * time.Millisecond, Duration: 300 * time.Millisecond,
		Interval: 50 * time.Millisecond, Progress: &out}); err != nil {
		t.Fatal(err)
	}
	for _, phase := range []string{"ramp-up", "measure"} {
		if !regexp.MustCompile(`(?m)^ +\d+\.\ds/400ms ETA \S+ ` + phase + ` TPM `).MatchString(out.String()) {
			t.Fatalf("no %s line with elapsed/total and ETA:\n%s", phase, out.String())
		}
	}
}

// Ctrl-C leaves a complete latency log of the units of work measured until then.
func TestLatencyLogOnCtrlC(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	wl := &sleeper{at: func(n int64) {
		if n == 200 {
			cancel()
		}
	}}
	log := filepath.Join(t.TempDir(), "lat.log")
	m, err := Run(ctx, wl, Config{VUs: 2, Duration: time.Minute, Interval: time.Second, LatencyLog: log})
	if !errors.Is(err, ErrAborted) {
		t.Fatalf("err %v, want ErrAborted", err)
	}
	if n := len(logLines(t, log)); int64(n) != m.Committed+m.Rollbacks+m.Errors || n < 150 {
		t.Fatalf("latency log has %d lines, the result %d units of work", n, m.Committed+m.Rollbacks+m.Errors)
	}
}

package monitor

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/store"
)

// TestRecordChild is the recording the crash test runs in a process of its own (and kills).
func TestRecordChild(t *testing.T) {
	path := os.Getenv("DBDYNO_MONITOR_CHILD_STORE")
	if path == "" {
		t.Skip("run by TestKilledMonitorKeepsEveryInterval")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := time.ParseDuration(os.Getenv("DBDYNO_MONITOR_CHILD_DURATION"))
	_, err = Record(ctx, st, Options{Name: "crash", Interval: 100 * time.Millisecond, Duration: d,
		Stored: func(s Sample) { fmt.Printf("stored %d\n", s.At.UnixNano()) }})
	if err != nil {
		t.Fatal(err)
	}
}

func child(t *testing.T, path string, duration time.Duration) (*exec.Cmd, *bufio.Scanner) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestRecordChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "DBDYNO_MONITOR_CHILD_STORE="+path, "DBDYNO_MONITOR_CHILD_DURATION="+duration.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(out)
}

// A monitor killed with SIGKILL keeps every interval it reported stored; restarted with the same name it
// appends, the first interval after the restart marked, none overlapping another.
func TestKilledMonitorKeepsEveryInterval(t *testing.T) {
	if _, err := os.Stat("/proc/diskstats"); err != nil {
		t.Skip("no /proc/diskstats:", err)
	}
	path := filepath.Join(t.TempDir(), "results.db")
	cmd, sc := child(t, path, 0)
	reported := map[int64]bool{}
	for sc.Scan() && len(reported) < 5 {
		if at, ok := strings.CutPrefix(sc.Text(), "stored "); ok {
			n, _ := strconv.ParseInt(at, 10, 64)
			reported[n] = true
		}
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no cleanup runs
		t.Fatal(err)
	}
	cmd.Wait()
	if len(reported) < 5 {
		t.Fatalf("the monitor reported %d intervals before it ended", len(reported))
	}
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var kept []Sample
	if _, err := Load(ctx, st, "crash", func(s Sample) { kept = append(kept, s) }); err != nil {
		t.Fatal(err)
	}
	st.Close()
	for at := range reported {
		found := false
		for _, s := range kept {
			found = found || s.At.UnixNano() == at
		}
		if !found {
			t.Errorf("the interval ending %v was reported stored and is lost", time.Unix(0, at))
		}
	}
	before := len(kept)
	cmd, sc = child(t, path, 300*time.Millisecond)
	for sc.Scan() {
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the restarted monitor: %v", err)
	}
	st, err = store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kept = nil
	if _, err := Load(ctx, st, "crash", func(s Sample) { kept = append(kept, s) }); err != nil {
		t.Fatal(err)
	}
	if len(kept) != before+3 {
		t.Fatalf("after the restart %d intervals, want %d + 3", len(kept), before)
	}
	if !kept[0].First || !kept[before].First || kept[1].First {
		t.Errorf("the first interval of each recording is marked: %v %v %v", kept[0].First, kept[before].First, kept[1].First)
	}
	for i := 1; i < len(kept); i++ {
		start := kept[i].At.Add(-dur(kept[i].Seconds))
		if start.Before(kept[i-1].At.Add(-time.Millisecond)) {
			t.Errorf("interval %d starts at %v, before the previous one ended (%v)", i, start, kept[i-1].At)
		}
		if len(kept[i].Devices) == 0 {
			t.Errorf("interval %d recorded no device", i)
		}
	}
	// the checklist reads the recording back
	b := NewBuilder(nil, nil, 1, time.UTC)
	for _, s := range kept {
		b.Add(s)
	}
	if c := b.Checklist("crash"); c.Periods[0].Intervals != len(kept) {
		t.Errorf("checklist over %d intervals, want %d", c.Periods[0].Intervals, len(kept))
	}
}

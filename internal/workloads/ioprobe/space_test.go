package ioprobe_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/workloads/ioprobe"
)

// tmpfs mounts a small tmpfs for the test: a real disk that fills.
func tmpfs(t *testing.T, size string) string { return mount(t, "tmpfs", "size="+size) }

// io run --size 50m on a 20 MiB disk is refused up front, in one line saying what is needed, what is free and
// the fix, and nothing is written (it used to fill the disk to 100%).
func TestSizeBeyondTheDiskIsRefused(t *testing.T) {
	mnt := tmpfs(t, "20m")
	r := clitest.Run(context.Background(), "io", "run", "--directory", mnt, "--size", "50m", "--runtime", "0.2", "--store", "")
	if r.Code == 0 || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, "needs 50 MiB") || !strings.Contains(r.Stderr, "20 MiB free") || !strings.Contains(r.Stderr, "--size") {
		t.Fatalf("exit %d, %q", r.Code, r.Stderr)
	}
	if left, _ := os.ReadDir(mnt); len(left) != 0 {
		t.Fatalf("a refused run left %v on the disk", left)
	}
}

// A layout that fails half-way (another writer filled the disk) leaves a file marked as dbdyno's: the next
// run lays it out again instead of refusing it as the user's.
func TestPartialLayoutIsReused(t *testing.T) {
	mnt, out := tmpfs(t, "20m"), t.TempDir()
	filler := filepath.Join(mnt, "filler")
	blocks := 0
	restore := ioprobe.SlowLayout(0, func() {
		if blocks++; blocks == 4 {
			os.WriteFile(filler, make([]byte, 12<<20), 0o644) // fills the disk as the layout goes on
		}
	})
	r := clitest.Run(context.Background(), "io", "run", "--directory", mnt, "--size", "16m", "--runtime", "0.2", "--store", "")
	restore()
	if r.Code == 0 || !strings.Contains(r.Stderr, "no space left") {
		t.Fatalf("a layout on a full disk: exit %d, %q", r.Code, r.Stderr)
	}
	os.Remove(filler)
	res, _ := run(t, out, "--directory", mnt, "--size", "16m", "--runtime", "0.2")
	if res.Status != result.StatusOK || !res.IO.Files[0].LaidOut || res.IO.Files[0].SizeBytes != 16<<20 {
		t.Fatalf("the next run: %s, files %+v", res.Status, res.IO.Files)
	}
}

// Ctrl-C while a large file is laid out stops the layout within 2 seconds and the command ends aborted; the
// partial file is dbdyno's, and the next run lays it out again.
func TestCtrlCStopsTheLayout(t *testing.T) {
	dir := t.TempDir()
	// Ctrl-C at the layout's 10th block (an event, not a time): the rest of the layout takes over 10 s (502
	// blocks of at least 20 ms each), so a command that ends within 5 s of Ctrl-C stopped it, however loaded
	// the machine is (a load only makes the rest longer)
	ctx, cancel := context.WithCancel(context.Background())
	var blocks atomic.Int64
	var cancelled atomic.Int64
	restore := ioprobe.SlowLayout(20*time.Millisecond, func() {
		if blocks.Add(1) == 10 {
			cancelled.Store(time.Now().UnixNano())
			cancel()
		}
	})
	defer restore()
	r := clitest.Run(ctx, "io", "run", "--directory", dir, "--size", "512m", "--runtime", "1", "--result", filepath.Join(dir, "r.json"), "--store", "")
	if cancelled.Load() == 0 {
		t.Fatalf("the layout never reached its 10th block: exit %d, %q", r.Code, r.Stderr)
	}
	if took := time.Since(time.Unix(0, cancelled.Load())); took > 5*time.Second {
		t.Fatalf("Ctrl-C during a layout: the command ended %s later", took.Round(time.Millisecond))
	}
	if r.Code == 0 || !strings.Contains(r.Stderr, "aborted") {
		t.Fatalf("exit %d, %q", r.Code, r.Stderr)
	}
	restore()
	res, _ := run(t, t.TempDir(), "--directory", dir, "--size", "8m", "--runtime", "0.2")
	if res.Status != result.StatusOK || !res.IO.Files[0].LaidOut {
		t.Fatalf("the next run: %s, files %+v", res.Status, res.IO.Files)
	}
}

package ioprobe_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/workloads/ioprobe"
)

// tmpfs mounts a small tmpfs for the test: a real disk that fills.
func tmpfs(t *testing.T, size string) string { return mount(t, "tmpfs", "size="+size) }

// io run --size 50m on a 20 MB disk is refused up front, in one line saying what is needed, what is free and
// the fix, and nothing is written (it used to fill the disk to 100%).
func TestSizeBeyondTheDiskIsRefused(t *testing.T) {
	mnt := tmpfs(t, "20m")
	r := clitest.Run(context.Background(), "io", "run", "--directory", mnt, "--size", "50m", "--runtime", "0.2", "--store", "")
	if r.Code == 0 || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, "needs 50 MB") || !strings.Contains(r.Stderr, "20 MB free") || !strings.Contains(r.Stderr, "--size") {
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
	restore := ioprobe.SlowLayout(20*time.Millisecond, nil) // 512 blocks: over 10 s to lay out
	defer restore()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Second, cancel)
	t0 := time.Now()
	r := clitest.Run(ctx, "io", "run", "--directory", dir, "--size", "512m", "--runtime", "1", "--result", filepath.Join(dir, "r.json"), "--store", "")
	if took := time.Since(t0); took > 3*time.Second {
		t.Fatalf("Ctrl-C one second into a layout: the command ended after %s", took.Round(time.Millisecond))
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

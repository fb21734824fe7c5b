package tpcc_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
	"github.com/dbdyno/dbdyno/internal/workloads/tpcc"
)

// tpcc gen of a warehouse (75 MiB) on a 20 MiB disk is refused before anything is written (the --out directory
// included), in one line: what is needed, what is free, the fix. It used to write until the disk was full.
func TestGenRefusesWhatTheDiskCannotHold(t *testing.T) {
	mnt := testsrv.Tmpfs(t, "20m")
	r := clitest.Run(context.Background(), "tpcc", "gen", "--warehouses", "1", "--out", filepath.Join(mnt, "w1"))
	if r.Code == 0 || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, "needs 7") || !strings.Contains(r.Stderr, "20 MiB free") ||
		!strings.Contains(r.Stderr, "--warehouses") {
		t.Fatalf("exit %d, %q", r.Code, r.Stderr)
	}
	if left, _ := os.ReadDir(mnt); len(left) != 0 {
		t.Fatalf("a refused gen left %v", left)
	}
}

// A disk that fills half-way (a 20 MB disk the generator is let loose on, past the command's check) leaves
// only complete files under their final names, each as the same gen writes it on a disk with room: files are
// written under temporary names and renamed when complete. It used to leave truncated files that looked
// complete. The size gen checks for is at or above the files' by at most 2%.
func TestGenLeavesNoTruncatedFile(t *testing.T) {
	ref := t.TempDir()
	if _, err := tpcc.GenerateFiles(context.Background(), ref, 1, 2, 7, io.Discard); err != nil {
		t.Fatal(err)
	}
	refSize := map[string]int64{}
	var total int64
	entries, _ := os.ReadDir(ref)
	for _, e := range entries {
		fi, _ := e.Info()
		refSize[e.Name()] = fi.Size()
		total += fi.Size()
	}
	if need := tpcc.GenBytes(1); need < uint64(total) || float64(need) > float64(total)*1.02 {
		t.Errorf("one warehouse: %d bytes computed, %d written", need, total)
	}
	mnt := testsrv.Tmpfs(t, "20m")
	_, err := tpcc.GenerateFiles(context.Background(), mnt, 1, 2, 7, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("generating 72 MB on a 20 MB disk: %v", err)
	}
	left, _ := os.ReadDir(mnt)
	for _, e := range left {
		fi, _ := e.Info()
		if want, ok := refSize[e.Name()]; !ok || fi.Size() != want {
			t.Errorf("left behind %s of %d bytes (complete: %d): a truncated file under its final name", e.Name(), fi.Size(), want)
		}
	}
}

package ioprobe

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// SlowLayout makes every 1 MiB block of a layout take at least d, as on a slow disk, until restore is called;
// pause, when not nil, is called before each block (a test fills the disk from there).
func SlowLayout(d time.Duration, pause func()) (restore func()) {
	old := layoutWrite
	layoutWrite = func(f *os.File, b []byte, off int64) (int, error) {
		if pause != nil {
			pause()
		}
		time.Sleep(d)
		return f.WriteAt(b, off)
	}
	return func() { layoutWrite = old }
}

// PresetTests are a preset's tests from the command's job (sizeGiven, runtimeGiven: the user's --size and
// --runtime kept).
var PresetTests = presetTests

// CDMTable prints a run's CrystalDiskMark table.
var CDMTable = cdmTable

// WatchCDMPasses calls f after each pass a CrystalDiskMark preset runs, with the test as it ran and its
// figures (prepare: the unmeasured preparing pass), until restore is called.
func WatchCDMPasses(f func(t *Test, prepare bool, rt *result.IOTest)) (restore func()) {
	old := cdmPass
	cdmPass = func(ctx context.Context, t *Test, files map[string]*File, out io.Writer, interval time.Duration, prepare bool) (*result.IOTest, error) {
		rt, err := old(ctx, t, files, out, interval, prepare)
		f(t, prepare, rt)
		return rt, err
	}
	return func() { cdmPass = old }
}

// Metrics are a run's metrics derived from its io section, as a stored run's are.
var Metrics = metrics

// WatchIOs calls f with every IO a clone prepares (its job, clone, direction 0 read or 1 write, offset in the
// file and length), from the clones' threads, until restore is called.
func WatchIOs(f func(job string, clone, dir int, off int64, n int)) (restore func()) {
	old := ioHook
	ioHook = f
	return func() { ioHook = old }
}

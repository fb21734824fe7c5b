package ioprobe

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"
)

// IOs go to the kernel as fio sends them: one per submit call by default (iodepth_batch_submit=1), each
// timed from its own submission, however deep the queue; iodepth_batch_submit=8 with
// iodepth_batch_complete_min=8 refills and sends eight at a time.
func TestOneIOPerSubmit(t *testing.T) {
	dir := t.TempDir()
	for _, engine := range []string{"io_uring", "libaio"} {
		for _, c := range []struct{ submit, complete, per int }{{1, 1, 1}, {8, 8, 8}} {
			j := fioDefaults()
			j.Name, j.Filename, j.Size, j.RW, j.IODepth, j.IOEngine, j.Direct = "s", filepath.Join(dir, "f"), 4<<20, "randread", 32, engine, true
			j.BatchSubmit, j.BatchCompleteMin, j.BatchCompleteMax = c.submit, c.complete, c.complete
			if err := j.Check(); err != nil {
				t.Fatal(err)
			}
			tests := []Test{{Name: "s", Jobs: []Job{j}, Passes: 1}}
			files, err := Plan(tests, Guard{}, false)
			if err != nil {
				t.Fatal(err)
			}
			byPath := map[string]*File{}
			for _, f := range files {
				if err := f.LayOutFile(context.Background(), io.Discard); err != nil {
					t.Fatal(err)
				}
				f.LayOut = false
				byPath[f.Path] = f
			}
			var submits, issued int64
			testHook = func(cs []*clone) { submits, issued = cs[0].submits, cs[0].issued }
			rt, err := runTest(context.Background(), &tests[0], byPath, io.Discard, time.Second)
			testHook = nil
			if err != nil {
				t.Fatal(err)
			}
			// not time based: one pass over the file, 1024 blocks of 4 KiB, each read once
			if issued != 1024 || rt.Read == nil || rt.Read.IOs != 1024 {
				t.Fatalf("%s batch %d: %d IOs issued, result %+v", engine, c.submit, issued, rt.Read)
			}
			switch c.per {
			case 1:
				if submits != issued {
					t.Errorf("%s, iodepth 32, iodepth_batch_submit=1: %d submit calls for %d IOs, want one each", engine, submits, issued)
				}
			default:
				if submits > issued/int64(c.per)+4 {
					t.Errorf("%s, iodepth_batch_submit=%d: %d submit calls for %d IOs", engine, c.per, submits, issued)
				}
			}
		}
	}
}

package ioprobe

import (
	"os"
	"time"
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

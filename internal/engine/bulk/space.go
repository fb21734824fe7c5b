package bulk

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/shirou/gopsutil/v4/disk"
)

// SpaceError is a refusal to write files a disk cannot hold, given before anything is written: what needs
// how much on which disk, what is free there, and what to do.
type SpaceError struct {
	What string // the command, e.g. "tpch gen at scale factor 10000"
	Dir  string
	Need uint64
	Free uint64
	Fix  string
}

func (e *SpaceError) Error() string {
	return fmt.Sprintf("%s needs %s on %s, which has %s free: %s", e.What, units.FormatBytes(int64(e.Need)), e.Dir, units.FormatBytes(int64(e.Free)), e.Fix)
}

// FreeSpace is the space an unprivileged writer may still use on the disk that holds path, or would hold it:
// a path that does not exist yet is measured at its nearest existing parent. ok is false when the disk's use
// cannot be read.
func FreeSpace(ctx context.Context, path string) (free uint64, ok bool) {
	p, err := filepath.Abs(path)
	if err != nil {
		return 0, false
	}
	for {
		if _, err := os.Stat(p); err == nil || !errors.Is(err, os.ErrNotExist) {
			break
		}
		up := filepath.Dir(p)
		if up == p {
			break
		}
		p = up
	}
	u, err := disk.UsageWithContext(ctx, p)
	if err != nil || u.Total == 0 {
		return 0, false // unreadable, or a filesystem with no size (ramfs, some pseudo filesystems)
	}
	return u.Free, true
}

// NeedSpace refuses, with a *SpaceError, files of need bytes that the disk holding dir (which need not exist
// yet) has no room for. A disk whose use cannot be read is not refused: the check is a courtesy.
func NeedSpace(ctx context.Context, dir string, need uint64, what, fix string) error {
	free, ok := FreeSpace(ctx, dir)
	if !ok || need <= free {
		return nil
	}
	return &SpaceError{What: what, Dir: dir, Need: need, Free: free, Fix: fix}
}

// Allocated is the disk space a file already takes (0 for a file that does not exist): what writing it anew
// frees once the new one replaces it.
func Allocated(path string) uint64 {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	if n, ok := allocated(fi); ok {
		return n
	}
	return uint64(fi.Size())
}

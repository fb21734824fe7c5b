package ioprobe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Safety and layout of the files the jobs use. A file dbdyno lays out carries a mark (an extended attribute,
// or where the filesystem has none a hidden file beside it); a file without the mark is the user's, and
// nothing writes to it unless --overwrite says so. Block devices are used only when named with --device, and
// written only with --i-know-this-destroys-data. Read-only jobs open their files read-only.

// Guard is what the user allowed.
type Guard struct {
	Overwrite bool // write to (or lay out) a file dbdyno did not lay out
	Destroy   bool // --i-know-this-destroys-data: write to a block device
}

// File is one file (or device) the tests use, checked and ready to lay out.
type File struct {
	Path     string
	Size     int64 // bytes the jobs use
	Writes   bool  // some job writes to it
	Device   bool  // a block device
	LayOut   bool  // dbdyno writes it before the run (new, its own and too small, or --overwrite)
	Buffered bool  // direct IO was refused here, and the jobs fall back to buffered IO
	FSType   string
	DevName  string // the block device under it, as /proc/diskstats names it
}

const markAttr = "user.dbdyno.layout"

func sidecar(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".dbdyno-layout")
}

// marked says whether dbdyno laid the file out, and at what size.
func marked(path string) (int64, bool) {
	buf := make([]byte, 64)
	n, err := unix.Getxattr(path, markAttr, buf)
	var s string
	switch {
	case err == nil:
		s = string(buf[:n])
	default:
		b, err := os.ReadFile(sidecar(path))
		if err != nil {
			return 0, false
		}
		s = strings.TrimSpace(string(b))
		// the sidecar names the inode, so a file replaced under the same name is not taken for ours
		var st unix.Stat_t
		ino, rest, _ := strings.Cut(s, " ")
		if unix.Stat(path, &st) != nil || ino != strconv.FormatUint(st.Ino, 10) {
			return 0, false
		}
		s = rest
	}
	size, err := strconv.ParseInt(strings.TrimPrefix(s, "dbdyno size="), 10, 64)
	return size, err == nil
}

func mark(path string, size int64) error {
	v := "dbdyno size=" + strconv.FormatInt(size, 10)
	if err := unix.Setxattr(path, markAttr, []byte(v), 0); err == nil {
		return nil
	}
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return err
	}
	return os.WriteFile(sidecar(path), []byte(strconv.FormatUint(st.Ino, 10)+" "+v+"\n"), 0o644)
}

var fsNames = map[int64]string{0x01021994: "tmpfs", 0x858458f6: "ramfs", 0xEF53: "ext4", 0x58465342: "xfs",
	0x9123683E: "btrfs", 0x794c7630: "overlayfs", 0x6969: "nfs", 0x65735546: "fuse", 0x2FC12FC1: "zfs", 0x5346544e: "ntfs"}

func fsType(path string) string {
	var s unix.Statfs_t
	if unix.Statfs(path, &s) != nil {
		return ""
	}
	if n, ok := fsNames[int64(s.Type)]; ok {
		return n
	}
	return fmt.Sprintf("0x%x", s.Type)
}

// devName is the block device holding a path (its whole disk's or partition's name in /proc/diskstats).
func devName(path string, st *unix.Stat_t) string {
	dev := st.Dev
	if st.Mode&unix.S_IFMT == unix.S_IFBLK {
		dev = st.Rdev
	}
	link, err := os.Readlink(fmt.Sprintf("/sys/dev/block/%d:%d", unix.Major(dev), unix.Minor(dev)))
	if err != nil {
		return ""
	}
	return filepath.Base(link)
}

// Plan checks every file the tests use, before anything is written: the guard, block devices, sizes, that a
// new file's directory is writable, whether direct IO is taken there, and that the disks have room for what
// is to be laid out. Nothing is created or changed.
func Plan(tests []Test, g Guard, warmWrite bool) ([]*File, error) {
	byPath := map[string]*File{}
	var order []*File
	asked := map[string]bool{}
	direct := map[string]bool{}
	for _, t := range tests {
		for _, j := range t.Jobs {
			lo, hi := j.clones()
			for k := lo; k < hi; k++ {
				p := j.path(k)
				f := byPath[p]
				if f == nil {
					f = &File{Path: p, Device: j.Device}
					byPath[p] = f
					order = append(order, f)
				}
				f.Size = max(f.Size, j.Offset+j.Size)
				f.Writes = f.Writes || j.Writes() || warmWrite
				direct[p] = direct[p] || j.Direct
				asked[p] = asked[p] || j.Direct && j.DirectAsked
			}
		}
	}
	for _, f := range order {
		if err := f.check(g, direct[f.Path], asked[f.Path]); err != nil {
			return nil, err
		}
	}
	if err := checkSpace(order); err != nil {
		return nil, err
	}
	return order, nil
}

// checkSpace refuses, before anything is written, files to lay out that their disks cannot hold: each file
// to lay out takes its size in whole blocks, less the blocks it already has (a partial layout of dbdyno's, or
// a file --overwrite allows), summed per disk.
func checkSpace(files []*File) error {
	type disk struct {
		dir  string
		need uint64
	}
	disks := map[uint64]*disk{}
	var order []*disk
	for _, f := range files {
		if !f.LayOut || f.Device {
			continue
		}
		dir := filepath.Dir(f.Path)
		var st unix.Stat_t
		var fs unix.Statfs_t
		if unix.Stat(dir, &st) != nil || unix.Statfs(dir, &fs) != nil || fs.Bsize <= 0 {
			continue // the check is a courtesy: a disk whose use cannot be read is not refused
		}
		bs := uint64(fs.Bsize)
		blocks := (uint64(f.Size) + bs - 1) / bs * bs
		has := bulk.Allocated(f.Path)
		if blocks <= has {
			continue
		}
		d := disks[st.Dev]
		if d == nil {
			d = &disk{dir: dir}
			disks[st.Dev] = d
			order = append(order, d)
		}
		d.need += blocks - has
	}
	for _, d := range order {
		if err := bulk.NeedSpace(context.Background(), d.dir, d.need, "io run", "lower --size (or --numjobs), or use a --directory on a disk with room"); err != nil {
			return err
		}
	}
	return nil
}

// path is the file clone k of the job uses.
func (j *Job) path(k int) string {
	if j.Filename != "" {
		if j.Directory != "" {
			return filepath.Join(j.Directory, j.Filename) // fio prefixes the filename with the directory
		}
		return j.Filename
	}
	return filepath.Join(j.Directory, fmt.Sprintf("%s.%d.0", j.Name, k))
}

func (f *File) check(g Guard, direct, asked bool) error {
	var st unix.Stat_t
	err := unix.Stat(f.Path, &st)
	exists := err == nil
	if err != nil && !errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("%s: %v", f.Path, err)
	}
	if exists {
		f.DevName = devName(f.Path, &st)
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFBLK:
			return f.checkDevice(g, direct, asked)
		case unix.S_IFREG:
		case unix.S_IFDIR:
			return fmt.Errorf("%s is a directory: give it as --directory, or name a file with --filename", f.Path)
		default:
			return fmt.Errorf("%s is not a regular file: name a file (or a block device with --device)", f.Path)
		}
		if f.Device {
			return fmt.Errorf("--device %s is a regular file, not a block device: give it as --filename", f.Path)
		}
		f.FSType = fsType(f.Path)
		ours, mine := marked(f.Path)
		switch {
		case mine && ours >= f.Size && st.Size >= f.Size:
			// laid out before by dbdyno: reused as it is
		case mine:
			f.LayOut = true // ours, but smaller than this run needs
		case f.Writes && !g.Overwrite:
			return fmt.Errorf("%s exists and dbdyno did not lay it out: a job writes to it, and its content would be lost; use a new file, or --overwrite if it may be destroyed", f.Path)
		case st.Size < f.Size && !g.Overwrite:
			return fmt.Errorf("%s holds %s, less than --size %s: lower --size, or --overwrite to lay it out anew (its content is lost)", f.Path, result.FormatSize(st.Size), result.FormatSize(f.Size))
		case g.Overwrite:
			f.LayOut = true
		}
		return f.checkDirect(f.Path, false, direct, asked)
	}
	if f.Device {
		return fmt.Errorf("--device %s does not exist", f.Path)
	}
	dir := filepath.Dir(f.Path)
	var dst unix.Stat_t
	if err := unix.Stat(dir, &dst); err != nil || dst.Mode&unix.S_IFMT != unix.S_IFDIR {
		return fmt.Errorf("directory %s does not exist: create it, or give another --directory / --filename", dir)
	}
	f.FSType, f.DevName, f.LayOut = fsType(dir), devName(dir, &dst), true
	return f.checkDirect(dir, true, direct, asked)
}

// checkDirect opens the file (or a probe file in the directory, removed at once) with O_DIRECT: where the
// filesystem refuses it, an explicit --direct=1 is an error and the default falls back to buffered IO.
func (f *File) checkDirect(path string, isDir, direct, asked bool) error {
	probe := path
	flags := unix.O_RDONLY | unix.O_CLOEXEC
	if isDir {
		probe = filepath.Join(path, fmt.Sprintf(".dbdyno-probe-%d-%d", os.Getpid(), time.Now().UnixNano()))
		flags = unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_CLOEXEC
	}
	open := func(extra int) error {
		fd, err := unix.Open(probe, flags|extra, 0o600)
		if isDir && (err == nil || !errors.Is(err, unix.EEXIST)) {
			unix.Unlink(probe) // ramfs creates the name even as it refuses O_DIRECT
		}
		if err == nil {
			unix.Close(fd)
		}
		return err
	}
	if err := open(0); err != nil {
		if isDir {
			return fmt.Errorf("directory %s is not writable (%v): give a directory dbdyno may create files in", path, err)
		}
		return fmt.Errorf("%s cannot be opened: %v", path, err)
	}
	if !direct {
		return nil
	}
	err := open(unix.O_DIRECT)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("%s: opening with O_DIRECT: %v", path, err)
	}
	if asked {
		return fmt.Errorf("direct IO is refused on %s (%s): use a directory on a disk, or --direct=0 to measure buffered IO through the page cache", path, f.FSType)
	}
	f.Buffered = true
	return nil
}

func (f *File) checkDevice(g Guard, direct, asked bool) error {
	if !f.Device {
		return fmt.Errorf("%s is a block device: name it with --device %s (and --i-know-this-destroys-data for a job that writes)", f.Path, f.Path)
	}
	if f.Writes && !g.Destroy {
		return fmt.Errorf("--device %s: a job writes to it and destroys what it holds; add --i-know-this-destroys-data if it may, or use a read-only job", f.Path)
	}
	fd, err := unix.Open(f.Path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("--device %s: %v", f.Path, err)
	}
	defer unix.Close(fd)
	var size uint64
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.BLKGETSIZE64, uintptr(unsafe.Pointer(&size))); e != 0 {
		return fmt.Errorf("--device %s: its size: %v", f.Path, e)
	}
	if int64(size) < f.Size {
		return fmt.Errorf("--device %s holds %s, less than --size %s: lower --size", f.Path, result.FormatSize(int64(size)), result.FormatSize(f.Size))
	}
	f.FSType = "block device"
	return f.checkDirect(f.Path, false, direct, asked)
}

// layoutWrite writes one block of a layout (tests slow it down to stand for a slow disk).
var layoutWrite = func(f *os.File, b []byte, off int64) (int, error) { return f.WriteAt(b, off) }

// LayOutFile writes the file with incompressible data (untimed, before the run), syncs it and marks it as
// dbdyno's; progress goes to out.
func (f *File) LayOutFile(ctx context.Context, out io.Writer) error {
	if !f.LayOut {
		return nil
	}
	_, statErr := os.Lstat(f.Path)
	fh, err := os.OpenFile(f.Path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("laying out %s: %v", f.Path, err)
	}
	defer fh.Close()
	// marked as dbdyno's before the first byte, as a partial layout (size 0): a layout that stops half-way
	// (Ctrl-C, a full disk, a crash) leaves a file the next run lays out again, never one it takes for the user's
	if err := mark(f.Path, 0); err != nil {
		if statErr != nil {
			os.Remove(f.Path) // created just now, and empty
		}
		return fmt.Errorf("marking %s as dbdyno's: %v", f.Path, err)
	}
	partial := func(err error) error {
		return fmt.Errorf("laying out %s: %v (the partial file is marked as dbdyno's: the next run lays it out again)", f.Path, err)
	}
	rng := rand.NewChaCha8([32]byte{'d', 'b', 'd', 'y', 'n', 'o'})
	buf := make([]byte, 1<<20)
	start, last := time.Now(), time.Now()
	for off := int64(0); off < f.Size; off += int64(len(buf)) {
		if ctx.Err() != nil {
			return fmt.Errorf("%w while laying out %s (%s of %s written; the partial file is marked as dbdyno's: the next run lays it out again)",
				workload.ErrAborted, f.Path, result.FormatSize(off>>20<<20), result.FormatSize(f.Size))
		}
		n := min(int64(len(buf)), f.Size-off)
		rng.Read(buf[:n])
		if _, err := layoutWrite(fh, buf[:n], off); err != nil {
			return partial(err)
		}
		if off%(64<<20) == 0 && off > 0 {
			// start the write-back of what is written as it goes, so the final sync is short and Ctrl-C is not
			// held up behind gigabytes of dirty pages
			unix.SyncFileRange(int(fh.Fd()), off-64<<20, 64<<20, unix.SYNC_FILE_RANGE_WRITE)
		}
		if time.Since(last) >= 2*time.Second {
			last = time.Now()
			rate := float64(off) / time.Since(start).Seconds()
			fmt.Fprintf(out, "  laying out %s: %s of %s, %.0f MB/s, ETA %s\n", f.Path, result.FormatSize(off>>20<<20), result.FormatSize(f.Size),
				rate/1e6, time.Duration(float64(f.Size-off)/rate*float64(time.Second)).Round(time.Second))
		}
	}
	if err := fh.Sync(); err != nil {
		return partial(err)
	}
	if err := mark(f.Path, f.Size); err != nil {
		return fmt.Errorf("marking %s as dbdyno's: %v", f.Path, err)
	}
	fmt.Fprintf(out, "laid out %s: %s in %.1fs (untimed)\n", f.Path, result.FormatSize(f.Size), time.Since(start).Seconds())
	return nil
}

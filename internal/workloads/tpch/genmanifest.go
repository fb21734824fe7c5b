package tpch

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// genManifest is the record, in --out's directory, of the files gen wrote there: each with its size and
// modification time when written. A later gen replaces a file of its own only when the record holds it as
// it is; any other file under a name gen writes is the user's, never overwritten (a user's own lineitem.tbl
// was replaced).
const genManifest = ".dbdyno-gen"

type genStamp struct {
	size, mtime int64
}

func stampOf(fi fs.FileInfo) genStamp { return genStamp{fi.Size(), fi.ModTime().UnixNano()} }

// readManifest reads dir's record (empty when there is none).
func readManifest(dir string) (map[string]genStamp, error) {
	out := map[string]genStamp{}
	f, err := os.Open(filepath.Join(dir, genManifest))
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", filepath.Join(dir, genManifest), err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.Fields(sc.Text())
		if len(p) != 3 {
			continue
		}
		size, err1 := strconv.ParseInt(p[1], 10, 64)
		mt, err2 := strconv.ParseInt(p[2], 10, 64)
		if err1 == nil && err2 == nil {
			out[p[0]] = genStamp{size, mt}
		}
	}
	return out, sc.Err()
}

// writeManifest writes dir's record whole, atomically.
func writeManifest(dir string, m map[string]genStamp) error {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("# files dbdyno tpch gen wrote here: name, size, modification time (ns); a later gen replaces only these\n")
	for _, n := range names {
		fmt.Fprintf(&b, "%s %d %d\n", n, m[n].size, m[n].mtime)
	}
	path := filepath.Join(dir, genManifest)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("cannot record the files written in %s: %w", dir, err)
	}
	return os.Rename(tmp, path)
}

// checkOwnFiles refuses a gen into a directory holding, under a name it writes, a file it did not write (or
// one changed since it did).
func checkOwnFiles(opts GenOptions) (map[string]genStamp, error) {
	m, err := readManifest(opts.Dir)
	if err != nil {
		return nil, err
	}
	for _, f := range genFiles(opts) {
		fi, err := os.Lstat(filepath.Join(opts.Dir, f.name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("--out %s: %w", opts.Dir, err)
		}
		if s, ok := m[f.name]; !ok || !fi.Mode().IsRegular() || s != stampOf(fi) {
			return nil, fmt.Errorf("--out %s already holds %s, which dbdyno tpch gen did not write there (or which changed since): give another --out directory, or move the file away", opts.Dir, f.name)
		}
	}
	return m, nil
}

// recordWritten adds a file just written to the record.
func recordWritten(dir string, m map[string]genStamp, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	m[filepath.Base(path)] = stampOf(fi)
	return writeManifest(dir, m)
}

// Package outfile holds the rules every file dbdyno writes keeps: an output path is checked before any work
// (never one of the command's inputs, never a file dbdyno did not write, never where no file can be created),
// and a file is written whole or not at all.
package outfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Check refuses an output path before any work is done when writing it would lose data or fail: it is one of
// the command's inputs (SamePath), a directory (example is a file name to suggest in it), an existing file
// whose first bytes are not what dbdyno writes as kind ("HTML report": looksLike judges the first 512), or in a
// directory where no file can be created. flag names the option in the one-line error.
func Check(flag, path, kind, example string, looksLike func(head []byte) bool, inputs ...string) error {
	if path == "" {
		return nil
	}
	for _, in := range inputs {
		if in != "" && SamePath(path, in) {
			return fmt.Errorf("%s %s is also an input of this command (%s): choose another file", flag, path, in)
		}
	}
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s %s is a directory: give a file name, e.g. %s", flag, path, filepath.Join(path, example))
		}
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("%s %s: %v", flag, path, err)
		}
		head := make([]byte, 512)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if n > 0 && !looksLike(head[:n]) {
			return fmt.Errorf("%s %s exists and is not a dbdyno %s: refusing to replace it; choose another file", flag, path, kind)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".dbdyno-probe*")
	if err != nil {
		return fmt.Errorf("cannot write %s %s: %v: choose a writable directory", flag, path, errors.Unwrap(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// LooksLikeReport says whether a file's first bytes are an HTML page dbdyno wrote (every one of its pages is
// built by internal/output/report, whose head names it).
func LooksLikeReport(head []byte) bool {
	h := string(bytes.TrimSpace(head))
	return strings.HasPrefix(h, "<!DOCTYPE html>") && strings.Contains(h, "dbdyno report")
}

// SamePath reports whether two paths name one file (or would: the same absolute path), an embedded
// database's -wal and -shm files counting as the database.
func SamePath(a, b string) bool {
	for _, suffix := range []string{"", "-wal", "-shm", ".wal"} {
		if SameFile(a, b+suffix) {
			return true
		}
	}
	return false
}

// SameFile reports whether two paths name one file (or would: the same absolute path).
func SameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	pa, err1 := filepath.Abs(a)
	pb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && pa == pb
}

// WriteAtomic writes data to path so that readers see either the old file or the whole new one: a temporary
// file in its directory, synced, renamed over it.
func WriteAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	tmp := f.Name()
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

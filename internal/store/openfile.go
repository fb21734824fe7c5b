package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// checkFile names what keeps a SQLite store's file from being opened or made, before SQLite's own "unable to
// open database file" hides it: the path is a folder; the store is missing and its folder does not exist, is
// not a folder, or cannot be written (its permissions, a read-only filesystem). nil when none of these.
func checkFile(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return fmt.Errorf("the results store %s is a folder, not a file: give a file's path, e.g. --store %s", path, filepath.Join(path, "results.db"))
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("cannot open the results store %s: %s", path, denied(err))
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("cannot open the results store %s: %v", path, unwrapPath(err))
	}
	dir := filepath.Dir(path)
	di, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot create the results store %s: its folder %s does not exist: create it, or choose another --store", path, dir)
	case errors.Is(err, syscall.ENOTDIR) || err == nil && !di.IsDir():
		return fmt.Errorf("cannot create the results store %s: its folder %s is not a folder (a part of that path is a file): choose another --store", path, dir)
	case err != nil:
		return fmt.Errorf("cannot create the results store %s: its folder %s: %v", path, dir, unwrapPath(err))
	}
	if why := writable(dir); why != "" {
		return fmt.Errorf("cannot create the results store %s: its folder %s %s: choose another --store, or make the folder writable", path, dir, why)
	}
	return nil
}

// checkWritable names why an existing store's file cannot be written, nil when it can: SQLite writes the file
// and keeps its journal (FILE-wal, FILE-shm) beside it, so the file and its folder must be writable.
func checkWritable(path string) error {
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err != nil {
		switch {
		case errors.Is(err, syscall.EROFS):
			return fmt.Errorf("cannot open the results store %s: it is on a read-only filesystem, and SQLite writes its journal (%s-wal) beside it: copy the store elsewhere and give --store the copy",
				path, filepath.Base(path))
		case errors.Is(err, fs.ErrPermission):
			return fmt.Errorf("cannot open the results store %s: the file %s: make it writable, or copy the store elsewhere and give --store the copy", path, why(err))
		}
	} else {
		f.Close()
	}
	dir := filepath.Dir(path)
	if why := writable(dir); why != "" {
		return fmt.Errorf("cannot open the results store %s: its folder %s %s, and SQLite keeps the store's journal (%s-wal) beside it: make the folder writable, or copy the store elsewhere and give --store the copy",
			path, dir, why, filepath.Base(path))
	}
	return nil
}

// writable says why dbdyno cannot create a file in dir ("" when it can): it tries, and removes what it made.
func writable(dir string) string {
	f, err := os.CreateTemp(dir, ".dbdyno-store-check-*")
	if err != nil {
		return why(err)
	}
	f.Close()
	os.Remove(f.Name())
	return ""
}

// why words a failed write: "is not writable (permission denied)", "is on a read-only filesystem".
func why(err error) string {
	switch {
	case errors.Is(err, syscall.EROFS):
		return "is on a read-only filesystem"
	case errors.Is(err, fs.ErrPermission):
		return "is not writable (permission denied)"
	}
	return fmt.Sprintf("cannot be written (%v)", unwrapPath(err))
}

func denied(err error) string {
	return fmt.Sprintf("permission denied on the way to it (%v)", unwrapPath(err))
}

// unwrapPath is an *fs.PathError's cause alone (the path is named already).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

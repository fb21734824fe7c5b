package method

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/store"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Kind is what an output file holds; an existing file at an output path must hold the same kind (dbdyno never
// replaces what it did not write).
type Kind int

const (
	ResultJSON Kind = iota // a run's result
	ReportHTML             // dbdyno report
	ExportCSV              // results export --format csv
	ExportJSON             // results export --format json
	LatencyLog             // a run's --log-latency file
)

func (k Kind) String() string {
	return [...]string{"result JSON", "HTML report", "CSV export", "JSON export", "latency log"}[k]
}

// looksLike reports whether a file's first bytes are what dbdyno writes as that kind.
func (k Kind) looksLike(head []byte) bool {
	h := string(bytes.TrimSpace(head))
	switch k {
	case ResultJSON:
		return strings.HasPrefix(h, "{") && strings.Contains(h, `"schema_version"`)
	case ReportHTML:
		return strings.HasPrefix(h, "<!DOCTYPE html>") && strings.Contains(h, "dbdyno report")
	case ExportCSV:
		return strings.HasPrefix(h, "run_id,workload,")
	case ExportJSON:
		return strings.HasPrefix(h, "[") && (strings.Contains(h, `"schema_version"`) || strings.TrimSpace(strings.TrimPrefix(h, "[")) == "]" || h == "null")
	case LatencyLog:
		lines := strings.Split(h, "\n")
		if len(head) == 512 && len(lines) > 1 {
			lines = lines[:len(lines)-1] // cut off by the head
		}
		for _, l := range lines {
			if !runner.LatencyLogLine.MatchString(l) {
				return false
			}
		}
		return true
	}
	return false
}

// CheckOutput refuses an output path before any work is done when writing it would lose data: it is one of the
// command's inputs (the results store, a target's database file), a directory, an existing file that is not
// of the kind being written, or in a directory where no file can be created.
func CheckOutput(flag, path string, kind Kind, inputs ...string) error {
	if path == "" {
		return nil
	}
	for _, in := range inputs {
		if in != "" && samePath(path, in) {
			return fmt.Errorf("%s %s is also an input of this command (%s): choose another file", flag, path, in)
		}
	}
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s %s is a directory: give a file name, e.g. %s", flag, path, filepath.Join(path, "out"+ext(kind)))
		}
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("%s %s: %v", flag, path, err)
		}
		head := make([]byte, 512)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if n > 0 && !kind.looksLike(head[:n]) {
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

func ext(k Kind) string {
	return [...]string{".json", ".html", ".csv", ".json", ".log"}[k]
}

// samePath reports whether two paths name one file (or would: the same absolute path), an embedded
// database's -wal and -shm files counting as the database.
func samePath(a, b string) bool {
	for _, suffix := range []string{"", "-wal", "-shm", ".wal"} {
		if sameFile(a, b+suffix) {
			return true
		}
	}
	return false
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	pa, err1 := filepath.Abs(a)
	pb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && pa == pb
}

// targetFiles are the database files of the embedded targets.
func targetFiles(ts []*engine.Target) []string {
	var out []string
	for _, t := range ts {
		if t != nil && t.Engine.Embedded {
			out = append(out, t.Path)
		}
	}
	return out
}

// checkTargetsAreNotTheStore refuses, before any command opens its targets, an embedded target whose file is a
// results store: the command's --store, or the default store every command without --store records in (a
// build would write its tables among the results, a run its load).
func checkTargetsAreNotTheStore(v *workload.Values, targets []*engine.Target) error {
	files := targetFiles(targets)
	if _, ok := v.Flag("store"); ok {
		if err := CheckStore(v.String("store"), files); err != nil {
			return err
		}
	}
	for _, t := range targets {
		if _, ok := v.Flag("store"); ok && store.IsTarget(v.String("store"), t) {
			return fmt.Errorf("--store %s is the database of --target %s: its tables and load would go in among the results; keep the results in a database of their own", store.Display(v.String("store")), t)
		}
		if t != nil && t.Engine.Embedded && samePath(t.Path, store.DefaultPath) {
			return fmt.Errorf("--target %s is dbdyno's results store (%s): its tables would go in among the results; give the target a file of its own", t, store.DefaultPath)
		}
	}
	return nil
}

// CheckStore refuses a results store that is one of the targets' database files.
func CheckStore(path string, targets []string) error {
	for _, t := range targets {
		if path != "" && samePath(path, t) {
			return fmt.Errorf("--store %s is a target's database (%s): the results store is a file of its own; choose another", path, t)
		}
	}
	return nil
}

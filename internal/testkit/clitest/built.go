package clitest

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dbdyno/dbdyno/internal/store"
)

// tpccTemplate is the one TPC-C build (1 warehouse, SQLite) a test process makes for TPCCCopy.
var tpccTemplate struct {
	sync.Once
	path string
	err  error
}

// TPCCCopy copies one TPC-C build (1 warehouse, the default seed, made once per test process) into a SQLite
// file of the test's own and returns the file's path: for the tests that run on a build without testing the
// build itself (a build takes most of such a test's time; a copy, a fraction of a second).
func TPCCCopy(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tpcc.db")
	TPCCBuiltAt(t, "sqlite://"+path)
	return path
}

// TPCCBuiltAt is TPCCCopy into a file of the caller's choosing: url is sqlite://PATH.
func TPCCBuiltAt(t testing.TB, url string) {
	t.Helper()
	tpccTemplate.Do(func() {
		path, err := templatePath()
		if err != nil {
			tpccTemplate.err = err
			return
		}
		if r := Must(t, "tpcc", "build", "--target", "sqlite://"+path); r.Code != 0 {
			tpccTemplate.err = os.ErrInvalid
			return
		}
		tpccTemplate.path = path
	})
	if tpccTemplate.err != nil {
		t.Fatalf("the TPC-C build every copy comes from: %v", tpccTemplate.err)
	}
	b, err := os.ReadFile(tpccTemplate.path) // the build closed the file: its WAL is checkpointed into it
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimPrefix(url, "sqlite://"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TPCCBuild runs `tpcc build --target url` with the extra flags, which must succeed, for a test of the build
// itself. When it is the build every copy comes from (SQLite, 1 warehouse, the default seed: extra holds no
// more than --warehouses 1 and --drop) and no copy was made yet, the file as built becomes that build: the
// test process builds it once, not twice.
func TPCCBuild(t testing.TB, url string, extra ...string) Result {
	t.Helper()
	r := Must(t, append([]string{"tpcc", "build", "--target", url}, extra...)...)
	if !strings.HasPrefix(url, "sqlite://") || strings.Contains(url, "?") || !defaultBuild(extra) {
		return r
	}
	tpccTemplate.Do(func() {
		path, err := templatePath()
		if err == nil {
			var b []byte
			if b, err = os.ReadFile(strings.TrimPrefix(url, "sqlite://")); err == nil { // closed: its WAL checkpointed
				err = os.WriteFile(path, b, 0o644)
			}
		}
		tpccTemplate.path, tpccTemplate.err = path, err
	})
	return r
}

// defaultBuild says whether a build's extra flags leave it the default 1-warehouse build.
func defaultBuild(extra []string) bool {
	for i := 0; i < len(extra); i++ {
		switch {
		case extra[i] == "--drop":
		case extra[i] == "--warehouses" && i+1 < len(extra) && extra[i+1] == "1":
			i++
		default:
			return false
		}
	}
	return true
}

// templatePath is where the build every copy comes from is kept: beside the tests' results store, in the
// scratch directory Main removes.
func templatePath() (string, error) {
	dir := filepath.Dir(store.DefaultPath)
	if !filepath.IsAbs(dir) || dir == "." {
		var err error
		if dir, err = os.MkdirTemp("", "dbdyno-tpcc"); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, "tpcc-template.db"), nil
}

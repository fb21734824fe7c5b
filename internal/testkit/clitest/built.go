package clitest

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/store"
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
		// beside the tests' results store, in the scratch directory Main removes
		dir := filepath.Dir(store.DefaultPath)
		if !filepath.IsAbs(dir) || dir == "." {
			if dir, tpccTemplate.err = os.MkdirTemp("", "dbdyno-tpcc"); tpccTemplate.err != nil {
				return
			}
		}
		tpccTemplate.path = filepath.Join(dir, "tpcc-template.db")
		if r := Must(t, "tpcc", "build", "--target", "sqlite://"+tpccTemplate.path); r.Code != 0 {
			tpccTemplate.err = os.ErrInvalid
		}
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

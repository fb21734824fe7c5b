package tpch_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// lineitemQueries are queries that each read lineitem: once it is gone, every one of them fails.
const lineitemQueries = "1,3,4,5,6,10,12,14"

// A table the queries need renamed away by another session after a stream's first query (an event of the run,
// not a moment on the clock): the error is of a fatal class (the schema changed under the run), so the whole run
// ends at once, in the power test and in the throughput test alike: the other streams are cancelled, no further
// query runs (the streams went on through every query before), the result is written marked failed with the
// engine's message, and the command exits non-zero. (A subtest of TestTPCHBuildAndValidateOnEveryEngine, on
// each engine's build: the table is renamed back as each case ends.)
func schemaGoneEndsTheRun(t *testing.T, e clitest.Engine) {
	rename, back := "ALTER TABLE lineitem RENAME TO lineitem_gone", "ALTER TABLE lineitem_gone RENAME TO lineitem"
	if e.Name == "sqlserver" {
		rename, back = "EXEC sp_rename 'lineitem', 'lineitem_gone', 'OBJECT'", "EXEC sp_rename 'lineitem_gone', 'lineitem', 'OBJECT'"
	}
	for _, c := range []struct {
		name    string
		args    []string
		trigger string // the line after which the table goes
		planned int    // queries the run would have run
		tests   int    // the tests the run has by then
	}{
		{"power", []string{"--power", "--throughput", "--streams", "2"}, "stream  0  Q", 8 + 2*8, 1},
		{"throughput", []string{"--throughput", "--streams", "3"}, "  Q", 3 * 8, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "r.json")
			var once sync.Once
			var renamed bool
			var renameErr error
			t.Cleanup(func() {
				if renamed {
					testsrv.Exec(t, e.URL, back)
				}
			})
			args := append([]string{"tpch", "run", "--target", e.URL, "--queries", lineitemQueries, "--result", file}, c.args...)
			r := clitest.RunWatching(context.Background(), func(line string) {
				if strings.Contains(line, c.trigger) && strings.Contains(line, " rows ") {
					once.Do(func() { renameErr = execSQL(e.URL, rename); renamed = renameErr == nil })
				}
			}, args...)
			if renameErr != nil {
				t.Fatalf("%s: %v", rename, renameErr)
			}
			if !renamed {
				t.Fatalf("no query line to act on: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
			}
			if r.Code == 0 || !strings.Contains(r.Stderr, "the schema is missing or changed") || !strings.Contains(r.Stderr, "lineitem") {
				t.Fatalf("exit %d, stderr %q: want a failure naming the schema and the table\n%s", r.Code, r.Stderr, r.Stdout)
			}
			res, raw := clitest.ReadResult(t, file)
			clitest.NoPassword(t, e.URL, r.Stdout, r.Stderr, raw)
			if res.Status != result.StatusFailed || !strings.Contains(res.Error, "lineitem") {
				t.Fatalf("status %s, error %q", res.Status, res.Error)
			}
			tests := res.Analytic.Tests
			if len(tests) != c.tests || tests[0].Status != result.StatusFailed || tests[0].GeomeanSeconds != nil {
				t.Fatalf("tests %+v: want %d, the first failed without metrics", tests, c.tests)
			}
			ran, failed := 0, 0
			for _, s := range tests[0].QueryStreams {
				for i, q := range s.Queries {
					ran++
					if q.Status == "failed" {
						failed++
						if i != len(s.Queries)-1 {
							t.Errorf("stream %d went on after its Q%d failed: %+v", s.Stream, q.Query, s.Queries)
						}
					}
				}
			}
			if failed == 0 || ran >= c.planned || ran > len(tests[0].QueryStreams)*2 {
				t.Fatalf("%d queries ran (%d failed) of %d planned: the run must end at the first fatal error\n%s", ran, failed, c.planned, r.Stdout)
			}
		})
	}
}

// execSQL runs a statement on its own connection (on the run's goroutine: it reports its error rather than end the
// test there).
func execSQL(url, stmt string) error {
	tg, err := engine.Parse(url)
	if err != nil {
		return err
	}
	db, err := tg.Open(context.Background())
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(stmt)
	return err
}

package tpcc_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// refused runs a command that must fail, saying want.
func refused(t *testing.T, want string, args ...string) {
	t.Helper()
	r := clitest.Run(context.Background(), args...)
	if r.Code == 0 || !strings.Contains(r.Stderr, want) {
		t.Fatalf("%s: exit %d, want a refusal saying %q:\n%s\n%s", strings.Join(args, " "), r.Code, want, r.Stdout, r.Stderr)
	}
}

// onABuild is the URL of an intact 1-warehouse build on e: a copy of the one SQLite build, or the build a
// server holds (built when no earlier test left one).
func onABuild(t *testing.T, e clitest.Engine) string {
	t.Helper()
	if e.Name == "sqlite" {
		return "sqlite://" + builtSQLite(t)
	}
	builtOn(t, e.URL)
	return e.URL
}

// A run (and a check) refuses a database whose rows or keys changed since its build, naming what changed. One
// build per engine: each change but the last is undone before the next.
func TestRunRefusesATamperedDatabase(t *testing.T) {
	for _, e := range clitest.OLTPEngines(t) {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel() // each engine its own server or file
			e.URL = onABuild(t, e)
			// tampered with; undone at the end (the next test runs on the build: a server's build takes longer
			// than this test) unless the test failed, when builtOn's cleanup says it is spoilt
			// a count, not a time, however slow the engine (1 s on Babelfish could end before the first New-Order): 56
			// transactions of one user hold at least one New-Order (a deck of 100 cards has 55 others)
			run := []string{"tpcc", "run", "--target", e.URL, "--vus", "1", "--rampup", "0s", "--transactions", "56"}

			drop := map[string]string{"mysql": "DROP INDEX customer_last ON customer", "sqlserver": "DROP INDEX customer_last ON customer"}[e.Name]
			if drop == "" {
				drop = "DROP INDEX customer_last"
			}
			testsrv.Exec(t, e.URL, drop)
			refused(t, "customer lacks its index or primary key customer_last", run...)
			testsrv.Exec(t, e.URL, "CREATE INDEX customer_last ON customer (c_w_id, c_d_id, c_last, c_first)")

			if pk := map[string]string{"postgres": "ALTER TABLE stock DROP CONSTRAINT stock_pk", "mysql": "ALTER TABLE stock DROP PRIMARY KEY"}[e.Name]; pk != "" {
				testsrv.Exec(t, e.URL, pk)
				refused(t, "stock lacks its index or primary key", run...)
				testsrv.Exec(t, e.URL, "ALTER TABLE stock ADD CONSTRAINT stock_pk PRIMARY KEY (s_w_id, s_i_id)")
			}

			// an index the build did not make runs, and the result and compare say so
			dir := t.TempDir()
			store := filepath.Join(dir, "s.db")
			clean, changed := filepath.Join(dir, "clean.json"), filepath.Join(dir, "changed.json")
			clitest.Must(t, append(run, "--store", store, "--result", clean)...)
			testsrv.Exec(t, e.URL, "CREATE INDEX extra_price ON item (i_price)")
			r := clitest.Must(t, append(run, "--store", store, "--result", changed)...)
			res, _ := clitest.ReadResult(t, changed)
			if len(res.DatabaseChanges) != 1 || !strings.Contains(res.DatabaseChanges[0], "extra_price") || !strings.Contains(r.Stdout, "warning: the database changed") {
				t.Fatalf("database_changes %q, output:\n%s", res.DatabaseChanges, r.Stdout)
			}
			if c, _ := clitest.ReadResult(t, clean); len(c.DatabaseChanges) != 0 {
				t.Fatalf("the clean run records changes: %q", c.DatabaseChanges)
			}
			var out strings.Builder
			if err := results.CompareChanged(context.Background(), &out, store, []string{clean, changed}, false); err == nil || !strings.Contains(err.Error(), "compare it only with --allow-changed") {
				t.Fatalf("compare of a changed run: %v\n%s", err, out.String())
			}
			if err := results.CompareChanged(context.Background(), &out, store, []string{clean, changed}, true); err != nil || !strings.Contains(strings.ToLower(out.String()), "nopm") {
				t.Fatalf("compare --allow-changed: %v\n%s", err, out.String())
			}

			kept := itemRows(t, e.URL, "i_id % 50 = 0")
			testsrv.Exec(t, e.URL, "DELETE FROM item WHERE i_id % 50 = 0") // 2% of the items
			refused(t, "item has 98000 rows, 2000 fewer than the build loaded", run...)
			refused(t, "item has 98000 rows", "tpcc", "check", "--target", e.URL)

			// undone: the build as it was, which the next test runs on
			testsrv.Exec(t, e.URL, kept...)
			dropExtra := "DROP INDEX extra_price"
			if strings.HasSuffix(drop, " ON customer") {
				dropExtra += " ON item"
			}
			testsrv.Exec(t, e.URL, dropExtra)
			built(e.URL)
		})
	}
}

// A build with --drop, or a drop, refuses while a run uses the tables; a run refuses while a build holds them.
func TestBuildRefusesWhileARunUsesTheTables(t *testing.T) {
	for _, e := range clitest.OLTPEngines(t) {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel() // each engine its own server or file
			e.URL = onABuild(t, e)
			t.Cleanup(func() { spoilt(e.URL) }) // dropped
			// the refusals while the run measures its work (an event of the run; its window, 5 minutes, outlasts
			// them however slow the machine), then Ctrl-C (a run that ends gives the lock up too: see
			// TestBuildRunCheckOnEveryEngine's drop)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			refusals := &event{do: func() {
				defer cancel()
				refused(t, "in use by a dbdyno run or build", "tpcc", "build", "--target", e.URL, "--warehouses", "1", "--drop")
				refused(t, "in use by a dbdyno run or build", "tpcc", "drop", "--target", e.URL)
			}}
			r := clitest.RunWatching(ctx, measuring(refusals.fire), "tpcc", "run", "--target", e.URL, "--vus", "1", "--rampup", "0s",
				"--duration", "5m", "--interval", "1s")
			if !refusals.wait() || r.Code != method.ExitAborted {
				t.Fatalf("the run: exit %d, want %d after the refusals\n%s\n%s", r.Code, method.ExitAborted, r.Stdout, r.Stderr)
			}
			// the run gave the lock up: a drop now goes ahead, and a run after it says to build
			clitest.Must(t, "tpcc", "drop", "--target", e.URL)
			if r := clitest.Run(context.Background(), "tpcc", "run", "--target", e.URL, "--duration", "1s"); r.Code == 0 || !strings.Contains(r.Stderr, "tpcc build") {
				t.Fatalf("run after drop: exit %d %s", r.Code, r.Stderr)
			}
		})
	}
}

// More New-Orders rolled back than the specification's 1% warn, and the result records it: here items were
// deleted from a build whose record has no row counts (as builds made before manifests were recorded).
func TestTooManyRollbacksWarn(t *testing.T) {
	e := clitest.Engine{URL: "sqlite://" + builtSQLite(t)}
	file := filepath.Join(t.TempDir(), "r.json")
	run := []string{"tpcc", "run", "--target", e.URL, "--vus", "1", "--rampup", "0s", "--duration", "2s", "--check", "--result", file}
	r := clitest.Must(t, run...)
	if res, _ := clitest.ReadResult(t, file); strings.Contains(r.Stdout, "rolled back") || len(res.Checks) != 12 {
		t.Fatalf("a clean run warns of rollbacks, or records %d checks:\n%s", len(res.Checks), r.Stdout)
	}
	testsrv.Exec(t, e.URL, "DELETE FROM dbdyno_tpcc_meta WHERE k LIKE 'rows:%'", "DELETE FROM item WHERE i_id % 50 = 0")
	r = clitest.Must(t, run...)
	res, _ := clitest.ReadResult(t, file)
	last := res.Checks[len(res.Checks)-1]
	if !strings.Contains(r.Stdout, "WARNING: ") || last.Name != "new_order_rollbacks" || last.Passed || !strings.Contains(last.Detail, "more than the specification's 1%") {
		t.Fatalf("checks %+v, output:\n%s", res.Checks, r.Stdout)
	}
}

// itemRows are INSERT statements that put back the item rows where holds (a test deletes them, then undoes it):
// literal values, in batches of 500 rows (SQL Server's VALUES takes at most 1,000).
func itemRows(t *testing.T, url, where string) []string {
	t.Helper()
	_, db := testsrv.Open(t, url)
	defer db.Close()
	rows, err := db.Query("SELECT i_id, i_im_id, i_name, i_price, i_data FROM item WHERE " + where + " ORDER BY i_id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	var stmts, values []string
	flush := func() {
		if len(values) > 0 {
			stmts = append(stmts, "INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES "+strings.Join(values, ", "))
			values = nil
		}
	}
	for rows.Next() {
		var id, im int64
		var name, price, data string
		if err := rows.Scan(&id, &im, &name, &price, &data); err != nil {
			t.Fatal(err)
		}
		values = append(values, fmt.Sprintf("(%d, %d, %s, %s, %s)", id, im, quote(name), price, quote(data)))
		if len(values) == 500 {
			flush()
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	flush()
	if len(stmts) != 4 { // 2,000 rows
		t.Fatalf("kept %d batches of item rows where %s", len(stmts), where)
	}
	return stmts
}

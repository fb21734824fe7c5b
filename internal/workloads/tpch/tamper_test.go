package tpch_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A TPC-H run refuses tables whose rows were deleted or whose primary key was dropped since the build. (A
// subtest of TestTPCHBuildAndValidateOnEveryEngine, on each engine's build: the deleted rows are kept aside and
// put back before the next case, which the next refusal, naming only its own table, shows; the key goes last.)
func runRefusesATamperedDatabase(t *testing.T, e clitest.Engine) {
	refused := func(want string) {
		t.Helper()
		r := clitest.Run(context.Background(), "tpch", "run", "--target", e.URL, "--power", "--queries", "6")
		if r.Code == 0 || !strings.Contains(r.Stderr, want) {
			t.Fatalf("run: exit %d, want a refusal saying %q:\n%s\n%s", r.Code, want, r.Stdout, r.Stderr)
		}
	}
	// deleted deletes the rows of table where cond holds, keeping them in table_kept; the returned func puts them
	// back
	deleted := func(table, cond string) func() {
		t.Helper()
		keep := "CREATE TABLE " + table + "_kept AS SELECT * FROM " + table + " WHERE " + cond
		if e.Name == "sqlserver" {
			keep = "SELECT * INTO " + table + "_kept FROM " + table + " WHERE " + cond
		}
		testsrv.Exec(t, e.URL, "DROP TABLE IF EXISTS "+table+"_kept", keep, "DELETE FROM "+table+" WHERE "+cond) // (one a failed run left)
		return func() {
			t.Helper()
			testsrv.Exec(t, e.URL, "INSERT INTO "+table+" SELECT * FROM "+table+"_kept", "DROP TABLE "+table+"_kept")
		}
	}

	back := deleted("supplier", "s_suppkey % 10 = 0")
	refused("supplier has 90 rows, 10 fewer than the build loaded")
	back()

	back = deleted("lineitem", "l_orderkey < 100") // no update set is applied: loaded rows, exactly
	refused("lineitem has ")
	back()

	pk := map[string]string{"postgres": "ALTER TABLE lineitem DROP CONSTRAINT lineitem_pkey", "mysql": "ALTER TABLE lineitem DROP PRIMARY KEY"}[e.Name]
	if pk == "" {
		return
	}
	testsrv.Exec(t, e.URL, pk)
	refused("lineitem lacks its index or primary key")
}

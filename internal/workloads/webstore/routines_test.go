package webstore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// small is the build of a small store for the tests that tamper with it.
func small(url string) []string {
	return []string{"webstore", "build", "--target", url, "--customers", "2000", "--products", "1000", "--orders-per-month", "100", "--reviews-per-product", "2", "--drop"}
}

// refusedOneLine runs a command that must fail in one line on stderr holding every one of want.
func refusedOneLine(t *testing.T, url string, want []string, args ...string) {
	t.Helper()
	r := clitest.Run(context.Background(), args...)
	ok := r.Code != 0 && strings.Count(strings.TrimSpace(r.Stderr), "\n") == 0
	for _, w := range want {
		ok = ok && strings.Contains(r.Stderr, w)
	}
	if !ok {
		t.Fatalf("%s: exit %d, want one line saying %q:\n%s\n%s", strings.Join(args[:2], " "), r.Code, want, r.Stdout, r.Stderr)
	}
	clitest.NoPassword(t, url, r.Stdout, r.Stderr)
}

// A run and a check refuse a store whose restock trigger was dropped since the build: the build records a
// digest of each of its triggers and routines as the engine reports them.
func TestRunRefusesADroppedTrigger(t *testing.T) {
	t.Parallel() // on databases of its own
	for _, e := range engines(t, "dbdyno_ws_routines") {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel() // each engine its own file or server
			clitest.Must(t, small(e.URL)...)
			run := []string{"webstore", "run", "--target", e.URL, "--vus", "1", "--rampup", "0s", "--duration", "1s", "--store", ""}
			clitest.Must(t, "webstore", "check", "--target", e.URL) // as built: passes
			drop := "DROP TRIGGER dbdyno_ws_restock"
			if tg, _ := engine.Parse(e.URL); tg.Engine.Name == "postgres" {
				drop += " ON inventory"
			}
			testsrv.Exec(t, e.URL, drop)
			want := []string{"trigger dbdyno_ws_restock was dropped since the build", "rebuild with 'dbdyno webstore build --drop'"}
			refusedOneLine(t, e.URL, want, run...)
			refusedOneLine(t, e.URL, want, "webstore", "check", "--target", e.URL)
		})
	}
}

// A reset (and so a run, which resets first) refuses to restore the inventory from a loaded copy whose values
// changed since the build (its rows all there): the build recorded the copy's checksum.
func TestResetRefusesAChangedLoadedInventory(t *testing.T) {
	t.Parallel() // on databases of its own
	for _, e := range engines(t, "dbdyno_ws_snapshot") {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel() // each engine its own file or server
			clitest.Must(t, small(e.URL)...)
			clitest.Must(t, "webstore", "reset", "--target", e.URL) // as built: restores
			testsrv.Exec(t, e.URL, "UPDATE inventory_loaded SET quan_in_stock = quan_in_stock + 5 WHERE prod_id % 10 = 0")
			want := []string{"inventory_loaded", "differs from its build", "rebuild with 'dbdyno webstore build --drop'"}
			refusedOneLine(t, e.URL, want, "webstore", "reset", "--target", e.URL)
			refusedOneLine(t, e.URL, want, "webstore", "run", "--target", e.URL, "--vus", "1", "--rampup", "0s", "--duration", "1s", "--store", "")
		})
	}
}

package webstore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// A reset does not trust a loaded copy of the inventory missing rows, and a run refuses the store.
func TestResetRefusesATamperedLoadedInventory(t *testing.T) {
	t.Parallel() // on databases of its own
	for _, e := range engines(t, "dbdyno_ws_tamper") {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel() // each engine its own file or server
			clitest.Must(t, "webstore", "build", "--target", e.URL, "--customers", "2000", "--products", "1000", "--orders-per-month", "100", "--reviews-per-product", "2", "--drop")
			_, raw := open(t, e.URL)
			if _, err := raw.Exec("DELETE FROM inventory_loaded WHERE prod_id % 10 = 0"); err != nil { // 10% of its rows
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"webstore", "reset", "--target", e.URL},
				{"webstore", "run", "--target", e.URL, "--vus", "1", "--rampup", "0s", "--duration", "1s"},
			} {
				r := clitest.Run(context.Background(), args...)
				if want := "inventory_loaded has 900 rows, 100 fewer than the build loaded"; r.Code == 0 || !strings.Contains(r.Stderr, want) {
					t.Fatalf("%s: exit %d, want a refusal saying %q:\n%s\n%s", strings.Join(args, " "), r.Code, want, r.Stdout, r.Stderr)
				}
			}
		})
	}
}

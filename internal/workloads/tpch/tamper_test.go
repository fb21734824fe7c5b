package tpch_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A TPC-H run refuses tables whose rows were deleted or whose primary key was dropped since the build.
func TestTPCHRunRefusesATamperedDatabase(t *testing.T) {
	for _, e := range tpchEngines(t) {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel() // each engine its own file or server: one waits on its server while another works
			build := func() {
				clitest.Must(t, "tpch", "build", "--target", e.URL, "--scale", "0.01", "--drop", "--threads", "2")
			}
			refused := func(want string) {
				t.Helper()
				r := clitest.Run(context.Background(), "tpch", "run", "--target", e.URL, "--power", "--queries", "6")
				if r.Code == 0 || !strings.Contains(r.Stderr, want) {
					t.Fatalf("run: exit %d, want a refusal saying %q:\n%s\n%s", r.Code, want, r.Stdout, r.Stderr)
				}
			}
			build()
			testsrv.Exec(t, e.URL, "DELETE FROM supplier WHERE s_suppkey % 10 = 0")
			refused("supplier has 90 rows, 10 fewer than the build loaded")

			build()
			testsrv.Exec(t, e.URL, "DELETE FROM lineitem WHERE l_orderkey < 100") // no update set is applied: loaded rows, exactly
			refused("lineitem has ")

			pk := map[string]string{"postgres": "ALTER TABLE lineitem DROP CONSTRAINT lineitem_pkey", "mysql": "ALTER TABLE lineitem DROP PRIMARY KEY"}[e.Name]
			if pk == "" {
				return
			}
			build()
			testsrv.Exec(t, e.URL, pk)
			refused("lineitem lacks its index or primary key")
		})
	}
}

package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// A build refused for another dataset's tables names the dataset that owns them: with the write probe's and the
// web store's tables in one database, TPC-C's build is refused for the web store's orders (it blamed the write
// probe, whose tables share no name with TPC-C's).
func TestConflictNamesTheOwner(t *testing.T) {
	u := "sqlite://" + filepath.Join(t.TempDir(), "both.db")
	clitest.Must(t, "probe", "write", "--target", u, "--chunk", "1m", "--total", "1m", "--store", "")
	clitest.Must(t, "webstore", "build", "--target", u, "--customers", "1000", "--products", "500", "--orders-per-month", "100")
	r := clitest.Run(context.Background(), "tpcc", "build", "--target", u)
	if r.Code == 0 || !strings.Contains(r.Stderr, "holds dbdyno's web store tables, which share names with TPC-C's (orders)") || strings.Contains(r.Stderr, "write probe") {
		t.Errorf("exit %d, %q", r.Code, r.Stderr)
	}
}

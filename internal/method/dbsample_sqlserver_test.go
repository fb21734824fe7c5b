package method_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// On SQL Server the counters are read every interval and wait events sampled, as on the other servers
// (TestCountersPerInterval, TestWaitEventsSampled). Babelfish has neither view they come from: there the test
// skips, naming them (the result lists them as not collected, see engine's TestSQLServerVariantAtConnect).
func TestCountersAndWaitsOnSQLServer(t *testing.T) {
	url := os.Getenv(testsrv.MSSQLEnv)
	if url == "" {
		t.Skipf("%s not set", testsrv.MSSQLEnv)
	}
	tg, db := testsrv.Open(t, url)
	defer db.Close()
	counters, waits := tg.Engine.Unavailable(context.Background(), db, "counters"), tg.Engine.Unavailable(context.Background(), db, "waits")
	db.Close()
	if counters != "" || waits != "" {
		t.Skipf("counters and waits not collected: %s; %s", counters, waits)
	}
	res := filepath.Join(t.TempDir(), "s.json")
	clitest.Must(t, "ping", "--target", url, "--vus", "3", "--rampup", "0s", "--duration", "2500ms", "--metrics-interval", "500ms",
		"--wait-interval", "50ms", "--result", res, "--store", "")
	r, _ := clitest.ReadResult(t, res)
	c := r.DBCounters
	if c == nil || c.Source != "database" || len(c.Series) < 4 {
		t.Fatalf("counters %+v", c)
	}
	if _, ok := c.Series[len(c.Series)-1].Rates["batch_requests/sec"]; !ok {
		t.Errorf("no per-interval batch_requests/sec in %v", c.Series[len(c.Series)-1].Rates)
	}
	if w := r.Waits; w == nil || w.Note != "" || w.Samples < 25 {
		t.Fatalf("waits %+v", w)
	}
}

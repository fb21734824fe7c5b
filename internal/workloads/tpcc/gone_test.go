package tpcc_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/netproxy"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A server that goes away for good: the virtual users retry for --reconnect-timeout, then the run ends
// `failed`, exits non-zero with one line saying why, and keeps the figures measured before.
func TestServerGoneForGoodEndsFailed(t *testing.T) {
	direct := testsrv.URL(t, "DBDYNO_TEST_PG")
	clitest.Must(t, "tpcc", "build", "--target", direct, "--warehouses", "1", "--drop")
	p := netproxy.Start(t, direct)
	file := filepath.Join(t.TempDir(), "r.json")
	done := make(chan clitest.Result)
	started := time.Now()
	go func() {
		done <- clitest.Run(context.Background(), "tpcc", "run", "--target", p.URL, "--vus", "2", "--rampup", "1s", "--duration", "60s",
			"--interval", "1s", "--reconnect-timeout", "2s", "--result", file)
	}()
	time.Sleep(4 * time.Second)
	p.Stop()
	r := <-done
	if r.Code == 0 || time.Since(started) > 40*time.Second {
		t.Fatalf("run against a server gone for good: exit %d after %s\n%s", r.Code, time.Since(started), r.Stderr)
	}
	if lines := strings.Split(strings.TrimSpace(r.Stderr), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "not re-established within 2s") {
		t.Fatalf("want one line naming the failed reconnection, got:\n%s", r.Stderr)
	}
	res, raw := clitest.ReadResult(t, file)
	clitest.NoPassword(t, direct, r.Stdout, r.Stderr, raw)
	if res.Status != result.StatusFailed || res.Measurement == nil || res.Measurement.Transactions["new_order"].Count == 0 {
		t.Fatalf("want a failed result with the figures measured before: status %s, measurement %+v", res.Status, res.Measurement)
	}
}

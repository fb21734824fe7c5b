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
	builtOn(t, direct)
	p := netproxy.Start(t, direct)
	file := filepath.Join(t.TempDir(), "r.json")
	// the server goes once the window has counted work (an event of the run, not a time a loaded machine
	// outlasts); the run must then end failed well within its 5 minutes (a run that went on takes all of them)
	var gone time.Time
	stopped := make(chan struct{})
	r := clitest.RunWatching(context.Background(), measuring(func() { gone = time.Now(); p.Stop(); close(stopped) }),
		"tpcc", "run", "--target", p.URL, "--vus", "2", "--rampup", "1s", "--duration", "5m",
		"--interval", "1s", "--reconnect-timeout", "2s", "--result", file)
	select {
	case <-stopped:
	default:
		t.Fatalf("the run ended before the server went: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if took := time.Since(gone); r.Code == 0 || took > 2*time.Minute {
		t.Fatalf("run against a server gone for good: exit %d %s after it went\n%s", r.Code, took, r.Stderr)
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

// The same on PostgreSQL, in procedures mode: the table a transaction's function needs is dropped mid-run.
func TestTableDroppedOnPostgresFailsTheRun(t *testing.T) {
	url := testsrv.URL(t, "DBDYNO_TEST_PG")
	builtOn(t, url)
	defer spoilt(url) // its history table is gone
	file := filepath.Join(t.TempDir(), "r.json")
	// dropped once the window has counted work: an event of the run, not a time a loaded machine outlasts
	drop := &event{do: func() { testsrv.Exec(t, url, "DROP TABLE history") }}
	r := clitest.RunWatching(context.Background(), measuring(drop.fire), "tpcc", "run", "--target", url, "--vus", "2", "--rampup", "1s",
		"--duration", "2m", "--interval", "1s", "--mode", "procedures", "--result", file)
	if !drop.wait() {
		t.Fatalf("the run ended before it measured any work: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	res, _ := clitest.ReadResult(t, file)
	failed(t, r, res, "the schema is missing or changed")
	// at once: well within the run's 2 minutes, however slow the machine (a run that went on takes all of them)
	if !strings.Contains(res.Error, "history") || res.EndedAt.Sub(res.StartedAt) > time.Minute {
		t.Fatalf("error %s after %s", res.Error, res.EndedAt.Sub(res.StartedAt))
	}
}

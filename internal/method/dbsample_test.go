package method_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// The database's counters are read every interval, not only at the start and end: an embedded engine's as
// the process's IO, a server's from its own views.
func TestCountersPerInterval(t *testing.T) {
	dir := t.TempDir()
	urls := map[string]string{"sqlite": "sqlite://" + filepath.Join(dir, "p.db"), "postgres": testsrv.URL(t, testsrv.PostgresEnv),
		"mysql": testsrv.URL(t, testsrv.MySQLEnv)}
	want := map[string][]string{"sqlite": {"process_rchar", "process_syscr"}, "postgres": {"xact_commit", "blks_hit", "wal_bytes", "checkpoints_timed", "buffers_alloc"},
		"mysql": {"innodb_buffer_pool_read_requests", "innodb_row_lock_waits", "com_commit"}}
	for name, url := range urls {
		res := filepath.Join(dir, name+".json")
		clitest.Must(t, "ping", "--target", url, "--vus", "2", "--rampup", "0s", "--duration", "2500ms", "--metrics-interval", "500ms", "--result", res, "--store", "")
		r, _ := clitest.ReadResult(t, res)
		c := r.DBCounters
		if c == nil || c.IntervalS != 0.5 || len(c.Series) < 4 {
			t.Fatalf("%s: counters %+v", name, c)
		}
		for _, k := range want[name] {
			if _, ok := c.Series[len(c.Series)-1].Rates[k]; !ok {
				t.Errorf("%s: no per-interval %s in %v", name, k, c.Series[len(c.Series)-1].Rates)
			}
		}
		if name == "sqlite" && (c.Source != "process" || r.Waits != nil) || name != "sqlite" && c.Source != "database" {
			t.Errorf("%s: source %q, waits %v", name, c.Source, r.Waits)
		}
	}
}

// Wait events are sampled every --wait-interval on the servers: the top events by share, dbdyno's own
// sessions told apart, a per-second series; --wait-interval 0 turns it off. The sessions sleep in the server
// (a script of 200 ms sleeps), so they are busy in every sample whatever the machine's speed: with ping's
// SELECT 1 a client slowed by a load average of 30 left its sessions idle between statements, and 39 samples
// saw no busy session at all.
func TestWaitEventsSampled(t *testing.T) {
	dir := t.TempDir()
	sleep := map[string]string{testsrv.PostgresEnv: "SELECT pg_sleep(0.2);\n", testsrv.MySQLEnv: "SELECT SLEEP(0.2);\n"}
	for _, env := range []string{testsrv.PostgresEnv, testsrv.MySQLEnv} {
		url := testsrv.URL(t, env)
		res := filepath.Join(dir, "w.json")
		script := filepath.Join(dir, "sleep.sql")
		if err := os.WriteFile(script, []byte(sleep[env]), 0o644); err != nil {
			t.Fatal(err)
		}
		clitest.Must(t, "script", "run", script, "--target", url, "--vus", "3", "--rampup", "0s", "--duration", "2s", "--wait-interval", "50ms", "--result", res, "--store", "")
		r, _ := clitest.ReadResult(t, res)
		w := r.Waits
		if w == nil {
			t.Fatalf("%s: no waits", env)
		}
		if w.Note != "" {
			// MariaDB with performance_schema off says so; the CI's servers have it on
			if os.Getenv("CI") == "true" || !strings.Contains(w.Note, "performance_schema is off") {
				t.Fatalf("%s: %s", env, w.Note)
			}
			continue
		}
		if w.Samples < 25 || w.IntervalMs != 50 || w.Observations == 0 || len(w.Top) == 0 || len(w.Series) < 2 {
			t.Fatalf("%s: waits %+v", env, w)
		}
		sum, own := 0.0, 0.0
		for _, x := range w.Top {
			sum += x.Share
			own += x.OwnShare * x.Share
		}
		// each share is rounded to 3 decimals: the sum may be off by half a thousandth per share
		if slack := 0.0005*float64(len(w.Top)) + 1e-9; sum < 0.99 || sum > 1+slack || own < 0.5 {
			t.Fatalf("%s: shares add to %g, dbdyno's own %g: %+v", env, sum, own, w.Top)
		}
		clitest.Must(t, "ping", "--target", url, "--rampup", "0s", "--duration", "300ms", "--wait-interval", "0", "--result", res, "--store", "")
		if r, _ := clitest.ReadResult(t, res); r.Waits != nil {
			t.Fatalf("%s: --wait-interval 0 sampled waits", env)
		}
	}
}

package tpcc_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/method"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
	_ "modernc.org/sqlite"
)

func TestMain(m *testing.M) { clitest.Main(m) }

func TestBuildRunCheckOnEveryEngine(t *testing.T) {
	for _, e := range clitest.OLTPEngines(t) {
		t.Run(e.Name, func(t *testing.T) {
			b := clitest.Must(t, "tpcc", "build", "--target", e.URL, "--warehouses", "1", "--drop")
			if !strings.Contains(b.Stdout, "rows/s") || !strings.Contains(b.Stdout, "built ") {
				t.Fatalf("build output lacks progress:\n%s", b.Stdout)
			}
			rampup := "1s"
			if e.Name == "sqlserver" {
				// Babelfish compiles each T-SQL procedure on its first call in each session: seconds on a busy
				// machine, which would leave the 4 s window without a payment
				rampup = "5s"
			}
			for _, mode := range e.Modes {
				t.Run(mode, func(t *testing.T) {
					file := filepath.Join(t.TempDir(), "r.json")
					r := clitest.Must(t, "tpcc", "run", "--target", e.URL, "--vus", "2", "--rampup", rampup, "--duration", "4s",
						"--interval", "2s", "--mode", mode, "--check", "--seed", "7", "--result", file)
					res, raw := clitest.ReadResult(t, file)
					clitest.NoPassword(t, e.URL, r.Stdout, r.Stderr, raw)
					if res.Status != result.StatusOK || res.Target.Engine != e.Name || res.Options["mode"] != mode {
						t.Fatalf("status %s engine %s mode %v", res.Status, res.Target.Engine, res.Options["mode"])
					}
					m := res.Measurement
					no := m.Transactions["new_order"]
					if no.Count == 0 || m.Transactions["payment"].Count == 0 || m.Errors != 0 {
						t.Fatalf("new orders %d, payments %d, errors %d: %v", no.Count, m.Transactions["payment"].Count, m.Errors, m.ErrorSamples)
					}
					// NOPM counted by the client agrees with the database's d_next_o_id: a transaction in flight
					// when the window opens or closes can fall on either side of the database's reading, so the
					// two may differ by at most one per VU at each edge (2 VUs, 2 edges)
					dbNew := res.Figures["new_orders_db"].(float64)
					if diff := dbNew - float64(no.Count); diff < -4 || diff > 4 {
						t.Fatalf("client counted %d new orders, the database %v", no.Count, dbNew)
					}
					if m.ClientCPU.MicrosPerTx <= 0 || no.Latency.P99 < no.Latency.P50 || no.Latency.Max < no.Latency.P99 {
						t.Fatalf("cpu %.1f µs/tx, latency %+v", m.ClientCPU.MicrosPerTx, no.Latency)
					}
					if len(res.Checks) != 4 {
						t.Fatalf("%d checks recorded", len(res.Checks))
					}
					for _, c := range res.Checks {
						if !c.Passed {
							t.Fatalf("consistency %s failed: %s", c.Name, c.Detail)
						}
					}
					if !strings.Contains(r.Stdout, "NOPM") || strings.Count(r.Stdout, "consistency PASS") != 4 {
						t.Fatalf("summary missing:\n%s", r.Stdout)
					}
					if res.Options["seed"] != "7" || res.Options["nurand_c_run"] == nil {
						t.Fatalf("seed or run constants not recorded: %v", res.Options)
					}
					if res.Environment == nil || res.Environment.EngineVersion == "" || len(res.Environment.Settings) == 0 {
						t.Fatalf("environment fingerprint missing: %+v", res.Environment)
					}
					switch e.Name {
					case "postgres":
						if d := res.DBCounters; d == nil || d.Delta["xact_commit"] <= 0 || d.Delta["wal_bytes"] <= 0 || res.Environment.Settings["shared_buffers"] == "" {
							t.Fatalf("PostgreSQL counters/settings: %+v %v", res.DBCounters, res.Environment.Settings)
						}
					case "mysql":
						if d := res.DBCounters; d == nil || d.Delta["com_commit"] <= 0 || d.Delta["innodb_os_log_written"] <= 0 || res.Environment.Settings["innodb_buffer_pool_size"] == "" {
							t.Fatalf("MariaDB counters/settings: %+v %v", res.DBCounters, res.Environment.Settings)
						}
					}
				})
			}
			c := clitest.Must(t, "tpcc", "check", "--target", e.URL)
			if strings.Count(c.Stdout, "PASS") != 4 {
				t.Fatalf("check:\n%s", c.Stdout)
			}
			if r := clitest.Run(context.Background(), "tpcc", "build", "--target", e.URL, "--warehouses", "1"); r.Code == 0 || !strings.Contains(r.Stderr, "--drop") {
				t.Fatalf("build over an existing schema without --drop: exit %d %s", r.Code, r.Stderr)
			}
			clitest.Must(t, "tpcc", "drop", "--target", e.URL)
			if r := clitest.Run(context.Background(), "tpcc", "run", "--target", e.URL, "--duration", "1s"); r.Code == 0 || !strings.Contains(r.Stderr, "tpcc build") {
				t.Fatalf("run after drop: exit %d %s", r.Code, r.Stderr)
			}
		})
	}
}

func TestNeverDropsTablesDbdynoDidNotCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "user.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE warehouse (w_id int, note text); INSERT INTO warehouse VALUES (1, 'precious')"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	url := "sqlite://" + path
	for _, args := range [][]string{
		{"tpcc", "build", "--target", url, "--drop"},
		{"tpcc", "drop", "--target", url},
	} {
		if r := clitest.Run(context.Background(), args...); r.Code == 0 || !strings.Contains(r.Stderr, "did not create") {
			t.Fatalf("%v: exit %d %s", args, r.Code, r.Stderr)
		}
	}
	db, _ = sql.Open("sqlite", path)
	defer db.Close()
	var note string
	if err := db.QueryRow("SELECT note FROM warehouse").Scan(&note); err != nil || note != "precious" {
		t.Fatalf("the user's table was touched: %v %q", err, note)
	}
}

func TestCtrlCWritesAbortedResult(t *testing.T) {
	url := "sqlite://" + filepath.Join(t.TempDir(), "t.db")
	clitest.Must(t, "tpcc", "build", "--target", url)
	file := filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(3*time.Second, cancel)
	r := clitest.Run(ctx, "tpcc", "run", "--target", url, "--vus", "2", "--rampup", "1s", "--duration", "5m", "--result", file)
	if r.Code != method.ExitAborted {
		t.Fatalf("exit %d, want %d\n%s%s", r.Code, method.ExitAborted, r.Stdout, r.Stderr)
	}
	if strings.Contains(r.Stdout, "run aborted: run aborted") || !strings.Contains(r.Stdout, "run aborted after") {
		t.Fatalf("the summary words the abort twice or not at all:\n%s", r.Stdout)
	}
	res, _ := clitest.ReadResult(t, file)
	if res.Status != result.StatusAborted || res.Measurement.Committed == 0 || res.Measurement.MeasuredSecs > 5 {
		t.Fatalf("status %s committed %d measured %.1fs", res.Status, res.Measurement.Committed, res.Measurement.MeasuredSecs)
	}
	clitest.Must(t, "tpcc", "check", "--target", url)
}

// killer terminates dbdyno's server sessions once, while a run is going on.
func lostConnectionRun(t *testing.T, url string, kill func() (int, error)) {
	clitest.Must(t, "tpcc", "build", "--target", url, "--warehouses", "1", "--drop")
	file := filepath.Join(t.TempDir(), "r.json")
	done := make(chan clitest.Result)
	go func() {
		done <- clitest.Run(context.Background(), "tpcc", "run", "--target", url, "--vus", "3", "--rampup", "1s", "--duration", "6s",
			"--interval", "1s", "--check", "--result", file)
	}()
	time.Sleep(3 * time.Second)
	n, err := kill()
	if err != nil {
		t.Fatal(err)
	}
	if n < 3 {
		t.Fatalf("terminated only %d sessions", n)
	}
	r := <-done
	if r.Code != 0 {
		t.Fatalf("run did not survive lost connections: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	res, _ := clitest.ReadResult(t, file)
	m := res.Measurement
	// The terminated sessions include the run's own administrative connections (replaced without a reconnect
	// being counted), so not every one of them is a virtual user's: at least one virtual user must have lost its
	// connection, counted the error and reconnected.
	if res.Status != result.StatusOK || m.Reconnects < 1 || m.Errors < 1 || m.DisconnectedSecs <= 0 || !strings.Contains(r.Stdout, "without a connection for") {
		t.Fatalf("status %s reconnects %d errors %d disconnected %.1fs (%d sessions terminated)", res.Status, m.Reconnects, m.Errors, m.DisconnectedSecs, n)
	}
	last := m.Intervals[len(m.Intervals)-2]
	if last.Transactions["new_order"].Count == 0 {
		t.Fatalf("no new orders after reconnecting: %+v", last)
	}
}

func TestLostConnectionPostgres(t *testing.T) {
	url := testsrv.URL(t, "DBDYNO_TEST_PG")
	lostConnectionRun(t, url, func() (int, error) {
		tg, _ := engine.Parse(url)
		c, err := tg.Open(context.Background())
		if err != nil {
			return 0, err
		}
		defer c.Close()
		var n int
		err = c.QueryRowContext(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = 'dbdyno' AND pid <> pg_backend_pid() AND datname = current_database()`).Scan(&n)
		return n, err
	})
}

func TestLostConnectionMySQL(t *testing.T) {
	url := testsrv.URL(t, "DBDYNO_TEST_MYSQL")
	lostConnectionRun(t, url, func() (int, error) {
		tg, _ := engine.Parse(url)
		db, err := tg.Open(context.Background())
		if err != nil {
			return 0, err
		}
		defer db.Close()
		rows, err := db.Query("SELECT id FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID()")
		if err != nil {
			return 0, err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			rows.Scan(&id)
			ids = append(ids, id)
		}
		rows.Close()
		for _, id := range ids {
			if _, err := db.Exec(fmt.Sprintf("KILL CONNECTION %d", id)); err != nil {
				return 0, err
			}
		}
		return len(ids), nil
	})
}

// MySQL 8 refuses LOAD DATA LOCAL INFILE by default: the build falls back to multi-row INSERTs.
func TestMySQLBuildWithoutLocalInfile(t *testing.T) {
	url := testsrv.URL(t, "DBDYNO_TEST_MYSQL")
	tg, _ := engine.Parse(url)
	db, err := tg.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("SET GLOBAL local_infile = 0"); err != nil {
		t.Fatal(err)
	}
	defer db.Exec("SET GLOBAL local_infile = 1")
	clitest.Must(t, "tpcc", "build", "--target", url, "--warehouses", "1", "--drop")
	c := clitest.Must(t, "tpcc", "check", "--target", url)
	if strings.Count(c.Stdout, "PASS") != 4 {
		t.Fatalf("check after an INSERT load:\n%s", c.Stdout)
	}
	var n int
	db.QueryRow("SELECT count(*) FROM stock").Scan(&n)
	if n != 100000 {
		t.Fatalf("stock rows %d", n)
	}
}

// tpcc check finds a broken consistency condition and exits non-zero.
func TestCheckReportsABrokenCondition(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	url := "sqlite://" + path
	clitest.Must(t, "tpcc", "build", "--target", url)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE warehouse SET w_ytd = w_ytd + 1; DELETE FROM new_order WHERE no_d_id = 3 AND no_o_id = 2500"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	r := clitest.Run(context.Background(), "tpcc", "check", "--target", url)
	if r.Code == 0 || !strings.Contains(r.Stdout, "FAIL  1:") || !strings.Contains(r.Stdout, "FAIL  3:") || !strings.Contains(r.Stdout, "PASS  4:") ||
		!strings.Contains(r.Stderr, "2 consistency condition(s) failed") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// More virtual users than a connection pool would allow do not hang a run on SQLite.
func TestManyVirtualUsersOnSQLite(t *testing.T) {
	url := "sqlite://" + filepath.Join(t.TempDir(), "many.db")
	clitest.Must(t, "tpcc", "build", "--target", url)
	done := make(chan clitest.Result, 1)
	go func() {
		done <- clitest.Run(context.Background(), "tpcc", "run", "--target", url, "--vus", "70", "--rampup", "0s", "--duration", "2s", "--store", "")
	}()
	select {
	case r := <-done:
		if r.Code != 0 {
			t.Fatalf("exit %d: %s", r.Code, r.Stderr)
		}
	case <-time.After(90 * time.Second):
		t.Fatal("70 virtual users on SQLite hang")
	}
}

package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testsrv"
	_ "modernc.org/sqlite"
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "dbdyno-test")
	if err != nil {
		panic(err)
	}
	store.DefaultPath = filepath.Join(dir, "results.db")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type engineCase struct {
	name, url string
	modes     []string
}

func engines(t *testing.T) []engineCase {
	out := []engineCase{{"sqlite", "sqlite://" + filepath.Join(t.TempDir(), "t.db"), []string{"sql"}}}
	for _, e := range []struct{ name, env string }{{"postgres", "DBDYNO_TEST_PG"}, {"mysql", "DBDYNO_TEST_MYSQL"}} {
		if os.Getenv(e.env) != "" || os.Getenv("CI") == "true" {
			out = append(out, engineCase{e.name, testsrv.URL(t, e.env), []string{"sql", "procedures"}})
		}
	}
	return out
}

type cliResult struct {
	code           int
	stdout, stderr string
}

func cli(ctx context.Context, args ...string) cliResult {
	var out, errb bytes.Buffer
	a := &app{stdout: &out, stderr: &errb, args: append([]string{"dbdyno"}, args...)}
	code := a.run(ctx, args)
	return cliResult{code, out.String(), errb.String()}
}

func mustCLI(t *testing.T, args ...string) cliResult {
	t.Helper()
	r := cli(context.Background(), args...)
	if r.code != 0 {
		t.Fatalf("dbdyno %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(engine.RedactArgs(args), " "), r.code, r.stdout, r.stderr)
	}
	return r
}

func passwordOf(url string) string {
	if i := strings.Index(url, "://"); i >= 0 {
		rest := url[i+3:]
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			if c := strings.Index(rest[:at], ":"); c >= 0 {
				return rest[c+1 : at]
			}
		}
	}
	return ""
}

func assertNoPassword(t *testing.T, url string, texts ...string) {
	t.Helper()
	p := passwordOf(url)
	if p == "" {
		return
	}
	for _, s := range texts {
		if strings.Contains(s, p) {
			t.Fatalf("the password appears in output or a result file")
		}
	}
}

func readResult(t *testing.T, path string) (*result.Result, string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return r, string(b)
}

func TestBuildRunCheckOnEveryEngine(t *testing.T) {
	for _, e := range engines(t) {
		t.Run(e.name, func(t *testing.T) {
			b := mustCLI(t, "tpcc", "build", "--target", e.url, "--warehouses", "1", "--drop")
			if !strings.Contains(b.stdout, "rows/s") || !strings.Contains(b.stdout, "built ") {
				t.Fatalf("build output lacks progress:\n%s", b.stdout)
			}
			for _, mode := range e.modes {
				t.Run(mode, func(t *testing.T) {
					file := filepath.Join(t.TempDir(), "r.json")
					r := mustCLI(t, "tpcc", "run", "--target", e.url, "--vus", "2", "--rampup", "1s", "--duration", "4s",
						"--interval", "2s", "--mode", mode, "--check", "--seed", "7", "--result", file)
					res, raw := readResult(t, file)
					assertNoPassword(t, e.url, r.stdout, r.stderr, raw)
					if res.Status != result.StatusOK || res.Target.Engine != e.name || res.Options["mode"] != mode {
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
					if !strings.Contains(r.stdout, "NOPM") || strings.Count(r.stdout, "consistency PASS") != 4 {
						t.Fatalf("summary missing:\n%s", r.stdout)
					}
					if res.Options["seed"] != "7" || res.Options["nurand_c_run"] == nil {
						t.Fatalf("seed or run constants not recorded: %v", res.Options)
					}
					if res.Environment == nil || res.Environment.EngineVersion == "" || len(res.Environment.Settings) == 0 {
						t.Fatalf("environment fingerprint missing: %+v", res.Environment)
					}
					switch e.name {
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
			c := mustCLI(t, "tpcc", "check", "--target", e.url)
			if strings.Count(c.stdout, "PASS") != 4 {
				t.Fatalf("check:\n%s", c.stdout)
			}
			if r := cli(context.Background(), "tpcc", "build", "--target", e.url, "--warehouses", "1"); r.code == 0 || !strings.Contains(r.stderr, "--drop") {
				t.Fatalf("build over an existing schema without --drop: exit %d %s", r.code, r.stderr)
			}
			mustCLI(t, "tpcc", "drop", "--target", e.url)
			if r := cli(context.Background(), "tpcc", "run", "--target", e.url, "--duration", "1s"); r.code == 0 || !strings.Contains(r.stderr, "tpcc build") {
				t.Fatalf("run after drop: exit %d %s", r.code, r.stderr)
			}
		})
	}
}

func TestBadInputGivesOneLineErrors(t *testing.T) {
	dir := t.TempDir()
	empty := "sqlite://" + filepath.Join(dir, "empty.db")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tpcc", "build", "--target", "oracle://x/y"}, "unknown target scheme"},
		{[]string{"tpcc", "build", "--target", empty, "--warehouses", "0"}, "--warehouses must be at least 1"},
		{[]string{"tpcc", "run", "--target", empty, "--vus", "0"}, "--vus must be at least 1"},
		{[]string{"tpcc", "run", "--target", empty, "--mode", "fast"}, "--mode \"fast\" is not known"},
		{[]string{"tpcc", "run", "--target", empty, "--duration", "soon"}, "invalid argument \"soon\""},
		{[]string{"tpcc", "run", "--target", empty}, "run 'dbdyno tpcc build"},
		{[]string{"tpcc", "check", "--target", empty}, "run 'dbdyno tpcc build"},
		{[]string{"tpcc", "run", "--target", "postgres://u:topsecret@127.0.0.1:1/d"}, "connection refused: is the server running"},
		{[]string{"tpcc", "run", "--target", "mysql://u:topsecret@127.0.0.1:1/d"}, "connection refused: is the server running"},
		{[]string{"tpcc", "run", "--target", empty, "--result", "/nonexistent-dir/r.json"}, "cannot write --result"},
		{[]string{"tpcc", "gen", "--warehouses", "1"}, "--out DIR is required"},
	}
	if pg := os.Getenv("DBDYNO_TEST_PG"); pg != "" {
		cases = append(cases, struct {
			args []string
			want string
		}{[]string{"tpcc", "run", "--target", strings.Replace(pg, passwordOf(pg), "wrong-topsecret", 1)}, "authentication failed"})
	}
	if my := os.Getenv("DBDYNO_TEST_MYSQL"); my != "" {
		cases = append(cases, struct {
			args []string
			want string
		}{[]string{"tpcc", "run", "--target", strings.Replace(my, passwordOf(my), "wrong-topsecret", 1)}, "access denied"})
	}
	for _, c := range cases {
		r := cli(context.Background(), c.args...)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code == 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "dbdyno: ") || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want one line saying %q", engine.RedactArgs(c.args), r.code, r.stderr, c.want)
		}
		if strings.Contains(r.stderr+r.stdout, "topsecret") || strings.Contains(r.stderr, "goroutine") {
			t.Errorf("%v: password or stack trace in output: %s", engine.RedactArgs(c.args), r.stderr)
		}
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
		if r := cli(context.Background(), args...); r.code == 0 || !strings.Contains(r.stderr, "did not create") {
			t.Fatalf("%v: exit %d %s", args, r.code, r.stderr)
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
	mustCLI(t, "tpcc", "build", "--target", url)
	file := filepath.Join(t.TempDir(), "r.json")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(3*time.Second, cancel)
	r := cli(ctx, "tpcc", "run", "--target", url, "--vus", "2", "--rampup", "1s", "--duration", "5m", "--result", file)
	if r.code != exitAborted {
		t.Fatalf("exit %d, want %d\n%s%s", r.code, exitAborted, r.stdout, r.stderr)
	}
	res, _ := readResult(t, file)
	if res.Status != result.StatusAborted || res.Measurement.Committed == 0 || res.Measurement.MeasuredSecs > 5 {
		t.Fatalf("status %s committed %d measured %.1fs", res.Status, res.Measurement.Committed, res.Measurement.MeasuredSecs)
	}
	mustCLI(t, "tpcc", "check", "--target", url)
}

// killer terminates dbdyno's server sessions once, while a run is going on.
func lostConnectionRun(t *testing.T, url string, kill func() (int, error)) {
	mustCLI(t, "tpcc", "build", "--target", url, "--warehouses", "1", "--drop")
	file := filepath.Join(t.TempDir(), "r.json")
	done := make(chan cliResult)
	go func() {
		done <- cli(context.Background(), "tpcc", "run", "--target", url, "--vus", "3", "--rampup", "1s", "--duration", "6s",
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
	if r.code != 0 {
		t.Fatalf("run did not survive lost connections: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	res, _ := readResult(t, file)
	m := res.Measurement
	// The terminated sessions include the run's own administrative connections (replaced without a reconnect
	// being counted), so not every one of them is a virtual user's: at least one virtual user must have lost its
	// connection, counted the error and reconnected.
	if res.Status != result.StatusOK || m.Reconnects < 1 || m.Errors < 1 {
		t.Fatalf("status %s reconnects %d errors %d (%d sessions terminated)", res.Status, m.Reconnects, m.Errors, n)
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
	mustCLI(t, "tpcc", "build", "--target", url, "--warehouses", "1", "--drop")
	c := mustCLI(t, "tpcc", "check", "--target", url)
	if strings.Count(c.stdout, "PASS") != 4 {
		t.Fatalf("check after an INSERT load:\n%s", c.stdout)
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
	mustCLI(t, "tpcc", "build", "--target", url)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE warehouse SET w_ytd = w_ytd + 1; DELETE FROM new_order WHERE no_d_id = 3 AND no_o_id = 2500"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	r := cli(context.Background(), "tpcc", "check", "--target", url)
	if r.code == 0 || !strings.Contains(r.stdout, "FAIL  1:") || !strings.Contains(r.stdout, "FAIL  3:") || !strings.Contains(r.stdout, "PASS  4:") ||
		!strings.Contains(r.stderr, "2 consistency condition(s) failed") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

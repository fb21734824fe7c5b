package script_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

func TestMain(m *testing.M) { clitest.Main(m) }

// engines are, where the servers run, PostgreSQL and MariaDB (and SQL Server when testsrv.MSSQLEnv names one),
// each in a database of its own, and SQLite; the slowest server first (the parallel subtests start in this
// order). A test calls it before t.Parallel(): the databases are made while no other test makes them.
func engines(t *testing.T) []clitest.Engine {
	var out []clitest.Engine
	servers := testsrv.Servers(t)
	for i := range servers {
		u := testsrv.Beside(t, servers[len(servers)-1-i], "dbdyno_script")
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, clitest.Engine{Name: tg.Engine.Name, URL: u})
	}
	return append(out, clitest.Engine{Name: "sqlite", URL: "sqlite://" + filepath.Join(t.TempDir(), "s.db")})
}

func open(t *testing.T, url string) *sql.DB {
	t.Helper()
	_, db := testsrv.Open(t, url)
	return db
}

func one(t *testing.T, db *sql.DB, q string) int64 {
	t.Helper()
	var v sql.NullInt64
	if err := db.QueryRow(q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v.Int64
}

func write(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// run runs script run on url for 2 s and returns the transactions it completed.
func run(t *testing.T, url string, args ...string) (int64, clitest.Result) {
	t.Helper()
	if tg, _ := engine.Parse(url); tg != nil && tg.Engine.Name == "sqlserver" {
		// Babelfish compiles each statement on its first run in each session: seconds on a busy machine
		args = append(args, "--rampup", "10s", "--duration", "4s")
	}
	res := filepath.Join(t.TempDir(), "r.json")
	r := clitest.Must(t, append([]string{"script", "run", "--target", url, "--rampup", "0s", "--duration", "2s", "--interval", "1s",
		"--store", "", "--result", res}, args...)...)
	rr, _ := clitest.ReadResult(t, res)
	// every transaction completed, ramp-up included: the intervals' counts, which hold the window's (the runner
	// once left out a last stretch shorter than a tenth of --interval: under stress-ng --cpu 4 the run ended 41
	// transactions after its last tick, and they were missing here)
	var n, measured, window int64
	for _, iv := range rr.Measurement.Intervals {
		for _, tx := range iv.Transactions {
			n += tx.Count
			if iv.Measured {
				measured += tx.Count
			}
		}
	}
	for _, tx := range rr.Measurement.Transactions {
		window += tx.Count
	}
	if measured < window {
		t.Fatalf("the measured intervals count %d transactions, the window %d", measured, window)
	}
	return n, r
}

// pgbench's TPC-B-like script, on pgbench's tables built by `script init`, keeps the balances' sums equal:
// sum(abalance) = sum(bbalance) = sum(tbalance) = sum(history.delta), one history row per transaction; in both
// query modes and on every engine. The simple-update and select-only built-ins run too.
func TestTPCBLike(t *testing.T) {
	es := engines(t)
	t.Parallel() // its own tables (pgbench_*), each engine its own database or file
	for _, e := range es {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			clitest.Must(t, "script", "init", "--target", e.URL, "--pgbench-scale", "2", "--drop")
			db := open(t, e.URL)
			if n := one(t, db, "SELECT COUNT(*) FROM pgbench_accounts"); n != 200_000 {
				t.Fatalf("%d accounts at scale 2, want 200000", n)
			}
			if n := one(t, db, "SELECT COUNT(*) FROM pgbench_tellers") + one(t, db, "SELECT COUNT(*) FROM pgbench_branches"); n != 22 {
				t.Fatalf("%d tellers and branches at scale 2, want 22", n)
			}
			r := clitest.Run(context.Background(), "script", "init", "--target", e.URL)
			if r.Code == 0 || !strings.Contains(r.Stderr, "give --drop") {
				t.Fatalf("init over existing tables: exit %d, %s", r.Code, r.Stderr)
			}
			var committed int64
			for _, mode := range []string{"prepared", "simple"} {
				n, out := run(t, e.URL, "--builtin", "tpcb-like", "--vus", "4", "--query-mode", mode)
				if !strings.Contains(out.Stdout, "scale 2 (rows of pgbench_branches)") {
					t.Errorf("the scale is not read from pgbench_branches:\n%s", out.Stdout)
				}
				if n == 0 {
					t.Fatalf("%s: no transaction", mode)
				}
				committed += n
			}
			a, b := one(t, db, "SELECT SUM(abalance) FROM pgbench_accounts"), one(t, db, "SELECT SUM(bbalance) FROM pgbench_branches")
			tl, h := one(t, db, "SELECT SUM(tbalance) FROM pgbench_tellers"), one(t, db, "SELECT SUM(delta) FROM pgbench_history")
			if a != b || b != tl || tl != h {
				t.Errorf("sums differ: accounts %d, branches %d, tellers %d, history %d", a, b, tl, h)
			}
			// the transactions in flight as a run ends commit uncounted: up to one per VU per run
			if rows := one(t, db, "SELECT COUNT(*) FROM pgbench_history"); rows < committed || rows > committed+8 {
				t.Errorf("%d history rows after %d counted transactions", rows, committed)
			}
			if one(t, db, "SELECT COUNT(*) FROM pgbench_accounts WHERE abalance <> 0") == 0 {
				t.Errorf("no account changed")
			}
			run(t, e.URL, "--builtin", "simple-update@1", "--builtin", "select-only@3", "--vus", "2")
			if a2, h2 := one(t, db, "SELECT SUM(abalance) FROM pgbench_accounts"), one(t, db, "SELECT SUM(delta) FROM pgbench_history"); a2 != h2 || a2 == a {
				t.Errorf("after simple-update: accounts %d, history %d (before %d)", a2, h2, a)
			}
		})
	}
}

// A script's meta-commands: \if/\elif/\else choose the statement, \sleep waits, -D defines, :client_id is the
// client's number, \gset reads a row into variables, a weight of 0 never runs; the rows written say so, in both
// query modes.
func TestScriptFeatures(t *testing.T) {
	main := `-- three branches by a uniform draw
\set r random(1, 3)
\set k2 :k * 2
\if :r = 1
INSERT INTO script_log (client, branch, v) VALUES (:client_id, 1, :k);
\elif :r = 2
  INSERT INTO script_log (client, branch, v)
  VALUES (:client_id, 2, :k2);
\else
\sleep 1 ms
SELECT 5 AS five, 'x' AS word \gset got_
\set v3 :k + :got_five - 4
INSERT INTO script_log (client, branch, v) VALUES (:client_id, 3, :v3);
\endif
`
	es := engines(t)
	t.Parallel() // its own table (script_log), each engine its own database or file
	for _, e := range es {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			testsrv.Exec(t, e.URL, "DROP TABLE IF EXISTS script_log", "CREATE TABLE script_log (client INT, branch INT, v INT)")
			db := open(t, e.URL)
			f := write(t, "main.sql", main)
			never := write(t, "never.sql", "INSERT INTO script_log (client, branch, v) VALUES (:client_id, 9, 0);\n")
			var committed int64
			for _, mode := range []string{"prepared", "simple"} {
				n, _ := run(t, e.URL, f+"@3", never+"@0", "-D", "k=10", "--vus", "3", "--query-mode", mode)
				committed += n
			}
			for _, c := range []struct {
				q    string
				want int64
			}{
				{"SELECT COUNT(*) FROM script_log WHERE branch = 1 AND v <> 10", 0},
				{"SELECT COUNT(*) FROM script_log WHERE branch = 2 AND v <> 20", 0},
				{"SELECT COUNT(*) FROM script_log WHERE branch = 3 AND v <> 11", 0},
				{"SELECT COUNT(*) FROM script_log WHERE branch = 9", 0},
				{"SELECT COUNT(*) FROM script_log WHERE client < 0 OR client > 2", 0},
				{"SELECT COUNT(DISTINCT branch) FROM script_log", 3},
				{"SELECT COUNT(DISTINCT client) FROM script_log", 3},
			} {
				if got := one(t, db, c.q); got != c.want {
					t.Errorf("%s: %d, want %d", c.q, got, c.want)
				}
			}
			// a row per transaction, give or take those in flight at the end
			if rows := one(t, db, "SELECT COUNT(*) FROM script_log"); rows < committed || rows > committed+committed/20+6 {
				t.Errorf("%d rows after %d counted transactions", rows, committed)
			}
		})
	}
}

// A statement that fails at run time is counted at its file and line, the run fails past --max-error-rate and
// says why, and nothing stops silently.
func TestRuntimeErrors(t *testing.T) {
	t.Parallel() // its own file
	url := "sqlite://" + filepath.Join(t.TempDir(), "e.db")
	// a duplicate key: an error of a class that does not end a run at once (a missing table would, and could
	// then come before the measured window counts anything), so the window counts errors and the rate fails it
	testsrv.Exec(t, url, "CREATE TABLE ok (v INT)")
	testsrv.Exec(t, url, "CREATE TABLE once (v INT PRIMARY KEY)")
	testsrv.Exec(t, url, "INSERT INTO once (v) VALUES (1)")
	f := write(t, "bad.sql", "\\set r random(1, 2)\n\\if :r = 1\nINSERT INTO ok (v) VALUES (1);\n\\else\nINSERT INTO once (v) VALUES (1);\n\\endif\n")
	res := filepath.Join(t.TempDir(), "r.json")
	r := clitest.Run(context.Background(), "script", "run", f, "--target", url, "--rampup", "0s", "--duration", "1s", "--store", "", "--result", res)
	if r.Code == 0 {
		t.Fatalf("a run whose statement fails half the time passed:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stdout, "errors at "+f+":5: ") || !strings.Contains(r.Stdout, "error: "+f+":5: ") {
		t.Errorf("the failing statement's file and line are not named:\n%s", r.Stdout)
	}
	if strings.Contains(r.Stdout, f+":3") {
		t.Errorf("the statement that works is blamed:\n%s", r.Stdout)
	}
	rr, _ := clitest.ReadResult(t, res)
	errs, _ := rr.Figures["statement_errors"].(string)
	if errs != fmt.Sprintf("%s:5 %d", f, rr.Measurement.Errors) {
		t.Errorf("statement errors %v, the run's errors %d", errs, rr.Measurement.Errors)
	}
	// an expression that fails at run time: division by zero
	g := write(t, "div.sql", "\\set z 1 / (:client_id - :client_id)\nSELECT 1;\n")
	r = clitest.Run(context.Background(), "script", "run", g, "--target", url, "--rampup", "0s", "--duration", "1s", "--store", "")
	if r.Code == 0 || !strings.Contains(r.Stdout, g+":1: \\set z: division by zero") {
		t.Errorf("division by zero at run time: exit %d\n%s", r.Code, r.Stdout)
	}
}

// Bad input is refused before the run, one line naming the file and line.
func TestBadInput(t *testing.T) {
	t.Parallel() // its own file
	url := "sqlite://" + filepath.Join(t.TempDir(), "b.db")
	clitest.Must(t, "script", "init", "--target", url)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{write(t, "m.sql", "SELECT 1;\n\\setrandom a 1 2\n")}, "m.sql:2: unknown meta-command \\setrandom"},
		{[]string{write(t, "u.sql", "\\set a 1\nSELECT :b;\n")}, "u.sql:2: undefined variable :b"},
		{[]string{write(t, "e.sql", "\\set a (1 + \n")}, "e.sql:1: \\set: bad expression"},
		{[]string{write(t, "w.sql", "SELECT 1;\n") + "@-1"}, "the weight after @ must be a whole number"},
		{[]string{write(t, "z.sql", "SELECT 1;\n") + "@0"}, "every script has weight 0"},
		{[]string{"--builtin", "tpcc"}, "--builtin \"tpcc\" is not known"},
		{[]string{"--builtin", "select-only", "--query-mode", "fast"}, "--query-mode \"fast\" is not known"},
		{[]string{"--builtin", "select-only", "-D", "=3"}, "give NAME=VALUE"},
		{nil, "no script to run"},
	} {
		r := clitest.Run(context.Background(), append([]string{"script", "run", "--target", url, "--store", ""}, c.args...)...)
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) || strings.Count(strings.TrimSpace(r.Stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q, want one line with %q", c.args, r.Code, r.Stderr, c.want)
		}
	}
}

// DuckDB refuses a second writer of a row at once (a conflict, the engine's Retryable class): with --max-tries
// the TPC-B-like transaction runs again, as pgbench's --max-tries does, and the sums still agree.
// (Not in parallel with other tests: a command's check that it left no DuckDB handle behind, in clitest, sees
// every handle open in the process, a concurrent command's too.)
func TestMaxTriesOnDuckDB(t *testing.T) {
	url := "duckdb://" + filepath.Join(t.TempDir(), "d.duckdb")
	clitest.Must(t, "script", "init", "--target", url)
	res := filepath.Join(t.TempDir(), "r.json")
	clitest.Must(t, "script", "run", "--builtin", "tpcb-like", "--target", url, "--vus", "3", "--max-tries", "100",
		"--rampup", "0s", "--duration", "2s", "--store", "", "--result", res)
	rr, _ := clitest.ReadResult(t, res)
	if rr.Measurement.Retries == 0 || rr.Measurement.Committed == 0 {
		t.Errorf("3 users on one branch row: %d committed, %d retries (want some of each)", rr.Measurement.Committed, rr.Measurement.Retries)
	}
	db := open(t, url)
	a, b, h := one(t, db, "SELECT SUM(abalance) FROM pgbench_accounts"), one(t, db, "SELECT SUM(bbalance) FROM pgbench_branches"), one(t, db, "SELECT SUM(delta) FROM pgbench_history")
	if a != b || b != h {
		t.Errorf("sums differ after retries: accounts %d, branches %d, history %d", a, b, h)
	}
}

// pgbench's users keep their habits: -c -j -T -P -R -L -M -f -b -n mean what they mean to pgbench (-T, -P in
// bare seconds, -L in milliseconds), a run has no ramp-up and runs in simple mode unless asked, and the summary
// ends with pgbench's lines. Before, -c was "unknown shorthand flag", -T 2 ran a hidden 10 s ramp-up first, and
// prepared was the default.
func TestPgbenchFlags(t *testing.T) {
	t.Parallel()
	url := "sqlite://" + filepath.Join(t.TempDir(), "s.db")
	clitest.Must(t, "script", "init", "--target", url)
	res := filepath.Join(t.TempDir(), "r.json")
	r := clitest.Must(t, "script", "run", "--target", url, "--store", "", "--result", res,
		"-c", "2", "-j", "2", "-T", "2", "-P", "1", "-L", "250", "-n", "-b", "select-only@2", "-f", write(t, "one.sql", "SELECT 1;\n"))
	rr, _ := clitest.ReadResult(t, res)
	m := rr.Measurement
	if m.VUs != 2 || m.RampupSeconds != 0 || m.PlannedSeconds != 2 || rr.Options["latency_limit_ms"] != 250.0 || len(m.Intervals) < 2 {
		t.Fatalf("-c 2 -T 2 -P 1 -L 250: %d users, ramp-up %gs, %gs planned, latency limit %v, %d intervals",
			m.VUs, m.RampupSeconds, m.PlannedSeconds, rr.Options["latency_limit_ms"], len(m.Intervals))
	}
	if _, ok := m.Transactions["select_only"]; !ok {
		t.Fatalf("-b select-only did not run: %v", m.Transactions)
	}
	var done int64
	for _, tx := range m.Transactions {
		done += tx.Count
	}
	for _, want := range []string{"query mode: simple", "number of clients: 2", "number of threads: 2", "duration: 2 s",
		fmt.Sprintf("number of transactions actually processed: %d\n", done), "number of failed transactions: 0 (0.000%)", "latency average = ", "tps = "} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("the summary lacks pgbench's %q:\n%s", want, r.Stdout)
		}
	}
	if r := clitest.Run(context.Background(), "script", "run", "--target", url, "--store", "", "-c", "1", "-t", "1", "-b", "select-only"); r.Code == 0 {
		t.Errorf("-t (pgbench's per client, dbdyno's --transactions counts all clients) was taken:\n%s", r.Stdout)
	}
}

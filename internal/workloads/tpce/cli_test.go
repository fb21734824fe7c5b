package tpce_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
	"github.com/dbdyno/dbdyno/internal/workloads/tpce"
)

// TestMain runs up to 4 tests at a time unless -parallel says otherwise: the tests spend most of their time
// waiting on four database engines (SQLite, PostgreSQL, MariaDB, Babelfish), and the default (GOMAXPROCS: 2 on
// the CI machines) left two of them idle while two Babelfish tests waited on it.
func TestMain(m *testing.M) {
	clitest.AtLeastParallel(4)
	clitest.Main(m)
}

// engines are SQLite and, where the servers run (always in CI), PostgreSQL and MariaDB (and SQL Server when
// testsrv.MSSQLEnv names one), each in a database of its own.
func engines(t *testing.T) []clitest.Engine {
	out := []clitest.Engine{{Name: "sqlite", URL: "sqlite://" + filepath.Join(t.TempDir(), "tpce.db"), Modes: []string{"sql"}}}
	for _, u := range testsrv.Servers(t) {
		u = testsrv.Beside(t, u, "dbdyno_tpce")
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, clitest.Engine{Name: tg.Engine.Name, URL: u, Modes: []string{"sql"}})
	}
	return out
}

func raw(t *testing.T, url string) *sql.DB {
	t.Helper()
	_, db := testsrv.Open(t, url)
	return db
}

func count(t *testing.T, db *sql.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
		t.Fatalf("%s: %v", table, err)
	}
	return n
}

// rowCounts checks every table's rows against the specification's formulas: exact where the specification's
// counts are exact, within 3% where they are averages.
func rowCounts(t *testing.T, db *sql.DB, c, days int64) {
	t.Helper()
	formulaCounts(t, func(table string) int64 { return count(t, db, table) }, c, days)
}

// formulaCounts checks the row counts count gives for each table against the formulas.
func formulaCounts(t *testing.T, count func(table string) int64, c, days int64) {
	t.Helper()
	tr := days * 8 * 3600 * c / 500
	s := c * 685 / 1000
	exact := map[string]int64{
		"customer": c, "customer_account": 5 * c, "customer_taxrate": 2 * c, "watch_list": c, "address": c*3/2 + 4,
		"broker": c / 100, "company": c / 2, "company_competitor": 3 * c / 2, "security": s, "last_trade": s,
		"daily_market": 1305 * s, "financial": 20 * c / 2, "news_item": c, "news_xref": c, "trade": tr, "settlement": tr,
		"trade_request": 0, "status_type": 5, "trade_type": 5, "sector": 12, "industry": 102, "exchange": 4,
		"zip_code": 14741, "taxrate": 320, "charge": 15, "commission_rate": 240, "dbdyno_tpce_opening": 5 * c,
	}
	for table, want := range exact {
		if got := count(table); got != want {
			t.Errorf("%s: %d rows, want %d", table, got, want)
		}
	}
	approx := map[string]float64{"account_permission": 1.42 * 5 * float64(c), "watch_item": 100 * float64(c),
		"trade_history": 2.4 * float64(tr), "cash_transaction": 0.92 * float64(tr)}
	for table, want := range approx {
		if got := float64(count(table)); math.Abs(got/want-1) > 0.03 {
			t.Errorf("%s: %.0f rows, want %.0f within 3%%", table, got, want)
		}
	}
	// the positions depend on the trade days (the specification's ratios are at 300): a lot per buy left open at most
	if h, hs, hh := count("holding"), count("holding_summary"), count("holding_history"); h == 0 || hs == 0 || hs > h || hs > 15*5*c || hh < tr/2 {
		t.Errorf("positions: %d holdings, %d summaries, %d history rows for %d trades", h, hs, hh, tr)
	}
}

// tinyBuildOut is what `tpce build` printed when it made the tiny SQLite build every tpce.TinyAt copies.
var tinyBuildOut string

func init() {
	tpce.TinyBuildCommand = func(url string) error {
		s := tpce.TinySize
		r := clitest.Run(context.Background(), "tpce", "build", "--target", url, "--customers", fmt.Sprint(s.Customers),
			"--trade-days", fmt.Sprint(s.TradeDays), "--threads", "2", "--seed", "1", "--drop")
		if r.Code != 0 {
			return fmt.Errorf("tpce build: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
		}
		tinyBuildOut = r.Stdout
		return nil
	}
}

// The build command loads the formulas' rows: at 1,000 customers, the command's own build (the one
// tpce.TinyAt copies) counted in the database, the same as its generator's counts; at 2,000, the generator's
// counts without a database (the formulas scale with the customers; loading them adds nothing the 1,000 do
// not show).
func TestRowCountsFollowTheFormulas(t *testing.T) {
	t.Parallel()
	t.Run("1000", func(t *testing.T) {
		t.Parallel()
		url := "sqlite://" + filepath.Join(t.TempDir(), "tpce.db")
		tpce.TinyAt(t, url)
		if !strings.Contains(tinyBuildOut, fmt.Sprintf("%d trades", 57600*tpce.TinySize.Customers/1000)) {
			t.Fatalf("build:\n%s", tinyBuildOut)
		}
		db := raw(t, url)
		rowCounts(t, db, tpce.TinySize.Customers, tpce.TinySize.TradeDays)
		gen, err := tpce.GeneratedRows(1, tpce.TinySize)
		if err != nil {
			t.Fatal(err)
		}
		for table, n := range gen {
			if got := count(t, db, table); got != n {
				t.Errorf("%s: %d rows loaded, the generator makes %d", table, got, n)
			}
		}
		clitest.Must(t, "tpce", "check", "--target", url)
	})
	t.Run("2000", func(t *testing.T) {
		t.Parallel()
		s := tpce.Size{Customers: 2000, TradeDays: 1}
		if s.Trades() != 57600*2 {
			t.Fatalf("%+v: %d trades, want %d", s, s.Trades(), 57600*2)
		}
		gen, err := tpce.GeneratedRows(1, s)
		if err != nil {
			t.Fatal(err)
		}
		formulaCounts(t, func(table string) int64 { return gen[table] }, s.Customers, s.TradeDays)
	})
}

// Bad input: a customer count not in load units, DuckDB, another workload's tables: one clear line, nothing touched.
func TestBuildRefusals(t *testing.T) {
	dir := t.TempDir()
	sqlite := "sqlite://" + filepath.Join(dir, "x.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--target", sqlite, "--customers", "1500"}, "not a whole number of load units"},
		{[]string{"--target", "duckdb://" + filepath.Join(dir, "x.duckdb"), "--customers", "1000", "--trade-days", "1"}, "not made for many concurrent writers"},
		{[]string{"--target", sqlite, "--customers", "1000", "--trade-days", "0"}, "trade-days"},
		{[]string{"run", "--target", sqlite, "--mode", "procedures"}, "--mode procedures is not available on"},
	} {
		args := append([]string{"tpce", "build"}, c.args...)
		if c.args[0] == "run" {
			args = append([]string{"tpce"}, c.args...)
		}
		r := clitest.Run(context.Background(), args...)
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: exit %d, want a refusal saying %q:\n%s", c.args, r.Code, c.want, r.Stderr)
		}
	}
	url := "sqlite://" + filepath.Join(dir, "other.db")
	db := raw(t, url)
	if _, err := db.Exec("CREATE TABLE trade (x int)"); err != nil {
		t.Fatal(err)
	}
	r := clitest.Run(context.Background(), "tpce", "build", "--target", url, "--customers", "1000", "--trade-days", "1", "--drop")
	if r.Code == 0 || count(t, db, "trade") != 0 {
		t.Fatalf("a build over a table dbdyno did not make: exit %d\n%s", r.Code, r.Stderr)
	}
	if r := clitest.Run(context.Background(), "tpce", "drop", "--target", url); r.Code == 0 {
		t.Fatalf("drop removed tables dbdyno did not make:\n%s", r.Stdout)
	}
}

// check finds each kind of corruption, and only it: each is made, checked and undone in turn.
func TestCheckDetectsCorruption(t *testing.T) {
	t.Parallel()
	for _, e := range engines(t) {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel()
			if e.Name != "mysql" { // the build command made the tiny build tpce.TinyAt copies (TinyBuildCommand)
				tpce.TinyAt(t, e.URL)
			} else { // a build on MariaDB takes less than a copy of its tables
				clitest.Must(t, "tpce", "build", "--target", e.URL, "--customers", "1000", "--trade-days", "1", "--drop")
			}
			rowCounts(t, raw(t, e.URL), 1000, 1)
			clitest.Must(t, "tpce", "check", "--target", e.URL)
			// a short run through the virtual-user runner leaves the database consistent (--check); the ramp-up
			// takes each connection's first calls (Babelfish compiles a procedure on its first call in a session:
			// seconds on a loaded machine); the measured window ends on a count of transactions, not a time that
			// must be long enough (a 5 s window once held no Trade-Result on Babelfish under load)
			res := filepath.Join(t.TempDir(), "r.json")
			run := clitest.Must(t, "tpce", "run", "--target", e.URL, "--vus", "2", "--rampup", "5s", "--transactions", "300", "--check", "--result", res, "--seed", "5")
			for _, want := range []string{"tpsE", "TPC-E-derived, not EGen data, not audited", "consistency PASS  balances", "trade_result"} {
				if !strings.Contains(run.Stdout, want) {
					t.Fatalf("run: no %q in:\n%s", want, run.Stdout)
				}
			}
			if r, _ := clitest.ReadResult(t, res); r.Measurement.Transactions["trade_order"].Count == 0 || r.Figures["tpse"] == nil {
				t.Fatalf("run recorded no trade orders or no tpsE: %+v", r.Figures)
			}
			db := raw(t, e.URL)
			var tid, cashTid, marginTid, ca int64
			if err := db.QueryRow("SELECT min(t_id) FROM trade WHERE t_is_cash = 0").Scan(&marginTid); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow("SELECT min(t_id) FROM trade WHERE t_is_cash = 1").Scan(&cashTid); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow("SELECT min(t_id) FROM trade").Scan(&tid); err != nil {
				t.Fatal(err)
			}
			if err := db.QueryRow("SELECT min(ca_id) FROM customer_account").Scan(&ca); err != nil {
				t.Fatal(err)
			}
			var hid int64
			if err := db.QueryRow("SELECT min(h_t_id) FROM holding").Scan(&hid); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				condition string
				do, undo  []string
			}{
				{"brokers", []string{fmt.Sprintf("UPDATE trade SET t_comm = t_comm + 1 WHERE t_id = %d", tid)},
					[]string{fmt.Sprintf("UPDATE trade SET t_comm = t_comm - 1 WHERE t_id = %d", tid)}},
				{"holdings", []string{fmt.Sprintf("UPDATE holding SET h_qty = h_qty + 100 WHERE h_t_id = %d", hid)},
					[]string{fmt.Sprintf("UPDATE holding SET h_qty = h_qty - 100 WHERE h_t_id = %d", hid)}},
				{"settlements", []string{fmt.Sprintf("UPDATE settlement SET se_t_id = -1 WHERE se_t_id = %d", marginTid)},
					[]string{fmt.Sprintf("UPDATE settlement SET se_t_id = %d WHERE se_t_id = -1", marginTid)}},
				{"cash", []string{fmt.Sprintf("UPDATE settlement SET se_amt = se_amt + 1 WHERE se_t_id = %d", cashTid)},
					[]string{fmt.Sprintf("UPDATE settlement SET se_amt = se_amt - 1 WHERE se_t_id = %d", cashTid)}},
				{"balances", []string{fmt.Sprintf("UPDATE customer_account SET ca_bal = ca_bal + 1 WHERE ca_id = %d", ca)},
					[]string{fmt.Sprintf("UPDATE customer_account SET ca_bal = ca_bal - 1 WHERE ca_id = %d", ca)}},
				{"trades", []string{fmt.Sprintf("UPDATE trade SET t_trade_price = NULL WHERE t_id = %d", tid)},
					[]string{fmt.Sprintf("UPDATE trade SET t_trade_price = t_bid_price WHERE t_id = %d", tid)}},
			} {
				for _, q := range c.do {
					if _, err := db.Exec(q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
				r := clitest.Run(context.Background(), "tpce", "check", "--target", e.URL)
				failed := []string{}
				for _, l := range strings.Split(r.Stdout, "\n") {
					if f := strings.Fields(l); len(f) >= 3 && f[0] == "consistency" && f[1] == "FAIL" {
						failed = append(failed, f[2])
					}
				}
				if r.Code == 0 || len(failed) != 1 || failed[0] != c.condition {
					t.Fatalf("corrupting %s: exit %d, failed %v, want only %s:\n%s", c.condition, r.Code, failed, c.condition, r.Stdout)
				}
				for _, q := range c.undo {
					if _, err := db.Exec(q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
			}
			clitest.Must(t, "tpce", "check", "--target", e.URL)
			clitest.Must(t, "tpce", "drop", "--target", e.URL)
			var n int64
			if err := db.QueryRow("SELECT COUNT(*) FROM trade").Scan(&n); err == nil {
				t.Fatalf("drop left the trade table (%d rows)", n)
			}
		})
	}
}

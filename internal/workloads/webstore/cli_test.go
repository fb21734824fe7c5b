package webstore_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
	"github.com/dbdyno/dbdyno/internal/workloads/webstore"
)

// Four parallel tests at once, not two: they wait on servers and timed windows more than they compute.
func TestMain(m *testing.M) {
	clitest.AtLeastParallel(4)
	clitest.Main(m)
}

// engines are SQLite and, where the servers run (always in CI), PostgreSQL, MariaDB (and SQL Server when
// testsrv.MSSQLEnv names one), each in a database of its own: database on each server, one per test, so that
// the tests run side by side.
func engines(t *testing.T, database string) []clitest.Engine {
	out := []clitest.Engine{{Name: "sqlite", URL: "sqlite://" + filepath.Join(t.TempDir(), "ws.db"), Modes: []string{"sql"}}}
	for _, u := range testsrv.Servers(t) {
		u = beside(t, u, database)
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, clitest.Engine{Name: tg.Engine.Name, URL: u, Modes: []string{"sql", "procedures"}})
	}
	return out
}

// besideMu makes this package's databases one at a time: the tests run side by side, and Babelfish refuses
// two CREATE DATABASE at once ("tuple concurrently updated").
var besideMu sync.Mutex

// beside is testsrv.Beside, one database at a time.
func beside(t *testing.T, url, name string) string {
	t.Helper()
	besideMu.Lock()
	defer besideMu.Unlock()
	return testsrv.Beside(t, url, name)
}

func open(t *testing.T, url string) (*webstore.DB, *sql.DB) {
	t.Helper()
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	db, err := webstore.Open(context.Background(), tg)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := tg.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close(); raw.Close() })
	return db, raw
}

func one(t *testing.T, db *sql.DB, q string, args ...any) int64 {
	t.Helper()
	var v sql.NullFloat64
	if err := db.QueryRow(q, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return int64(v.Float64 + 0.5)
}

// ph writes a query with the engine's placeholders ($1 or ? or @p1) for the tests' own statements.
func ph(url, q string) string {
	tg, _ := engine.Parse(url)
	n := 0
	var b strings.Builder
	for _, c := range q {
		if c != '?' {
			b.WriteRune(c)
			continue
		}
		n++
		switch tg.Engine.Placeholder {
		case 0:
			b.WriteString("$" + string(rune('0'+n)))
		case 2:
			b.WriteString("@p" + string(rune('0'+n)))
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

func TestWebstoreOnEveryEngine(t *testing.T) {
	t.Parallel() // on databases of its own
	for _, e := range engines(t, "dbdyno_webstore") {
		t.Run(e.Name, func(t *testing.T) {
			t.Parallel() // each engine its own file or server: one waits on its server while another works
			b := clitest.Must(t, "webstore", "build", "--target", e.URL, "--size", "S", "--reviews-per-product", "2", "--drop", "--seed", "3")
			if !strings.Contains(b.Stdout, "built 614389 rows") { // seed 3: 12,000 orders with their lines, 20,000 reviews with their ratings, 2,000 members
				t.Fatalf("build:\n%s", b.Stdout)
			}
			db, raw := open(t, e.URL)
			for _, mode := range e.Modes {
				orderFlow(t, e.URL, db, raw, mode == "procedures")
			}
			runCheckReset(t, e.URL, raw)
			db.Close() // gives the store's lock up, as a run ends: a drop refuses while it is held
			clitest.Must(t, "webstore", "drop", "--target", e.URL)
		})
	}
}

// orderFlow checks one purchase's effects row by row, a restock (DVD Store 3's trigger), and a rollback on short
// stock.
func orderFlow(t *testing.T, url string, db *webstore.DB, raw *sql.DB, procedures bool) {
	ctx := context.Background()
	if _, err := db.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	s, err := db.Session(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const seed = 3
	c, _, err := s.Login(ctx, procedures, webstore.Username(17), webstore.Password)
	if err != nil || c != 17 {
		t.Fatalf("login: %d %v", c, err)
	}
	if _, _, err := s.Login(ctx, procedures, webstore.Username(17), "wrong"); err == nil {
		t.Fatal("a wrong password logged in")
	}
	stock := func(p int64) int64 {
		return one(t, raw, ph(url, "SELECT quan_in_stock FROM inventory WHERE prod_id = ?"), p)
	}
	orders0 := one(t, raw, "SELECT COUNT(*) FROM orders")
	// product 40 is left with 2 after buying 2: below 3, the trigger restocks it to 250 and records it
	if _, err := raw.Exec(ph(url, "UPDATE inventory SET quan_in_stock = ? WHERE prod_id = ?"), 4, 40); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(ph(url, "UPDATE inventory_loaded SET quan_in_stock = ? WHERE prod_id = ?"), 4, 40); err != nil {
		t.Fatal(err)
	}
	prods, qtys := []int64{5, 40, 900}, []int64{3, 2, 1}
	before := []int64{stock(5), stock(40), stock(900)}
	if before[0] < 3 || before[2] < 1 {
		t.Fatalf("seed 3 gives products 5 and 900 too little stock to test with: %v", before)
	}
	order := int64(webstore.Sizes["S"].Orders() + 1000)
	rolled, err := s.Purchase(ctx, procedures, seed, 17, order, time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC), prods, qtys)
	if err != nil || rolled {
		t.Fatalf("purchase: rolled back %v, %v", rolled, err)
	}
	for i, p := range prods {
		want := before[i] - qtys[i]
		if p == 40 {
			want = 250
		}
		if got := stock(p); got != want {
			t.Errorf("product %d: stock %d, want %d", p, got, want)
		}
		if got := one(t, raw, ph(url, "SELECT sales FROM inventory WHERE prod_id = ?"), p); got != qtys[i] {
			t.Errorf("product %d: sales %d, want %d", p, got, qtys[i])
		}
		if got := one(t, raw, ph(url, "SELECT quantity FROM orderlines WHERE orderid = ? AND orderlineid = ?"), order, i+1); got != qtys[i] {
			t.Errorf("line %d: quantity %d", i+1, got)
		}
	}
	if n := one(t, raw, ph(url, "SELECT COUNT(*) FROM cust_hist WHERE orderid = ? AND customerid = ?"), order, 17); n != 3 {
		t.Errorf("%d history rows, want 3", n)
	}
	net, tax, total := webstore.Amounts(seed, prods, qtys)
	if got := one(t, raw, ph(url, "SELECT netamount * 100 FROM orders WHERE orderid = ?"), order); got != net {
		t.Errorf("net amount %d cents, want %d", got, net)
	}
	if got := one(t, raw, ph(url, "SELECT totalamount * 100 FROM orders WHERE orderid = ?"), order); got != total || tax == 0 {
		t.Errorf("total %d cents, want %d", got, total)
	}
	if n := one(t, raw, ph(url, "SELECT COUNT(*) FROM reorder WHERE prod_id = ? AND quan_low = ? AND quan_reordered = ?"), 40, 2, 248); n != 1 {
		t.Errorf("%d restock records of product 40 from 2 to 250, want 1", n)
	}
	if n := one(t, raw, "SELECT COUNT(*) FROM reorder"); n != 1 {
		t.Errorf("%d restock records, want 1", n)
	}
	// short stock: product 40 has 2 left (set without a sale: no restock), 3 are asked for; nothing is written,
	// not even the first line's stock
	if _, err := raw.Exec(ph(url, "UPDATE inventory SET quan_in_stock = ? WHERE prod_id = ?"), 2, 40); err != nil {
		t.Fatal(err)
	}
	if got := stock(40); got != 2 {
		t.Fatalf("setting product 40's stock to 2 without a sale restocked it: %d", got)
	}
	s5 := stock(5)
	rolled, err = s.Purchase(ctx, procedures, seed, 17, order+1, time.Now(), []int64{5, 40}, []int64{1, 3})
	if err != nil || !rolled {
		t.Fatalf("purchase on short stock: rolled back %v, %v", rolled, err)
	}
	if stock(5) != s5 || stock(40) != 2 || one(t, raw, "SELECT COUNT(*) FROM orders") != orders0+1 ||
		one(t, raw, ph(url, "SELECT COUNT(*) FROM orderlines WHERE orderid = ?"), order+1) != 0 ||
		one(t, raw, ph(url, "SELECT COUNT(*) FROM cust_hist WHERE orderid = ?"), order+1) != 0 {
		t.Fatal("the rolled back purchase left something behind")
	}
	if _, err := raw.Exec(ph(url, "UPDATE inventory_loaded SET quan_in_stock = ? WHERE prod_id = ?"), webstore.Stock(seed, 40), 40); err != nil {
		t.Fatal(err)
	}
}

// runCheckReset: a run passes the checks; a broken store fails them; reset restores the loaded counts and
// inventory exactly.
func runCheckReset(t *testing.T, url string, raw *sql.DB) {
	file := filepath.Join(t.TempDir(), "ws.json")
	// a count, not a time: 400 units of work hold purchases and reviews however slow the engine or the machine
	// (Babelfish compiles each T-SQL procedure on its first call in each session: seconds on a busy machine,
	// which left a 3 s window without a purchase); the ramp-up takes most of those first calls, and the progress
	// interval (10 s by default) is the stall limit of a window a count ends
	rampup := "0s"
	if tg, _ := engine.Parse(url); tg.Engine.Name == "sqlserver" {
		rampup = "5s"
	}
	r := clitest.Must(t, "webstore", "run", "--target", url, "--vus", "2", "--rampup", rampup, "--transactions", "400",
		"--check", "--result", file, "--seed", "5")
	res, text := clitest.ReadResult(t, file)
	clitest.NoPassword(t, url, r.Stdout, text)
	orders, _ := res.Figures["orders"].(float64)
	if orders < 1 || res.Figures["opm"].(float64) <= 0 || len(res.Checks) != 4 ||
		res.Measurement.Transactions["browse_reviews_actor"].Count+res.Measurement.Transactions["browse_reviews_title"].Count < 1 ||
		res.Measurement.Transactions["get_reviews"].Count+res.Measurement.Transactions["get_reviews_stars"].Count+res.Measurement.Transactions["get_reviews_date"].Count < 1 {
		t.Fatalf("run: figures %v checks %v\n%s", res.Figures, res.Checks, r.Stdout)
	}
	if !strings.Contains(r.Stdout, "reset to the loaded state") {
		t.Fatalf("the run did not reset the store first:\n%s", r.Stdout)
	}
	s := webstore.Sizes["S"]
	if n := one(t, raw, "SELECT COUNT(*) FROM orders"); n <= s.Orders() {
		t.Fatalf("%d orders after the run, want more than the %d loaded", n, s.Orders())
	}
	// a broken store fails the check in one line
	if _, err := raw.Exec(ph(url, "UPDATE inventory SET quan_in_stock = quan_in_stock + 1 WHERE prod_id = ?"), 7); err != nil {
		t.Fatal(err)
	}
	// and one the run did not sell: reset restores it too
	if _, err := raw.Exec("UPDATE inventory SET quan_in_stock = quan_in_stock + 5 WHERE sales = 0 AND prod_id = (SELECT MIN(prod_id) FROM inventory WHERE sales = 0)"); err != nil {
		t.Fatal(err)
	}
	c := clitest.Run(context.Background(), "webstore", "check", "--target", url)
	if c.Code == 0 || !strings.Contains(c.Stdout, "FAIL  stock") || !strings.Contains(c.Stderr, "consistency condition(s) failed") {
		t.Fatalf("check of a broken store: %d\n%s%s", c.Code, c.Stdout, c.Stderr)
	}
	tg, _ := engine.Parse(url)
	vacuumed := func() int64 { return 0 }
	if tg.Engine.Wire == engine.WirePostgres { // reset_tidy: the removed rows vacuumed before the next run
		vacuumed = func() int64 {
			return one(t, raw, "SELECT COALESCE(SUM(vacuum_count), 0) FROM pg_stat_user_tables WHERE relname IN ('orderlines', 'cust_hist', 'orders')")
		}
	}
	before := vacuumed()
	out := clitest.Must(t, "webstore", "reset", "--target", url)
	if tg.Engine.Wire == engine.WirePostgres && (vacuumed() != before+3 || !strings.Contains(out.Stdout, "vacuumed and analyzed")) {
		t.Fatalf("reset did not vacuum the tables it removed rows from (vacuum count %d -> %d):\n%s", before, vacuumed(), out.Stdout)
	}
	if one(t, raw, "SELECT COUNT(*) FROM customers") != s.Customers || one(t, raw, "SELECT COUNT(*) FROM orders") != s.Orders() ||
		one(t, raw, "SELECT COUNT(*) FROM reorder") != 0 || one(t, raw, "SELECT COUNT(*) FROM membership") != s.Customers/webstore.MemberEvery ||
		one(t, raw, "SELECT COUNT(*) FROM reviews") != s.Products*2 || one(t, raw, "SELECT COUNT(*) FROM reviews_helpfulness") != 614389-181374-s.Customers/10-s.Products*2 ||
		one(t, raw, "SELECT COUNT(*) FROM inventory i JOIN inventory_loaded l ON l.prod_id = i.prod_id WHERE i.quan_in_stock <> l.quan_in_stock OR i.sales <> l.sales") != 0 {
		t.Fatal("reset did not restore the loaded counts and inventory")
	}
	clitest.Must(t, "webstore", "check", "--target", url)
}

// Several instances at once: each target's OPM and their sum as a result of its own.
func TestWebstoreTwoInstances(t *testing.T) {
	dir := t.TempDir()
	a, b := "sqlite://"+filepath.Join(dir, "a.db"), "sqlite://"+filepath.Join(dir, "b.db")
	for _, u := range []string{a, b} {
		clitest.Must(t, "webstore", "build", "--target", u, "--customers", "2000", "--products", "1000", "--orders-per-month", "100", "--reviews-per-product", "2")
	}
	file := filepath.Join(dir, "two.json")
	r := clitest.Must(t, "webstore", "run", "--target", a, "--target", b, "--vus", "1", "--rampup", "0s", "--duration", "2s", "--interval", "1s", "--result", file)
	if !strings.Contains(r.Stdout, "aggregate of 2 targets") {
		t.Fatalf("no aggregate:\n%s", r.Stdout)
	}
	var sum, agg float64
	for i := 1; i <= 3; i++ {
		res, _ := clitest.ReadResult(t, clitest.ResultFile(file, i))
		for _, m := range res.Metrics {
			if m.Name != "OPM" {
				continue
			}
			if res.Group != nil && res.Group.Aggregate {
				agg = m.Value
			} else {
				sum += m.Value
			}
		}
	}
	if sum <= 0 || agg < sum*0.999 || agg > sum*1.001 {
		t.Fatalf("aggregate OPM %.1f, instances' sum %.1f", agg, sum)
	}
}

func TestWebstoreBadInput(t *testing.T) {
	dir := t.TempDir()
	lite := "sqlite://" + filepath.Join(dir, "w.db")
	tpcc := "sqlite://" + filepath.Join(dir, "tpcc.db")
	clitest.TPCCBuiltAt(t, tpcc) // a copy of one TPC-C build: what is checked is that webstore leaves it alone
	huge := filepath.Join(dir, "huge.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"webstore", "build", "--target", "duckdb://" + filepath.Join(dir, "w.duckdb")}, "not made for many concurrent writers"},
		{[]string{"webstore", "run", "--target", tpcc}, "holds dbdyno's TPC-C tables"},
		{[]string{"webstore", "build", "--target", tpcc}, "TPC-C"},
		{[]string{"webstore", "run", "--target", lite, "--searches", "0", "--lines", "0"}, "makes an empty order"},
		{[]string{"webstore", "run", "--target", lite, "--lines", "3..12"}, "--lines must be a range within 0..9"},
		{[]string{"webstore", "run", "--target", lite, "--new-customers", "120%"}, "--new-customers \"120%\""},
		{[]string{"webstore", "build", "--target", lite, "--size", "XL"}, "--size \"XL\" is not known"},
		{[]string{"webstore", "build", "--target", "sqlite://" + huge, "--customers", "2000000000", "--products", "1000000", "--orders-per-month", "80000000"}, "disk"},
	} {
		r := clitest.Run(context.Background(), c.args...)
		lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
		if r.Code == 0 || len(lines) != 1 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want one line saying %q", c.args, r.Code, r.Stderr, c.want)
		}
	}
	if _, err := os.Stat(huge); err == nil {
		t.Error("the build that does not fit the disk created its database")
	}
	// the TPC-C database is untouched
	clitest.Must(t, "tpcc", "check", "--target", tpcc)
}

// A run whose server sessions are all terminated midway reconnects its virtual users, goes on selling, and
// leaves a store that passes the checks (PostgreSQL: the sessions driven through pgfast).
func TestWebstoreSurvivesLostConnections(t *testing.T) {
	url := beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_webstore_gone")
	// no reviews: the run's start (its check of every table against the build) stays within the second the
	// sessions are terminated after
	clitest.Must(t, "webstore", "build", "--target", url, "--size", "S", "--reviews-per-product", "0", "--drop")
	if res, r := clitest.LostConnections(t, "webstore", url, "purchase"); len(res.Checks) != 4 {
		t.Fatalf("%d checks after the run, want 4\n%s", len(res.Checks), r.Stdout)
	}
}

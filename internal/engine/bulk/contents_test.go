package bulk_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// matrix is every engine of the tests: DuckDB and SQLite in scratch files, and the servers that run (a database
// of the test's own on each).
func matrix(t *testing.T, name string) []clitest.Engine {
	out := []clitest.Engine{
		{Name: "duckdb", URL: "duckdb://" + filepath.Join(t.TempDir(), name+".duckdb")},
		{Name: "sqlite", URL: "sqlite://" + filepath.Join(t.TempDir(), name+".db")},
	}
	for _, u := range testsrv.Servers(t) {
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, clitest.Engine{Name: tg.Engine.Name, URL: testsrv.Beside(t, u, "dbdyno_"+name)})
	}
	return out
}

// The database's checksum of a table (engine.TableChecksum) is the same for the same contents, whatever order
// the rows were written in, and changes when one value of one row changes, the count staying.
func TestTableChecksumOnEveryEngine(t *testing.T) {
	for _, e := range matrix(t, "checksum") {
		t.Run(e.Name, func(t *testing.T) {
			tg, db := testsrv.Open(t, e.URL)
			defer db.Close()
			ctx := context.Background()
			db.Exec("DROP TABLE dbdyno_cks_a")
			db.Exec("DROP TABLE dbdyno_cks_b")
			for _, s := range []string{
				"CREATE TABLE dbdyno_cks_a (id int PRIMARY KEY, amount decimal(12,2), day date, note varchar(20))",
				"CREATE TABLE dbdyno_cks_b (id int PRIMARY KEY, amount decimal(12,2), day date, note varchar(20))",
				"INSERT INTO dbdyno_cks_a VALUES (1, 10.50, '2020-01-02', 'one'), (2, NULL, NULL, 'two'), (3, 0.01, '1999-12-31', NULL)",
				"INSERT INTO dbdyno_cks_b VALUES (3, 0.01, '1999-12-31', NULL), (2, NULL, NULL, 'two'), (1, 10.50, '2020-01-02', 'one')",
			} {
				if _, err := db.Exec(s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			defer db.Exec("DROP TABLE dbdyno_cks_a")
			defer db.Exec("DROP TABLE dbdyno_cks_b")
			sum := func(table string) string {
				t.Helper()
				s, ok, err := tg.Engine.TableChecksum(ctx, db, table)
				if err != nil || !ok {
					t.Fatalf("checksum of %s: %v (has one: %v)", table, err, ok)
				}
				return s
			}
			a, b := sum("dbdyno_cks_a"), sum("dbdyno_cks_b")
			if a != b || !strings.HasPrefix(a, "3:") || a == "3:0" {
				t.Fatalf("same contents, checksums %s and %s", a, b)
			}
			if again := sum("dbdyno_cks_a"); again != a {
				t.Fatalf("checksum %s, then %s", a, again)
			}
			for _, s := range []string{"UPDATE dbdyno_cks_b SET amount = 10.51 WHERE id = 1", "UPDATE dbdyno_cks_b SET amount = 10.50 WHERE id = 1",
				"UPDATE dbdyno_cks_b SET note = 'twp' WHERE id = 2", "UPDATE dbdyno_cks_b SET note = 'two' WHERE id = 2",
				"UPDATE dbdyno_cks_b SET note = 'x' WHERE id = 3"} {
				if _, err := db.Exec(s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
				got := sum("dbdyno_cks_b")
				if changed := strings.Contains(s, "10.51") || strings.Contains(s, "twp") || strings.Contains(s, "'x'"); changed == (got == a) || !strings.HasPrefix(got, "3:") {
					t.Fatalf("after %s: checksum %s, loaded %s", s, got, a)
				}
			}
		})
	}
}

// tamper changes one value of one row, the count staying.
func tamper(t *testing.T, url, stmt string) {
	t.Helper()
	testsrv.Exec(t, url, stmt)
}

// The check verbs compare the checksums of the tables no run changes with those their build recorded: untouched,
// they pass; one value changed in one row (not the count, which a run's start check would see), the check fails
// naming the table. TPC-H's validate, on every engine; TPC-C's and the web store's check, on every engine they run on.
func TestCheckVerbsCompareTheBuildsChecksums(t *testing.T) {
	for _, e := range matrix(t, "cks_tpch") {
		t.Run("tpch/"+e.Name, func(t *testing.T) {
			if e.Name != "duckdb" {
				// each its own file or database: one build waits on its server while another works. DuckDB's runs
				// before the others start: a command's check that it left no DuckDB handle behind (clitest) sees
				// every handle open in the process, a concurrent command's too
				t.Parallel()
			}
			clitest.Must(t, "tpch", "build", "--target", e.URL, "--scale", "0.01", "--drop", "--threads", "2")
			v := clitest.Must(t, "tpch", "validate", "--target", e.URL, "--answers", testsrv.Shared(t, "tpch", "answers", "sf0.01"))
			if !strings.Contains(v.Stdout, "contents as built: region, nation, supplier, customer, part, partsupp, orders, lineitem (checksums)") {
				t.Fatalf("validate on the build:\n%s", v.Stdout)
			}
			tamper(t, e.URL, "UPDATE part SET p_comment = 'tampered' WHERE p_partkey = 17")
			r := clitest.Run(context.Background(), "tpch", "validate", "--target", e.URL, "--answers", testsrv.Shared(t, "tpch", "answers", "sf0.01"))
			if r.Code == 0 || !strings.Contains(r.Stdout, "contents differ: part differs from its build (a value changed") ||
				!strings.Contains(r.Stderr, "part differs") || strings.Contains(r.Stdout, "lineitem differs") {
				t.Fatalf("validate after one value changed: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
			}
		})
	}
	// TPC-C and the web store each in a database of their own, so that their builds run side by side
	webstore := matrix(t, "cks_ws")
	for i, e := range matrix(t, "cks_oltp") {
		if e.Name == "duckdb" {
			continue // TPC-C and the web store refuse DuckDB (not made for concurrent writers)
		}
		t.Run("tpcc/"+e.Name, func(t *testing.T) {
			t.Parallel()
			clitest.Must(t, "tpcc", "build", "--target", e.URL, "--warehouses", "1", "--drop")
			if c := clitest.Must(t, "tpcc", "check", "--target", e.URL); !strings.Contains(c.Stdout, "contents as built: item (checksums)") {
				t.Fatalf("check on the build:\n%s", c.Stdout)
			}
			tamper(t, e.URL, "UPDATE item SET i_price = i_price + 1 WHERE i_id = 4242")
			r := clitest.Run(context.Background(), "tpcc", "check", "--target", e.URL)
			if r.Code == 0 || !strings.Contains(r.Stdout, "contents differ: item differs from its build (a value changed") {
				t.Fatalf("check after one value changed: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
			}
			clitest.Must(t, "tpcc", "drop", "--target", e.URL)
		})
		e := webstore[i]
		t.Run("webstore/"+e.Name, func(t *testing.T) {
			t.Parallel()
			clitest.Must(t, "webstore", "build", "--target", e.URL, "--customers", "2000", "--products", "1000", "--orders-per-month", "100", "--drop")
			if c := clitest.Must(t, "webstore", "check", "--target", e.URL); !strings.Contains(c.Stdout, "contents as built: categories, products, inventory_loaded (checksums)") {
				t.Fatalf("check on the build:\n%s", c.Stdout)
			}
			tamper(t, e.URL, "UPDATE products SET price = price + 1 WHERE prod_id = 77")
			r := clitest.Run(context.Background(), "webstore", "check", "--target", e.URL)
			if r.Code == 0 || !strings.Contains(r.Stdout, "products differs from its build (a value changed") || strings.Contains(r.Stdout, "categories differs") {
				t.Fatalf("check after one value changed: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
			}
			clitest.Must(t, "webstore", "drop", "--target", e.URL)
		})
	}
}

package tpcc_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// noOpPayment replaces the build's Payment procedure by one that does nothing, on each server engine: a run
// would go on "ok" and a check pass, with no payment made.
var noOpPayment = map[string][]string{
	"postgres": {`CREATE OR REPLACE FUNCTION dbdyno_payment(p_w_id int, p_d_id int, p_c_w_id int, p_c_d_id int, p_c_id int,
    p_byname boolean, p_c_last varchar, p_amount numeric, OUT out_c_id int, OUT out_balance numeric) AS $$
BEGIN out_c_id := p_c_id; out_balance := 0; END $$ LANGUAGE plpgsql`},
	"mysql": {"DROP PROCEDURE dbdyno_payment", `CREATE PROCEDURE dbdyno_payment(p_w_id INT, p_d_id INT, p_c_w_id INT, p_c_d_id INT, p_c_id INT,
    p_byname BOOLEAN, p_c_last VARCHAR(16), p_amount DECIMAL(6,2))
BEGIN
  SELECT p_c_id AS c_id, 0 AS c_balance;
END`},
	"sqlserver": {`CREATE OR ALTER PROCEDURE dbdyno_payment @w_id int, @d_id int, @c_w_id int, @c_d_id int, @c_id int,
    @byname bit, @c_last varchar(16), @amount numeric(6,2)
AS
BEGIN
  SET NOCOUNT ON;
  SELECT @c_id AS c_id, 0 AS c_balance;
END`},
}

// A run and a check refuse a database whose stored procedures are no longer the ones the build made: the
// build records a digest of each routine's definition as the server reports it. On each server, in a
// database of the test's own.
func TestRunRefusesAChangedProcedure(t *testing.T) {
	for _, u := range testsrv.Servers(t) {
		tg, db := testsrv.Open(t, u)
		db.Close()
		name := tg.Engine.Name
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each server its own
			url := testsrv.Beside(t, u, "dbdyno_tpcc_routines")
			clitest.Must(t, "tpcc", "build", "--target", url, "--warehouses", "1", "--drop")
			run := []string{"tpcc", "run", "--target", url, "--vus", "1", "--rampup", "0s", "--transactions", "20", "--store", ""}
			clitest.Must(t, run...) // as built: runs
			testsrv.Exec(t, url, noOpPayment[name]...)
			for _, args := range [][]string{run, {"tpcc", "check", "--target", url}} {
				r := clitest.Run(context.Background(), args...)
				want := "dbdyno_payment was changed since the build"
				if r.Code == 0 || !strings.Contains(r.Stderr, want) || !strings.Contains(r.Stderr, "rebuild with 'dbdyno tpcc build --drop'") ||
					strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
					t.Fatalf("%s: exit %d, want one line saying %q:\n%s\n%s", strings.Join(args[:2], " "), r.Code, want, r.Stdout, r.Stderr)
				}
				clitest.NoPassword(t, url, r.Stdout, r.Stderr)
			}
			// a rebuild makes them again, and the record with them
			clitest.Must(t, "tpcc", "build", "--target", url, "--warehouses", "1", "--drop")
			clitest.Must(t, "tpcc", "check", "--target", url)
		})
	}
}

// A check runs the engine's own integrity check of the database (SQLite's PRAGMA quick_check) and fails on its
// first finding: here pages in the middle of the file were overwritten with garbage (the header kept).
func TestCheckRunsTheIntegrityCheck(t *testing.T) {
	path := builtSQLite(t)
	url := "sqlite://" + path
	clitest.Must(t, "tpcc", "check", "--target", url) // intact: passes
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	hdr := make([]byte, 100)
	if _, err := f.ReadAt(hdr, 0); err != nil {
		t.Fatal(err)
	}
	page := int64(hdr[16])<<8 | int64(hdr[17]) // the header's page size (1 means 65,536)
	if page == 1 {
		page = 65536
	}
	garbage := make([]byte, page)
	for i := range garbage {
		garbage[i] = byte(i*131 + 7)
	}
	mid := st.Size() / 2 / page * page
	for i := int64(0); i < 50; i++ { // every other page from the middle on
		if _, err := f.WriteAt(garbage, mid+2*i*page); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	_, db := testsrv.Open(t, url)
	var first string
	err = db.QueryRow("PRAGMA quick_check").Scan(&first)
	db.Close()
	if err != nil || first == "ok" {
		t.Fatalf("quick_check of the corrupted file: %q, %v", first, err)
	}
	first = strings.TrimSpace(strings.TrimPrefix(first, "*** in database main ***\n"))
	first, _, _ = strings.Cut(first, "\n")
	r := clitest.Run(context.Background(), "tpcc", "check", "--target", url)
	if r.Code == 0 || !strings.Contains(r.Stderr, "quick_check") || !strings.Contains(r.Stderr, first) || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 {
		t.Fatalf("check of a corrupt file: exit %d, want one line naming quick_check's first finding %q:\n%s\n%s", r.Code, first, r.Stdout, r.Stderr)
	}
}

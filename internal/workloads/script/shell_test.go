package script_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// \setshell sets a variable to the integer its command prints, \shell runs a command (its arguments'
// variables replaced) and a failing one is an error counted at its file and line.
func TestShellCommands(t *testing.T) {
	t.Parallel() // its own file
	url := "sqlite://" + filepath.Join(t.TempDir(), "sh.db")
	testsrv.Exec(t, url, "CREATE TABLE shellt (c INT, v INT)")
	marks := t.TempDir()
	f := write(t, "sh.sql", fmt.Sprintf("\\setshell v echo :client_id\n\\shell test :v -eq :client_id\n\\shell touch %s/ran_:client_id\nINSERT INTO shellt (c, v) VALUES (:client_id, :v);\n", marks))
	n, _ := run(t, url, f, "--vus", "2")
	db := open(t, url)
	if rows := one(t, db, "SELECT COUNT(*) FROM shellt"); rows == 0 || n == 0 || one(t, db, "SELECT COUNT(*) FROM shellt WHERE c <> v") != 0 ||
		one(t, db, "SELECT COUNT(DISTINCT c) FROM shellt") != 2 {
		t.Fatalf("rows from \\setshell: %d of %d transactions, %d with the wrong value, %d clients", rows, n,
			one(t, db, "SELECT COUNT(*) FROM shellt WHERE c <> v"), one(t, db, "SELECT COUNT(DISTINCT c) FROM shellt"))
	}
	// a word is substituted only whole (":client_id" alone: the test above), as pgbench does: ran_:client_id is
	// a file name
	if _, err := os.Stat(filepath.Join(marks, "ran_:client_id")); err != nil {
		t.Errorf("\\shell did not run as written: %v", err)
	}
	// a command that fails, and one that prints no integer for \setshell
	g := write(t, "fail.sql", "SELECT 1;\n\\shell exit 3\n")
	r := clitest.Run(context.Background(), "script", "run", g, "--target", url, "--rampup", "0s", "--duration", "1s", "--store", "")
	if r.Code == 0 || !strings.Contains(r.Stdout, "errors at "+g+":2: ") || !strings.Contains(r.Stdout, "\\shell exit 3: exit status 3") {
		t.Errorf("a failing \\shell: exit %d\n%s", r.Code, r.Stdout)
	}
	h := write(t, "word.sql", "\\setshell v echo many\nSELECT :v;\n")
	r = clitest.Run(context.Background(), "script", "run", h, "--target", url, "--rampup", "0s", "--duration", "1s", "--store", "")
	if r.Code == 0 || !strings.Contains(r.Stdout, h+":1: \\setshell echo many: the command must print an integer, it printed \"many\"") {
		t.Errorf("\\setshell printing a word: exit %d\n%s", r.Code, r.Stdout)
	}
}

// The same script under pgbench and dbdyno, at the same seed and clients, writes the same values: the hash
// functions, permute (with and without a seed: :default_seed) and :default_seed itself. Runs where pgbench
// (PostgreSQL's client tools, DBDYNO_PG_BIN or PATH) and the PostgreSQL test server are.
func TestAgainstPgbench(t *testing.T) {
	pg := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_script")
	t.Parallel() // its own table (hashref)
	pgbench, err := exec.LookPath(filepath.Join(os.Getenv("DBDYNO_PG_BIN"), "pgbench"))
	if err != nil {
		if pgbench, err = exec.LookPath("pgbench"); err != nil {
			t.Skip("pgbench is not installed")
		}
	}
	testsrv.Exec(t, pg, "DROP TABLE IF EXISTS hashref")
	testsrv.Exec(t, pg, "CREATE TABLE hashref (tool int, c bigint, h bigint, m bigint, f bigint, p bigint, q bigint, x bigint, ds bigint)")
	f := write(t, "hash.sql", `\set h hash(:client_id)
\set m hash_murmur2(:client_id * 1000003, :client_id - 7)
\set f hash_fnv1a(:client_id + 2.5)
\set p permute(:client_id, 1000)
\set q permute(:client_id + 17, 1000003, 99)
\set x hash_fnv1a(:client_id, hash(:client_id, 1))
INSERT INTO hashref VALUES (:tool, :client_id, :h, :m, :f, :p, :q, :x, :default_seed);
`)
	out, err := exec.Command(pgbench, "-n", "-c", "3", "-t", "1", "--random-seed=5", "-D", "tool=1", "-f", f, pg).CombinedOutput()
	if err != nil {
		t.Fatalf("pgbench: %v\n%s", err, out)
	}
	clitest.Must(t, "script", "run", f, "--target", pg, "--vus", "3", "--seed", "5", "-D", "tool=2", "--rampup", "0s", "--duration", "1s", "--store", "")
	db := open(t, pg)
	cols := "c, h, m, f, p, q, x, ds"
	for _, q := range []string{
		"SELECT COUNT(*) FROM (SELECT DISTINCT " + cols + " FROM hashref WHERE tool = 1) d",
		"SELECT COUNT(*) FROM (SELECT DISTINCT " + cols + " FROM hashref WHERE tool = 2) d",
	} {
		if n := one(t, db, q); n != 3 {
			t.Fatalf("%s: %d, want one row per client", q, n)
		}
	}
	if n := one(t, db, "SELECT COUNT(*) FROM ((SELECT "+cols+" FROM hashref WHERE tool = 1) EXCEPT (SELECT "+cols+" FROM hashref WHERE tool = 2)) d"); n != 0 {
		rows, _ := db.Query("SELECT DISTINCT tool, " + cols + " FROM hashref ORDER BY c, tool")
		var b strings.Builder
		for rows.Next() {
			var v [9]int64
			rows.Scan(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8])
			fmt.Fprintln(&b, v)
		}
		rows.Close()
		t.Fatalf("%d of pgbench's rows differ from dbdyno's (tool 1 pgbench, 2 dbdyno):\n%s", n, b.String())
	}
}

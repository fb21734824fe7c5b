package engine_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// classOf runs stmt on db and returns the class of its error (the test fails when it did not fail).
func classOf(t *testing.T, e *engine.Engine, db *sql.DB, stmt string) engine.Class {
	t.Helper()
	_, err := db.ExecContext(context.Background(), stmt)
	if err == nil {
		t.Fatalf("%s: %s did not fail", e.Name, stmt)
	}
	return e.Classify(err)
}

// Each engine classifies the errors its driver really returns for the faults a run can meet: a missing table or
// column, a database that takes no writes, damaged data, a broken constraint.
func TestErrorClassesFromRealFaults(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		e, _ := engine.Lookup("sqlite")
		path := filepath.Join(t.TempDir(), "t.db")
		db, err := open(t, "sqlite://"+path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, s := range []string{"CREATE TABLE t (id int PRIMARY KEY, v text)", "INSERT INTO t VALUES (1, 'a')"} {
			if _, err := db.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		for stmt, want := range map[string]engine.Class{"INSERT INTO gone VALUES (1)": engine.Schema, "INSERT INTO t (id, nope) VALUES (2, 1)": engine.Schema,
			"UPDATE t SET nope = 1": engine.Schema, "INSERT INTO t VALUES (1, 'b')": engine.Constraint, "SELEC 1": engine.Other} {
			if got := classOf(t, e, db, stmt); got != want {
				t.Errorf("%s: class %s, want %s", stmt, got, want)
			}
		}
		db.Close()
		// the file opened read-only
		ro, err := sql.Open(engine.SQLiteDriver, "file:"+path+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		if got := classOf(t, e, ro, "INSERT INTO t VALUES (3, 'c')"); got != engine.ReadOnly {
			t.Errorf("read-only file: class %s", got)
		}
		ro.Close()
		// garbage over the table's page
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteAt([]byte(strings.Repeat("\xff", 4096)), 4096)
		f.Close()
		bad, _ := sql.Open(engine.SQLiteDriver, "file:"+path)
		defer bad.Close()
		if got := classOf(t, e, bad, "UPDATE t SET v = 'x'"); got != engine.Corrupt {
			t.Errorf("corrupt page: class %s", got)
		}
	})
	t.Run("duckdb", func(t *testing.T) {
		e, _ := engine.Lookup("duckdb")
		path := filepath.Join(t.TempDir(), "t.duckdb")
		db, err := open(t, "duckdb://"+path)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"CREATE TABLE t (id int PRIMARY KEY, v text)", "INSERT INTO t VALUES (1, 'a')"} {
			if _, err := db.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		for stmt, want := range map[string]engine.Class{"INSERT INTO gone VALUES (1)": engine.Schema, "UPDATE t SET nope = 1": engine.Schema,
			"INSERT INTO t VALUES (1, 'b')": engine.Constraint, "SELEC 1": engine.Other} {
			if got := classOf(t, e, db, stmt); got != want {
				t.Errorf("%s: class %s, want %s", stmt, got, want)
			}
		}
		db.Close()
		ro, err := sql.Open("duckdb", path+"?access_mode=read_only")
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		if got := classOf(t, e, ro, "INSERT INTO t VALUES (3, 'c')"); got != engine.ReadOnly {
			t.Errorf("read-only file: class %s", got)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		serverClasses(t, testsrv.URL(t, testsrv.PostgresEnv))
	})
	t.Run("mysql", func(t *testing.T) {
		serverClasses(t, testsrv.URL(t, testsrv.MySQLEnv))
	})
	t.Run("sqlserver", func(t *testing.T) {
		url := os.Getenv(testsrv.MSSQLEnv)
		if url == "" {
			t.Skipf("%s not set: no SQL Server (or Babelfish) to ask", testsrv.MSSQLEnv)
		}
		tg, err := engine.Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		db, err := tg.Open(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		e := tg.Engine
		db.Exec("DROP TABLE dbdyno_errclass_t")
		for _, s := range []string{"CREATE TABLE dbdyno_errclass_t (id int PRIMARY KEY, v varchar(10))", "INSERT INTO dbdyno_errclass_t VALUES (1, 'a')"} {
			if _, err := db.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		defer db.Exec("DROP TABLE dbdyno_errclass_t")
		for stmt, want := range map[string]engine.Class{"INSERT INTO dbdyno_errclass_gone VALUES (1)": engine.Schema,
			"SELECT count(*) FROM dbdyno_errclass_t t JOIN dbdyno_errclass_gone g ON g.id = t.id": engine.Schema,
			"UPDATE dbdyno_errclass_t SET nope = 1":                                               engine.Schema, "INSERT INTO dbdyno_errclass_t VALUES (1, 'b')": engine.Constraint} {
			if got := classOf(t, e, db, stmt); got != want {
				t.Errorf("%s: class %s, want %s", stmt, got, want)
			}
		}
	})
}

// serverClasses checks a server engine's classes on a table of the test's own.
func serverClasses(t *testing.T, url string) {
	ctx := context.Background()
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	db, err := tg.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e := tg.Engine
	db.Exec("DROP TABLE IF EXISTS dbdyno_errclass_t")
	for _, s := range []string{"CREATE TABLE dbdyno_errclass_t (id int PRIMARY KEY, v varchar(10))", "INSERT INTO dbdyno_errclass_t VALUES (1, 'a')"} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	defer db.Exec("DROP TABLE dbdyno_errclass_t")
	for stmt, want := range map[string]engine.Class{"INSERT INTO dbdyno_errclass_gone VALUES (1)": engine.Schema,
		"UPDATE dbdyno_errclass_t SET nope = 1": engine.Schema, "INSERT INTO dbdyno_errclass_t VALUES (1, 'b')": engine.Constraint} {
		if got := classOf(t, e, db, stmt); got != want {
			t.Errorf("%s: class %s, want %s", stmt, got, want)
		}
	}
	// a transaction that takes no writes, as a standby's or a read-only server's
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	_, err = tx.Exec("UPDATE dbdyno_errclass_t SET v = 'x'")
	if got := e.Classify(err); err == nil || got != engine.ReadOnly {
		t.Errorf("%s in a read-only transaction: %v, class %s", e.Name, err, got)
	}
}

func open(t *testing.T, url string) (*sql.DB, error) {
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	return tg.Open(context.Background())
}

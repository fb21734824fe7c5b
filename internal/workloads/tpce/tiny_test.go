package tpce

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// TinySize is the smallest database: one load unit of customers, one trade day.
var TinySize = Size{Customers: 1000, TradeDays: 1}

// tinyTemplates are the test process's tiny builds, one per engine that copies a database cheaply (SQLite: the
// file; PostgreSQL: CREATE DATABASE ... TEMPLATE), each made once, by the first test that needs it.
var tinyTemplates = struct {
	sync.Mutex
	m map[string]*tinyTemplate
}{m: map[string]*tinyTemplate{}}

type tinyTemplate struct {
	sync.Once
	url string // sqlite://FILE, or the template database on the server
	err error
}

// TinyAt makes url's database the tiny build (TinySize, seed 1), as `tpce build` leaves it: a copy of the test
// process's one tiny build on SQLite, PostgreSQL and SQL Server (a build takes most of a test's time, a copy a
// second, or on Babelfish several: tinyCopySQLServer), a build of its own on MariaDB (copying its tables on
// the server took longer than building them). Tests that change the data each take a database of their own.
func TinyAt(t testing.TB, url string) {
	t.Helper()
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	var key string
	switch tg.Engine.Name {
	case "sqlite":
		key = "sqlite"
	case "postgres":
		key = strings.TrimSuffix(url, "/"+tg.Database) // the server
	case "sqlserver":
		key = testsrv.Beside(t, url, "dbdyno_tpce_tiny") // the server's template
	default:
		tinyBuildAt(t, url)
		return
	}
	tinyTemplates.Lock()
	tp := tinyTemplates.m[key]
	if tp == nil {
		tp = &tinyTemplate{}
		tinyTemplates.m[key] = tp
	}
	tinyTemplates.Unlock()
	tp.Do(func() {
		if tg.Engine.Name == "sqlite" {
			// beside the tests' results store, in the scratch directory clitest.Main removes
			dir := filepath.Dir(store.DefaultPath)
			if !filepath.IsAbs(dir) || dir == "." {
				if dir, tp.err = os.MkdirTemp("", "dbdyno-tpce"); tp.err != nil {
					return
				}
			}
			tp.url = "sqlite://" + filepath.Join(dir, "tpce-tiny.db")
		} else {
			tp.url = testsrv.Beside(t, url, "dbdyno_tpce_tiny")
		}
		if TinyBuildCommand != nil {
			tp.err = TinyBuildCommand(tp.url)
		} else {
			tp.err = tinyBuildErr(tp.url)
		}
	})
	if tp.err != nil {
		t.Fatalf("the tiny TPC-E build every copy comes from: %v", tp.err)
	}
	if tg.Engine.Name == "sqlite" {
		b, err := os.ReadFile(strings.TrimPrefix(tp.url, "sqlite://")) // the build closed the file: its WAL is in it
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(strings.TrimPrefix(url, "sqlite://"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if tg.Engine.Name == "sqlserver" {
		tinyCopySQLServer(t, tg)
		return
	}
	// a connection to the server's own database (not the copy's, which is replaced, nor the template's)
	_, admin := testsrv.Open(t, testsrv.Beside(t, url, "postgres"))
	defer admin.Close()
	for _, q := range []string{"DROP DATABASE IF EXISTS " + tg.Database + " WITH (FORCE)",
		"CREATE DATABASE " + tg.Database + " TEMPLATE dbdyno_tpce_tiny"} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TinyBuildCommand, when set (by the command-line tests), makes each template with the command line's
// `tpce build` of TinySize (seed 1) instead of tinyBuildErr: one build of the tiny database per engine serves
// both the command's own tests and every copy.
var TinyBuildCommand func(url string) error

// tinyCopySQLServer makes tg's database a copy of the server's tiny build as the build makes it, with the
// build's load replaced by a copy on the server: dbdyno's tables there dropped, the schema created, each
// table filled from the template's (a cross-database INSERT ... SELECT), then the build's keys and indexes,
// stored procedures and statistics. The build record (its manifest among it) is the template's.
func tinyCopySQLServer(t testing.TB, tg *engine.Target) {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, tg)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	d := db.Data
	if _, err := d.Drop(ctx); err != nil {
		t.Fatalf("dropping the copy's old tables: %v", err)
	}
	if err := d.Script(ctx, d.SQL, "schema.sql"); err != nil {
		t.Fatalf("creating the copy's schema: %v", err)
	}
	rows, err := d.SQL.QueryContext(ctx, "SELECT name FROM sys.tables")
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	for _, n := range tables {
		q := fmt.Sprintf("INSERT INTO dbo.%s SELECT * FROM dbdyno_tpce_tiny.dbo.%s", n, n)
		if _, err := d.SQL.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := d.Script(ctx, d.SQL, "indexes.sql"); err != nil {
		t.Fatalf("creating the copy's keys and indexes: %v", err)
	}
	if d.T.Procedures(ctx) {
		if err := d.Script(ctx, d.SQL, "procs.sql"); err != nil {
			t.Fatalf("installing the stored procedures: %v", err)
		}
	}
	if err := d.T.Engine.Analyze(ctx, d.SQL, d.D.Tables); err != nil {
		t.Fatalf("gathering statistics: %v", err)
	}
}

func tinyBuildAt(t testing.TB, url string) {
	t.Helper()
	if err := tinyBuildErr(url); err != nil {
		t.Fatal(err)
	}
}

// tinyBuildErr builds the tiny database at url and closes it.
func tinyBuildErr(url string) error {
	ctx := context.Background()
	tg, err := engine.Parse(url)
	if err != nil {
		return err
	}
	db, err := Open(ctx, tg)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Build(ctx, BuildOptions{Size: TinySize, Threads: 2, Drop: true, Seed: 1, Version: "test", Progress: io.Discard})
	return err
}

// countSink counts the rows the generator hands each table, encoding nothing.
type countSink struct {
	table string
	n     int64
	rows  map[string]int64
}

func (s *countSink) Begin(table string, _ []string) (bulk.Row, error) {
	s.table, s.n = table, 0
	return s, nil
}
func (s *countSink) Int(int64)           {}
func (s *countSink) Dec(int64, int)      {}
func (s *countSink) Str(string)          {}
func (s *countSink) Bytes([]byte)        {}
func (s *countSink) Date(int32)          {}
func (s *countSink) Time(time.Time)      {}
func (s *countSink) Null()               {}
func (s *countSink) EndRow() error       { s.n++; return nil }
func (s *countSink) End() (int64, error) { s.rows[s.table] += s.n; return s.n, nil }
func (s *countSink) Close()              {}

// GeneratedRows is the rows a build of s with seed would load into each table, counted from the generator
// without a database (the build's own work, in its order, on one goroutine).
func GeneratedRows(seed uint64, s Size) (map[string]int64, error) {
	var rows atomic.Int64
	sink := &countSink{rows: map[string]int64{}}
	for _, w := range work(seed, s, &rows) {
		if err := w.Do(context.Background(), sink); err != nil {
			return nil, fmt.Errorf("%s: %w", w.Name, err)
		}
	}
	return sink.rows, nil
}

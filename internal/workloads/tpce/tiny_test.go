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
	"github.com/dbdyno/dbdyno/internal/output/store"
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
// process's one tiny build on SQLite and PostgreSQL (a build takes most of a test's time, a copy a second),
// a build of its own on the other engines. Tests that change the data each take a database of their own.
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
		if tg.Engine.Name == "sqlite" && TinyBuildCommand != nil {
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

// TinyBuildCommand, when set (by the command-line tests), makes the SQLite template with the command line's
// `tpce build` of TinySize (seed 1) instead of tinyBuildErr: one build of the tiny database serves both the
// command's own test and every copy.
var TinyBuildCommand func(url string) error

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

package store

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

func TestMain(m *testing.M) {
	if loc := os.Getenv("DBDYNO_STORE_WRITER"); loc != "" {
		os.Exit(writer(loc, os.Getenv("DBDYNO_STORE_WRITER_PREFIX")))
	}
	testsrv.Main(m)
}

// pgStore is the URL of a store of the test's own on the test PostgreSQL server: database name, emptied.
func pgStore(t *testing.T, name string) string {
	t.Helper()
	url := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), name)
	testsrv.Exec(t, url, "DROP TABLE IF EXISTS results, monitor_samples, store_meta, schema_version, someones_table")
	return url
}

// stores are a SQLite file's store and a PostgreSQL database's, for the tests that must hold on both.
func stores(t *testing.T, name string) map[string]string {
	return map[string]string{"sqlite": filepath.Join(t.TempDir(), "results.db"), "postgres": pgStore(t, name)}
}

func run(id, workload, group string, labels map[string]any) *result.Result {
	r := &result.Result{SchemaVersion: result.SchemaVersion, Workload: workload, RunID: id, Status: result.StatusOK, Labels: labels,
		StartedAt: time.Date(2026, 11, 26, 1, 2, 3, 0, time.UTC)}
	r.Target.Engine, r.Target.URL = "sqlite", "sqlite://x.db"
	r.Tool.Name, r.Command, r.Options = "dbdyno", []string{"dbdyno", workload, "run"}, map[string]any{}
	if group != "" {
		r.Group = &result.Group{ID: group, Repeat: 1, Repeats: 1}
	}
	return r
}

// Both store engines hold the same runs the same way: listed by filter, found by run ID, prefix, store number
// and group, monitor recordings kept, the numbered migrations recorded once however often the store is opened.
func TestStoreOnEachEngine(t *testing.T) {
	ctx := context.Background()
	for name, loc := range stores(t, "dbdyno_store_engines") {
		t.Run(name, func(t *testing.T) {
			s, err := Open(ctx, loc)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range []*result.Result{
				run("tpcc-aa1", "tpcc", "g1", map[string]any{"system": "a", "vus": 4}),
				run("tpcc-aa2", "tpcc", "g1", map[string]any{"system": "b"}),
				run("ping-bb1", "ping", "", nil),
			} {
				if err := s.Add(ctx, r, "tpmC 1"); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Add(ctx, run("ping-bb1", "ping", "", nil), ""); err == nil {
				t.Error("a run ID stored twice was taken")
			}
			s.Close()
			if s, err = Open(ctx, loc); err != nil { // opened again: nothing migrates twice
				t.Fatal(err)
			}
			defer s.Close()
			for _, c := range []struct {
				f    Filter
				want []string
			}{
				{Filter{}, []string{"tpcc-aa1", "tpcc-aa2", "ping-bb1"}},
				{Filter{Workload: "tpcc"}, []string{"tpcc-aa1", "tpcc-aa2"}},
				{Filter{Group: "g1", Labels: []string{"system=b"}}, []string{"tpcc-aa2"}},
				{Filter{Label: "vus=4"}, []string{"tpcc-aa1"}},
				{Filter{Workload: "ping", Label: "system=a"}, nil},
			} {
				es, err := s.List(ctx, c.f)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, e := range es {
					got = append(got, e.RunID)
				}
				if !slices.Equal(got, c.want) {
					t.Errorf("List(%+v) = %v, want %v", c.f, got, c.want)
				}
			}
			for ref, want := range map[string]int{"tpcc-aa1": 1, "g1": 2, "3": 1, "ping": 1, "tpcc-aa": 0, "nothing": 0} {
				rs, err := s.Get(ctx, ref)
				if len(rs) != want || (want == 0) != (err != nil) {
					t.Errorf("Get(%q) = %d run(s), %v; want %d", ref, len(rs), err, want)
				}
			}
			if rs, _ := s.Get(ctx, "3"); len(rs) == 1 && rs[0].RunID != "ping-bb1" {
				t.Errorf("store number 3 is %s, want ping-bb1", rs[0].RunID)
			}
			at := time.Unix(1700000000, 5)
			for i := range 3 {
				if err := s.AddSample(ctx, "rec", at.Add(time.Duration(i)*time.Second), []byte(fmt.Sprintf(`{"i":%d}`, i))); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.AddSample(ctx, "rec", at, []byte(`{"i":9}`)); err != nil {
				t.Errorf("an interval recorded twice: %v", err)
			}
			var docs []string
			if err := s.Samples(ctx, "rec", func(d []byte) error { docs = append(docs, string(d)); return nil }); err != nil {
				t.Fatal(err)
			}
			if want := []string{`{"i":0}`, `{"i":1}`, `{"i":2}`}; !slices.Equal(docs, want) {
				t.Errorf("samples %v, want %v", docs, want)
			}
			recs, err := s.Recordings(ctx)
			if err != nil || len(recs) != 1 || recs[0].Intervals != 3 || !recs[0].From.Equal(at) {
				t.Errorf("recordings %+v (%v), want one of 3 intervals from %s", recs, err, at)
			}
			if got := appliedVersions(t, s); !slices.Equal(got, []int{1, 2}) {
				t.Errorf("schema_version holds %v, want [1 2]", got)
			}
		})
	}
}

func appliedVersions(t *testing.T, s *Store) []int {
	t.Helper()
	rows, err := s.query(context.Background(), s.db, "applied_versions")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var v int
		rows.Scan(&v)
		out = append(out, v)
	}
	return out
}

// Every store engine runs the same numbered migrations, and each engine's statements compile.
func TestMigrationsAreTheSameOnEveryEngine(t *testing.T) {
	var want []string
	for _, name := range []string{"sqlite", "postgres"} {
		e, _ := engine.Lookup(name)
		if !Supports(e) {
			t.Fatalf("no store statements for %s", name)
		}
		ms, err := migrations(e)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range ms {
			got = append(got, m.name)
		}
		if len(got) < 2 {
			t.Fatalf("%s: migrations %v", name, got)
		}
		if want == nil {
			want = got
		} else if !slices.Equal(got, want) {
			t.Errorf("%s's migrations are %v, sqlite's %v: every engine runs the same numbered migrations", name, got, want)
		}
		if _, err := newStore(nil, e, ""); err != nil {
			t.Error(err)
		}
	}
	ents, _ := fs.ReadDir(sqlFS, "sql")
	if len(ents) != 3 {
		t.Errorf("sql/ holds %d directories, want generic, sqlite and postgres", len(ents))
	}
	mysql, _ := engine.Lookup("mysql")
	if _, err := Open(context.Background(), "mysql://u:secretpw@127.0.0.1:1/db"); err == nil || Supports(mysql) || strings.Contains(err.Error(), "secretpw") {
		t.Errorf("a mysql:// store: %v", err)
	}
}

// A SQLite store made before the numbered migrations (tables, no schema_version) opens with its runs, and the
// migrations are recorded.
func TestStoreBeforeSchemaVersionMigrates(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open(engine.SQLiteDriver, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE store_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)`,
		`CREATE TABLE results (seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL UNIQUE, workload TEXT NOT NULL, engine TEXT NOT NULL,
			target TEXT NOT NULL, status TEXT NOT NULL, started_at TEXT NOT NULL, group_id TEXT NOT NULL DEFAULT '', labels TEXT NOT NULL DEFAULT '{}',
			headline TEXT NOT NULL DEFAULT '', document TEXT NOT NULL)`,
		`CREATE INDEX results_group ON results (group_id)`,
		`INSERT INTO store_meta VALUES ('schema_version', '1')`,
		`INSERT INTO results (run_id, workload, engine, target, status, started_at, document) VALUES ('old-1', 'ping', 'sqlite', 'sqlite://x', 'ok', '2025-01-01T00:00:00Z', '{}')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if es, err := s.List(ctx, Filter{}); err != nil || len(es) != 1 || es[0].RunID != "old-1" {
		t.Errorf("the old store's runs: %v %v", es, err)
	}
	if got := appliedVersions(t, s); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("schema_version holds %v, want [1 2]", got)
	}
	if err := s.AddSample(ctx, "r", time.Now(), []byte("{}")); err != nil {
		t.Errorf("migration 2's table: %v", err)
	}
}

// A PostgreSQL database that holds other tables is someone's database: the store refuses it and adds nothing.
func TestPostgresNotAStore(t *testing.T) {
	url := pgStore(t, "dbdyno_store_notours")
	testsrv.Exec(t, url, "CREATE TABLE someones_table (a int)")
	_, err := Open(context.Background(), url)
	if err == nil || !strings.Contains(err.Error(), "not a dbdyno results store") {
		t.Fatalf("a database with another table: %v", err)
	}
	_, db := testsrv.Open(t, url)
	defer db.Close()
	var n int
	db.QueryRow(`SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()`).Scan(&n)
	if n != 1 {
		t.Errorf("the refused database holds %d tables, want its own 1", n)
	}
}

// Two processes writing 200 results each into one new store at the same time lose nothing: both migrate it
// (one waits for the other), every run is there once, and the store numbers are distinct.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	const perWriter = 200
	for name, loc := range stores(t, "dbdyno_store_writers") {
		t.Run(name, func(t *testing.T) {
			var wg sync.WaitGroup
			errs := make([]error, 2)
			outs := make([][]byte, 2)
			for i := range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					cmd := exec.Command(os.Args[0], "-test.run=^$")
					cmd.Env = append(os.Environ(), "DBDYNO_STORE_WRITER="+loc, "DBDYNO_STORE_WRITER_PREFIX=w"+strconv.Itoa(i),
						"DBDYNO_STORE_WRITER_N="+strconv.Itoa(perWriter))
					outs[i], errs[i] = cmd.CombinedOutput()
				}()
			}
			wg.Wait()
			for i := range 2 {
				if errs[i] != nil {
					t.Fatalf("writer %d: %v: %s", i, errs[i], outs[i])
				}
			}
			s, err := Open(context.Background(), loc)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			es, err := s.List(context.Background(), Filter{})
			if err != nil {
				t.Fatal(err)
			}
			ids, seqs := map[string]bool{}, map[int64]bool{}
			for _, e := range es {
				ids[e.RunID], seqs[e.Seq] = true, true
			}
			for w := range 2 {
				for i := range perWriter {
					if id := fmt.Sprintf("w%d-%03d", w, i); !ids[id] {
						t.Errorf("run %s was lost", id)
					}
				}
			}
			if len(es) != 2*perWriter || len(ids) != len(es) || len(seqs) != len(es) {
				t.Errorf("%d runs stored (%d IDs, %d store numbers), want %d", len(es), len(ids), len(seqs), 2*perWriter)
			}
		})
	}
}

// writer is a writing process of TestConcurrentWritersLoseNothing: it opens the store and adds its runs, one
// transaction each.
func writer(loc, prefix string) int {
	n, _ := strconv.Atoi(os.Getenv("DBDYNO_STORE_WRITER_N"))
	ctx := context.Background()
	s, err := Open(ctx, loc)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	for i := range n {
		if err := s.Add(ctx, run(fmt.Sprintf("%s-%03d", prefix, i), "ping", "", map[string]any{"writer": prefix}), ""); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// Copying runs between stores keeps their run IDs and documents byte for byte; copying again copies nothing;
// a group or a prefix names its runs.
func TestCopyBetweenStores(t *testing.T) {
	ctx := context.Background()
	locs := stores(t, "dbdyno_store_copy")
	src, err := Open(ctx, locs["sqlite"])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := Open(ctx, locs["postgres"])
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	for _, r := range []*result.Result{run("a-1", "tpcc", "g", map[string]any{"k": "v"}), run("a-2", "tpcc", "g", nil), run("b-1", "ping", "", nil)} {
		if err := src.Add(ctx, r, "h"); err != nil {
			t.Fatal(err)
		}
	}
	if err := dst.Add(ctx, run("c-1", "ping", "", nil), ""); err != nil { // the destination's own run comes first
		t.Fatal(err)
	}
	if _, err := src.Copy(ctx, dst, nil, false); err == nil {
		t.Error("a copy naming nothing, without all, was taken")
	}
	got, err := src.Copy(ctx, dst, []string{"g"}, false)
	if err != nil || !slices.Equal(got.Copied, []string{"a-1", "a-2"}) || len(got.Present) != 0 {
		t.Fatalf("copying group g: %+v %v", got, err)
	}
	got, err = src.Copy(ctx, dst, nil, true)
	if err != nil || !slices.Equal(got.Copied, []string{"b-1"}) || !slices.Equal(got.Present, []string{"a-1", "a-2"}) {
		t.Fatalf("copying all: %+v %v", got, err)
	}
	got, err = src.Copy(ctx, dst, nil, true)
	if err != nil || len(got.Copied) != 0 || len(got.Present) != 3 {
		t.Fatalf("copying all again: %+v %v, want nothing copied", got, err)
	}
	for _, id := range []string{"a-1", "a-2", "b-1"} {
		a, _ := src.rows(ctx, id)
		b, err := dst.rows(ctx, id)
		if err != nil || len(a) != 1 || len(b) != 1 || a[0].Document != b[0].Document || a[0].Labels != b[0].Labels || a[0].Headline != b[0].Headline {
			t.Errorf("run %s differs after the copy (%v)", id, err)
		}
	}
	if es, _ := dst.List(ctx, Filter{}); len(es) != 4 {
		t.Errorf("the destination holds %d runs, want 4", len(es))
	}
	// and back: the destination's own run goes to the file
	got, err = dst.Copy(ctx, src, []string{"c-"}, false)
	if err != nil || !slices.Equal(got.Copied, []string{"c-1"}) {
		t.Errorf("copying back: %+v %v", got, err)
	}
}

// The password of a server's store appears in no error and not in Where; a server that accepts and never
// answers fails the open within the connect timeout.
func TestServerStoreKeepsThePasswordOut(t *testing.T) {
	ctx := context.Background()
	url := pgStore(t, "dbdyno_store_secret")
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	pw := strings.TrimPrefix(strings.Split(strings.TrimPrefix(url, "postgres://"), "@")[0], tg.User+":")
	if len(pw) < 3 {
		t.Fatalf("the test server's URL has no password")
	}
	s, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.Where(), pw) || !strings.Contains(s.Where(), "xxxxx") {
		t.Errorf("Where() = %s", s.Where())
	}
	s.Close()
	if Display(url) == url || strings.Contains(Display(url), pw) {
		t.Errorf("Display(url) shows the password")
	}
	wrong := strings.Replace(url, ":"+pw+"@", ":wrong-"+pw+"@", 1)
	_, err = Open(ctx, wrong)
	if err == nil || strings.Contains(err.Error(), pw) || !strings.Contains(err.Error(), "authentication failed") {
		t.Errorf("a wrong password: %v", err)
	}
	missing := strings.Replace(url, "/dbdyno_store_secret", "/dbdyno_store_no_such_db", 1)
	if _, err = Open(ctx, missing); err == nil || strings.Contains(err.Error(), pw) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a missing database: %v", err)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	old := ConnectTimeout
	ConnectTimeout = time.Second
	defer func() { ConnectTimeout = old }()
	silent := fmt.Sprintf("postgres://u:%s@%s/db", pw, ln.Addr())
	done := make(chan error, 1)
	go func() { _, err := Open(ctx, silent); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "timed out") || strings.Contains(err.Error(), pw) {
			t.Errorf("a server that never answers: %v", err)
		}
	case <-time.After(time.Minute): // 60 times the connect timeout: the open did not time out at all
		t.Fatal("opening a store on a server that never answers did not time out")
	}
}

// $DBDYNO_STORE may name a server's store (a team's default): it is kept as the URL it is.
func TestDefaultLocationTakesAURL(t *testing.T) {
	t.Setenv("DBDYNO_STORE", "postgres://team@db.example:5432/results")
	if got := DefaultLocation(); got != "postgres://team@db.example:5432/results" {
		t.Errorf("DefaultLocation() = %s", got)
	}
	if !Exists(DefaultLocation()) || !IsURL(DefaultLocation()) {
		t.Error("a server's store is not taken as one")
	}
}

// A server's store that is a target's database is told (the method refuses it); another database on the same
// server is not.
func TestIsTarget(t *testing.T) {
	tg, err := engine.Parse("postgres://bench:pw@db.example:5432/tpcc")
	if err != nil {
		t.Fatal(err)
	}
	for loc, want := range map[string]bool{
		"postgres://dbdyno@db.example/tpcc":         true,
		"postgresql://other:x@DB.example:5432/tpcc": true,
		"postgres://dbdyno@db.example/results":      false,
		"postgres://dbdyno@db.example:5433/tpcc":    false,
		"results.db":                                false,
		"mysql://u@db.example:5432/tpcc":            false,
	} {
		if got := IsTarget(loc, tg); got != want {
			t.Errorf("IsTarget(%s) = %v, want %v", loc, got, want)
		}
	}
}

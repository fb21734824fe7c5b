package tpch_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// embeddedFile makes a database file of the scheme (sqlite or duckdb) with one table in it.
func embeddedFile(t *testing.T, scheme, path string) {
	t.Helper()
	tg, err := engine.Parse(scheme + "://" + path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := tg.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE kept (i INTEGER)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO kept VALUES (42)"); err != nil {
		t.Fatal(err)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// A file that is not the target engine's is refused in one line before the engine touches it, and nothing of
// it changes: `tpch build --target duckdb:///r/victim.json` (a result file) printed "built ... rows", exited 0
// and kept nothing; DuckDB given a SQLite file downloaded sqlite_scanner from its extension site into
// HOME/.duckdb (here it must make nothing there). SQLite given a DuckDB file or other data is refused as well.
// (Not parallel: HOME is the process's, and a DuckDB command sees every DuckDB handle of the process.)
func TestBuildRefusesAnotherEnginesOrForeignFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.json")
	if err := os.WriteFile(victim, []byte(`{"schema":"dbdyno-result/v2","id":"r20260101T000000-abcdef","status":"ok","metrics":{"qph":1234.5}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lite, duck := filepath.Join(dir, "lite.db"), filepath.Join(dir, "duck.duckdb")
	embeddedFile(t, "sqlite", lite)
	embeddedFile(t, "duckdb", duck)
	for _, c := range []struct{ target, file, want string }{
		{"duckdb://" + victim, victim, victim + " is not a DuckDB database (it holds other data): give a DuckDB file or a new path"},
		{"duckdb://" + lite, lite, lite + " is not a DuckDB database (it is a SQLite database): give a DuckDB file or a new path"},
		{"sqlite://" + duck, duck, duck + " is not a SQLite database (it is a DuckDB database): give a SQLite file or a new path"},
		{"sqlite://" + victim, victim, victim + " is not a SQLite database (it holds other data): give a SQLite file or a new path"},
	} {
		was, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		files := dirNames(t, dir)
		r := clitest.Run(context.Background(), "tpch", "build", "--scale", "0.01", "--target", c.target)
		if r.Code == 0 || r.Stderr != "dbdyno: "+c.want+"\n" {
			t.Errorf("%s: exit %d, stderr %q; want a non-zero exit and the one line %q\nstdout:\n%s", c.target, r.Code, r.Stderr, c.want, r.Stdout)
		}
		if now, err := os.ReadFile(c.file); err != nil || !bytes.Equal(now, was) {
			t.Errorf("%s: the file changed (%d bytes before, %d now, %v)", c.target, len(was), len(now), err)
		}
		if now := dirNames(t, dir); !slices.Equal(now, files) {
			t.Errorf("%s: the directory held %q, now %q", c.target, files, now)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".duckdb")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("HOME/.duckdb was made (stat: %v)", err)
	}
	// an empty file: SQLite makes its database in it; DuckDB does not (its open failed with a line that said to
	// check the directory's permissions), and it is refused as the others are
	emptyLite, emptyDuck := filepath.Join(dir, "empty.db"), filepath.Join(dir, "empty.duckdb")
	for _, p := range []string{emptyLite, emptyDuck} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := "dbdyno: " + emptyDuck + " is an empty file, which DuckDB does not make a database in: give a DuckDB file or a new path\n"
	if r := clitest.Run(context.Background(), "tpch", "build", "--scale", "0.01", "--target", "duckdb://"+emptyDuck); r.Code == 0 || r.Stderr != want {
		t.Errorf("build in an empty DuckDB file: exit %d, stderr %q; want %q", r.Code, r.Stderr, want)
	}
	if st, err := os.Stat(emptyDuck); err != nil || st.Size() != 0 {
		t.Errorf("the empty file changed: %v %v", st, err)
	}
	if r := clitest.Run(context.Background(), "tpch", "build", "--scale", "0.01", "--target", "sqlite://"+emptyLite); r.Code != 0 || !strings.Contains(r.Stdout, "built ") {
		t.Errorf("build in an empty SQLite file: exit %d, stderr %q", r.Code, r.Stderr)
	}
}

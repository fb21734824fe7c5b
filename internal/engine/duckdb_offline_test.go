package engine

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// offSettings are the DuckDB settings that would let an open reach out to DuckDB's extension site.
var offSettings = []string{"autoload_known_extensions", "autoinstall_known_extensions", "allow_community_extensions"}

func readSettings(t *testing.T, db *sql.DB) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, s := range offSettings {
		var v string
		if err := db.QueryRow("SELECT current_setting('" + s + "')::VARCHAR").Scan(&v); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		got[s] = v
	}
	return got
}

// dbdyno never reaches out: every DuckDB open, of a file or in memory, has extension autoloading, autoinstalling
// and community extensions off (`tpch build --target duckdb:///x.db` on a SQLite file had DuckDB download
// sqlite_scanner from its extension site). A later open of an instance kept in the process (after an interrupted
// statement) whose settings were changed gets them back off, not DuckDB's defaults.
func TestDuckDBOpensWithExtensionLoadingOff(t *testing.T) {
	ctx := context.Background()
	for _, path := range []string{filepath.Join(t.TempDir(), "off.duckdb"), ":memory:"} {
		tg, err := Parse("duckdb://" + path)
		if err != nil {
			t.Fatal(err)
		}
		db, err := tg.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for s, v := range readSettings(t, db) {
			if v != "false" {
				t.Errorf("%s: %s is %s after an open, want false", path, s, v)
			}
		}
		db.Close()
	}

	// the kept instance's settings are put back as it was opened
	tg, err := Parse("duckdb://" + filepath.Join(t.TempDir(), "kept.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := tg.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	duckInstances.Lock()
	sh := duckInstances.byPath[duckPath(tg.Path)]
	duckInstances.Unlock()
	for _, s := range offSettings[:2] { // community extensions cannot be allowed while the instance runs
		if _, err := db.Exec("SET GLOBAL " + s + " = true"); err != nil {
			t.Fatal(err)
		}
	}
	if err := resetSettings(ctx, tg.Engine, db, sh.settings); err != nil {
		t.Fatal(err)
	}
	for s, v := range readSettings(t, db) {
		if v != "false" {
			t.Errorf("%s is %s after the settings of a kept instance were put back, want false", s, v)
		}
	}
}

// DuckDB given a SQLite file attaches it through its sqlite_scanner extension, which it downloaded from its site
// into ~/.duckdb/extensions: DuckDB's own open of such a file (below dbdyno's refusal of foreign files) now fails
// without asking anyone, and creates nothing in HOME. (Not parallel: HOME is the process's.)
func TestDuckDBOpenOfASQLiteFileReachesForNothing(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	path := filepath.Join(t.TempDir(), "lite.db")
	lite, err := sql.Open(SQLiteDriver, "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lite.Exec("CREATE TABLE t (i INTEGER); INSERT INTO t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	lite.Close()
	c, err := newDuckConnector(context.Background(), path, path)
	if err == nil {
		c.Close()
		t.Fatal("DuckDB opened a SQLite file with its extensions off")
	}
	if msg := strings.ToLower(err.Error()); strings.Contains(msg, "download") || strings.Contains(msg, "http") {
		t.Errorf("DuckDB reached out for an extension: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, ".duckdb")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("DuckDB's open made HOME/.duckdb (stat: %v)", err)
	}
}

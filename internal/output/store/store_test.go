package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The default store is one per user, wherever the command runs: $XDG_DATA_HOME/dbdyno/results.db, else
// ~/.local/share/dbdyno/results.db; $DBDYNO_STORE wins over both; a relative $XDG_DATA_HOME is ignored.
func TestDefaultLocation(t *testing.T) {
	home, xdg := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("DBDYNO_STORE", "")
	t.Setenv("XDG_DATA_HOME", "")
	if got, want := DefaultLocation(), filepath.Join(home, ".local", "share", "dbdyno", "results.db"); got != want {
		t.Errorf("XDG_DATA_HOME unset: %s, want %s", got, want)
	}
	t.Setenv("XDG_DATA_HOME", xdg)
	if got, want := DefaultLocation(), filepath.Join(xdg, "dbdyno", "results.db"); got != want {
		t.Errorf("XDG_DATA_HOME=%s: %s, want %s", xdg, got, want)
	}
	t.Setenv("XDG_DATA_HOME", "relative/data")
	if got, want := DefaultLocation(), filepath.Join(home, ".local", "share", "dbdyno", "results.db"); got != want {
		t.Errorf("relative XDG_DATA_HOME: %s, want %s", got, want)
	}
	t.Setenv("DBDYNO_STORE", "mine.db")
	wd, _ := os.Getwd()
	if got, want := DefaultLocation(), filepath.Join(wd, "mine.db"); got != want {
		t.Errorf("DBDYNO_STORE=mine.db: %s, want %s", got, want)
	}
}

// Opening the default store creates its directory, readable by its owner only; another store's missing
// directory is not created.
func TestOpenCreatesTheDefaultDirectory(t *testing.T) {
	base := t.TempDir()
	old := DefaultPath
	defer func() { DefaultPath = old }()
	DefaultPath = filepath.Join(base, "data", "dbdyno", "results.db")
	s, err := Open(context.Background(), DefaultPath)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	fi, err := os.Stat(filepath.Dir(DefaultPath))
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o700 {
		t.Errorf("the store's directory has mode %o, want 700", perm)
	}
	if _, err := Open(context.Background(), filepath.Join(base, "typo", "results.db")); err == nil {
		t.Error("a --store in a missing directory was opened")
	}
	if _, err := os.Stat(filepath.Join(base, "typo")); err == nil {
		t.Error("a --store's missing directory was created")
	}
}

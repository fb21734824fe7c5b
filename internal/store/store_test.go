package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
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

// --label filters are repeatable: a run matches when it has every one.
func TestLabelFilters(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, labels := range []map[string]any{{"system": "a", "disk": "ssd"}, {"system": "a", "disk": "hdd"}, {"system": "b", "disk": "ssd"}} {
		r := &result.Result{SchemaVersion: result.SchemaVersion, Workload: "ping", RunID: "r" + string(rune('1'+i)), Status: result.StatusOK, Labels: labels}
		if err := s.Add(ctx, r, ""); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		f    Filter
		want int
	}{{Filter{Labels: []string{"system=a"}}, 2}, {Filter{Labels: []string{"system=a", "disk=ssd"}}, 1}, {Filter{Label: "disk=ssd", Labels: []string{"system=b"}}, 1}, {Filter{}, 3}} {
		if e, err := s.List(ctx, c.f); err != nil || len(e) != c.want {
			t.Errorf("%+v: %d runs, %v; want %d", c.f, len(e), err, c.want)
		}
	}
	if _, err := s.List(ctx, Filter{Labels: []string{"system"}}); err == nil {
		t.Error("a label without =value was taken")
	}
}

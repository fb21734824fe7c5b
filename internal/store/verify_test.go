package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// A copy verifies every stored document: one whose figure was edited with SQL (its digest no longer matches)
// and one cut short (not JSON) are not copied and are named, by run ID, in the copy's error; the good run is
// copied. On both store engines, as the source.
func TestCopyRefusesCorruptDocuments(t *testing.T) {
	ctx := context.Background()
	for name, loc := range stores(t, "dbdyno_store_corrupt") {
		t.Run(name, func(t *testing.T) {
			src, err := Open(ctx, loc)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			dst, err := Open(ctx, filepath.Join(t.TempDir(), "dst.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer dst.Close()
			for _, id := range []string{"good-1", "edited-1", "cut-1"} {
				r := run(id, "ping", "", nil)
				r.Metrics = []result.Metric{{Name: "pings/s", Better: result.Higher, Value: 99, Headline: true}}
				if err := src.Add(ctx, r, "pings/s 99"); err != nil {
					t.Fatal(err)
				}
			}
			for _, q := range []string{
				`UPDATE results SET document = replace(document, '"value": 99', '"value": 9900') WHERE run_id = 'edited-1'`,
				`UPDATE results SET document = substr(document, 1, 40) WHERE run_id = 'cut-1'`,
			} {
				if res, err := src.db.ExecContext(ctx, q); err != nil {
					t.Fatal(err)
				} else if n, _ := res.RowsAffected(); n != 1 {
					t.Fatalf("%s: %d rows", q, n)
				}
			}
			got, err := src.Copy(ctx, dst, nil, true)
			var ce *CorruptError
			if !errors.As(err, &ce) || !slices.Equal(got.Copied, []string{"good-1"}) || !slices.Equal(got.Corrupt, []string{"edited-1", "cut-1"}) {
				t.Fatalf("copying all: %+v %v", got, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "edited-1 (its digest does not match: changed after the run wrote it)") || !strings.Contains(msg, "cut-1 (not JSON") ||
				strings.Contains(msg, "good-1") || strings.Contains(msg, "\n") {
				t.Errorf("the error does not name the corrupt runs in one line: %s", msg)
			}
			if es, _ := dst.List(ctx, Filter{}); len(es) != 1 || es[0].RunID != "good-1" {
				t.Errorf("the destination holds %+v, want good-1 alone", es)
			}
			if _, err := src.Copy(ctx, dst, []string{"edited-1"}, false); !errors.As(err, &ce) {
				t.Errorf("copying the edited run by name: %v", err)
			}
			if _, err := src.Get(ctx, "edited-1"); err == nil || !strings.Contains(err.Error(), "digest does not match") {
				t.Errorf("reading the edited run: %v", err)
			}
		})
	}
}

// A --store that cannot be opened is named for what it is, in one line, never "not a dbdyno results store": a
// folder, a missing folder, a folder that is a file, a folder that cannot be written (a new store's, or an
// existing store's, whose journal SQLite keeps beside it).
func TestOpenNamesWhyAStoreCannotBeOpened(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	file := filepath.Join(base, "notes.txt")
	os.WriteFile(file, []byte("my notes\n"), 0o644)
	ro := filepath.Join(base, "ro")
	os.Mkdir(ro, 0o755)
	existing := filepath.Join(ro, "old.db")
	if s, err := Open(ctx, existing); err != nil {
		t.Fatal(err)
	} else {
		s.Close()
	}
	os.Remove(existing + "-wal")
	os.Remove(existing + "-shm")
	os.Chmod(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	// a user the permissions bind (root writes anyway: then those cases cannot be made here)
	rootWrites := writable(ro) == ""
	for _, c := range []struct {
		name, path, want string
		perms            bool
	}{
		{"a folder", base, "the results store " + base + " is a folder, not a file: give a file's path, e.g. --store " + filepath.Join(base, "results.db"), false},
		{"a missing folder", filepath.Join(base, "typo", "r.db"), "cannot create the results store " + filepath.Join(base, "typo", "r.db") + ": its folder " + filepath.Join(base, "typo") + " does not exist: create it, or choose another --store", false},
		{"a folder that is a file", filepath.Join(file, "r.db"), "cannot create the results store " + filepath.Join(file, "r.db") + ": its folder " + file + " is not a folder", false},
		{"a folder not writable", filepath.Join(ro, "new.db"), "cannot create the results store " + filepath.Join(ro, "new.db") + ": its folder " + ro + " is not writable (permission denied)", true},
		{"a store in a folder not writable", existing, "cannot open the results store " + existing + ": its folder " + ro + " is not writable (permission denied), and SQLite keeps the store's journal", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.perms && rootWrites {
				t.Skip("this user (root) writes whatever a file's permissions say: a folder or file it cannot write cannot be made here")
			}
			s, err := Open(ctx, c.path)
			if err == nil {
				s.Close()
				t.Fatalf("opened %s", c.path)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, c.want) || strings.Contains(msg, "not a dbdyno results store") || strings.Contains(msg, "\n") {
				t.Errorf("got  %s\nwant %s...", msg, c.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(base, "typo")); err == nil {
		t.Error("a --store's missing folder was created")
	}
	if left, _ := filepath.Glob(filepath.Join(base, ".dbdyno-store-check-*")); len(left) > 0 {
		t.Errorf("checks left files behind: %v", left)
	}
}

// A store on a read-only filesystem (a tmpfs mounted read-only, which binds root too): a new one cannot be
// created there, an existing one cannot be opened (SQLite keeps its journal beside it); each said in one line.
func TestOpenNamesAReadOnlyFilesystem(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", dir).CombinedOutput(); err != nil {
		if os.Getenv("CI") != "" && os.Geteuid() == 0 {
			t.Fatalf("mounting a tmpfs as root in CI: %v: %s", err, out)
		}
		t.Skipf("cannot mount a tmpfs here (%v: %s): needs root", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	existing := filepath.Join(dir, "old.db")
	s, err := Open(ctx, existing)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	os.Remove(existing + "-wal")
	os.Remove(existing + "-shm")
	if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Fatalf("remounting read-only: %v: %s", err, out)
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "new.db"): "cannot create the results store " + filepath.Join(dir, "new.db") + ": its folder " + dir + " is on a read-only filesystem: choose another --store",
		existing:                     "cannot open the results store " + existing + ": it is on a read-only filesystem, and SQLite writes its journal (old.db-wal) beside it: copy the store elsewhere",
	} {
		s, err := Open(ctx, path)
		if err == nil {
			s.Close()
			t.Errorf("opened %s on a read-only filesystem", path)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, want) || strings.Contains(msg, "not a dbdyno results store") || strings.Contains(msg, "\n") {
			t.Errorf("got  %s\nwant %s...", msg, want)
		}
	}
}

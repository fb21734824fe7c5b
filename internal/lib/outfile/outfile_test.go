package outfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteAtomicKeepsOldFileOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	os.WriteFile(path, []byte("old"), 0o644)
	if err := WriteAtomic(filepath.Join(dir, "missing", "r.json"), []byte("new")); err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
	if err := WriteAtomic(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Fatalf("content %q", b)
	}
}

// Check's refusals, each one line naming the flag and the path; a page dbdyno wrote may be replaced.
func TestCheckRefusesWhatWouldLoseData(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "d.db")
	os.WriteFile(db, []byte("SQLite format 3"), 0o644)
	mine := filepath.Join(dir, "mine.html")
	os.WriteFile(mine, []byte("<!DOCTYPE html>\n<html><head><title>dbdyno report</title>"), 0o644)
	theirs := filepath.Join(dir, "theirs.html")
	os.WriteFile(theirs, []byte("<html>notes</html>"), 0o644)
	for _, c := range []struct{ path, want string }{
		{db + "-wal", "is also an input of this command"},
		{dir, "is a directory: give a file name, e.g. " + filepath.Join(dir, "p.html")},
		{theirs, "exists and is not a dbdyno HTML page"},
		{filepath.Join(dir, "nowhere", "p.html"), "cannot write -o " + filepath.Join(dir, "nowhere", "p.html")},
	} {
		err := Check("-o", c.path, "HTML page", "p.html", LooksLikeReport, db)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v; want one line saying %q", c.path, err, c.want)
		}
	}
	if err := Check("-o", mine, "HTML page", "p.html", LooksLikeReport, db); err != nil {
		t.Errorf("a page of dbdyno's: %v", err)
	}
}

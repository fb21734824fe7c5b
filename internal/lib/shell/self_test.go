package shell

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A suggested command starts as the user can run it: dbdyno from the PATH, go run's command after go run (the
// quickstart's "next:" lines said "dbdyno report" where no dbdyno was on the PATH), else the binary's path.
func TestSelf(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "my bin", "dbdyno")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	os.WriteFile(bin, []byte("x"), 0o755)
	repo := filepath.Join(dir, "repo")
	os.MkdirAll(filepath.Join(repo, "cmd", "dbdyno"), 0o755)
	built := filepath.Join(dir, "go-build123", "b001", "exe", "dbdyno")
	none := func(string) (string, error) { return "", errors.New("not found") }
	for _, c := range []struct {
		exe, path, wd, want string
	}{
		{bin, bin, dir, "dbdyno"},
		{bin, "", dir, "'" + bin + "'"},
		{built, "", repo, "go run ./cmd/dbdyno"},
		{built, "", dir, "go run github.com/dbdyno/dbdyno/cmd/dbdyno"},
		{filepath.Join(dir, "x.test"), "", dir, "dbdyno"},
	} {
		look := none
		if c.path != "" {
			look = func(string) (string, error) { return c.path, nil }
		}
		got := self(func() (string, error) { return c.exe, nil }, look, func() (string, error) { return c.wd, nil })
		if got != c.want {
			t.Errorf("%s (on the PATH: %q, in %s): %q, want %q", c.exe, c.path, c.wd, got, c.want)
		}
	}
}

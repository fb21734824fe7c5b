package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Self is how a suggested command line starts: "dbdyno" where that is the program on the PATH (or a test
// binary runs), "go run ./cmd/dbdyno" for a binary go run built (there is no dbdyno on the PATH after `go run
// ./cmd/dbdyno quickstart`), else the program's own path, quoted.
func Self() string { return self(os.Executable, exec.LookPath, os.Getwd) }

func self(executable func() (string, error), lookPath func(string) (string, error), getwd func() (string, error)) string {
	exe, err := executable()
	if err != nil || strings.HasSuffix(exe, ".test") {
		return "dbdyno"
	}
	if on, err := lookPath("dbdyno"); err == nil && same(on, exe) {
		return "dbdyno"
	}
	if strings.Contains(filepath.ToSlash(exe), "/go-build") { // go run's binary, in its build cache
		if wd, err := getwd(); err == nil {
			if fi, err := os.Stat(filepath.Join(wd, "cmd", "dbdyno")); err == nil && fi.IsDir() {
				return "go run ./cmd/dbdyno"
			}
		}
		return "go run github.com/dbdyno/dbdyno/cmd/dbdyno"
	}
	return Quote(exe)
}

// same says whether two paths are one file.
func same(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

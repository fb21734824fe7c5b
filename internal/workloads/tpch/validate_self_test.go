package tpch_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// validate --against refuses the --target database itself, however its path is written (the same URL, a
// relative path, a link to the file), in one line, before running a query: its answers would agree with
// themselves whatever they are. Another build of the same scale is validated against as before.
func TestTPCHValidateRefusesTheTargetItself(t *testing.T) {
	for _, scheme := range []string{"sqlite", "duckdb"} {
		t.Run(scheme, func(t *testing.T) { validateAgainstItself(t, scheme) })
	}
}

func validateAgainstItself(t *testing.T, scheme string) {
	url := builtCopy(t, scheme)
	path := strings.TrimPrefix(url, scheme+"://")
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, path)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link."+scheme)
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	for _, against := range []string{url, scheme + "://" + rel, scheme + "://" + link} {
		r := clitest.Run(context.Background(), "tpch", "validate", "--target", url, "--against", against)
		want := "--against " + against + " is the --target database itself"
		if scheme == "duckdb" && against == scheme+"://"+rel {
			// DuckDB refuses the file open already under another name when --against is opened, before validate
			// compares the two (that refusal is the engine's: "already open in this process")
			want = "--against: cannot open duckdb file " + rel
		}
		if r.Code == 0 || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 || !strings.Contains(r.Stderr, want) || strings.Contains(r.Stdout, "Q1 ") {
			t.Errorf("--against %s: exit %d\nstdout:\n%s\nstderr: %s", against, r.Code, r.Stdout, r.Stderr)
		}
	}
	other := builtCopy(t, scheme)
	if v := clitest.Must(t, "tpch", "validate", "--target", url, "--against", other); !strings.Contains(v.Stdout, "22 passed, 0 failed") {
		t.Fatalf("validate against another build:\n%s", v.Stdout)
	}
}

package method_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// Load threads are capped at what can help: every build (and generator) refuses more than 256 in one line that
// says why, before it opens the database or writes a file.
func TestLoadThreadsAreCapped(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	load := "more threads than cores load no faster, and each one costs a connection and memory"
	gen := "more generators than cores write no faster, and each one costs memory"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tpcc", "build", "--threads", "100000"}, "--threads must be at most 256 (got 100000): " + load},
		{[]string{"tpch", "build", "--threads", "100000"}, "--threads must be at most 256 (got 100000): " + load},
		{[]string{"webstore", "build", "--threads", "257"}, "--threads must be at most 256 (got 257): " + load},
		{[]string{"probe", "read", "--load-threads", "100000"}, "--load-threads must be at most 256 (got 100000): " + load},
		{[]string{"probe", "write", "--load-threads", "100000"}, "--load-threads must be at most 256 (got 100000): " + load},
		{[]string{"probe", "cpu", "--load-threads", "100000"}, "--load-threads must be at most 256 (got 100000): " + load},
		{[]string{"probe", "memory", "--load-threads", "100000"}, "--load-threads must be at most 256 (got 100000): " + load},
		{[]string{"probe", "mixed", "--load-threads", "100000"}, "--load-threads must be at most 256 (got 100000): " + load},
		{[]string{"tpcc", "gen", "--threads", "100000", "--out", filepath.Join(dir, "gen")}, "--threads must be at most 256 (got 100000): " + gen},
		{[]string{"tpch", "gen", "--threads", "100000", "--scale", "0.01", "--out", filepath.Join(dir, "gen")}, "--threads must be at most 256 (got 100000): " + gen},
	} {
		args := c.args
		if c.args[1] != "gen" {
			args = append(args, "--target", "sqlite://"+db)
		}
		r := clitest.Run(context.Background(), args...)
		if r.Code == 0 || r.Stderr != "dbdyno: "+c.want+"\n" {
			t.Errorf("%s: %d %q, want %q", strings.Join(c.args, " "), r.Code, r.Stderr, c.want)
		}
		for _, f := range []string{db, filepath.Join(dir, "gen")} {
			if _, err := os.Stat(f); err == nil {
				t.Fatalf("%s: %s was made before the refusal", strings.Join(c.args, " "), f)
			}
		}
	}
	clitest.Must(t, "tpch", "build", "--scale", "0.01", "--threads", "256", "--target", "sqlite://"+db)
}

// A target that is the results store (the default one, or the command's --store) is refused before anything
// is written, for builds as for runs: the store's file stays as it was.
func TestTargetIsNeverTheResultsStore(t *testing.T) {
	dir := t.TempDir()
	clitest.Must(t, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--rampup", "0s", "--duration", "200ms")
	def := store.DefaultPath
	before := fileSum(t, def)
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, def)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other-results.db")
	refusal := func(path string) string {
		return "dbdyno: --target sqlite://" + path + " is dbdyno's results store (" + def + "): its tables would go in among the results; give the target a file of its own\n"
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tpcc", "build", "--target", "sqlite://" + def}, refusal(def)},
		{[]string{"tpcc", "build", "--target", "sqlite://" + rel}, refusal(rel)},
		{[]string{"tpch", "build", "--scale", "0.01", "--target", "sqlite://" + def}, refusal(def)},
		{[]string{"webstore", "build", "--target", "duckdb://" + def}, strings.Replace(refusal(def), "sqlite", "duckdb", 1)},
		{[]string{"tpcc", "run", "--target", "sqlite://" + def, "--store", other}, refusal(def)},
		{[]string{"probe", "read", "--target", "sqlite://" + def, "--store", ""}, refusal(def)},
		{[]string{"tpcc", "drop", "--target", "sqlite://" + def}, refusal(def)},
		{[]string{"tpcc", "run", "--target", "sqlite://" + other, "--store", other},
			"dbdyno: --store " + other + " is a target's database (" + other + "): the results store is a file of its own; choose another\n"},
	} {
		r := clitest.Run(context.Background(), c.args...)
		if r.Code == 0 || r.Stderr != c.want {
			t.Errorf("%s: %d %q, want %q", strings.Join(c.args, " "), r.Code, r.Stderr, c.want)
		}
		if fileSum(t, def) != before {
			t.Fatalf("%s: the results store was written", strings.Join(c.args, " "))
		}
		if _, err := os.Stat(other); err == nil {
			t.Fatalf("%s: %s was made", strings.Join(c.args, " "), other)
		}
	}
}

// A command that works on what a build made refuses a mistyped embedded path in one line and creates nothing:
// no empty database file is left behind (nor a result in the store).
func TestMissingEmbeddedFileIsNotCreated(t *testing.T) {
	dir := t.TempDir()
	clitest.Must(t, "ping", "--target", "sqlite://"+filepath.Join(dir, "p.db"), "--rampup", "0s", "--duration", "200ms")
	before := fileSum(t, store.DefaultPath)
	built := filepath.Join(dir, "p.db") // a database file there is: --against is what is missing
	for _, scheme := range []string{"sqlite", "duckdb"} {
		missing := filepath.Join(dir, "typo."+scheme)
		for _, args := range [][]string{
			{"tpch", "run", "--power"}, {"tpch", "validate"}, {"tpch", "restore"}, {"tpch", "drop"},
			{"tpcc", "run", "--rampup", "0s", "--duration", "1s"}, {"tpcc", "check"}, {"tpcc", "drop"},
			{"webstore", "run", "--rampup", "0s", "--duration", "1s"}, {"webstore", "check"}, {"webstore", "reset"}, {"webstore", "drop"},
			{"probe", "drop"},
		} {
			if scheme == "duckdb" && (args[0] == "tpcc" || args[0] == "webstore") {
				continue // these workloads refuse DuckDB targets
			}
			r := clitest.Run(context.Background(), append(args, "--target", scheme+"://"+missing)...)
			want := "dbdyno: no database file at " + missing + ": build first, or check the path\n"
			if r.Code == 0 || r.Stderr != want {
				t.Errorf("%s on %s: %d %q, want %q", strings.Join(args, " "), scheme, r.Code, r.Stderr, want)
			}
			if m, _ := filepath.Glob(missing + "*"); len(m) > 0 {
				t.Fatalf("%s on %s left %v behind", strings.Join(args, " "), scheme, m)
			}
		}
	}
	missing := filepath.Join(dir, "typo.db")
	r := clitest.Run(context.Background(), "tpch", "validate", "--target", "sqlite://"+built, "--against", "sqlite://"+missing)
	// the database file beside it is named as a target to give (the quickstart's beside the default dbdyno.db)
	if want := "dbdyno: --against: no database file at " + missing + ": build first, or check the path (here: --target sqlite://" + built + ")\n"; r.Code == 0 || r.Stderr != want {
		t.Errorf("validate --against a missing file: %d %q, want %q", r.Code, r.Stderr, want)
	}
	if m, _ := filepath.Glob(missing + "*"); len(m) > 0 {
		t.Fatalf("validate --against left %v behind", m)
	}
	if fileSum(t, store.DefaultPath) != before {
		t.Fatal("a refused run was recorded in the store")
	}
	// a build still creates its file, and the commands that read it then find it (the smallest build there is:
	// the TPC-H schema at scale 0.01)
	clitest.Must(t, "tpch", "build", "--scale", "0.01", "--target", "sqlite://"+missing)
	clitest.Must(t, "tpch", "drop", "--target", "sqlite://"+missing)
}

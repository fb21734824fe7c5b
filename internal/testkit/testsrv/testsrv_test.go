package testsrv

import (
	"context"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
)

func TestMain(m *testing.M) { Main(m) }

// The skipped tests are counted and worded: how many, and how to include them.
func TestSkipLine(t *testing.T) {
	if SkipLine(0, 0) != "" {
		t.Fatal("nothing skipped, nothing said")
	}
	l := SkipLine(3, 1)
	for _, want := range []string{"3 server-backed test(s) skipped", PostgresEnv, "source .ci/services", "1 test(s) skipped without the reference data", SharedEnv} {
		if !strings.Contains(l, want) {
			t.Errorf("%q lacks %q", l, want)
		}
	}
}

// The test servers take no login without a password over TCP: not the administrators' (postgres, root), not
// any other name (an anonymous account would take it).
func TestServersRequirePasswords(t *testing.T) {
	for _, c := range []struct{ env, user string }{{PostgresEnv, "postgres"}, {PostgresEnv, "nobody"}, {MySQLEnv, "root"}, {MySQLEnv, "nobody"}} {
		url := URL(t, c.env)
		tg, err := engine.Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		bare := strings.Replace(url, tg.User+":dbdyno-secret@", c.user+"@", 1)
		if bare == url {
			t.Fatalf("cannot take the password out of %s", tg)
		}
		t.Setenv(engine.PasswordEnv, "")
		nt, err := engine.Parse(bare)
		if err != nil {
			t.Fatal(err)
		}
		if db, err := nt.Open(context.Background()); err == nil {
			db.Close()
			t.Errorf("%s logged in over TCP without a password", nt)
		}
	}
}

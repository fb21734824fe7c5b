package testsrv

import (
	"context"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
)

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

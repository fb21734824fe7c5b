package engine_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// Names are quoted in hints as the engine's SQL needs: a plain name as dbdyno's statements write it, any other
// quoted the engine's way with its closing quote doubled.
func TestIdentQuotesWhatIsNotPlain(t *testing.T) {
	for scheme, want := range map[string][2]string{
		"postgres":  {"dbdyno_2", `"x""; DROP DATABASE y"`},
		"sqlite":    {"dbdyno_2", `"x""; DROP DATABASE y"`},
		"mysql":     {"dbdyno_2", "`x\"; DROP DATABASE y`"},
		"sqlserver": {"dbdyno_2", `[x"; DROP DATABASE y]`},
	} {
		e, _ := engine.Lookup(scheme)
		if got := e.Ident("dbdyno_2"); got != want[0] {
			t.Errorf("%s: %s", scheme, got)
		}
		if got := e.Ident(`x"; DROP DATABASE y`); got != want[1] {
			t.Errorf("%s: %s, want %s", scheme, got, want[1])
		}
	}
	for scheme, name := range map[string]string{"postgres": `a"b`, "mysql": "a`b", "sqlserver": "a]b"} {
		e, _ := engine.Lookup(scheme)
		if got, want := e.Ident(name), map[string]string{"postgres": `"a""b"`, "mysql": "`a``b`", "sqlserver": "[a]]b]"}[scheme]; got != want {
			t.Errorf("%s: %s, want %s", scheme, got, want)
		}
	}
	for _, name := range []string{"Upper", "1st", "with space", ""} {
		if e, _ := engine.Lookup("postgres"); !strings.HasPrefix(e.Ident(name), `"`) {
			t.Errorf("%q is not quoted: %s", name, e.Ident(name))
		}
	}
}

// The "create it" hint of a missing database quotes the name as a statement would: run as printed, it creates
// exactly the database named in --target, whatever text the name holds.
func TestCreateItHintIsOneQuotedStatement(t *testing.T) {
	hint := regexp.MustCompile(`\(CREATE DATABASE (.*)\) or name another in --target$`)
	const name = "dbdyno hint\"`; DROP DATABASE x"
	for _, url := range []string{testsrv.URL(t, testsrv.PostgresEnv), testsrv.URL(t, testsrv.MySQLEnv)} {
		ctx := context.Background()
		server, err := engine.Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		tg := server.WithDatabase(name)
		_, err = tg.Open(ctx)
		if err == nil {
			t.Fatalf("%s: database %q exists before the test", server.Engine.Name, name)
		}
		m := hint.FindStringSubmatch(err.Error())
		if m == nil {
			t.Fatalf("%s: no hint in %v", server.Engine.Name, err)
		}
		db, err := server.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "CREATE DATABASE "+m[1]); err != nil {
			db.Close()
			t.Fatalf("%s: the hint's statement CREATE DATABASE %s: %v", server.Engine.Name, m[1], err)
		}
		created, err := tg.Open(ctx)
		if err == nil {
			created.Close()
		}
		if _, derr := db.ExecContext(ctx, "DROP DATABASE "+m[1]); derr != nil {
			t.Errorf("%s: drop the test's database: %v", server.Engine.Name, derr)
		}
		db.Close()
		if err != nil {
			t.Fatalf("%s: the hint created another database than %q: %v", server.Engine.Name, name, err)
		}
	}
}

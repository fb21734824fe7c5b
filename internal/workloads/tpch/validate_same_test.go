package tpch

import (
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// One server's database is one database whatever its URL says of it: the host's case, a loopback name, the
// user, the password and the default port do not make it another; another database, port or host does.
func TestSameDatabaseNormalisesServerURLs(t *testing.T) {
	parse := func(u string) *engine.Target {
		t.Helper()
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	a := parse("postgres://bench@localhost:5432/tpch")
	for u, want := range map[string]bool{
		"postgres://other:secret@127.0.0.1/tpch": true,
		"postgres://bench@LOCALHOST:5432/tpch":   true,
		"postgres://bench@[::1]:5432/tpch":       true,
		"postgres://bench@localhost:5432/tpch2":  false,
		"postgres://bench@localhost:5433/tpch":   false,
		"postgres://bench@db.example:5432/tpch":  false,
		"mysql://bench@localhost:5432/tpch":      false,
		"sqlite:///tmp/tpch":                     false,
	} {
		if got := sameDatabase(a, parse(u)); got != want {
			t.Errorf("%s against %s: same %v, want %v", a, u, got, want)
		}
	}
}

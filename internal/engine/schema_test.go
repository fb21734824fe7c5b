package engine

import (
	"strings"
	"testing"
)

// --schema and the URL's schema=: one schema per target, a plain name, refused where the engine has no schemas
// to choose, and kept in the target's URL as it is printed (MySQL's schema is its database).
func TestSchemaOfATarget(t *testing.T) {
	for _, c := range []struct{ url, flag, want, err string }{
		{"postgres://u@h/db", "a", "postgres://u@h:5432/db?schema=a", ""},
		{"postgres://u@h/db?schema=a", "", "postgres://u@h:5432/db?schema=a", ""},
		{"postgres://u@h/db?schema=a", "a", "postgres://u@h:5432/db?schema=a", ""},
		{"postgres://u@h/db?schema=a", "b", "", "differ"},
		{"mysql://u@h/db", "a", "mysql://u@h:3306/a", ""},
		{"sqlserver://u@h?database=db", "s1", "sqlserver://u@h:1433?database=db&schema=s1", ""},
		{"postgres://u@h/db", "A", "", "not a plain name"},
		{"postgres://u@h/db", "a-b", "", "not a plain name"},
		{"postgres://u@h/db", "1a", "", "not a plain name"},
		{"postgres://u@h/db", strings.Repeat("a", 64), "", "not a plain name"},
		{"sqlite://x.db", "a", "", "SQLite has no schemas to choose"},
		{"duckdb://x.duckdb", "a", "", "DuckDB has no schemas to choose"},
	} {
		tg, err := Parse(c.url)
		if err == nil {
			err = tg.SetSchema(c.flag)
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s --schema %q: %v, want an error saying %q", c.url, c.flag, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s --schema %q: %v", c.url, c.flag, err)
			continue
		}
		if got := tg.String(); got != c.want {
			t.Errorf("%s --schema %q prints as %s, want %s", c.url, c.flag, got, c.want)
		}
		if w := tg.WithDatabase("other"); w.Schema != "" {
			t.Errorf("another database of %s keeps schema %s", c.url, w.Schema)
		}
	}
}

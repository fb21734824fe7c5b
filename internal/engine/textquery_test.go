package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// TextQuery sends a query without parameters as PostgreSQL's one Query message (the simple protocol, as
// pgbench -M simple), where pgx would send it as an unnamed extended-protocol statement: only the simple
// protocol takes two statements in one text, so the same text fails without it and runs with it. The embedded
// engines need nothing (nil).
func TestTextQueryIsTheSimpleProtocol(t *testing.T) {
	tg, db := testsrv.Open(t, testsrv.URL(t, testsrv.PostgresEnv))
	defer db.Close()
	ctx := context.Background()
	const two = "SELECT 1; SELECT 2"
	if rows, err := db.QueryContext(ctx, two); err == nil {
		rows.Close()
		t.Fatalf("%q ran without TextQuery: the default is not the extended protocol, so the test does not test", two)
	} else if !strings.Contains(err.Error(), "multiple commands") {
		t.Fatalf("%q without TextQuery: %v (want the extended protocol's 'cannot insert multiple commands')", two, err)
	}
	rows, err := db.QueryContext(ctx, two, tg.Engine.TextQuery()...)
	if err != nil {
		t.Fatalf("%q with TextQuery: %v", two, err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Close(); err != nil || n == 0 {
		t.Fatalf("%q with TextQuery: %d rows, %v", two, n, err)
	}
	if _, err := db.ExecContext(ctx, two, tg.Engine.TextQuery()...); err != nil {
		t.Fatalf("Exec with TextQuery: %v", err)
	}
	for _, name := range []string{"sqlite", "duckdb"} {
		if e, ok := engine.Lookup(name); !ok || e.TextQuery() != nil {
			t.Errorf("%s: found %v, TextQuery %v, want nil (an embedded engine has no protocol)", name, ok, e)
		}
	}
}

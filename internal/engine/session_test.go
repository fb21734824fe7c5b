package engine_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

// A session's connection is its own: closed (a virtual user reconnecting after an error), it is not handed
// back to the pool with the transaction the error left open, where the next session would join that
// transaction and commit its half-done work with its own. Before, the next session's BEGIN found itself inside
// the first's transaction ("cannot start a transaction within a transaction") on SQLite, and on PostgreSQL a
// TPC-B-like script committed one account's update without its teller's and branch's.
func TestClosedSessionLeavesNoTransactionBehind(t *testing.T) {
	ctx := context.Background()
	tg, err := engine.Parse("sqlite://" + filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := tg.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE TABLE t (k int)"); err != nil {
		t.Fatal(err)
	}
	set := sqlfile.Set{
		"begin_write": {Name: "begin_write", SQL: "BEGIN IMMEDIATE", Script: true},
		"commit":      {Name: "commit", SQL: "COMMIT", Script: true},
		"rollback":    {Name: "rollback", SQL: "ROLLBACK", Script: true},
		"insert":      {Name: "insert", SQL: "INSERT INTO t VALUES (1)", Script: true},
	}
	open := func() *engine.Session {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		s, err := tg.Engine.NewSession(c, set)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := open()
	if err := a.Begin(ctx, false); err != nil {
		t.Fatal(err)
	}
	if err := a.Batch(ctx, engine.Op{Name: "insert"}); err != nil {
		t.Fatal(err)
	}
	a.Close() // as after an error taken for a lost connection: no rollback
	b := open()
	defer b.Close()
	if err := b.Begin(ctx, false); err != nil {
		t.Fatalf("the next session's transaction: %v", err)
	}
	if err := b.Commit(ctx); err != nil && strings.Contains(err.Error(), "within a transaction") {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the first session's unended insert: %d rows (%v), want none", n, err)
	}
}

package engine

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// A DuckDB handle closed while one of its connections is in use kept DuckDB's instance alive, and the next open of
// the file spun in DuckDB's instance cache forever (a tpch run in CI hung 30 minutes there). Every open of a file
// now shares the process's one instance: the open succeeds at once, HeldDuckDB names the handle still held and
// where it was opened, and the instance is really closed (the file free for another open) once the last
// connection is released.
func TestDuckDBOpenSharesTheInstanceAClosedHandleStillHolds(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "held.duckdb")
	tg, err := Parse("duckdb://" + path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := tg.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "CREATE TABLE t (i INTEGER); INSERT INTO t VALUES (42)"); err != nil {
		t.Fatal(err)
	}
	db.Close() // the connection is still in use
	if h := HeldDuckDB(); len(h) != 1 || !strings.Contains(h[0], "1 connection(s) in use") || !strings.Contains(h[0], "TestDuckDBOpenShares") {
		t.Fatalf("held handles: %q", h)
	}
	db2, err := tg.Open(ctx)
	if err != nil {
		t.Fatalf("open of a file a closed handle still holds: %v", err)
	}
	var n int
	if err := db2.QueryRowContext(ctx, "SELECT i FROM t").Scan(&n); err != nil || n != 42 {
		t.Fatalf("the second open does not see the first one's rows: %d, %v", n, err)
	}
	if h := HeldDuckDB(); len(h) != 2 {
		t.Fatalf("held handles with one open: %q", h)
	}
	conn.Close()
	db2.Close()
	if h := HeldDuckDB(); len(h) != 0 {
		t.Fatalf("held handles after every close: %q", h)
	}
	// the instance is closed: DuckDB opens the file afresh with other settings (it refuses while an instance of
	// the file with different settings is alive in the process)
	ro, err := sql.Open("duckdb", path+"?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := ro.QueryRowContext(ctx, "SELECT i FROM t").Scan(&n); err != nil || n != 42 {
		t.Fatalf("read-only open after every close: %d, %v", n, err)
	}
}

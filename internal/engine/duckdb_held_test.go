package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A DuckDB handle closed while one of its connections is in use kept DuckDB's instance alive, and the next open of
// the file spun in DuckDB's instance cache forever (a tpch run in CI hung 30 minutes there). The open now waits
// for the connection and refuses, naming where the handle was opened; once it is released the file opens.
func TestDuckDBOpenRefusesAFileAClosedHandleStillHolds(t *testing.T) {
	old := heldWait
	heldWait = 300 * time.Millisecond
	defer func() { heldWait = old }()
	ctx := context.Background()
	tg, err := Parse("duckdb://" + filepath.Join(t.TempDir(), "held.duckdb"))
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
	db.Close() // the connection is still in use
	if h := HeldDuckDB(); len(h) != 1 || !strings.Contains(h[0], "1 connection(s) in use") || !strings.Contains(h[0], "TestDuckDBOpenRefuses") {
		t.Fatalf("held handles: %q", h)
	}
	done := make(chan error, 1)
	go func() {
		db2, err := tg.Open(ctx)
		if err == nil {
			db2.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "still held by a connection") || !strings.Contains(err.Error(), "TestDuckDBOpenRefuses") {
			t.Fatalf("open of a held file: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the open of a file a closed handle still holds did not return")
	}
	conn.Close()
	db2, err := tg.Open(ctx)
	if err != nil {
		t.Fatalf("open once the connection is released: %v", err)
	}
	if h := HeldDuckDB(); len(h) != 1 || !strings.Contains(h[0], " open,") {
		t.Fatalf("held handles with one open: %q", h)
	}
	db2.Close()
	if h := HeldDuckDB(); len(h) != 0 {
		t.Fatalf("held handles after every close: %q", h)
	}
}

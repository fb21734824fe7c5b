package engine

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// A run's last queries are interrupted as it ends (its context is cancelled), its handle is closed, and the next
// phase of the process opens the same file. DuckDB's instance cache spun forever on that open whenever the
// closed handle's instance was still alive inside DuckDB (a connection or result the interrupted queries held):
// the ping tests hung in duckdb_get_or_create_from_cache. Every open of a file in the process now shares one
// instance, released only when its last user and its last connection are gone, so the reopen never waits on it.
func TestDuckDBReopenAfterInterruptedQueriesNeverSpins(t *testing.T) {
	tg, err := Parse("duckdb://" + filepath.Join(t.TempDir(), "spin.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := tg.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "CREATE TABLE t AS SELECT range AS i FROM range(200000)"); err != nil {
		t.Fatal(err)
	}
	settings := func(db *sql.DB) (s string) {
		db.QueryRowContext(ctx, "SELECT current_setting('threads') || ' threads, ' || current_setting('memory_limit')").Scan(&s)
		return s
	}
	was := settings(db)
	db.Close()

	// one round: open, queries on several connections, interrupt them, close before they have all returned
	round := func() error {
		db, err := tg.Open(ctx)
		if err != nil {
			return err
		}
		// each round changes the instance's settings: the next open, of the instance kept after the
		// interruption, has them as a new instance would
		if s := settings(db); s != was {
			db.Close()
			return fmt.Errorf("settings of an earlier open: %s, not %s", s, was)
		}
		if _, err := db.ExecContext(ctx, "SET threads = 1; SET memory_limit = '100MB'"); err != nil {
			db.Close()
			return err
		}
		db.SetMaxOpenConns(4)
		qctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		started := make(chan struct{}, 4)
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for first := true; qctx.Err() == nil; first = false {
					if first {
						started <- struct{}{}
					}
					rows, err := db.QueryContext(qctx, "SELECT count(*) FROM t a, t b WHERE a.i % 1000 = b.i % 997")
					if err != nil {
						continue
					}
					for rows.Next() {
					}
					rows.Close()
				}
			}()
		}
		for g := 0; g < 4; g++ {
			<-started
		}
		cancel()
		err = db.Close() // the interrupted queries may not have returned yet
		wg.Wait()
		return err
	}

	// the first round's time is the reference: a round that takes a hundred times as long is stuck
	t0 := time.Now()
	if err := round(); err != nil {
		t.Fatal(err)
	}
	limit := 100*time.Since(t0) + 10*time.Second
	for i := 0; i < 40; i++ {
		done := make(chan error, 1)
		go func() { done <- round() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("round %d: %v", i, err)
			}
		case <-time.After(limit):
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("round %d did not end within %s (first round's time ×100): an open is stuck\n%s", i, limit, stuckIn(string(buf)))
		}
	}
	if h := HeldDuckDB(); len(h) != 0 {
		t.Fatalf("handles left after every round closed: %q", h)
	}
}

// stuckIn is the goroutines of a dump that are inside DuckDB's open.
func stuckIn(dump string) string {
	var out []string
	for _, g := range strings.Split(dump, "\n\n") {
		if strings.Contains(g, "duckdb") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}

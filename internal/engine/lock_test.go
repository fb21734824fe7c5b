package engine_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// The dataset lock on every engine: runs share it, a build or drop takes it alone, and it is free again once
// given up. The manifest's catalog statements answer too: a table's indexes (its primary key's among them)
// and rows, and a dropped index is gone from the list.
func TestLockAndManifestStatementsOnEveryEngine(t *testing.T) {
	dir := t.TempDir()
	for _, url := range []string{"sqlite://" + filepath.Join(dir, "l.db"), "duckdb://" + filepath.Join(dir, "l.duckdb"),
		testsrv.URL(t, testsrv.PostgresEnv), testsrv.URL(t, testsrv.MySQLEnv)} {
		tg, err := engine.Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tg.Engine.Name, func(t *testing.T) {
			ctx := context.Background()
			db, err := tg.Open(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for _, s := range []string{"DROP TABLE IF EXISTS dbdyno_lock_t", "CREATE TABLE dbdyno_lock_t (id int NOT NULL PRIMARY KEY, v int)",
				"CREATE INDEX dbdyno_lock_v ON dbdyno_lock_t (v)", "INSERT INTO dbdyno_lock_t (id, v) VALUES (1, 1), (2, 2), (3, 3)"} {
				if _, err := db.ExecContext(ctx, s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			defer db.ExecContext(ctx, "DROP TABLE IF EXISTS dbdyno_lock_t")

			run1, err := tg.Lock(ctx, db, "dbdyno_locktest", false)
			if err != nil {
				t.Fatal(err)
			}
			run2, err := tg.Lock(ctx, db, "dbdyno_locktest", false)
			if err != nil {
				t.Fatalf("a second run: %v", err)
			}
			if _, err := tg.Lock(ctx, db, "dbdyno_locktest", true); !errors.Is(err, engine.ErrLocked) {
				t.Fatalf("a build while runs hold the lock: %v", err)
			}
			other, err := tg.Lock(ctx, db, "dbdyno_othertest", true)
			if err != nil && tg.Engine.Embedded == false {
				t.Fatalf("another dataset's lock: %v", err)
			}
			other.Release()
			run1.Release()
			if _, err := tg.Lock(ctx, db, "dbdyno_locktest", true); !errors.Is(err, engine.ErrLocked) {
				t.Fatalf("a build while one run holds the lock: %v", err)
			}
			run2.Release()
			build, err := tg.Lock(ctx, db, "dbdyno_locktest", true)
			if err != nil {
				t.Fatalf("a build once the runs ended: %v", err)
			}
			if _, err := tg.Lock(ctx, db, "dbdyno_locktest", false); !errors.Is(err, engine.ErrLocked) {
				t.Fatalf("a run while a build holds the lock: %v", err)
			}
			build.Release()
			run, err := tg.Lock(ctx, db, "dbdyno_locktest", false)
			if err != nil {
				t.Fatalf("a run once the build ended: %v", err)
			}
			run.Release()

			names, ok, err := tg.Engine.IndexNames(ctx, db, "dbdyno_lock_t")
			if err != nil || !ok || len(names) != 2 || !slices.Contains(names, "dbdyno_lock_v") {
				t.Fatalf("indexes %q (listed %v): %v", names, ok, err)
			}
			if n, err := tg.Engine.CountRows(ctx, db, "dbdyno_lock_t"); n != 3 || err != nil {
				t.Fatalf("rows %d: %v", n, err)
			}
			drop := "DROP INDEX dbdyno_lock_v"
			if tg.Engine.Name == "mysql" {
				drop += " ON dbdyno_lock_t"
			}
			if _, err := db.ExecContext(ctx, drop); err != nil {
				t.Fatal(err)
			}
			if after, _, _ := tg.Engine.IndexNames(ctx, db, "dbdyno_lock_t"); len(after) != 1 || slices.Contains(after, "dbdyno_lock_v") {
				t.Fatalf("indexes after the drop: %q", after)
			}
			if _, _, err := tg.Engine.EstimateRows(ctx, db, "dbdyno_lock_t"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

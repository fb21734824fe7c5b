package tpch

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/workloads/tpch/dbgen"
)

// The refresh functions and their undoing load rows during a run, through the bulk path: they must leave the
// instance's settings as the run's queries have them (DuckDB's memory limit is the whole instance's: a load
// setting applied by the undo at the start of a run held the power test to 128 MB). RF1 inserts the set's
// orders and lines, and the undo puts the loaded rows back exactly.
func TestRefreshKeepsTheRunsSettings(t *testing.T) {
	ctx := context.Background()
	tg, err := engine.Parse("duckdb://" + filepath.Join(t.TempDir(), "h.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(ctx, tg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Build(ctx, BuildOptions{Scale: 0.01, Threads: 1}); err != nil {
		t.Fatal(err)
	}
	d.Close() // the build's instance, with its load settings, ends here
	if d, err = Open(ctx, tg); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	one := func(q string) (v string) {
		t.Helper()
		if err := d.data.SQL.QueryRowContext(ctx, q).Scan(&v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return v
	}
	limit := one("SELECT current_setting('memory_limit')")
	loaded := one("SELECT count(*) || ' ' || sum(o_totalprice) FROM orders") + " " + one("SELECT count(*) || ' ' || sum(l_extendedprice) FROM lineitem")

	// set 1 left applied, then a run that undoes it before its power test and restores after it
	for _, noRestore := range []bool{true, false} {
		a, err := d.Run(ctx, RunOptions{Power: true, Refresh: true, Queries: []int{6}, NoRestore: noRestore, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if p, n := a.Tests[0].Refresh, len(dbgen.DeleteKeys(0.01, 1)); len(p) != 1 || p[0].Orders != int64(n) || n == 0 || p[0].Status != "ok" {
			t.Fatalf("refresh pair %+v: want the set's %d orders inserted", p, n)
		}
		if got := one("SELECT current_setting('memory_limit')"); got != limit {
			t.Fatalf("memory_limit %s after a run (no-restore %v), %s before: a load setting reached the run's instance", got, noRestore, limit)
		}
		if noRestore {
			// RF1 added the set's orders and RF2 deleted as many loaded ones: same count, other rows
			if n := one("SELECT count(*) FROM orders"); n != "15000" {
				t.Fatalf("%s orders with set 1 applied, want 15000", n)
			}
			if one("SELECT count(*) || ' ' || sum(o_totalprice) FROM orders")+" "+one("SELECT count(*) || ' ' || sum(l_extendedprice) FROM lineitem") == loaded {
				t.Fatal("set 1 applied left the orders and lines as loaded")
			}
		}
	}
	if got := one("SELECT count(*) || ' ' || sum(o_totalprice) FROM orders") + " " + one("SELECT count(*) || ' ' || sum(l_extendedprice) FROM lineitem"); got != loaded {
		t.Fatalf("after the restore: %s, loaded %s", got, loaded)
	}
}

package engine_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// posing is a PostgreSQL database of its own whose version() answers as another product's (a function of that
// name before pg_catalog's on its search_path), with more such functions given by extra.
func posing(t *testing.T, pg, name, version string, extra ...string) string {
	t.Helper()
	url := testsrv.Beside(t, pg, name)
	testsrv.Exec(t, url, append([]string{"DROP SCHEMA IF EXISTS public CASCADE", "CREATE SCHEMA public",
		`CREATE FUNCTION public.version() RETURNS text LANGUAGE sql AS $$ SELECT '` + version + `'::text $$`,
		"ALTER DATABASE " + name + " SET search_path = public, pg_catalog"}, extra...)...)
	return url
}

// The dataset lock and --maxdop on the distributed SQL products, each posed by a real PostgreSQL database
// (version() answering as the product does):
//   - CockroachDB: its session advisory locks answer true and lock nothing, so a Lock holds nothing, says why
//     (Unheld), and the run's settings record it (dataset_lock); before, a build there took "the lock" and
//     another dbdyno's drop took it too. Its --maxdop is refused in one line: it has no per-query worker limit.
//   - YugabyteDB before 2.25, whose lock functions fail ("advisory locks are not yet implemented"): the command
//     goes on without the lock, said so with the server's error; before, every build and run failed there.
//   - PostgreSQL itself: the lock is held (a second exclusive one is refused) and nothing is recorded.
func TestDistributedLockAndMaxdop(t *testing.T) {
	pg := os.Getenv(testsrv.PostgresEnv)
	if pg == "" {
		t.Skipf("%s not set", testsrv.PostgresEnv)
	}
	crdb := posing(t, pg, "dbdyno_as_cockroach_lock", "CockroachDB CCL v23.1.11 (x86_64-pc-linux-gnu, built 2023/09/27 01:53:43, go1.19.10)")
	yb := posing(t, pg, "dbdyno_as_yugabyte_lock", "PostgreSQL 11.2-YB-2.18.2.1-b0 on x86_64-pc-linux-gnu, compiled by clang version 15.0.3, 64-bit",
		`CREATE FUNCTION public.pg_try_advisory_lock_shared(bigint) RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'advisory locks are not yet implemented' USING ERRCODE = '0A000'; END $$`,
		`CREATE FUNCTION public.pg_try_advisory_lock(bigint) RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'advisory locks are not yet implemented' USING ERRCODE = '0A000'; END $$`)
	own := testsrv.Beside(t, pg, "dbdyno_lock_own")

	lockOn := func(url string, exclusive bool) (*engine.Lock, map[string]string, error) {
		tg, db := testsrv.Open(t, url)
		t.Cleanup(func() { db.Close() })
		ctx := engine.WithSideTally(context.Background())
		l, err := tg.Lock(ctx, db, "dbdyno_locktest", exclusive)
		return l, tg.Engine.Settings(ctx, db), err
	}

	for _, exclusive := range []bool{false, true} {
		l, set, err := lockOn(crdb, exclusive)
		if err != nil || l == nil || !strings.HasPrefix(l.Unheld, "CockroachDB 23.1.11 has session advisory locks that succeed without locking anything") {
			t.Fatalf("CockroachDB (exclusive %v): %+v %v", exclusive, l, err)
		}
		if got := set["dataset_lock"]; !strings.HasPrefix(got, engine.NotCollected+"CockroachDB 23.1.11") || !strings.Contains(got, "not kept out") {
			t.Errorf("CockroachDB: dataset_lock %q", got)
		}
		l.Release()

		l, set, err = lockOn(yb, exclusive)
		if err != nil || l == nil || !strings.HasPrefix(l.Unheld, "YugabyteDB 2.18.2.1-b0 could not answer it: ") || !strings.Contains(l.Unheld, "advisory locks are not yet implemented") {
			t.Fatalf("YugabyteDB (exclusive %v): %+v %v", exclusive, l, err)
		}
		if got := set["dataset_lock"]; !strings.Contains(got, "advisory locks are not yet implemented") {
			t.Errorf("YugabyteDB: dataset_lock %q", got)
		}
		l.Release()
	}

	held, set, err := lockOn(own, true)
	if err != nil || held.Unheld != "" || set["dataset_lock"] != "" {
		t.Fatalf("PostgreSQL: %+v %v, dataset_lock %q", held, err, set["dataset_lock"])
	}
	if _, _, err := lockOn(own, false); !errors.Is(err, engine.ErrLocked) {
		t.Errorf("PostgreSQL: a shared lock beside an exclusive one: %v", err)
	}
	held.Release()

	ctx := context.Background()
	tg, db := testsrv.Open(t, crdb)
	defer db.Close()
	if _, _, err := tg.Parallelism(ctx, db, 2); err == nil || !strings.Contains(err.Error(), "--maxdop: CockroachDB 23.1.11 spreads each query over the cluster's nodes") ||
		!strings.Contains(err.Error(), "leave --maxdop out") {
		t.Errorf("CockroachDB --maxdop: %v", err)
	}
	tg, db = testsrv.Open(t, own)
	defer db.Close()
	if s, h, err := tg.Parallelism(ctx, db, 2); err != nil || h != "" || len(s) != 1 || s[0] != "SET max_parallel_workers_per_gather = 1" {
		t.Errorf("PostgreSQL --maxdop: %q %q %v", s, h, err)
	}
}

// --maxdop on Babelfish, which ignores T-SQL's query hints (OPTION (MAXDOP n) among them) without pg_hint_plan:
// its PostgreSQL's max_parallel_workers_per_gather is set for the session instead, and takes. Before, the hint
// was added and silently ignored. SQL Server itself keeps the hint.
func TestMaxdopOnBabelfish(t *testing.T) {
	url := os.Getenv(testsrv.MSSQLEnv)
	if url == "" {
		t.Skipf("%s not set", testsrv.MSSQLEnv)
	}
	ctx := context.Background()
	tg, db := testsrv.Open(t, url)
	defer db.Close()
	s, h, err := tg.Parallelism(ctx, db, 3)
	if err != nil {
		t.Fatal(err)
	}
	if tg.Product(ctx) == "" && !strings.HasPrefix(tg.Engine.ServerVersion(ctx, db), "Babelfish") {
		if h != "OPTION (MAXDOP 3)" || len(s) != 0 {
			t.Errorf("SQL Server: %q %q", s, h)
		}
		return
	}
	if h != "" || len(s) != 1 {
		t.Fatalf("Babelfish: %q %q", s, h)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, s[0]); err != nil {
		t.Fatalf("%s: %v", s[0], err)
	}
	var got string
	if err := conn.QueryRowContext(ctx, "SELECT current_setting('max_parallel_workers_per_gather')").Scan(&got); err != nil || got != "2" {
		t.Errorf("Babelfish: max_parallel_workers_per_gather %q after %s (%v); want 2", got, s[0], err)
	}
}

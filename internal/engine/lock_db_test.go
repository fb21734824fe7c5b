package engine_test

import (
	"context"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A dataset's lock is its database's: a build in one database is not refused because a run holds the lock of
// the same name in another database on the server (on Babelfish, whose T-SQL databases share one PostgreSQL
// database, application locks named alike collided across databases).
func TestLockIsTheDatabases(t *testing.T) {
	for _, env := range []string{testsrv.PostgresEnv, testsrv.MySQLEnv, testsrv.MSSQLEnv} {
		url := testsrv.URL(t, env)
		tg, err := engine.Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tg.Engine.Name, func(t *testing.T) {
			ctx := context.Background()
			other, err := tg.Beside(ctx, "dbdyno_lock_other")
			if err != nil {
				t.Fatal(err)
			}
			db1, err := tg.Open(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer db1.Close()
			db2, err := other.Open(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer db2.Close()
			run, err := tg.Lock(ctx, db1, "dbdyno_locktest_db", false)
			if err != nil {
				t.Fatal(err)
			}
			defer run.Release()
			build, err := other.Lock(ctx, db2, "dbdyno_locktest_db", true)
			if err != nil {
				t.Fatalf("a build in another database while a run holds this one's lock: %v", err)
			}
			build.Release()
		})
	}
}

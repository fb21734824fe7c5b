package engine_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// Side databases made at the same time on one server all come to be: on Babelfish two CREATE DATABASE at once
// failed one of them with "tuple concurrently updated" (CI: the tpce tests' side databases, made in parallel).
func TestBesideAtTheSameTime(t *testing.T) {
	for _, env := range []string{testsrv.PostgresEnv, testsrv.MySQLEnv, testsrv.MSSQLEnv} {
		url := testsrv.URL(t, env)
		tg, err := engine.Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tg.Engine.Name, func(t *testing.T) {
			ctx := context.Background()
			stamp := time.Now().UnixNano() % 1e9
			const n = 6
			names := make([]string, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range names {
				names[i] = fmt.Sprintf("dbdyno_beside_%d_%d", stamp, i)
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = tg.Beside(ctx, names[i])
				}()
			}
			wg.Wait()
			db, err := tg.Open(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for i, name := range names {
				if errs[i] != nil {
					t.Errorf("%s: %v", name, errs[i])
					continue
				}
				if _, err := db.ExecContext(ctx, "DROP DATABASE "+name); err != nil {
					t.Errorf("drop %s: %v", name, err)
				}
			}
		})
	}
}

// --create-database's CreateDatabase makes a server's missing database from the engine's admin database (its
// target's own database need not exist), once: a second call finds it and makes nothing. Before, a missing
// database could only be reported, and a SQL Server user had no T-SQL client to create it with.
func TestCreateDatabase(t *testing.T) {
	for _, url := range testsrv.Servers(t) {
		tg, err := engine.Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tg.Engine.Name, func(t *testing.T) {
			ctx := context.Background()
			name := fmt.Sprintf("dbdyno_created_%d", time.Now().UnixNano()%1e9)
			missing := tg.WithDatabase(name)
			if _, err := missing.Open(ctx); err == nil || !strings.Contains(err.Error(), "--create-database") {
				t.Fatalf("opening a missing database: %v, want the hint", err)
			}
			made, err := missing.CreateDatabase(ctx)
			if err != nil || !made {
				t.Fatalf("created %v, %v", made, err)
			}
			defer func() {
				db, err := tg.Open(ctx)
				if err == nil {
					db.ExecContext(ctx, "DROP DATABASE "+name)
					db.Close()
				}
			}()
			if again, err := missing.CreateDatabase(ctx); err != nil || again {
				t.Errorf("a second time: created %v, %v", again, err)
			}
			db, err := missing.Open(ctx)
			if err != nil {
				t.Fatalf("the created database does not open: %v", err)
			}
			db.Close()
		})
	}
}

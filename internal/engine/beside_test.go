package engine_test

import (
	"context"
	"fmt"
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

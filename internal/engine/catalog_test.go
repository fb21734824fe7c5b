package engine_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// The catalog statement the loaders rely on answers on every engine: whether the bulk path is open.
func TestCatalogOnEveryEngine(t *testing.T) {
	dir := t.TempDir()
	for _, url := range append([]string{"sqlite://" + filepath.Join(dir, "c.db"), "duckdb://" + filepath.Join(dir, "c.duckdb")},
		testsrv.Servers(t)...) {
		tg, err := engine.Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		db, err := tg.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// other packages' tests close MariaDB's (SET GLOBAL local_infile = 0) for a moment on the shared server:
		// a broken statement never reads open, a moment's close reads open again within the bound
		open := tg.Engine.BulkAllowed(ctx, db)
		for deadline := time.Now().Add(time.Minute); !open && time.Now().Before(deadline); {
			time.Sleep(200 * time.Millisecond)
			open = tg.Engine.BulkAllowed(ctx, db)
		}
		if !open {
			t.Errorf("%s: the bulk path is closed on the test server", tg.Engine.Name)
		}
		db.Close()
	}
}

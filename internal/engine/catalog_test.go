package engine_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testsrv"
)

// The catalog statements the loaders rely on answer on every engine: a table's column types in column order
// (the DuckDB appender scales decimals by them) and whether the bulk path is open.
func TestCatalogOnEveryEngine(t *testing.T) {
	dir := t.TempDir()
	for _, url := range []string{"sqlite://" + filepath.Join(dir, "c.db"), "duckdb://" + filepath.Join(dir, "c.duckdb"),
		testsrv.URL(t, testsrv.PostgresEnv), testsrv.URL(t, testsrv.MySQLEnv)} {
		tg, err := engine.Parse(url)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		db, err := tg.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		db.Exec("DROP TABLE IF EXISTS dbdyno_catalog_probe")
		if _, err := db.Exec("CREATE TABLE dbdyno_catalog_probe (id INTEGER, price DECIMAL(15,2), name VARCHAR(25))"); err != nil {
			t.Fatal(err)
		}
		types, err := tg.Engine.ColumnTypes(ctx, db, "dbdyno_catalog_probe")
		db.Exec("DROP TABLE dbdyno_catalog_probe")
		if err != nil || len(types) != 3 || !strings.HasPrefix(strings.ToUpper(strings.ReplaceAll(types[1], " ", "")), "DECIMAL(15,2)") &&
			!strings.HasPrefix(strings.ToUpper(types[1]), "NUMERIC") {
			t.Errorf("%s: column types %q, %v", tg.Engine.Name, types, err)
		}
		if !tg.Engine.BulkAllowed(ctx, db) {
			t.Errorf("%s: the bulk path is closed on the test server", tg.Engine.Name)
		}
		db.Close()
	}
}

package tpch

import (
	"fmt"
	"testing"

	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

// Every dialect's statement files compile, with the same statements taking the same arguments (SQL Server's
// too, though no driver runs them yet).
func TestEveryDialectsStatementFiles(t *testing.T) {
	want := map[string]sqlfile.Set{}
	for _, d := range []string{"postgres", "duckdb", "mysql", "sqlite", "sqlserver"} {
		for _, f := range []string{"queries.sql", "admin.sql", "refresh.sql", "schema.sql", "indexes.sql", "drop.sql"} {
			file, err := sqlfile.Overlay(sqlFS, d, f, sqlfile.Question)
			if err != nil {
				t.Fatalf("%s/%s: %v", d, f, err)
			}
			set := file.Set()
			if f == "queries.sql" && len(set) != 22 {
				t.Fatalf("%s has %d queries", d, len(set))
			}
			if f == "schema.sql" || f == "indexes.sql" || f == "drop.sql" {
				continue // scripts: an engine may leave statements out (DuckDB has no indexes)
			}
			if ref, ok := want[f]; ok {
				for name, st := range ref {
					if o, ok := set[name]; !ok || fmt.Sprint(o.Params) != fmt.Sprint(st.Params) {
						t.Errorf("%s/%s: %s missing or with other arguments", d, f, name)
					}
				}
			} else {
				want[f] = set
			}
		}
	}
}

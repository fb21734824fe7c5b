package engine

import (
	"context"
	"database/sql"

	"github.com/dbdyno/dbdyno/internal/sqlfile"
	_ "github.com/duckdb/duckdb-go/v2" // registers the database/sql driver
)

// DuckDB, embedded through duckdb-go; loads go through its appender.
func init() {
	register(&Engine{
		rank: 2,
		Name: "duckdb", Title: "DuckDB", Schemes: []string{"duckdb"}, Embedded: true, StorageFactor: 0.3,
		Placeholder: sqlfile.Dollar, Bulk: BulkAppender,
		open: openDuckDB, classify: func(error) Class { return Other },
	})
}

func openDuckDB(_ context.Context, t *Target) (*sql.DB, error) { return sql.Open("duckdb", t.Path) }

package engine

import (
	"context"
	"database/sql"
	"reflect"
	"unsafe"

	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/duckdb/duckdb-go/v2" // also registers the database/sql driver
	"github.com/duckdb/duckdb-go/v2/mapping"
)

// BulkAppender is DuckDB's appender.
const BulkAppender BulkPath = "appender"

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

// DuckDBConn is DuckDB's own connection handle under a driver connection of a DuckDB target, for the C API calls
// duckdb-go does not wrap the way a load needs (bulk's vector sink). duckdb-go keeps the handle in its Conn's
// unexported field "conn"; the field is found by name and type, so a duckdb-go that keeps it otherwise gives
// false here instead of a wrong handle. The handle is valid while dc is held.
func DuckDBConn(dc any) (mapping.Connection, bool) {
	c, ok := dc.(*duckdb.Conn)
	if !ok || c == nil {
		return mapping.Connection{}, false
	}
	f := reflect.ValueOf(c).Elem().FieldByName("conn")
	if !f.IsValid() || f.Type() != reflect.TypeFor[mapping.Connection]() {
		return mapping.Connection{}, false
	}
	h := *(*mapping.Connection)(unsafe.Pointer(f.UnsafeAddr()))
	return h, h.Ptr != nil
}

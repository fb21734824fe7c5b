package engine

import (
	"errors"
	"reflect"
	"strings"
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
		open: openDuckDB, classify: classifyDuckDB,
	})
}

// classifyDuckDB: duckdb-go's errors carry DuckDB's exception type (the message's prefix, "Catalog Error: ...").
func classifyDuckDB(err error) Class {
	var de *duckdb.Error
	if !errors.As(err, &de) {
		return Other
	}
	msg := strings.ToLower(de.Msg)
	switch {
	case strings.Contains(msg, "read-only mode") || strings.Contains(msg, "read only mode"):
		return ReadOnly
	case strings.Contains(msg, "corrupt") || strings.Contains(msg, "checksum"):
		return Corrupt
	}
	switch de.Type {
	case duckdb.ErrorTypeCatalog:
		return Schema // a table, view or function that does not exist
	case duckdb.ErrorTypeBinder:
		if strings.Contains(msg, "not found") || strings.Contains(msg, "does not have a column") {
			return Schema // a column that does not exist
		}
	case duckdb.ErrorTypeTransaction:
		return Retryable // a write-write conflict
	case duckdb.ErrorTypeConstraint:
		return Constraint
	case duckdb.ErrorTypePermission:
		return Permission
	case duckdb.ErrorTypeFatal:
		return Corrupt // the database is in an invalid state and must be reopened
	case duckdb.ErrorTypeConnection, duckdb.ErrorTypeNetwork:
		return ConnLost
	}
	return Other
}

// DuckDBConn is DuckDB's own connection handle under a driver connection of a DuckDB target, for the C API calls
// duckdb-go does not wrap the way a load needs (bulk's vector sink). duckdb-go keeps the handle in its Conn's
// unexported field "conn"; the field is found by name and type, so a duckdb-go that keeps it otherwise gives
// false here instead of a wrong handle. The handle is valid while dc is held.
func DuckDBConn(dc any) (mapping.Connection, bool) {
	if w, ok := dc.(*duckConn); ok {
		dc = w.Conn
	}
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

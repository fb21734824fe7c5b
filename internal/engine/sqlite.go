package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"

	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"modernc.org/sqlite"
)

// SQLite, embedded through modernc.org/sqlite: WAL, a busy timeout and BEGIN IMMEDIATE transactions, so that
// concurrent writers queue for the lock instead of failing.
func init() {
	register(&Engine{
		rank: 1,
		Name: "sqlite", Title: "SQLite", Schemes: []string{"sqlite", "sqlite3"}, Embedded: true, StorageFactor: 1.3,
		Placeholder: sqlfile.Question, OLTP: true, SingleWriter: true, Bulk: BulkInsert,
		open: openSQLite, classify: classifySQLite,
	})
	// dbdyno_crc32(text): the CRC-32 (IEEE, as MySQL's CRC32) of its argument, for catalog.sql's table_checksum
	sqlite.MustRegisterDeterministicScalarFunction("dbdyno_crc32", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		switch v := args[0].(type) {
		case nil:
			return nil, nil
		case string:
			return int64(crc32.ChecksumIEEE([]byte(v))), nil
		case []byte:
			return int64(crc32.ChecksumIEEE(v)), nil
		default:
			return int64(crc32.ChecksumIEEE(fmt.Append(nil, v))), nil
		}
	})
}

// SQLiteDriver is the database/sql driver of SQLite files, dbdyno's results store among them.
const SQLiteDriver = "sqlite"

func openSQLite(_ context.Context, t *Target) (*sql.DB, error) {
	return sql.Open(SQLiteDriver, "file:"+t.Path+"?_pragma=busy_timeout(30000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(0)&_txlock=immediate")
}

// SQLite's primary result codes (https://sqlite.org/rescode.html).
const (
	sqliteError, sqlitePerm, sqliteBusy, sqliteLocked, sqliteReadOnly = 1, 3, 5, 6, 8
	sqliteIOErr, sqliteCorrupt, sqliteCantOpen, sqliteSchema          = 10, 11, 14, 17
	sqliteConstraint, sqliteAuth, sqliteNotADB                        = 19, 23, 26
)

func classifySQLite(err error) Class {
	var sqErr *sqlite.Error
	if !errors.As(err, &sqErr) {
		return Other
	}
	switch sqErr.Code() & 0xff {
	case sqliteBusy, sqliteLocked:
		return Retryable
	case sqliteReadOnly:
		return ReadOnly
	case sqliteCorrupt, sqliteNotADB, sqliteIOErr:
		return Corrupt
	case sqlitePerm, sqliteAuth, sqliteCantOpen:
		return Permission
	case sqliteSchema:
		return Schema
	case sqliteConstraint:
		return Constraint
	case sqliteError:
		// a missing table or column is a plain SQLITE_ERROR: only its message tells
		if msg := sqErr.Error(); strings.Contains(msg, "no such table") || strings.Contains(msg, "no such column") ||
			strings.Contains(msg, "has no column named") {
			return Schema
		}
	}
	return Other
}

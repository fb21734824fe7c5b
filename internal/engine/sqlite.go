package engine

import (
	"context"
	"database/sql"
	"errors"

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
}

// SQLiteDriver is the database/sql driver of SQLite files, dbdyno's results store among them.
const SQLiteDriver = "sqlite"

func openSQLite(_ context.Context, t *Target) (*sql.DB, error) {
	return sql.Open(SQLiteDriver, "file:"+t.Path+"?_pragma=busy_timeout(30000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(0)&_txlock=immediate")
}

func classifySQLite(err error) Class {
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		if c := sqErr.Code() & 0xff; c == 5 || c == 6 { // SQLITE_BUSY, SQLITE_LOCKED
			return Retryable
		}
	}
	return Other
}

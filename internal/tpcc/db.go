package tpcc

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"strings"

	"github.com/dbdyno/dbdyno/internal/sqlfile"
	"github.com/dbdyno/dbdyno/internal/target"
	"github.com/jackc/pgx/v5"
)

//go:embed sql
var sqlFS embed.FS

// DB is an open TPC-C target: an administrative connection plus what is needed to open one per virtual user.
type DB struct {
	T     *target.Target
	pg    *pgx.Conn // PostgreSQL admin connection
	sqldb *sql.DB   // SQLite, MySQL
	admin session
	stmts sqlfile.Set // tx.sql (+ calls.sql where procedures exist)
}

func dialectDir(e target.Engine) string { return "sql/" + string(e) }

func placeholder(e target.Engine) sqlfile.Placeholder {
	if e == target.Postgres {
		return sqlfile.Dollar
	}
	return sqlfile.Question
}

// Statements loads a dialect's statements (exported for tests and for the docs).
func Statements(e target.Engine) (sqlfile.Set, error) {
	set, err := sqlfile.Load(sqlFS, dialectDir(e)+"/tx.sql", placeholder(e))
	if err != nil {
		return nil, err
	}
	if HasProcedures(e) {
		calls, err := sqlfile.Load(sqlFS, dialectDir(e)+"/calls.sql", placeholder(e))
		if err != nil {
			return nil, err
		}
		for k, v := range calls {
			set[k] = v
		}
	}
	return set, nil
}

// HasProcedures reports whether the engine gets stored procedures.
func HasProcedures(e target.Engine) bool { return e == target.Postgres || e == target.MySQL }

// Open connects to a target.
func Open(ctx context.Context, t *target.Target) (*DB, error) {
	if t.Engine != target.SQLite && t.Engine != target.Postgres && t.Engine != target.MySQL {
		return nil, fmt.Errorf("the tpcc workload runs on sqlite://, postgres:// and mysql:// targets, not %s://", t.Engine)
	}
	set, err := Statements(t.Engine)
	if err != nil {
		return nil, err
	}
	db := &DB{T: t, stmts: set}
	if err := db.connectAdmin(ctx); err != nil {
		return nil, err
	}
	return db, nil
}

func (db *DB) connectAdmin(ctx context.Context) error {
	switch db.T.Engine {
	case target.Postgres:
		c, err := db.T.ConnectPg(ctx)
		if err != nil {
			return err
		}
		db.pg = c
		db.admin = &pgSession{conn: c, set: db.stmts}
	default:
		sdb, err := db.T.OpenDB(ctx)
		if err != nil {
			return err
		}
		if db.T.Engine == target.SQLite {
			sdb.SetMaxOpenConns(64)
		}
		db.sqldb = sdb
		conn, err := sdb.Conn(ctx)
		if err != nil {
			return db.T.ConnectError(err)
		}
		db.admin, _ = newSQLSession(ctx, conn, db.stmts, "BEGIN")
	}
	return nil
}

// Close releases the connections.
func (db *DB) Close() {
	if db.admin != nil {
		db.admin.close()
	}
	if db.sqldb != nil {
		db.sqldb.Close()
	}
}

// exec runs a DDL statement or script line.
func (db *DB) exec(ctx context.Context, q string) error {
	var err error
	if db.pg != nil {
		_, err = db.pg.Exec(ctx, q)
	} else {
		_, err = db.admin.(*sqlSession).conn.ExecContext(ctx, q)
	}
	return err
}

func (db *DB) script(ctx context.Context, name string) error {
	stmts, err := sqlfile.Script(sqlFS, dialectDir(db.T.Engine)+"/"+name)
	if err != nil {
		return err
	}
	for _, s := range stmts {
		if err := db.exec(ctx, s); err != nil {
			first, _, _ := strings.Cut(s, "\n")
			return fmt.Errorf("%s: %s: %w", name, first, err)
		}
	}
	return nil
}

// ServerVersion is the engine's version string.
func (db *DB) ServerVersion(ctx context.Context) string {
	var v string
	if err := db.admin.batch(ctx, op{name: "server_version", dest: []any{&v}}); err != nil {
		return "unknown"
	}
	return v
}

// existing lists which of dbdyno's tables exist.
func (db *DB) existing(ctx context.Context) (tables []string, meta bool, err error) {
	for _, t := range append(append([]string{}, Tables...), metaTable) {
		var n int
		if err := db.admin.batch(ctx, op{name: "table_exists", args: []any{t}, dest: []any{&n}}); err != nil {
			return nil, false, fmt.Errorf("listing tables: %w", err)
		}
		if n > 0 {
			if t == metaTable {
				meta = true
			} else {
				tables = append(tables, t)
			}
		}
	}
	return tables, meta, nil
}

const metaTable = "dbdyno_tpcc_meta"

// Meta is what build records about the database it made.
type Meta struct {
	Status     string // "loading" or "ready"
	Warehouses int
	Seed       uint64
	C          Constants
	Version    string
}

func (db *DB) putMeta(ctx context.Context, k, v string) error {
	return db.admin.batch(ctx, op{name: "meta_delete", args: []any{k}}, op{name: "meta_put", args: []any{k, v}})
}

func (db *DB) getMeta(ctx context.Context, k string) (string, error) {
	var v string
	found := false
	if err := db.admin.batch(ctx, op{name: "meta_get", args: []any{k}, dest: []any{&v}, found: &found}); err != nil {
		return "", err
	}
	if !found {
		return "", fmt.Errorf("meta %s missing", k)
	}
	return v, nil
}

// ErrNoSchema means the target has no (finished) TPC-C schema.
var ErrNoSchema = errors.New("no TPC-C schema")

// ReadMeta reads the build record and checks the build finished.
func (db *DB) ReadMeta(ctx context.Context) (*Meta, error) {
	tables, meta, err := db.existing(ctx)
	if err != nil {
		return nil, err
	}
	if !meta {
		if len(tables) > 0 {
			return nil, fmt.Errorf("%w: %v", ErrNoSchema, db.foreignTables(ctx, tables))
		}
		return nil, fmt.Errorf("%w in %s: run 'dbdyno tpcc build --target ...' first", ErrNoSchema, db.T)
	}
	m := &Meta{}
	var s string
	if m.Status, err = db.getMeta(ctx, "status"); err != nil {
		return nil, err
	}
	if m.Status != "ready" {
		return nil, fmt.Errorf("%w: the build of %s did not finish (status %q): rebuild with 'dbdyno tpcc build --drop'", ErrNoSchema, db.T, m.Status)
	}
	if len(tables) != len(Tables) {
		return nil, fmt.Errorf("%w: %s lacks some TPC-C tables: rebuild with 'dbdyno tpcc build --drop'", ErrNoSchema, db.T)
	}
	if s, err = db.getMeta(ctx, "warehouses"); err == nil {
		_, err = fmt.Sscan(s, &m.Warehouses)
	}
	if err == nil {
		s, err = db.getMeta(ctx, "constants")
		if err == nil {
			_, err = fmt.Sscanf(s, "%d %d %d", &m.C.CLast, &m.C.CID, &m.C.OLIID)
		}
	}
	if err == nil {
		if s, err = db.getMeta(ctx, "seed"); err == nil {
			_, err = fmt.Sscan(s, &m.Seed)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("reading dbdyno's build record: %w: rebuild with 'dbdyno tpcc build --drop'", err)
	}
	m.Version, _ = db.getMeta(ctx, "dbdyno_version")
	return m, nil
}

// foreignTables explains tables with TPC-C's names that are not dbdyno's TPC-C build: often dbdyno's own TPC-H
// tables (the two share customer and orders).
func (db *DB) foreignTables(ctx context.Context, tables []string) error {
	var n int
	if err := db.admin.batch(ctx, op{name: "table_exists", args: []any{"dbdyno_tpch_meta"}, dest: []any{&n}}); err == nil && n > 0 {
		return fmt.Errorf("%s holds dbdyno's TPC-H tables, which share names with TPC-C's (%s): build TPC-C into another database", db.T, strings.Join(tables, ", "))
	}
	return fmt.Errorf("%s has tables named like TPC-C's (%s) that dbdyno did not create: refusing to touch them; use another database", db.T, strings.Join(tables, ", "))
}

// Drop removes dbdyno's TPC-C objects, and only them: it refuses when the tables were not made by dbdyno.
func (db *DB) Drop(ctx context.Context) (bool, error) {
	tables, meta, err := db.existing(ctx)
	if err != nil {
		return false, err
	}
	if !meta {
		if len(tables) > 0 {
			return false, db.foreignTables(ctx, tables)
		}
		return false, nil
	}
	return true, db.script(ctx, "drop.sql")
}

// Newsession opens a virtual user's connection.
func (db *DB) newSession(ctx context.Context) (session, error) {
	switch db.T.Engine {
	case target.Postgres:
		c, err := db.T.ConnectPg(ctx)
		if err != nil {
			return nil, err
		}
		return &pgSession{conn: c, set: db.stmts}, nil
	default:
		conn, err := db.sqldb.Conn(ctx)
		if err != nil {
			return nil, db.T.ConnectError(err)
		}
		if err := conn.PingContext(ctx); err != nil {
			conn.Close()
			return nil, db.T.ConnectError(err)
		}
		begin := "BEGIN"
		if db.T.Engine == target.SQLite {
			begin = "BEGIN IMMEDIATE"
		}
		return newSQLSession(ctx, conn, db.stmts, begin)
	}
}

// SumNextOrderID is sum(d_next_o_id): it grows by one for each committed New-Order. A lost administrative
// connection is replaced once.
func (db *DB) SumNextOrderID(ctx context.Context) (int64, error) {
	var v int64
	err := db.admin.batch(ctx, op{name: "sum_next_o_id", dest: []any{&v}})
	if err != nil && isConnLost(err) {
		db.admin.close()
		if db.sqldb != nil {
			db.sqldb.Close()
		}
		db.admin, db.pg, db.sqldb = nil, nil, nil
		if err = db.connectAdmin(ctx); err != nil {
			return 0, err
		}
		err = db.admin.batch(ctx, op{name: "sum_next_o_id", dest: []any{&v}})
	}
	return v, err
}

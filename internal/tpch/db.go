package tpch

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
	"github.com/jackc/pgx/v5/stdlib"
)

//go:embed sql
var sqlFS embed.FS

// DB is an open TPC-H target.
type DB struct {
	T       *target.Target
	db      *sql.DB
	queries sqlfile.Set
	admin   sqlfile.Set // admin.sql: table_exists, server_version, meta_*
	refresh sqlfile.Set // refresh.sql: RF1, RF2 and restoring the loaded data
}

// Engines that run the workload.
func supported(e target.Engine) bool {
	return e == target.DuckDB || e == target.SQLite || e == target.Postgres || e == target.MySQL
}

func placeholder(e target.Engine) sqlfile.Placeholder {
	if e == target.Postgres || e == target.DuckDB {
		return sqlfile.Dollar
	}
	return sqlfile.Question
}

// Queries loads a dialect's 22 queries.
func Queries(dialect string, ph sqlfile.Placeholder) (sqlfile.Set, error) {
	return sqlfile.Load(sqlFS, "sql/"+dialect+"/queries.sql", ph)
}

// Open connects to a target.
func Open(ctx context.Context, t *target.Target) (*DB, error) {
	if !supported(t.Engine) {
		return nil, fmt.Errorf("the tpch workload runs on duckdb://, sqlite://, postgres:// and mysql:// targets, not %s://", t.Engine)
	}
	qs, err := Queries(string(t.Engine), placeholder(t.Engine))
	if err != nil {
		return nil, err
	}
	admin, err := sqlfile.Load(sqlFS, "sql/"+string(t.Engine)+"/admin.sql", placeholder(t.Engine))
	if err != nil {
		return nil, err
	}
	refresh, err := sqlfile.Load(sqlFS, "sql/"+string(t.Engine)+"/refresh.sql", placeholder(t.Engine))
	if err != nil {
		return nil, err
	}
	var db *sql.DB
	if t.Engine == target.Postgres {
		cfg, err := t.PgConfig()
		if err != nil {
			return nil, err
		}
		// Unnamed statements: PostgreSQL plans each query with its actual parameter values.
		cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
		db = stdlib.OpenDB(*cfg)
		if err := db.PingContext(ctx); err != nil {
			db.Close()
			return nil, t.ConnectError(err)
		}
	} else {
		if db, err = t.OpenDB(ctx); err != nil {
			return nil, err
		}
	}
	if t.Engine == target.SQLite {
		db.SetMaxOpenConns(1)
	}
	return &DB{T: t, db: db, queries: qs, admin: admin, refresh: refresh}, nil
}

// Close releases the connections.
func (d *DB) Close() { d.db.Close() }

func (d *DB) script(ctx context.Context, name string) error {
	stmts, err := sqlfile.Script(sqlFS, "sql/"+string(d.T.Engine)+"/"+name)
	if err != nil {
		return err
	}
	for _, s := range stmts {
		if _, err := d.db.ExecContext(ctx, s); err != nil {
			first, _, _ := strings.Cut(s, "\n")
			return fmt.Errorf("%s: %s: %w", name, first, err)
		}
	}
	return nil
}

// row runs an admin.sql statement that returns one row.
func (d *DB) row(ctx context.Context, name string, args []any, dest ...any) error {
	st := d.admin[name]
	return d.db.QueryRowContext(ctx, st.SQL, st.Args(args)...).Scan(dest...)
}

func (d *DB) execAdmin(ctx context.Context, name string, args ...any) error {
	st := d.admin[name]
	_, err := d.db.ExecContext(ctx, st.SQL, st.Args(args)...)
	return err
}

// ServerVersion is the engine's version string.
func (d *DB) ServerVersion(ctx context.Context) string {
	var v string
	if err := d.row(ctx, "server_version", nil, &v); err != nil {
		return "unknown"
	}
	return v
}

const metaTable = "dbdyno_tpch_meta"

var tableNames = []string{"region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"}

func (d *DB) tableExists(ctx context.Context, name string) (bool, error) {
	var n int
	err := d.row(ctx, "table_exists", []any{name}, &n)
	return n > 0, err
}

func (d *DB) existing(ctx context.Context) (tables []string, meta bool, err error) {
	for _, t := range tableNames {
		ok, err := d.tableExists(ctx, t)
		if err != nil {
			return nil, false, fmt.Errorf("listing tables: %w", err)
		}
		if ok {
			tables = append(tables, t)
		}
	}
	meta, err = d.tableExists(ctx, metaTable)
	return tables, meta, err
}

func (d *DB) putMeta(ctx context.Context, k, v string) error {
	if err := d.execAdmin(ctx, "meta_delete", k); err != nil {
		return err
	}
	return d.execAdmin(ctx, "meta_put", k, v)
}

func (d *DB) getMeta(ctx context.Context, k string) (string, error) {
	var v string
	err := d.row(ctx, "meta_get", []any{k}, &v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("build record %s missing", k)
	}
	return v, err
}

// ErrNoSchema means the target has no finished TPC-H schema.
var ErrNoSchema = errors.New("no TPC-H schema")

// Scale reads the scale factor of a finished build.
func (d *DB) Scale(ctx context.Context) (float64, error) {
	tables, meta, err := d.existing(ctx)
	if err != nil {
		return 0, err
	}
	if !meta {
		if len(tables) > 0 {
			return 0, fmt.Errorf("%w: %v", ErrNoSchema, d.foreignTables(ctx, tables))
		}
		return 0, fmt.Errorf("%w in %s: run 'dbdyno tpch build --target ...' first", ErrNoSchema, d.T)
	}
	status, err := d.getMeta(ctx, "status")
	if err != nil {
		return 0, err
	}
	if status != "ready" {
		return 0, fmt.Errorf("%w: the build of %s did not finish (status %q): rebuild with 'dbdyno tpch build --drop'", ErrNoSchema, d.T, status)
	}
	s, err := d.getMeta(ctx, "scale")
	if err != nil {
		return 0, err
	}
	var sf float64
	if _, err := fmt.Sscan(s, &sf); err != nil {
		return 0, fmt.Errorf("build record scale %q: %w", s, err)
	}
	return sf, nil
}

// foreignTables explains tables with TPC-H's names that are not dbdyno's TPC-H build: often dbdyno's own TPC-C
// tables (the two share customer and orders).
func (d *DB) foreignTables(ctx context.Context, tables []string) error {
	if ok, _ := d.tableExists(ctx, "dbdyno_tpcc_meta"); ok {
		return fmt.Errorf("%s holds dbdyno's TPC-C tables, which share names with TPC-H's (%s): build TPC-H into another database", d.T, strings.Join(tables, ", "))
	}
	return fmt.Errorf("%s has tables named like TPC-H's (%s) that dbdyno did not create: refusing to touch them; use another database", d.T, strings.Join(tables, ", "))
}

// Drop removes dbdyno's TPC-H tables, and only them.
func (d *DB) Drop(ctx context.Context) (bool, error) {
	tables, meta, err := d.existing(ctx)
	if err != nil {
		return false, err
	}
	if !meta {
		if len(tables) > 0 {
			return false, d.foreignTables(ctx, tables)
		}
		return false, nil
	}
	return true, d.script(ctx, "drop.sql")
}

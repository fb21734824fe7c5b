package engine

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

// Queryer is what the catalog statements run on: a *sql.DB, *sql.Conn or *sql.Tx.
type Queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (e *Engine) stmt(name string) *sqlfile.Statement {
	st, ok := e.catalog.Set()[name]
	if !ok {
		panic(fmt.Sprintf("engine %s: catalog statement %s missing", e.Name, name)) // part of the build
	}
	return st
}

// ServerVersion is the engine's product and version ("PostgreSQL 15.18"), or "unknown".
func (e *Engine) ServerVersion(ctx context.Context, q Queryer) string {
	if vr := e.variantOf(ctx, q); vr != nil {
		return vr.version
	}
	var v string
	if err := q.QueryRowContext(ctx, e.stmt("server_version").SQL).Scan(&v); err != nil {
		return "unknown"
	}
	return v
}

// TableExists reports whether a table of that name exists in the target's schema.
func (e *Engine) TableExists(ctx context.Context, q Queryer, name string) (bool, error) {
	st := e.stmt("table_exists")
	var n int
	if err := q.QueryRowContext(ctx, st.SQL, st.Args([]any{name})...).Scan(&n); err != nil {
		return false, err
	}
	return n > 0, nil
}

// BulkAllowed reports whether the server takes the engine's bulk path on this connection (MySQL 8 refuses
// LOAD DATA LOCAL INFILE by default); true where the engine has no such switch.
func (e *Engine) BulkAllowed(ctx context.Context, q Queryer) bool {
	st, ok := e.catalog.Set()["bulk_allowed"]
	if !ok {
		return true
	}
	var on int
	return q.QueryRowContext(ctx, st.SQL).Scan(&on) == nil && on == 1
}

// ident checks a name that is spliced into SQL as an identifier.
func ident(name string) string {
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			panic("engine: not an identifier: " + name)
		}
	}
	return name
}

// Analyze gathers the optimizer's statistics for the tables (the whole database where the engine does it at once).
func (e *Engine) Analyze(ctx context.Context, q Queryer, tables []string) error {
	var stmts []string
	if st, ok := e.catalog.Set()["analyze_table"]; ok {
		for _, t := range tables {
			stmts = append(stmts, strings.ReplaceAll(st.SQL, "{table}", ident(t)))
		}
	} else {
		stmts = []string{e.stmt("analyze").SQL}
	}
	for _, s := range stmts {
		rows, err := q.QueryContext(ctx, s) // MySQL's ANALYZE TABLE returns rows
		if err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
		for rows.Next() {
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// Parallelism says how to hold each query to n parallel workers (--maxdop): statements to run on each
// connection first and a hint to add to each query (catalog.sql's max_parallel_session and max_parallel_hint,
// {n} and {workers} = n-1 filled in); an error names the engines that can when this one cannot.
func (e *Engine) Parallelism(n int) (session []string, hint string, err error) {
	if n < 1 {
		return nil, "", fmt.Errorf("--maxdop must be at least 1 (got %d)", n)
	}
	fill := strings.NewReplacer("{n}", strconv.Itoa(n), "{workers}", strconv.Itoa(n-1))
	set := e.catalog.Set()
	if st, ok := set["max_parallel_session"]; ok {
		session = append(session, fill.Replace(st.SQL))
	}
	if st, ok := set["max_parallel_hint"]; ok {
		hint = fill.Replace(st.SQL)
	}
	if session == nil && hint == "" {
		var can []string
		for _, o := range registry {
			if s := o.catalog.Set(); s["max_parallel_session"] != nil || s["max_parallel_hint"] != nil {
				can = append(can, o.Name+"://")
			}
		}
		return nil, "", fmt.Errorf("--maxdop: %s runs each query on one thread here; it applies to %s targets", e.Title, strings.Join(can, ", "))
	}
	return session, hint, nil
}

// PrepareLoad readies a connection for a bulk load (sql/NAME/load.sql: settings of that session only).
func (e *Engine) PrepareLoad(ctx context.Context, q Queryer) {
	for _, s := range e.load.SQL() {
		q.ExecContext(ctx, s) // best effort: a load works without them, only slower
	}
}

// Settings reads the engine's performance settings; a setting the account may not read is left out. On a
// server of another product that speaks the engine's dialect (Babelfish behind SQL Server's), what that server
// lacks (settings, counters, features) is listed instead as "not collected: REASON".
func (e *Engine) Settings(ctx context.Context, q Queryer) map[string]string {
	out := map[string]string{}
	vr := e.variantOf(ctx, q)
	if vr != nil {
		vr.notCollected(out)
	}
	for _, st := range e.settings.Statements {
		if _, gone := out[st.Name]; gone {
			continue
		}
		var v any
		if err := q.QueryRowContext(ctx, st.SQL).Scan(&v); err == nil {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			out[st.Name] = fmt.Sprint(v)
		}
	}
	return out
}

// Files lists the engine's own SQL files as they run, for `dbdyno sql`.
func (e *Engine) Files() []*sqlfile.File {
	var out []*sqlfile.File
	for _, f := range []*sqlfile.File{e.catalog, e.settings, e.counters, e.load} {
		if len(f.Statements) > 0 {
			out = append(out, f)
		}
	}
	return out
}

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
	var on sql.NullString
	return q.QueryRowContext(ctx, st.SQL).Scan(&on) == nil && switchOn(on.String)
}

// switchOn reads a server's boolean setting as its SELECT gives it: 1 (MySQL, MariaDB) or ON (TiDB's boolean
// system variables, local_infile among them, answer ON or OFF).
func switchOn(v string) bool {
	return v == "1" || strings.EqualFold(v, "ON")
}

// Ident writes a name as an identifier of the engine's SQL, for statements shown to people (hints): as it is
// when dbdyno's own statements take it so (ident: lower-case letters, digits and _, not first a digit), else
// quoted the engine's way, a closing quote in it doubled, so that whatever the name holds stays one
// identifier.
func (e *Engine) Ident(name string) string {
	plain := name != "" && (name[0] < '0' || name[0] > '9')
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			plain = false
		}
	}
	if plain {
		return name
	}
	return e.quotes[0] + strings.ReplaceAll(name, e.quotes[1], e.quotes[1]+e.quotes[1]) + e.quotes[1]
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
// {n} and {workers} = n-1 filled in); an error names the engines that can when this one cannot. On a server
// that is another product behind the engine's wire, ask the target (Target.Parallelism).
func (e *Engine) Parallelism(n int) (session []string, hint string, err error) {
	return e.parallelism(n, "max_parallel_session", "max_parallel_hint")
}

func (e *Engine) parallelism(n int, sessionStmt, hintStmt string) (session []string, hint string, err error) {
	if n < 1 {
		return nil, "", fmt.Errorf("--maxdop must be at least 1 (got %d)", n)
	}
	fill := strings.NewReplacer("{n}", strconv.Itoa(n), "{workers}", strconv.Itoa(n-1))
	set := e.catalog.Set()
	if st, ok := set[sessionStmt]; ok {
		session = append(session, fill.Replace(st.SQL))
	}
	if st, ok := set[hintStmt]; ok {
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

// Parallelism is Engine.Parallelism for the server behind the target, asked on q: another product behind the
// engine's wire may hold a query to n workers its own way (Babelfish: its PostgreSQL's setting, as it ignores
// T-SQL's query hints), or have no such limit at all (CockroachDB: --maxdop is refused, never ignored).
func (t *Target) Parallelism(ctx context.Context, q Queryer, n int) (session []string, hint string, err error) {
	if n >= 1 {
		if vr := t.Engine.variantOf(ctx, q); vr != nil {
			if why := vr.lacks[ParallelLimit]; why != "" {
				return nil, "", fmt.Errorf("--maxdop: %s: leave --maxdop out on this target", why)
			}
			if vr.parallel != "" {
				return t.Engine.parallelism(n, vr.parallel, "")
			}
		}
	}
	return t.Engine.Parallelism(n)
}

// PrepareLoad readies a connection for a bulk load (sql/NAME/load.sql: settings of that session only).
func (e *Engine) PrepareLoad(ctx context.Context, q Queryer) {
	for _, s := range e.load.SQL() {
		q.ExecContext(ctx, s) // best effort: a load works without them, only slower
	}
}

// PrepareIndex readies a connection for building a load's keys and indexes (sql/NAME/index.sql: settings of
// that session only, such as the memory an index build sorts in).
func (e *Engine) PrepareIndex(ctx context.Context, q Queryer) {
	for _, s := range e.index.SQL() {
		q.ExecContext(ctx, s) // best effort: an index builds without them, only slower
	}
}

// AnalyzesTables says whether the engine gathers statistics table by table (catalog.sql's analyze_table), so
// that several tables' can be gathered at once; otherwise Analyze does the whole database in one statement.
func (e *Engine) AnalyzesTables() bool {
	_, ok := e.catalog.Set()["analyze_table"]
	return ok
}

// Settings reads the engine's performance settings; a setting the account may not read is left out. On a
// server of another product that speaks the engine's dialect (Babelfish behind SQL Server's), what that server
// lacks (settings, counters, catalog facts, features) is listed instead as "not collected: REASON", and so is
// every catalog fact ctx's run could not collect on a distributed SQL product (catalogRead).
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
		} else if vr != nil && vr.distributed {
			out[st.Name] = vr.cannot(err)
		}
	}
	if vr != nil && vr.distributed {
		e.probeCounters(ctx, q, vr, out)
	}
	notCollectedIn(ctx, out) // what the run's catalog reads did not collect there
	return out
}

// Files lists the engine's own SQL files as they run, for `dbdyno sql`.
func (e *Engine) Files() []*sqlfile.File {
	var out []*sqlfile.File
	for _, f := range []*sqlfile.File{e.catalog, e.settings, e.counters, e.load, e.index} {
		if len(f.Statements) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// IndexNames lists a table's indexes, its primary key's among them (catalog.sql's index_names); ok is false
// where the engine cannot list them, or the distributed SQL product behind its wire did not (catalogRead).
func (e *Engine) IndexNames(ctx context.Context, q Queryer, table string) (names []string, ok bool, err error) {
	st, ok := e.catalog.Set()["index_names"]
	if !ok {
		return nil, false, nil
	}
	asked, err := e.catalogRead(ctx, q, "index_names", func() error {
		names = nil
		rows, err := q.QueryContext(ctx, st.SQL, st.Args([]any{table})...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var n sql.NullString
			if err := rows.Scan(&n); err != nil {
				return err
			}
			if n.Valid {
				names = append(names, strings.ToLower(n.String))
			}
		}
		return rows.Err()
	})
	if err != nil || !asked {
		return nil, asked, err
	}
	return names, true, nil
}

// CountRows counts a table's rows exactly.
func (e *Engine) CountRows(ctx context.Context, q Queryer, table string) (int64, error) {
	var n int64
	err := q.QueryRowContext(ctx, strings.ReplaceAll(e.stmt("count_rows").SQL, "{table}", ident(table))).Scan(&n)
	return n, err
}

// EstimateRows is the catalog's estimate of a table's rows (catalog.sql's row_estimate); ok is false where the
// engine keeps none, or none yet for the table, or the distributed SQL product behind its wire gave none
// (catalogRead).
func (e *Engine) EstimateRows(ctx context.Context, q Queryer, table string) (n int64, ok bool, err error) {
	st, has := e.catalog.Set()["row_estimate"]
	if !has {
		return 0, false, nil
	}
	var v sql.NullInt64
	asked, err := e.catalogRead(ctx, q, "row_estimate", func() error {
		return q.QueryRowContext(ctx, st.SQL, st.Args([]any{table})...).Scan(&v)
	})
	if err != nil || !asked {
		return 0, false, err
	}
	return v.Int64, v.Valid && v.Int64 >= 0, nil
}

// TableChecksum is a cheap, deterministic checksum of a table's contents that the database computes in one scan
// (catalog.sql's table_checksum): "ROWS:SUM", its rows and a sum of a hash of each whole row, so that one value
// changed in one row changes it. ok is false where the engine has no such statement. The statement's {columns}
// stands for the table's columns in order (catalog.sql's column_names), for engines that hash a list of values
// rather than a row. On a distributed SQL product that could not answer it, ok is false (catalogRead).
func (e *Engine) TableChecksum(ctx context.Context, q Queryer, table string) (sum string, ok bool, err error) {
	st, has := e.catalog.Set()["table_checksum"]
	if !has {
		return "", false, nil
	}
	asked, err := e.catalogRead(ctx, q, "table_checksum", func() (err error) {
		sum, err = e.tableChecksum(ctx, q, st.SQL, table)
		return err
	})
	if err != nil || !asked {
		return "", asked, err
	}
	return sum, true, nil
}

func (e *Engine) tableChecksum(ctx context.Context, q Queryer, stmt, table string) (string, error) {
	query := strings.ReplaceAll(stmt, "{table}", ident(table))
	if strings.Contains(query, "{columns}") {
		cols, err := e.columnNames(ctx, q, table)
		if err != nil {
			return "", err
		}
		if len(cols) == 0 {
			return "", fmt.Errorf("table %s has no columns (is it missing?)", table)
		}
		for i, c := range cols {
			cols[i] = e.Ident(c)
		}
		query = strings.ReplaceAll(query, "{columns}", strings.Join(cols, ", "))
	}
	var n int64
	var s sql.NullString
	if err := q.QueryRowContext(ctx, query).Scan(&n, &s); err != nil {
		return "", err
	}
	if !s.Valid {
		s.String = "0"
	}
	return fmt.Sprintf("%d:%s", n, s.String), nil
}

// columnNames lists a table's columns in their order (catalog.sql's column_names).
func (e *Engine) columnNames(ctx context.Context, q Queryer, table string) ([]string, error) {
	st := e.stmt("column_names")
	rows, err := q.QueryContext(ctx, st.SQL, st.Args([]any{table})...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Package engine holds every fact about the database engines dbdyno drives: their URL schemes and how a
// target URL is read, the one way each is opened, its placeholder style, its capabilities, how its driver's
// errors are classified, and its catalog, settings and counter SQL (in sql/ENGINE/*.sql). Each engine is one
// file here (postgres.go, mysql.go, sqlite.go, duckdb.go, sqlserver.go) that registers an *Engine; code elsewhere
// asks the engine what it can do and never compares engine names. Passwords never leave this package in
// printable form.
//
// What every engine shares is split by concern: engine.go (the Engine, its capabilities and the registry),
// target.go (reading a target URL), redact.go (keeping passwords out of what is printed), open.go (opening a
// target), errors.go (what a driver error means), catalog.go (catalog, settings and load statements) and
// counters.go (counters and wait events).
package engine

import (
	"context"
	"database/sql"
	"embed"
	"sort"
	"strings"

	"github.com/dbdyno/dbdyno/internal/lib/enginenames"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

//go:embed sql
var sqlFS embed.FS

// BulkPath names an engine's fastest way to load generated rows. Package bulk holds the loader of each path;
// an engine names its path in its own file (BulkCopy in postgres.go, ...), and one without names BulkInsert.
type BulkPath string

// BulkInsert is prepared INSERTs in large transactions, the path every engine can take (the default).
const BulkInsert BulkPath = "insert"

// Wire says which wire protocol a connection speaks, for the workloads that drive it below database/sql.
type Wire int

const (
	WireSQL      Wire = iota // database/sql only
	WirePostgres             // the PostgreSQL protocol through pgconn (see Pgx)
)

// Engine is one database engine family.
type Engine struct {
	Name        string   // the canonical URL scheme and the sql/NAME/ directory of every workload
	Title       string   // for people: "PostgreSQL"
	Schemes     []string // URL schemes that name it
	DefaultPort int      // servers
	DefaultUser string
	// TextParams: a bind parameter sent as text takes the type the server infers for it, as pgbench's -M
	// prepared sends every one (a Go integer bound where the server inferred text is refused by the driver).
	TextParams bool
	// AdminDatabase is the database every server of the engine has, which a missing one is created from
	// (--create-database): postgres, master; "" connects to none (MySQL).
	AdminDatabase string
	Embedded      bool // runs inside dbdyno's process on a local file
	Placeholder   sqlfile.Placeholder
	OLTP          bool // made for transactions: concurrent writers through row locks or a write lock they queue for
	Procedures    bool // stored procedures or functions (the OLTP workloads' procedures mode)
	// AtomicCall: a procedure's call outside a transaction runs as one transaction (a function call is one
	// statement), so a transaction of one call needs no begin and commit; where a procedure's statements
	// each commit on their own in autocommit (MySQL, SQL Server), false.
	AtomicCall bool
	Arrays     bool // takes array parameters (else lists travel as comma-separated text)
	// SingleWriter: one connection writes at a time (loads run on one connection; writers queue for the lock).
	SingleWriter bool
	// ConcurrentDDL: DDL on different tables runs at once from several connections (a build's keys and indexes).
	ConcurrentDDL bool
	Bulk          BulkPath
	Wire          Wire
	// Counters names what the engine's counters (sql/NAME/counters.sql) cover, "" when it has none.
	Counters string
	// ParseDialect is the engine's dialect name in sqlglot, whose parser checks every statement file of the
	// engine offline in the tests ("" where no such check runs: engines the tests run on a real server instead).
	ParseDialect string
	// StorageFactor is the bytes an embedded database's file takes per byte of the rows as text (indexes
	// included), to tell before a build whether the disk holds it; 0 where the disk is not dbdyno's to see.
	StorageFactor float64
	// Schemas says how a session works in another schema (--schema): NoSchemas where it cannot.
	Schemas SchemaWay

	rank int // place in lists and messages: the embedded defaults first
	// textQuery goes before a query's arguments to send a statement without parameters as text in the engine's
	// simple protocol (TextQuery)
	textQuery []any
	params    map[string]bool // the URL parameters the engine takes
	denied    string          // how the server words a refused login: "authentication failed", "access denied"
	// quotes open and close a quoted identifier (default the standard's double quotes).
	quotes   [2]string
	waitsOff string // why waits cannot be sampled when counters.sql's waits_enabled() answers 0
	// dbParam names the URL parameter that holds the database ("" when the URL's path does); instancePath says
	// the path names a server instance; foldParams says parameter names are case-insensitive (lower-cased).
	dbParam      string
	instancePath bool
	foldParams   bool
	open         func(ctx context.Context, t *Target) (*sql.DB, error)
	classify     func(err error) Class
	raised       func(err error) (string, bool)
	// detect tells, on a connection, a server that speaks the engine's protocol but is another product (see
	// variant); nil where the engine has none.
	detect func(ctx context.Context, e *Engine, q Queryer) (*variant, error)

	catalog, settings, counters, load, index *sqlfile.File
}

var registry []*Engine

// register adds an engine; each engine file calls it from init.
func register(e *Engine) {
	var err error
	if e.catalog, err = sqlfile.Overlay(sqlFS, e.Name, "catalog.sql", e.Placeholder); err != nil {
		panic(err) // the embedded files are part of the build
	}
	for _, f := range []struct {
		name string
		dst  **sqlfile.File
	}{{"settings.sql", &e.settings}, {"counters.sql", &e.counters}, {"load.sql", &e.load}, {"index.sql", &e.index}} {
		if *f.dst, err = sqlfile.Overlay(sqlFS, e.Name, f.name, e.Placeholder); err != nil {
			*f.dst = &sqlfile.File{Name: f.name}
		}
	}
	if e.Bulk == "" {
		e.Bulk = BulkInsert
	}
	if e.quotes[0] == "" {
		e.quotes = [2]string{`"`, `"`}
	}
	registry = append(registry, e)
	sort.SliceStable(registry, func(i, j int) bool { return registry[i].rank < registry[j].rank })
	enginenames.Add(e.Name)
}

// All lists the engines, the embedded defaults first.
func All() []*Engine { return append([]*Engine(nil), registry...) }

// OLTPSchemes lists the schemes of the engines made for transactions ("sqlite://"), for messages.
func OLTPSchemes() string {
	var out []string
	for _, e := range registry {
		if e.OLTP {
			out = append(out, e.Name+"://")
		}
	}
	return strings.Join(out, ", ")
}

// Lookup finds an engine by name or URL scheme.
func Lookup(name string) (*Engine, bool) {
	name = strings.ToLower(name)
	for _, e := range registry {
		for _, s := range e.Schemes {
			if s == name {
				return e, true
			}
		}
	}
	return nil, false
}

// schemeList is "sqlite://, duckdb://, postgres:// or mysql://" for messages.
func schemeList() string {
	var s []string
	for _, e := range registry {
		s = append(s, e.Name+"://")
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// URLForms lists the target URLs of every engine: "sqlite://FILE, ..., postgres://USER[:PASS]@HOST:PORT/DB".
func URLForms() string {
	var s []string
	for _, e := range registry {
		if e.Embedded {
			s = append(s, e.Name+"://FILE")
		} else if e.dbParam != "" {
			s = append(s, e.Name+"://USER[:PASS]@HOST:PORT?"+e.dbParam+"=DB")
		} else {
			s = append(s, e.Name+"://USER[:PASS]@HOST:PORT/DB")
		}
	}
	return strings.Join(s, ", ")
}

// String is the engine's name.
func (e *Engine) String() string { return e.Name }

// TextQuery is what to put before a query's arguments (database/sql's QueryContext and ExecContext) to send a
// statement without parameters as text in the engine's simple protocol, as pgbench -M simple does; nil where
// such a statement already travels so.
func (e *Engine) TextQuery() []any { return e.textQuery }

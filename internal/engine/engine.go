// Package engine holds every fact about the database engines dbdyno drives: their URL schemes and how a
// target URL is read, the one way each is opened, its placeholder style, its capabilities, how its driver's
// errors are classified, and its catalog, settings and counter SQL (in sql/ENGINE/*.sql). Each engine is one
// file here (postgres.go, mysql.go, sqlite.go, duckdb.go) that registers an *Engine; code elsewhere asks the
// engine what it can do and never compares engine names. Passwords never leave this package in printable form.
package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

//go:embed sql
var sqlFS embed.FS

// Class is what a driver error means to the code that got it.
type Class int

const (
	Other      Class = iota
	ConnLost         // the connection is gone: replace it
	Retryable        // deadlock, serialization failure, lock timeout: run the transaction again
	NotFound         // the object asked for does not exist
	AuthFailed       // the server refused the user or password
	NoDatabase       // the database named in the URL does not exist
)

// BulkPath is an engine's fastest way to load generated rows.
type BulkPath int

const (
	BulkInsert   BulkPath = iota // prepared INSERTs in large transactions
	BulkCopy                     // PostgreSQL COPY FROM STDIN
	BulkLoadData                 // MySQL/MariaDB LOAD DATA LOCAL INFILE (multi-row INSERTs when the server refuses it)
	BulkAppender                 // DuckDB's appender
	BulkCopyIn                   // SQL Server's bulk copy (the TDS bulk load that bcp and SqlBulkCopy use)
)

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
	Embedded    bool // runs inside dbdyno's process on a local file
	Placeholder sqlfile.Placeholder
	OLTP        bool // made for transactions: concurrent writers through row locks or a write lock they queue for
	Procedures  bool // stored procedures or functions (the OLTP workloads' procedures mode)
	Arrays      bool // takes array parameters (else lists travel as comma-separated text)
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

	rank     int             // place in lists and messages: the embedded defaults first
	params   map[string]bool // the URL parameters the engine takes
	denied   string          // how the server words a refused login: "authentication failed", "access denied"
	waitsOff string          // why waits cannot be sampled when counters.sql's waits_enabled() answers 0
	// dbParam names the URL parameter that holds the database ("" when the URL's path does); instancePath says
	// the path names a server instance; foldParams says parameter names are case-insensitive (lower-cased).
	dbParam      string
	instancePath bool
	foldParams   bool
	open         func(ctx context.Context, t *Target) (*sql.DB, error)
	classify     func(err error) Class
	raised       func(err error) (string, bool)

	catalog, settings, counters, load *sqlfile.File
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
	}{{"settings.sql", &e.settings}, {"counters.sql", &e.counters}, {"load.sql", &e.load}} {
		if *f.dst, err = sqlfile.Overlay(sqlFS, e.Name, f.name, e.Placeholder); err != nil {
			*f.dst = &sqlfile.File{Name: f.name}
		}
	}
	registry = append(registry, e)
	sort.SliceStable(registry, func(i, j int) bool { return registry[i].rank < registry[j].rank })
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

// Classify says what a driver error means.
func (e *Engine) Classify(err error) Class {
	if err == nil {
		return Other
	}
	if c := e.classify(err); c != Other {
		return c
	}
	var netErr net.Error
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &netErr) ||
		errors.Is(err, sql.ErrConnDone) || errors.Is(err, net.ErrClosed) {
		return ConnLost
	}
	msg := err.Error()
	if strings.Contains(msg, "conn closed") || strings.Contains(msg, "bad connection") ||
		strings.Contains(msg, "connection reset") || strings.Contains(msg, "broken pipe") {
		return ConnLost
	}
	if errors.Is(err, sql.ErrNoRows) {
		return NotFound
	}
	return Other
}

// Raised returns the message of an error that dbdyno's own SQL raised on purpose (RAISE, SIGNAL).
func (e *Engine) Raised(err error) (string, bool) {
	if e.raised == nil || err == nil {
		return "", false
	}
	return e.raised(err)
}

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

// Settings reads the engine's performance settings; a setting the account may not read is left out.
func (e *Engine) Settings(ctx context.Context, q Queryer) map[string]string {
	out := map[string]string{}
	for _, st := range e.settings.Statements {
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

// ReadCounters reads the database-side counters (name, value rows) of every counters statement of the
// engine's counters.sql (a statement that fails, such as a view another server version lacks, is skipped), or
// nil where the engine has none.
func (e *Engine) ReadCounters(ctx context.Context, q Queryer) map[string]float64 {
	return e.readCounters(ctx, q, "counters")
}

// StorageCounters are the few storage figures the capacity probes compare across engines, under one set of
// names: read_bytes (bytes the engine read from storage or the operating system), log_bytes (log bytes
// written), cache_hits or cache_requests and cache_misses (pages), from counters.sql's io_counters(); nil for
// an embedded engine, which runs in dbdyno's process (its figures are the process's own IO).
func (e *Engine) StorageCounters(ctx context.Context, q Queryer) map[string]float64 {
	if e.Embedded {
		return nil
	}
	return e.readCounters(ctx, q, "io_counters")
}

// CacheBytes is the size of a server engine's own cache (PostgreSQL's shared buffers, InnoDB's buffer pool,
// SQL Server's target memory), from counters.sql's cache_size(); false where it has none or it cannot be read.
func (e *Engine) CacheBytes(ctx context.Context, q Queryer) (int64, bool) {
	if e.counters == nil || q == nil {
		return 0, false
	}
	st := e.counters.Set()["cache_size"]
	if st == nil {
		return 0, false
	}
	var v any
	if q.QueryRowContext(ctx, st.SQL).Scan(&v) != nil {
		return 0, false
	}
	f, ok := number(v)
	return int64(f), ok && f > 0
}

func (e *Engine) readCounters(ctx context.Context, q Queryer, prefix string) map[string]float64 {
	if q == nil || e.counters == nil {
		return nil
	}
	var out map[string]float64
	for _, st := range e.counters.Statements {
		if !strings.HasPrefix(st.Name, prefix) {
			continue
		}
		rows, err := q.QueryContext(ctx, st.SQL)
		if err != nil {
			continue
		}
		for rows.Next() {
			var k string
			var v any
			if rows.Scan(&k, &v) != nil {
				continue
			}
			if f, ok := number(v); ok {
				if out == nil {
					out = map[string]float64{}
				}
				out[strings.ToLower(k)] = f
			}
		}
		rows.Close()
	}
	return out
}

// Gauge says a counter is a level read as it is (a percentage of a limit), not a count whose change is a rate:
// counters.sql names those NAME_pct.
func Gauge(name string) bool { return strings.HasSuffix(name, "_pct") }

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case []byte:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// Wait is what one active session of the database was doing at a sample: its wait event's class and name
// ("CPU" when it waited on nothing), and whether it was one of dbdyno's own sessions.
type Wait struct {
	Class, Event string
	Own          bool
}

// HasWaits says whether the engine can sample its sessions' wait events (counters.sql's waits()).
func (e *Engine) HasWaits() bool { return e.counters.Set()["waits"] != nil }

// WaitsReady says why wait events cannot be sampled on this server (counters.sql's waits_enabled() answers
// 0), nil when they can.
func (e *Engine) WaitsReady(ctx context.Context, q Queryer) error {
	st := e.counters.Set()["waits_enabled"]
	if st == nil || q == nil {
		return nil
	}
	var v any
	if err := q.QueryRowContext(ctx, st.SQL).Scan(&v); err != nil {
		return err
	}
	if n, ok := number(v); ok && n == 0 {
		return errors.New(e.waitsOff)
	}
	return nil
}

// Waits samples the active sessions' wait events once; an error says why the engine cannot (a disabled
// performance schema, a missing privilege).
func (e *Engine) Waits(ctx context.Context, q Queryer) ([]Wait, error) {
	st := e.counters.Set()["waits"]
	if st == nil || q == nil {
		return nil, nil
	}
	rows, err := q.QueryContext(ctx, st.SQL)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Wait
	for rows.Next() {
		var w Wait
		var class, event sql.NullString
		var own any
		if err := rows.Scan(&class, &event, &own); err != nil {
			return nil, err
		}
		w.Class, w.Event = class.String, event.String
		if w.Event == "" {
			w.Class, w.Event = "CPU", "CPU"
		}
		switch o := own.(type) {
		case bool:
			w.Own = o
		default:
			n, _ := number(o)
			w.Own = n != 0
		}
		out = append(out, w)
	}
	return out, rows.Err()
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

// PasswordEnv is the environment variable that supplies a password missing from the URL.
const PasswordEnv = "DBDYNO_PASSWORD"

// Target is a parsed --target URL.
type Target struct {
	Engine   *Engine
	Path     string // embedded engines: the database file
	Host     string
	Port     int
	User     string
	password string
	Database string
	Instance string // a named server instance (SQL Server's HOST/INSTANCE)
	Params   url.Values
	// ConnectTimeout bounds each new connection to a server, handshake and login included (default 10 s).
	ConnectTimeout time.Duration
}

// DefaultConnectTimeout is how long a connection to a server may take unless told otherwise.
const DefaultConnectTimeout = 10 * time.Second

// timeoutConnector gives every new connection ConnectTimeout to be made, whatever the driver's own timeouts
// cover: a listener that accepts and never answers cannot hang a command.
type timeoutConnector struct {
	driver.Connector
	d time.Duration
}

func (c timeoutConnector) Connect(ctx context.Context) (driver.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, c.d)
	defer cancel()
	conn, err := c.Connector.Connect(ctx)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("no answer within %s (timeout)", c.d)
	}
	return conn, err
}

// openConnector opens a server engine's connector with the target's connect timeout.
func openConnector(t *Target, c driver.Connector) *sql.DB {
	d := t.ConnectTimeout
	if d <= 0 {
		d = DefaultConnectTimeout
	}
	return sql.OpenDB(timeoutConnector{c, d})
}

// Parse reads a target URL: ENGINE://FILE for embedded engines (sqlite://rel.db, duckdb:///abs/file.duckdb),
// ENGINE://user:pass@host:port/db for servers. A password missing from the URL is taken from DBDYNO_PASSWORD.
func Parse(raw string) (*Target, error) {
	if raw == "" {
		return nil, errors.New("empty --target: give a URL such as sqlite://dbdyno.db or postgres://user@host:5432/db")
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil, fmt.Errorf("target %q is not a URL: use %s", Redact(raw), URLForms())
	}
	e, ok := Lookup(scheme)
	if !ok {
		return nil, fmt.Errorf("unknown target scheme %q: use %s", scheme, schemeList())
	}
	if e.Embedded {
		path, query, _ := strings.Cut(rest, "?")
		if path == "" {
			return nil, fmt.Errorf("%s target has no file name: use %s://FILE or %s:///abs/path", e.Name, e.Name, e.Name)
		}
		q, _ := url.ParseQuery(query)
		if err := e.checkParams(q); err != nil {
			return nil, err
		}
		return &Target{Engine: e, Path: path, Params: q}, nil
	}
	u, err := url.Parse(raw)
	if err == nil && u.User == nil && strings.Contains(rest, "@") {
		err = errors.New("no user before the host")
	}
	if err != nil {
		// the parser's own message may quote part of the password: it is not shown
		return nil, fmt.Errorf("target URL %q is malformed: if its user or password holds # ? / @ or %%, percent-encode them (%%23 %%3F %%2F %%40 %%25) or give the password in %s", Redact(raw), PasswordEnv)
	}
	t := &Target{Engine: e, Host: u.Hostname(), Port: e.DefaultPort, Params: u.Query(), ConnectTimeout: DefaultConnectTimeout}
	if e.foldParams {
		folded := url.Values{}
		for k, v := range t.Params {
			folded[strings.ToLower(k)] = append(folded[strings.ToLower(k)], v...)
		}
		t.Params = folded
	}
	if t.Host == "" {
		t.Host = "127.0.0.1"
	}
	if e.instancePath {
		t.Instance = strings.Trim(u.Path, "/")
		if t.Instance != "" && u.Port() == "" {
			t.Port = 0 // the instance's port is asked of the server's browser service
		}
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Errorf("target port %q is not a port number", p)
		}
		t.Port = n
	}
	if u.User != nil {
		t.User = u.User.Username()
		t.password, _ = u.User.Password()
	}
	if p := t.Params.Get("password"); p != "" && t.password == "" {
		t.password = p // libpq's form; kept out of the parameters passed on and printed
	}
	t.Params.Del("password")
	if e.dbParam != "" {
		t.Database = t.Params.Get(e.dbParam)
		t.Params.Del(e.dbParam)
	} else {
		t.Database = strings.TrimPrefix(u.Path, "/")
	}
	if t.password == "" {
		t.password = os.Getenv(PasswordEnv)
	}
	if err := e.checkParams(t.Params); err != nil {
		return nil, err
	}
	if t.User == "" {
		t.User = e.DefaultUser
	}
	if t.Database == "" {
		if e.dbParam != "" {
			return nil, fmt.Errorf("%s target has no database name: add it to the URL, e.g. %s://%s@%s:%d?%s=dbdyno", e.Name, e.Name, t.User, t.Host, e.DefaultPort, e.dbParam)
		}
		return nil, fmt.Errorf("%s target has no database name: add it to the URL, e.g. %s://%s@%s:%d/dbdyno", e.Name, e.Name, t.User, t.Host, t.Port)
	}
	return t, nil
}

// String is the URL with the password redacted.
func (t *Target) String() string {
	if t.Engine.Embedded {
		return t.Engine.Name + "://" + t.Path
	}
	u := url.URL{Scheme: t.Engine.Name, Host: t.Host, Path: "/" + t.Database}
	if t.Port > 0 {
		u.Host = net.JoinHostPort(t.Host, strconv.Itoa(t.Port))
	}
	if t.password != "" {
		u.User = url.UserPassword(t.User, "xxxxx")
	} else {
		u.User = url.User(t.User)
	}
	q := redactParams(t.Params)
	if t.Engine.dbParam != "" {
		u.Path = ""
		if t.Instance != "" {
			u.Path = "/" + t.Instance
		}
		q.Set(t.Engine.dbParam, t.Database)
	}
	if len(q) > 0 {
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// secretParams are URL parameters that carry credentials: their values are never printed.
var secretParams = map[string]bool{"password": true, "sslpassword": true, "passwd": true, "pwd": true, "token": true,
	"access_token": true, "secret": true, "client_secret": true}

func redactParams(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		if secretParams[strings.ToLower(k)] {
			v = []string{"xxxxx"}
		}
		out[k] = v
	}
	return out
}

// checkParams refuses URL parameters the engine does not take, so that none is silently ignored (a TLS
// setting above all).
func (e *Engine) checkParams(q url.Values) error {
	for k := range q {
		if !e.params[k] {
			var known []string
			for p := range e.params {
				known = append(known, p)
			}
			sort.Strings(known)
			if len(known) == 0 {
				return fmt.Errorf("%s targets take no URL parameters (got %q)", e.Name, k)
			}
			return fmt.Errorf("%s targets take no URL parameter %q: use %s", e.Name, k, strings.Join(known, ", "))
		}
	}
	return nil
}

// Scrub removes the password and every credential parameter's value from a message, in case a driver echoes
// them.
func (t *Target) Scrub(s string) string {
	if t == nil {
		return s
	}
	if len(t.password) >= 3 {
		s = strings.ReplaceAll(s, t.password, "xxxxx")
	}
	for k, vs := range t.Params {
		if secretParams[strings.ToLower(k)] {
			for _, v := range vs {
				if len(v) >= 3 {
					s = strings.ReplaceAll(s, v, "xxxxx")
				}
			}
		}
	}
	return s
}

// WithDatabase is the same server with another database.
func (t *Target) WithDatabase(name string) *Target {
	c := *t
	c.Database = name
	return &c
}

// Local reports whether the database runs on this machine (an embedded engine, or a server on a loopback
// address or a local socket): then this machine's metrics show the database's load too.
func (t *Target) Local() bool {
	if t.Engine.Embedded {
		return true
	}
	h := strings.ToLower(t.Host)
	return h == "localhost" || strings.HasPrefix(h, "127.") || h == "::1" || strings.HasPrefix(h, "/")
}

// LocalCores says a host core count is this machine's: the database runs here.
const LocalCores = result.LocalCores

// HostCores are the physical cores of the machine the database runs on and where that figure came from, when
// it can be told: this machine's (machineCores) when the database runs here, else the engine's own answer
// where its catalog has one (a host_cores statement); 0 when neither can tell.
func (t *Target) HostCores(ctx context.Context, q Queryer, machineCores int) (int, string) {
	if t.Local() && machineCores > 0 {
		return machineCores, LocalCores
	}
	if st, ok := t.Engine.catalog.Set()["host_cores"]; ok && q != nil {
		var n int
		if err := q.QueryRowContext(ctx, st.SQL).Scan(&n); err == nil && n > 0 {
			return n, t.Engine.Title + " (" + st.Name + ")"
		}
	}
	return 0, ""
}

// Open opens the target as a database/sql handle and checks that it answers. Every engine is opened this one
// way; PostgreSQL connections can be driven below database/sql with Pgx.
func (t *Target) Open(ctx context.Context) (*sql.DB, error) {
	db, err := t.Engine.open(ctx, t)
	if err != nil {
		return nil, t.ConnectError(err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, t.ConnectError(err)
	}
	return db, nil
}

// Beside returns the target of database name on the same server, creating that database when it is missing
// (side databases for tests and for workloads whose tables would collide). t's own database must exist.
func (t *Target) Beside(ctx context.Context, name string) (*Target, error) {
	if t.Engine.Embedded {
		return nil, fmt.Errorf("%s has no server to hold another database", t.Engine.Name)
	}
	db, err := t.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	st := t.Engine.stmt("database_exists")
	var n int
	if err := db.QueryRowContext(ctx, st.SQL, st.Args([]any{name})...).Scan(&n); err != nil {
		return nil, err
	}
	if n == 0 {
		if _, err := db.ExecContext(ctx, strings.ReplaceAll(t.Engine.stmt("create_database").SQL, "{name}", ident(name))); err != nil {
			return nil, err
		}
	}
	return t.WithDatabase(name), nil
}

// ConnectError explains a failed connection attempt in one line with the fix.
func (t *Target) ConnectError(err error) error {
	if t.Engine.Embedded {
		return fmt.Errorf("cannot open %s file %s: %s: check the path and its directory's permissions", t.Engine.Name, t.Path, t.Scrub(err.Error()))
	}
	where := fmt.Sprintf("%s at %s:%d", t.Engine.Name, t.Host, t.Port)
	msg := t.Scrub(err.Error())
	switch t.Engine.classify(err) {
	case AuthFailed:
		return fmt.Errorf("%s: %s for user %q: check the password in --target or %s", where, t.Engine.denied, t.User, PasswordEnv)
	case NoDatabase:
		return fmt.Errorf("%s: database %q does not exist: create it (CREATE DATABASE %s) or name another in --target", where, t.Database, t.Database)
	}
	switch {
	case strings.Contains(msg, "connection refused"):
		return fmt.Errorf("cannot connect to %s: connection refused: is the server running and listening there? check --target", where)
	case strings.Contains(msg, "no such host"):
		return fmt.Errorf("cannot connect to %s: unknown host %q: check --target", where, t.Host)
	case strings.Contains(msg, "timeout"):
		return fmt.Errorf("cannot connect to %s: timed out: check the host, port and firewall in --target (or give --connect-timeout more)", where)
	case strings.Contains(msg, "unexpected message") || strings.Contains(msg, "unknown message type") || strings.Contains(msg, "%!") || strings.Contains(msg, "malformed packet") ||
		strings.Contains(msg, "invalid packet") || strings.Contains(msg, "protocol"):
		return fmt.Errorf("cannot connect to %s: the server there does not answer as %s: is the port another server's? check --target", where, t.Engine.Title)
	}
	if i := strings.LastIndex(msg, ": "); i > 0 && len(msg) > 200 {
		msg = msg[i+2:]
	}
	return fmt.Errorf("cannot connect to %s: %s", where, msg)
}

// Redact returns raw with any URL password replaced; other text is returned unchanged.
func Redact(raw string) string {
	if !strings.Contains(raw, "://") {
		return raw
	}
	scheme, rest, _ := strings.Cut(raw, "://")
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		// whatever the URL's shape, the part before the last @ after the first : is the password
		if colon := strings.Index(rest[:at], ":"); colon >= 0 {
			rest = rest[:colon] + ":xxxxx" + rest[at:]
		}
	}
	if path, query, ok := strings.Cut(rest, "?"); ok {
		if q, err := url.ParseQuery(query); err == nil {
			rest = path + "?" + redactParams(q).Encode()
		} else {
			rest = path + "?xxxxx"
		}
	}
	return scheme + "://" + rest
}

// RedactArgs redacts every argument that carries a URL password (either "--target=URL" or "URL").
func RedactArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			out[i] = k + "=" + Redact(v)
		} else {
			out[i] = Redact(a)
		}
	}
	return out
}

// Package target parses target URLs, opens connections to the supported engines and turns driver errors into
// messages that name the problem and the fix. Passwords never leave this package in printable form.
package target

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/dbdyno/dbdyno/internal/rawconn"
	"io"
	"log"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" database/sql driver
	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

func init() {
	// The MySQL driver logs lost connections to stderr on its own; dbdyno reports and counts them itself.
	mysql.SetLogger(log.New(io.Discard, "", 0))
}

// Engine names a database engine family.
type Engine string

const (
	SQLite   Engine = "sqlite"
	DuckDB   Engine = "duckdb"
	Postgres Engine = "postgres"
	MySQL    Engine = "mysql"
)

// PasswordEnv is the environment variable that supplies a password missing from the URL.
const PasswordEnv = "DBDYNO_PASSWORD"

// DefaultSQLite is the default embedded target for the OLTP workload.
const DefaultSQLite = "sqlite://dbdyno.db"

// DefaultDuckDB is the default embedded target for the analytic workload.
const DefaultDuckDB = "duckdb://dbdyno-tpch.duckdb"

// Target is a parsed --target URL.
type Target struct {
	Engine   Engine
	Path     string // SQLite file
	Host     string
	Port     int
	User     string
	password string
	Database string
	Params   url.Values
}

// Parse reads a target URL: sqlite:///abs/file.db, sqlite://rel.db, postgres://user:pass@host:port/db,
// mysql://user:pass@host:port/db. A password missing from the URL is taken from DBDYNO_PASSWORD.
func Parse(raw string) (*Target, error) {
	if raw == "" {
		return nil, errors.New("empty --target: give a URL such as sqlite://dbdyno.db or postgres://user@host:5432/db")
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil, fmt.Errorf("target %q is not a URL: use sqlite://FILE, postgres://USER@HOST:PORT/DB or mysql://USER@HOST:PORT/DB", Redact(raw))
	}
	switch strings.ToLower(scheme) {
	case "sqlite", "sqlite3":
		path, query, _ := strings.Cut(rest, "?")
		if path == "" {
			return nil, errors.New("sqlite target has no file name: use sqlite://dbdyno.db or sqlite:///abs/path.db")
		}
		q, _ := url.ParseQuery(query)
		return &Target{Engine: SQLite, Path: path, Params: q}, nil
	case "duckdb":
		path, query, _ := strings.Cut(rest, "?")
		if path == "" {
			return nil, errors.New("duckdb target has no file name: use duckdb://dbdyno-tpch.duckdb or duckdb:///abs/path.duckdb")
		}
		q, _ := url.ParseQuery(query)
		return &Target{Engine: DuckDB, Path: path, Params: q}, nil
	case "postgres", "postgresql", "pg":
		return parseServer(Postgres, raw, 5432)
	case "mysql", "mariadb":
		return parseServer(MySQL, raw, 3306)
	default:
		return nil, fmt.Errorf("unknown target scheme %q: use sqlite://, duckdb://, postgres:// or mysql://", scheme)
	}
}

func parseServer(e Engine, raw string, defPort int) (*Target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("target URL %q is malformed: %v", Redact(raw), errors.Unwrap(err))
	}
	t := &Target{Engine: e, Host: u.Hostname(), Port: defPort, Params: u.Query()}
	if t.Host == "" {
		t.Host = "127.0.0.1"
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
	if t.password == "" {
		t.password = os.Getenv(PasswordEnv)
	}
	if t.User == "" {
		if e == Postgres {
			t.User = "postgres"
		} else {
			t.User = "root"
		}
	}
	t.Database = strings.TrimPrefix(u.Path, "/")
	if t.Database == "" {
		return nil, fmt.Errorf("%s target has no database name: add it to the URL, e.g. %s://%s@%s:%d/dbdyno", e, e, t.User, t.Host, t.Port)
	}
	return t, nil
}

// String is the URL with the password redacted.
func (t *Target) String() string {
	if t.Engine == SQLite || t.Engine == DuckDB {
		return string(t.Engine) + "://" + t.Path
	}
	u := url.URL{Scheme: string(t.Engine), Host: net.JoinHostPort(t.Host, strconv.Itoa(t.Port)), Path: "/" + t.Database}
	if t.password != "" {
		u.User = url.UserPassword(t.User, "xxxxx")
	} else {
		u.User = url.User(t.User)
	}
	if len(t.Params) > 0 {
		u.RawQuery = t.Params.Encode()
	}
	return u.String()
}

// Scrub removes the password from a message, in case a driver echoes it.
func (t *Target) Scrub(s string) string {
	if t == nil || len(t.password) < 3 {
		return s
	}
	return strings.ReplaceAll(s, t.password, "xxxxx")
}

// Redact returns raw with any URL password replaced; other text is returned unchanged.
func Redact(raw string) string {
	if !strings.Contains(raw, "://") || !strings.Contains(raw, "@") {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		// Do not risk printing a secret from a malformed URL.
		scheme, rest, _ := strings.Cut(raw, "://")
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			if colon := strings.Index(rest[:at], ":"); colon >= 0 {
				return scheme + "://" + rest[:colon] + ":xxxxx" + rest[at:]
			}
		}
		return raw
	}
	return u.Redacted()
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

// SQLiteDSN is the modernc.org/sqlite DSN: WAL, a busy timeout and BEGIN IMMEDIATE transactions, so that
// concurrent writers queue instead of failing.
func (t *Target) SQLiteDSN() string {
	return "file:" + t.Path + "?_pragma=busy_timeout(30000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(0)&_txlock=immediate"
}

// PgConfig is the pgx connection configuration.
func (t *Target) PgConfig() (*pgx.ConnConfig, error) {
	cfg, err := pgx.ParseConfig("")
	if err != nil {
		return nil, err
	}
	cfg.Host, cfg.Port, cfg.User, cfg.Password, cfg.Database = t.Host, uint16(t.Port), t.User, t.password, t.Database
	cfg.ConnectTimeout = 10 * time.Second
	cfg.RuntimeParams["application_name"] = "dbdyno"
	cfg.DialFunc = rawconn.NewDialer(5 * time.Minute).DialContext
	if sm := t.Params.Get("sslmode"); sm == "" || sm == "disable" {
		cfg.TLSConfig = nil
		cfg.Fallbacks = nil
	} else {
		c2, err := pgx.ParseConfig("sslmode=" + sm + " host=" + t.Host)
		if err != nil {
			return nil, fmt.Errorf("sslmode %q: %w", sm, err)
		}
		cfg.TLSConfig = c2.TLSConfig
	}
	return cfg, nil
}

// MySQLConfig is the go-sql-driver/mysql configuration.
func (t *Target) MySQLConfig() *mysql.Config {
	c := mysql.NewConfig()
	c.User, c.Passwd, c.DBName = t.User, t.password, t.Database
	c.Net, c.Addr = "tcp", net.JoinHostPort(t.Host, strconv.Itoa(t.Port))
	c.ParseTime = true
	c.Timeout = 10 * time.Second
	c.AllowNativePasswords = true
	c.DialFunc = rawconn.NewDialer(0).DialContext
	c.Params = map[string]string{}
	return c
}

// OpenDB opens a database/sql handle (SQLite, MySQL; PostgreSQL is opened with pgx by the caller) and checks
// that the server answers.
func (t *Target) OpenDB(ctx context.Context) (*sql.DB, error) {
	var db *sql.DB
	switch t.Engine {
	case SQLite:
		var err error
		if db, err = sql.Open("sqlite", t.SQLiteDSN()); err != nil {
			return nil, err
		}
	case DuckDB:
		var err error
		if db, err = sql.Open("duckdb", t.Path); err != nil {
			return nil, t.ConnectError(err)
		}
	case MySQL:
		conn, err := mysql.NewConnector(t.MySQLConfig())
		if err != nil {
			return nil, err
		}
		db = sql.OpenDB(conn)
	default:
		return nil, fmt.Errorf("OpenDB: engine %s is opened with pgx", t.Engine)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, t.ConnectError(err)
	}
	return db, nil
}

// ConnectPg opens one pgx connection.
func (t *Target) ConnectPg(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := t.PgConfig()
	if err != nil {
		return nil, err
	}
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, t.ConnectError(err)
	}
	return c, nil
}

// ConnectError explains a failed connection attempt in one line with the fix.
func (t *Target) ConnectError(err error) error {
	where := fmt.Sprintf("%s at %s:%d", t.Engine, t.Host, t.Port)
	if t.Engine == SQLite || t.Engine == DuckDB {
		return fmt.Errorf("cannot open %s file %s: %s: check the path and its directory's permissions", t.Engine, t.Path, t.Scrub(err.Error()))
	}
	var pgErr *pgconn.PgError
	var myErr *mysql.MySQLError
	msg := t.Scrub(err.Error())
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "28P01", errors.As(err, &pgErr) && pgErr.Code == "28000":
		return fmt.Errorf("%s: authentication failed for user %q: check the password in --target or %s", where, t.User, PasswordEnv)
	case errors.As(err, &pgErr) && pgErr.Code == "3D000":
		return fmt.Errorf("%s: database %q does not exist: create it (CREATE DATABASE %s) or name another in --target", where, t.Database, t.Database)
	case errors.As(err, &myErr) && myErr.Number == 1045:
		return fmt.Errorf("%s: access denied for user %q: check the password in --target or %s", where, t.User, PasswordEnv)
	case errors.As(err, &myErr) && myErr.Number == 1049:
		return fmt.Errorf("%s: database %q does not exist: create it (CREATE DATABASE %s) or name another in --target", where, t.Database, t.Database)
	case strings.Contains(msg, "connection refused"):
		return fmt.Errorf("cannot connect to %s: connection refused: is the server running and listening there? check --target", where)
	case strings.Contains(msg, "no such host"):
		return fmt.Errorf("cannot connect to %s: unknown host %q: check --target", where, t.Host)
	case strings.Contains(msg, "timeout"), strings.Contains(msg, "i/o timeout"):
		return fmt.Errorf("cannot connect to %s: timed out: check the host, port and firewall in --target", where)
	}
	if i := strings.LastIndex(msg, ": "); i > 0 && len(msg) > 200 {
		msg = msg[i+2:]
	}
	return fmt.Errorf("cannot connect to %s: %s", where, msg)
}

package engine

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

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
	// Schema is the schema the target's sessions work in (--schema, SetSchema); "" for the default one.
	Schema   string
	Instance string // a named server instance (SQL Server's HOST/INSTANCE)
	Params   url.Values
	// ConnectTimeout bounds each new connection to a server, handshake and login included (default 10 s).
	ConnectTimeout time.Duration
	// server is what the server was found to be at the first connection (distributed.go), shared by the copies.
	server *server
	// Existing says the database must exist already (commands that work on what a build made: runs, checks,
	// validate, drop): Open refuses an embedded target's missing file instead of creating an empty one.
	Existing bool
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
	t := &Target{Engine: e, Host: u.Hostname(), Port: e.DefaultPort, Params: u.Query(), ConnectTimeout: DefaultConnectTimeout, server: &server{}}
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
	if s, ok := t.Params["schema"]; ok { // the URL's form of --schema (a target names its dataset's schema)
		t.Params.Del("schema")
		if err := t.SetSchema(strings.Join(s, ",")); err != nil {
			return nil, err
		}
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
	if t.Schema != "" && t.Engine.Schemas != SchemaDatabase {
		q.Set("schema", t.Schema)
	}
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

// WithDatabase is the same server with another database, in that database's default schema.
func (t *Target) WithDatabase(name string) *Target {
	c := *t
	c.Database, c.Schema = name, ""
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

// HostCores are the physical cores of the machine the database runs on and where that figure came from, when
// it can be told: this machine's (machineCores, source local) when the database runs here, else the engine's
// own answer where its catalog has one (a host_cores statement); 0 when neither can tell.
func (t *Target) HostCores(ctx context.Context, q Queryer, machineCores int, local string) (int, string) {
	if t.Local() && machineCores > 0 {
		return machineCores, local
	}
	if st, ok := t.Engine.catalog.Set()["host_cores"]; ok && q != nil {
		var n int
		if err := q.QueryRowContext(ctx, st.SQL).Scan(&n); err == nil && n > 0 {
			return n, t.Engine.Title + " (" + st.Name + ")"
		}
	}
	return 0, ""
}

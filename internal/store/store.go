// Package store keeps every result: by default in a local SQLite file (results.db in the user's data directory,
// see DefaultLocation), or, given a postgres:// URL, in a database on a PostgreSQL server that shards on many
// hosts and a team share. Both hold the same tables, made by the same numbered migrations (sql/ENGINE/NNNN_*.sql,
// recorded in schema_version): the whole JSON document of each run and the columns needed to list, find and
// compare runs, and monitor's recordings. Writes are transactions, so a crash or Ctrl-C never leaves a
// half-written result; concurrent writers each add their own rows. Every statement of the store is in
// sql/generic/store.sql, overridden per engine in sql/ENGINE/store.sql.
package store

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// DefaultPath is the store used unless --store says otherwise (DefaultLocation, resolved once at start).
var DefaultPath = DefaultLocation()

// DefaultLocation is where the results store lives unless --store says otherwise, one per user whatever the
// working directory: $DBDYNO_STORE (a file, or a server's URL: a team's shared store); else
// $XDG_DATA_HOME/dbdyno/results.db; else ~/.local/share/dbdyno/results.db; else (no home directory)
// dbdyno-results.db in the working directory. A file's path is absolute (a relative $XDG_DATA_HOME is ignored,
// as the XDG specification says). Open creates its directory (0700).
func DefaultLocation() string {
	if p := os.Getenv("DBDYNO_STORE"); p != "" {
		if IsURL(p) {
			return p
		}
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
		return p
	}
	if d, ok := dataDir(); ok {
		return filepath.Join(d, "results.db")
	}
	if abs, err := filepath.Abs("dbdyno-results.db"); err == nil {
		return abs
	}
	return "dbdyno-results.db"
}

// LocalDir is this user's dbdyno data directory, where the default store's file is unless $DBDYNO_STORE names
// another, and where what belongs to this machine is kept beside a server's store (plan journals):
// $XDG_DATA_HOME/dbdyno, else ~/.local/share/dbdyno, else the working directory.
func LocalDir() string {
	if d, ok := dataDir(); ok {
		return d
	}
	if abs, err := filepath.Abs("."); err == nil {
		return abs
	}
	return "."
}

func dataDir() (string, bool) {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "dbdyno"), true
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.IsAbs(home) {
		return filepath.Join(home, ".local", "share", "dbdyno"), true
	}
	return "", false
}

// compatibility is the store_meta schema_version this dbdyno reads: the numbered migrations (sql/ENGINE/NNNN_*.sql,
// the same numbers on every engine, each recorded in the schema_version table) add what is missing, so an older
// dbdyno, which never reads what a later migration added, keeps working on a newer store; a migration older
// dbdynos cannot read through changes the compatibility level instead.
const compatibility = "1"

//go:embed sql
var sqlFS embed.FS

// migration is one numbered step of the store's schema.
type migration struct {
	version int
	name    string // the file's name: 0002_monitor_samples.sql
	stmts   []string
}

// migrations reads an engine's numbered migrations, in order.
func migrations(e *engine.Engine) ([]migration, error) {
	ents, err := fs.ReadDir(sqlFS, "sql/"+e.Name)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, d := range ents {
		m := migrationRe.FindStringSubmatch(d.Name())
		if m == nil {
			continue
		}
		v, _ := strconv.Atoi(m[1])
		f, err := sqlfile.Overlay(sqlFS, e.Name, d.Name(), e.Placeholder)
		if err != nil {
			return nil, err
		}
		if len(out) > 0 && out[len(out)-1].version == v || v != len(out)+1 {
			return nil, fmt.Errorf("store migrations of %s: %s is not number %d", e.Name, d.Name(), len(out)+1)
		}
		out = append(out, migration{version: v, name: d.Name(), stmts: f.SQL()})
	}
	return out, nil
}

var migrationRe = regexp.MustCompile(`^([0-9]{4})_[a-z0-9_]+\.sql$`)

// Store is an open results store: a SQLite file, or a database on a PostgreSQL server (a postgres:// URL), the
// same tables on both.
type Store struct {
	db     *sql.DB
	eng    *engine.Engine
	stmt   sqlfile.Set
	target *engine.Target // a server's store; nil for a file
	where  string         // for messages: the file, or the URL without its password
}

// busyWait is how long opening a store is tried again while another process is creating it.
const busyWait = 15 * time.Second

// OpTimeout bounds each statement on a server's store (connecting is bounded by the connect timeout): a server
// that stops answering fails the command rather than hanging it.
var OpTimeout = 2 * time.Minute

// ConnectTimeout bounds each new connection to a server's store, handshake and login included.
var ConnectTimeout = engine.DefaultConnectTimeout

// FlagHelp is --store's help.
const FlagHelp = "results store: a SQLite file, or a postgres://USER@HOST:PORT/DB URL (a shared store; password in the URL or DBDYNO_PASSWORD)"

// IsURL says whether a --store value names a server's store (postgres://...) rather than a SQLite file.
func IsURL(loc string) bool { return strings.Contains(loc, "://") }

// Display is a --store value as it may be printed: a URL without its password.
func Display(loc string) string { return engine.Redact(loc) }

// IsTarget says whether a server's store at loc is the database of target t (the same engine, server and
// database): a benchmark's tables and load would go in among the results.
func IsTarget(loc string, t *engine.Target) bool {
	if !IsURL(loc) || t == nil || t.Engine.Embedded {
		return false
	}
	st, err := engine.Parse(loc)
	if err != nil || st.Engine.Embedded {
		return false
	}
	return st.Engine == t.Engine && strings.EqualFold(st.Host, t.Host) && st.Port == t.Port && st.Database == t.Database
}

// Exists says whether there is a store at loc to read from: a file that exists; a server's store is asked when
// it is opened.
func Exists(loc string) bool {
	if IsURL(loc) {
		return true
	}
	_, err := os.Stat(loc)
	return err == nil
}

// Open opens (creating if needed) the store at loc: a SQLite file's path (or sqlite://FILE), or a PostgreSQL
// database's URL (postgres://USER[:PASS]@HOST:PORT/DB, the password also from DBDYNO_PASSWORD). Processes
// opening one new SQLite store at the same time can find it locked while another turns it to WAL (SQLite does
// not wait for that lock): opening is tried again for up to busyWait.
func Open(ctx context.Context, loc string) (*Store, error) {
	if IsURL(loc) {
		t, err := engine.Parse(loc)
		if err != nil {
			return nil, fmt.Errorf("results store %s: %w", Display(loc), err)
		}
		switch {
		case !Supports(t.Engine):
			return nil, fmt.Errorf("results store %s: a store is a SQLite file or a postgres:// URL, not a %s database: choose another --store", Display(loc), t.Engine.Title)
		case t.Engine.Embedded:
			loc = t.Path
		default:
			s, err := openServer(ctx, t)
			if err != nil {
				return nil, fmt.Errorf("results store %s: %w", t, err)
			}
			return s, nil
		}
	}
	path := loc
	if dir := filepath.Dir(path); path == DefaultPath {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			// the default store's own directory (dbdyno/ in the user's data directory): only its owner reads the
			// results; a --store elsewhere names a directory that exists
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return nil, fmt.Errorf("results store %s: %w", path, err)
			}
		}
	}
	if err := checkFile(path); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(busyWait)
	for pause := 20 * time.Millisecond; ; pause = min(2*pause, time.Second) {
		s, err := open(ctx, path)
		if err == nil || !errors.Is(err, errBusy) || time.Now().After(deadline) {
			if err != nil {
				if why := checkFile(path); why != nil {
					return nil, why
				}
				if why := checkWritable(path); why != nil {
					return nil, why
				}
				return nil, fmt.Errorf("results store %s: %w", path, err)
			}
			return s, nil
		}
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

var errBusy = errors.New("the store is busy")

func newStore(db *sql.DB, e *engine.Engine, where string) (*Store, error) {
	f, err := sqlfile.Overlay(sqlFS, e.Name, "store.sql", e.Placeholder)
	if err != nil {
		return nil, err
	}
	return &Store{db: db, eng: e, stmt: f.Set(), where: where}, nil
}

func open(ctx context.Context, path string) (*Store, error) {
	db, err := sql.Open(engine.SQLiteDriver, "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	sqlite, _ := engine.Lookup(engine.SQLiteDriver)
	s, err := newStore(db, sqlite, path)
	if err != nil {
		db.Close()
		return nil, err
	}
	if err := s.init(ctx); err != nil {
		db.Close()
		if sqlite.Classify(err) == engine.Retryable {
			return nil, fmt.Errorf("%w: %v", errBusy, err)
		}
		return nil, err
	}
	return s, nil
}

// openServer opens a store on a PostgreSQL server: connecting within the target's connect timeout, every
// statement within OpTimeout, the password scrubbed from every error.
func openServer(ctx context.Context, t *engine.Target) (*Store, error) {
	t.ConnectTimeout = ConnectTimeout
	cctx, cancel := context.WithTimeout(ctx, t.ConnectTimeout+OpTimeout)
	defer cancel()
	db, err := t.Open(cctx)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	s, err := newStore(db, t.Engine, t.String())
	if err != nil {
		db.Close()
		return nil, err
	}
	s.target = t
	if err := s.init(cctx); err != nil {
		db.Close()
		return nil, s.scrub(err)
	}
	return s, nil
}

// Where is the store as it may be printed: its file, or its URL without the password.
func (s *Store) Where() string { return s.where }

// scrub keeps a server store's password out of an error.
func (s *Store) scrub(err error) error {
	if err == nil || s.target == nil {
		return err
	}
	if m := s.target.Scrub(err.Error()); m != err.Error() {
		return errors.New(m)
	}
	return err
}

// op bounds one statement on a server's store.
func (s *Store) op(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.target == nil {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, OpTimeout)
}

// st is the store engine's statement of that name.
func (s *Store) st(name string) *sqlfile.Statement {
	st, ok := s.stmt[name]
	if !ok {
		panic("store: no statement " + name + " for " + s.eng.Name)
	}
	return st
}

func (s *Store) exec(ctx context.Context, q execer, name string, args ...any) (sql.Result, error) {
	st := s.st(name)
	return q.ExecContext(ctx, st.SQL, st.Args(args)...)
}

func (s *Store) query(ctx context.Context, q execer, name string, args ...any) (*sql.Rows, error) {
	st := s.st(name)
	return q.QueryContext(ctx, st.SQL, st.Args(args)...)
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// init runs the migrations the store lacks, in one transaction that processes opening one store at the same time
// queue for (SQLite: BEGIN IMMEDIATE; PostgreSQL: an advisory lock), so each then finds what the first made.
func (s *Store) init(ctx context.Context) error {
	steps, err := migrations(s.eng)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil) // SQLite: BEGIN IMMEDIATE (see open)
	if err != nil {
		return fmt.Errorf("not a dbdyno results store (%w): choose another --store", err)
	}
	defer tx.Rollback()
	if _, ok := s.stmt["lock"]; ok {
		if _, err := s.exec(ctx, tx, "lock"); err != nil {
			return err
		}
	}
	// a database with tables but none of a store's is someone's database: never add tables to it
	var tables, ours int
	if err := tx.QueryRowContext(ctx, s.st("tables").SQL).Scan(&tables, &ours); err != nil {
		return fmt.Errorf("not a dbdyno results store (%w): choose another --store", err)
	}
	if tables > 0 && ours == 0 {
		return fmt.Errorf("not a dbdyno results store (it holds %d other table(s)): choose another --store", tables)
	}
	if _, err := s.exec(ctx, tx, "create_schema_version"); err != nil {
		return err
	}
	applied := map[int]bool{}
	rows, err := s.query(ctx, tx, "applied_versions")
	if err != nil {
		return err
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return err
		}
		applied[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	// a store made before schema_version existed had every migration's tables made IF NOT EXISTS at each open:
	// running them again finds them there
	for _, m := range steps {
		if applied[m.version] {
			continue
		}
		for _, q := range m.stmts {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("store migration %s: %w", m.name, err)
			}
		}
		if _, err := s.exec(ctx, tx, "record_version", m.version, strings.TrimSuffix(m.name, ".sql"), time.Now().UTC().Format(time.RFC3339)); err != nil {
			return err
		}
	}
	var v string
	if err := tx.QueryRowContext(ctx, s.st("meta_version").SQL).Scan(&v); err != nil {
		return err
	}
	if v != compatibility {
		return fmt.Errorf("store schema version %s is not supported by this dbdyno (it reads version %s): use a newer dbdyno or another --store", v, compatibility)
	}
	return tx.Commit()
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// Add records a result in one transaction.
func (s *Store) Add(ctx context.Context, r *result.Result, headline string) error {
	row, err := rowOf(r, headline)
	if err != nil {
		return err
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	if _, err := s.exec(ctx, s.db, "add_result", row.args()...); err != nil {
		return fmt.Errorf("recording run %s in the results store: %w", r.RunID, s.scrub(err))
	}
	return nil
}

// row is one stored run as its columns hold it.
type row struct {
	Entry
	Document string
}

func (r *row) args() []any {
	return []any{r.RunID, r.Workload, r.Engine, r.Target, r.Status, r.StartedAt, r.GroupID, r.Labels, r.Headline, r.Document}
}

func rowOf(r *result.Result, headline string) (*row, error) {
	doc, err := r.Marshal()
	if err != nil {
		return nil, err
	}
	labels, _ := json.Marshal(r.Labels)
	if r.Labels == nil {
		labels = []byte("{}")
	}
	group := ""
	if r.Group != nil {
		group = r.Group.ID
	}
	return &row{Entry: Entry{RunID: r.RunID, Workload: r.Workload, Engine: r.Target.Engine, Target: r.Target.URL, Status: r.Status,
		StartedAt: r.StartedAt.UTC().Format("2006-01-02T15:04:05Z"), GroupID: group, Labels: string(labels), Headline: headline},
		Document: string(doc)}, nil
}

// Entry is one stored run's summary.
type Entry struct {
	Seq       int64
	RunID     string
	Workload  string
	Engine    string
	Target    string
	Status    string
	StartedAt string
	GroupID   string
	Labels    string
	Headline  string
}

// Filter selects runs: every non-empty field must match; Label and each of Labels is "key=value" (--label,
// repeatable: every one must match).
type Filter struct {
	Workload string
	Group    string
	Label    string
	Labels   []string
}

// Supports says whether a store can be kept on the engine: those with their statements in sql/ENGINE/.
func Supports(e *engine.Engine) bool {
	_, err := fs.Stat(sqlFS, "sql/"+e.Name+"/store.sql")
	return err == nil
}

// List returns the runs that match, oldest first.
func (s *Store) List(ctx context.Context, f Filter) ([]Entry, error) {
	want := map[string]string{}
	for _, l := range append([]string{f.Label}, f.Labels...) {
		if l == "" {
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("--label %q: use key=value", l)
		}
		if old, dup := want[k]; dup && old != v {
			return nil, nil // no run has two values of one label
		}
		want[k] = v
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	rows, err := s.query(ctx, s.db, "list", f.Workload, f.Group)
	if err != nil {
		return nil, s.scrub(err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.Seq, &e.RunID, &e.Workload, &e.Engine, &e.Target, &e.Status, &e.StartedAt, &e.GroupID, &e.Labels, &e.Headline); err != nil {
			return nil, s.scrub(err)
		}
		if hasLabels(e.Labels, want) {
			out = append(out, e)
		}
	}
	return out, s.scrub(rows.Err())
}

// hasLabels says whether a run's labels (a JSON object) hold every wanted key=value (a label's value as text:
// 4 matches the number 4 and the string "4").
func hasLabels(labels string, want map[string]string) bool {
	if len(want) == 0 {
		return true
	}
	var have map[string]any
	if json.Unmarshal([]byte(labels), &have) != nil {
		return false
	}
	for k, v := range want {
		got, ok := have[k]
		if !ok {
			return false
		}
		switch g := got.(type) {
		case string:
			ok = g == v
		case nil:
			ok = false
		default:
			b, _ := json.Marshal(g)
			ok = string(b) == v
		}
		if !ok {
			return false
		}
	}
	return true
}

// ErrNotFound means no stored run matches a reference.
var ErrNotFound = errors.New("no such run in the results store")

// rows returns the stored runs a reference names: a run ID, a store sequence number, a group ID (all of its
// runs), or a prefix of one run ID. A prefix that more than one run ID starts with is an error naming them.
func (s *Store) rows(ctx context.Context, ref string) ([]*row, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	rs, err := s.scan(ctx, "get", ref)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		if rs, err = s.scan(ctx, "get_prefix", likePrefix(ref)); err != nil {
			return nil, err
		}
		if len(rs) > 1 {
			var shown []string
			for i, r := range rs {
				if i == 5 {
					shown = append(shown, "...")
					break
				}
				shown = append(shown, r.RunID)
			}
			return nil, fmt.Errorf("%q is the start of %d run IDs (%s): give more of the one you mean, or a group ID", ref, len(rs), strings.Join(shown, ", "))
		}
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("%w: %q (see 'dbdyno results list')", ErrNotFound, ref)
	}
	return rs, nil
}

func (s *Store) scan(ctx context.Context, name string, args ...any) ([]*row, error) {
	rows, err := s.query(ctx, s.db, name, args...)
	if err != nil {
		return nil, s.scrub(err)
	}
	defer rows.Close()
	var out []*row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.Seq, &r.RunID, &r.Workload, &r.Engine, &r.Target, &r.Status, &r.StartedAt, &r.GroupID, &r.Labels, &r.Headline, &r.Document); err != nil {
			return nil, s.scrub(err)
		}
		out = append(out, &r)
	}
	return out, s.scrub(rows.Err())
}

// Get returns the results a reference names: a run ID, a store sequence number, a group ID (all of its runs),
// or a prefix of one run ID. A prefix that more than one run ID starts with is an error naming them.
func (s *Store) Get(ctx context.Context, ref string) ([]*result.Result, error) {
	rs, err := s.rows(ctx, ref)
	if err != nil {
		return nil, err
	}
	var out []*result.Result
	var broken *BrokenError
	for _, row := range rs {
		r, err := result.Parse([]byte(row.Document))
		if err != nil {
			if broken == nil {
				broken = &BrokenError{}
			}
			broken.Runs = append(broken.Runs, fmt.Sprintf("%s (%v)", row.RunID, err))
			continue
		}
		out = append(out, r)
	}
	if broken != nil {
		return out, broken
	}
	return out, nil
}

// BrokenError names the stored runs whose documents could not be read; the runs that could are returned with
// it.
type BrokenError struct{ Runs []string }

func (e *BrokenError) Error() string {
	return fmt.Sprintf("%d stored run(s) cannot be read: %s", len(e.Runs), strings.Join(e.Runs, "; "))
}

func likePrefix(ref string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(ref) + "%"
}

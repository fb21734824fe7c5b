// Package store keeps every result in a local SQLite file (default results.db in the user's data directory,
// see DefaultLocation): the whole JSON document
// and the columns needed to list, find and compare runs. Writes are transactions, so a crash or Ctrl-C never
// leaves a half-written result.
package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// DefaultPath is the store used unless --store says otherwise (DefaultLocation, resolved once at start).
var DefaultPath = DefaultLocation()

// DefaultLocation is where the results store lives unless --store says otherwise, one per user whatever the
// working directory: $DBDYNO_STORE; else $XDG_DATA_HOME/dbdyno/results.db; else
// ~/.local/share/dbdyno/results.db; else (no home directory) dbdyno-results.db in the working directory. The
// path is absolute (a relative $XDG_DATA_HOME is ignored, as the XDG specification says). Open creates its
// directory (0700).
func DefaultLocation() string {
	if p := os.Getenv("DBDYNO_STORE"); p != "" {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
		return p
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "dbdyno", "results.db")
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.IsAbs(home) {
		return filepath.Join(home, ".local", "share", "dbdyno", "results.db")
	}
	if abs, err := filepath.Abs("dbdyno-results.db"); err == nil {
		return abs
	}
	return "dbdyno-results.db"
}

const schemaVersion = "1"

// additive are the store's migrations within a schema version: tables and indexes added after the version was
// released, each created when missing (IF NOT EXISTS), so that opening an older store of the same version adds
// them and an older dbdyno, which never reads them, keeps working on a newer store. A change that is not
// additive (a column's meaning, a dropped table) is a new schemaVersion instead.
var additive = []string{
	// dbdyno monitor's recordings: one row per interval, its JSON document (monitor.Sample)
	`CREATE TABLE IF NOT EXISTS monitor_samples (
		name TEXT NOT NULL,
		at_ns INTEGER NOT NULL,
		document TEXT NOT NULL,
		PRIMARY KEY (name, at_ns))`,
}

// Store is an open results store.
type Store struct{ db *sql.DB }

// busyWait is how long opening a store is tried again while another process is creating it.
const busyWait = 15 * time.Second

// Open opens (creating if needed) the store at path. Processes opening one new store at the same time can
// find it locked while another turns it to WAL (SQLite does not wait for that lock): opening is tried again
// for up to busyWait.
func Open(ctx context.Context, path string) (*Store, error) {
	if dir := filepath.Dir(path); path == DefaultPath {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			// the default store's own directory (dbdyno/ in the user's data directory): only its owner reads the
			// results; a --store elsewhere names a directory that exists
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return nil, fmt.Errorf("results store %s: %w", path, err)
			}
		}
	}
	deadline := time.Now().Add(busyWait)
	for pause := 20 * time.Millisecond; ; pause = min(2*pause, time.Second) {
		s, err := open(ctx, path)
		if err == nil || !errors.Is(err, errBusy) || time.Now().After(deadline) {
			if err != nil {
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

func open(ctx context.Context, path string) (*Store, error) {
	db, err := sql.Open(engine.SQLiteDriver, "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	s := &Store{db: db}
	if err := s.init(ctx); err != nil {
		db.Close()
		if sqlite, _ := engine.Lookup(engine.SQLiteDriver); sqlite.Classify(err) == engine.Retryable {
			return nil, fmt.Errorf("%w: %v", errBusy, err)
		}
		return nil, err
	}
	return s, nil
}

// init creates the store's tables when missing, in one immediate transaction so that processes creating one
// store at the same time queue for it (each then finds the tables and the version the first wrote).
func (s *Store) init(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (see Open)
	if err != nil {
		return fmt.Errorf("not a dbdyno results store (%w): choose another --store", err)
	}
	defer tx.Rollback()
	// a file with tables but none of a store's is someone's database: never add tables to it
	var tables, ours int
	err = tx.QueryRowContext(ctx, `SELECT count(*), count(CASE WHEN name = 'store_meta' THEN 1 END) FROM sqlite_master WHERE type = 'table'`).Scan(&tables, &ours)
	if err != nil {
		return fmt.Errorf("not a dbdyno results store (%w): choose another --store", err)
	}
	if tables > 0 && ours == 0 {
		return fmt.Errorf("not a dbdyno results store (it holds %d other table(s)): choose another --store", tables)
	}
	for _, q := range []string{
		`CREATE TABLE IF NOT EXISTS store_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS results (
			seq INTEGER PRIMARY KEY AUTOINCREMENT,
			run_id TEXT NOT NULL UNIQUE,
			workload TEXT NOT NULL,
			engine TEXT NOT NULL,
			target TEXT NOT NULL,
			status TEXT NOT NULL,
			started_at TEXT NOT NULL,
			group_id TEXT NOT NULL DEFAULT '',
			labels TEXT NOT NULL DEFAULT '{}',
			headline TEXT NOT NULL DEFAULT '',
			document TEXT NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS results_group ON results (group_id)`,
		`INSERT OR IGNORE INTO store_meta (k, v) VALUES ('schema_version', '` + schemaVersion + `')`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	for _, q := range additive {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	var v string
	if err := tx.QueryRowContext(ctx, `SELECT v FROM store_meta WHERE k = 'schema_version'`).Scan(&v); err != nil {
		return err
	}
	if v != schemaVersion {
		return fmt.Errorf("store schema version %s is not supported by this dbdyno (it reads version %s): use a newer dbdyno or another --store", v, schemaVersion)
	}
	return tx.Commit()
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// Add records a result in one transaction.
func (s *Store) Add(ctx context.Context, r *result.Result, headline string) error {
	doc, err := r.Marshal()
	if err != nil {
		return err
	}
	labels, _ := json.Marshal(r.Labels)
	if r.Labels == nil {
		labels = []byte("{}")
	}
	group := ""
	if r.Group != nil {
		group = r.Group.ID
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO results (run_id, workload, engine, target, status, started_at, group_id, labels, headline, document)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.RunID, r.Workload, r.Target.Engine, r.Target.URL, r.Status,
		r.StartedAt.UTC().Format("2006-01-02T15:04:05Z"), group, string(labels), headline, string(doc))
	if err != nil {
		return fmt.Errorf("recording run %s in the results store: %w", r.RunID, err)
	}
	return tx.Commit()
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

// List returns the runs that match, oldest first.
func (s *Store) List(ctx context.Context, f Filter) ([]Entry, error) {
	q := `SELECT seq, run_id, workload, engine, target, status, started_at, group_id, labels, headline FROM results WHERE 1 = 1`
	var args []any
	if f.Workload != "" {
		q += ` AND workload = ?`
		args = append(args, f.Workload)
	}
	if f.Group != "" {
		q += ` AND group_id = ?`
		args = append(args, f.Group)
	}
	for _, l := range append([]string{f.Label}, f.Labels...) {
		if l == "" {
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("--label %q: use key=value", l)
		}
		q += ` AND (json_extract(labels, '$.' || ?) = ? OR CAST(json_extract(labels, '$.' || ?) AS TEXT) = ?)`
		args = append(args, k, v, k, v)
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY seq`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.Seq, &e.RunID, &e.Workload, &e.Engine, &e.Target, &e.Status, &e.StartedAt, &e.GroupID, &e.Labels, &e.Headline); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// ErrNotFound means no stored run matches a reference.
var ErrNotFound = errors.New("no such run in the results store")

// Get returns the results a reference names: a run ID, a store sequence number, a group ID (all of its runs),
// or a prefix of one run ID. A prefix that more than one run ID starts with is an error naming them.
func (s *Store) Get(ctx context.Context, ref string) ([]*result.Result, error) {
	docs, ids, err := s.docs(ctx, `SELECT document, run_id FROM results WHERE run_id = ? OR group_id = ? OR CAST(seq AS TEXT) = ? ORDER BY seq`, ref, ref, ref)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		if docs, ids, err = s.docs(ctx, `SELECT document, run_id FROM results WHERE run_id LIKE ? ESCAPE '\' ORDER BY seq`, likePrefix(ref)); err != nil {
			return nil, err
		}
		if len(docs) > 1 {
			shown := ids
			if len(shown) > 5 {
				shown = append(shown[:5:5], "...")
			}
			return nil, fmt.Errorf("%q is the start of %d run IDs (%s): give more of the one you mean, or a group ID", ref, len(ids), strings.Join(shown, ", "))
		}
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("%w: %q (see 'dbdyno results list')", ErrNotFound, ref)
	}
	var out []*result.Result
	var broken *BrokenError
	for i, d := range docs {
		r, err := result.Parse([]byte(d))
		if err != nil {
			if broken == nil {
				broken = &BrokenError{}
			}
			broken.Runs = append(broken.Runs, fmt.Sprintf("%s (%v)", ids[i], err))
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

func (s *Store) docs(ctx context.Context, q string, args ...any) (docs, ids []string, err error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var d, id string
		if err := rows.Scan(&d, &id); err != nil {
			return nil, nil, err
		}
		docs, ids = append(docs, d), append(ids, id)
	}
	return docs, ids, rows.Err()
}

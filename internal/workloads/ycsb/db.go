package ycsb

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing/fstest"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

//go:embed sql
var sqlFS embed.FS

// metaTable is dbdyno's build record of YCSB's table (bulk's dbdyno_WORKLOAD_meta).
const metaTable = "dbdyno_ycsb_meta"

// Layout is what YCSB's table looks like: its name and its field columns.
type Layout struct {
	Table   string
	Columns []string
}

// DefaultLayout is YCSB's default table: usertable with FIELD0 .. FIELD9.
var DefaultLayout = Layout{Table: "usertable", Columns: (&Config{FieldCount: 10, FieldPrefix: "FIELD"}).Columns()}

// LayoutOf is a configuration's table.
func LayoutOf(cfg *Config) Layout { return Layout{Table: cfg.Table, Columns: cfg.Columns()} }

func (l Layout) key() string { return l.Table + ":" + strings.Join(l.Columns, ",") }

// param is a column's argument name in the statement files (lower case: field0).
func param(col string) string { return strings.ToLower(col) }

var (
	columnsRe = regexp.MustCompile(`\{\{columns ([^}]+)\}\}`)
	repeatRe  = regexp.MustCompile(`\{\{n\}\}`)
	layoutFS  sync.Map // Layout.key() -> fs.FS
)

// FS is the package's statement files for a layout: each file of sql/ with {{table}} the table's name,
// {{columns}} its field columns (FIELD0, FIELD1 ...), {{columns TYPE}} their definitions, {{params}} and
// {{values}} the fields' arguments (field0, ... and :field0, ...), {{sets}} an UPDATE of every field, {{any_null}}
// a test of any field being NULL; and a statement whose name holds {{n}} repeated once for each field n, with
// {{column}} that field's column. The files then read as any statement files do (sqlfile.Overlay).
func (l Layout) FS() fs.FS {
	if f, ok := layoutFS.Load(l.key()); ok {
		return f.(fs.FS)
	}
	out := fstest.MapFS{}
	err := fs.WalkDir(sqlFS, "sql", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := sqlFS.ReadFile(path)
		if err != nil {
			return err
		}
		out[path] = &fstest.MapFile{Data: []byte(l.expand(string(b))), Mode: 0o444}
		return nil
	})
	if err != nil {
		panic(err) // the embedded files are part of the build
	}
	f, _ := layoutFS.LoadOrStore(l.key(), fs.FS(out))
	return f.(fs.FS)
}

// expand writes a statement file's templates out for the layout.
func (l Layout) expand(text string) string {
	var b strings.Builder
	// statements named with {{n}}, once per field
	blocks := splitStatements(text)
	for _, blk := range blocks {
		if !repeatRe.MatchString(blk) {
			b.WriteString(blk)
			continue
		}
		for i, c := range l.Columns {
			s := repeatRe.ReplaceAllString(blk, strconv.Itoa(i))
			b.WriteString(strings.ReplaceAll(s, "{{column}}", c))
		}
	}
	text = b.String()
	params, values, sets, nulls := make([]string, len(l.Columns)), make([]string, len(l.Columns)), make([]string, len(l.Columns)), make([]string, len(l.Columns))
	for i, c := range l.Columns {
		params[i], values[i], sets[i], nulls[i] = param(c), ":"+param(c), c+" = :"+param(c), c+" IS NULL"
	}
	text = columnsRe.ReplaceAllStringFunc(text, func(m string) string {
		typ := columnsRe.FindStringSubmatch(m)[1]
		defs := make([]string, len(l.Columns))
		for i, c := range l.Columns {
			defs[i] = c + " " + typ
		}
		return strings.Join(defs, ", ")
	})
	return strings.NewReplacer("{{table}}", l.Table, "{{columns}}", strings.Join(l.Columns, ", "), "{{params}}", strings.Join(params, ", "),
		"{{values}}", strings.Join(values, ", "), "{{sets}}", strings.Join(sets, ", "), "{{any_null}}", strings.Join(nulls, " OR ")).Replace(text)
}

// splitStatements cuts a statement file before each "-- name:" header (the comment lines above a header go
// with the statement before it).
func splitStatements(text string) []string {
	var out []string
	lines := strings.SplitAfter(text, "\n")
	cur := ""
	for _, ln := range lines {
		if strings.HasPrefix(strings.TrimSpace(ln), "-- name:") && cur != "" {
			out = append(out, cur)
			cur = ""
		}
		cur += ln
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// Dataset is YCSB's table and dbdyno's record of it, in a layout.
func (l Layout) Dataset() *bulk.Dataset {
	return &bulk.Dataset{Workload: "ycsb", Title: "YCSB", Command: "dbdyno ycsb", Tables: []string{l.Table, metaTable}, FS: l.FS(),
		Grows: []string{l.Table}}
}

// Dataset is the default layout's, registered so that other workloads' builds tell YCSB's tables from a user's.
var Dataset = DefaultLayout.Dataset()

// Files lists every statement the workload runs on an engine with YCSB's default table, file by file, as it runs
// them (dbdyno sql).
func Files(e *engine.Engine) ([]*sqlfile.File, error) {
	return sqlfile.OverlayFiles(DefaultLayout.FS(), e.Name, []string{"schema.sql", "tx.sql", "admin.sql", "drop.sql"}, e.Placeholder)
}

// DB is an open YCSB target: the table's dataset and the operations' statements.
type DB struct {
	T      *engine.Target
	Layout Layout
	Data   *bulk.DB
	Stmts  sqlfile.Set // tx.sql and admin.sql
}

// Open opens a target for a layout.
func Open(ctx context.Context, t *engine.Target, l Layout) (*DB, error) {
	files, err := sqlfile.OverlayFiles(l.FS(), t.Engine.Name, []string{"tx.sql", "admin.sql"}, t.Engine.Placeholder)
	if err != nil {
		return nil, err
	}
	data, err := bulk.Open(ctx, l.Dataset(), t)
	if err != nil {
		return nil, err
	}
	return &DB{T: t, Layout: l, Data: data, Stmts: sqlfile.Merge(files)}, nil
}

// OpenRecorded opens a target in the layout its build record names (the default layout where there is none):
// check and drop work on what a load made, whatever properties are given.
func OpenRecorded(ctx context.Context, t *engine.Target) (*DB, error) {
	db, err := Open(ctx, t, DefaultLayout)
	if err != nil {
		return nil, err
	}
	rec, err := db.Record(ctx)
	if err != nil || rec == nil || rec.Layout.key() == DefaultLayout.key() {
		if err != nil {
			db.Close()
		}
		return db, err
	}
	db.Close()
	return Open(ctx, t, rec.Layout)
}

// Close releases the connections (and the dataset's lock, where it holds it).
func (db *DB) Close() { db.Data.Close() }

// ServerVersion is the engine's version string.
func (db *DB) ServerVersion(ctx context.Context) string { return db.Data.ServerVersion(ctx) }

// DropCommand drops YCSB's table and its record as `dbdyno ycsb drop` does.
func (db *DB) DropCommand(ctx context.Context, out io.Writer) error {
	return db.Data.DropCommand(ctx, out)
}

// Record is what dbdyno's build record says of YCSB's table: the properties it was loaded with, the key ranges
// loads finished, where runs' inserts go on from.
type Record struct {
	Status      string // "loading" or "ready"
	Layout      Layout
	RecordCount int64
	Ordered     bool
	ZeroPadding int
	Loaded      [][2]int64 // [start, end) ranges of key numbers that loads finished, merged, in order
	NextInsert  int64      // the next key number a run inserts (0: recordcount)
}

// Record keys.
const (
	keyStatus      = "status"
	keyTable       = "table"
	keyFieldCount  = "fieldcount"
	keyPrefix      = "fieldnameprefix"
	keyRecordCount = "recordcount"
	keyOrder       = "insertorder"
	keyPadding     = "zeropadding"
	keyFieldLength = "fieldlength"
	keyNextInsert  = "next_insert"
	keyLoaded      = "loaded." // loaded.START = COUNT
)

// exists says whether YCSB's table and dbdyno's record are there.
func (db *DB) exists(ctx context.Context) (table, meta bool, err error) {
	if table, err = db.T.Engine.TableExists(ctx, db.Data.SQL, db.Layout.Table); err != nil {
		return
	}
	meta, err = db.T.Engine.TableExists(ctx, db.Data.SQL, metaTable)
	return
}

// Record reads the build record; nil when there is none.
func (db *DB) Record(ctx context.Context) (*Record, error) {
	if ok, err := db.T.Engine.TableExists(ctx, db.Data.SQL, metaTable); err != nil || !ok {
		return nil, err
	}
	r := &Record{}
	get := func(k string) string { v, _ := db.Data.Meta(ctx, k); return v }
	r.Status = get(keyStatus)
	r.Layout.Table = get(keyTable)
	n, err1 := strconv.Atoi(get(keyFieldCount))
	prefix := get(keyPrefix)
	var err2, err3 error
	r.RecordCount, err2 = strconv.ParseInt(get(keyRecordCount), 10, 64)
	r.Ordered = get(keyOrder) == "ordered"
	r.ZeroPadding, err3 = strconv.Atoi(get(keyPadding))
	if err := errors.Join(err1, err2, err3); err != nil || r.Layout.Table == "" || prefix == "" {
		return nil, fmt.Errorf("%s: dbdyno's record of YCSB's table is incomplete (a load that never got going): load again with 'dbdyno ycsb load --drop'", db.T)
	}
	r.Layout.Columns = (&Config{FieldCount: n, FieldPrefix: prefix}).Columns()
	if v := get(keyNextInsert); v != "" {
		r.NextInsert, _ = strconv.ParseInt(v, 10, 64)
	}
	st := db.Stmts["meta_loaded"]
	rows, err := db.Data.SQL.QueryContext(ctx, st.SQL)
	if err != nil {
		return nil, fmt.Errorf("reading dbdyno's record of YCSB's table: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		start, err1 := strconv.ParseInt(strings.TrimPrefix(k, keyLoaded), 10, 64)
		count, err2 := strconv.ParseInt(v, 10, 64)
		if err1 == nil && err2 == nil {
			r.Loaded = append(r.Loaded, [2]int64{start, start + count})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	r.Loaded = mergeRanges(r.Loaded)
	return r, nil
}

// mergeRanges merges [start, end) ranges that touch or overlap, in order.
func mergeRanges(in [][2]int64) [][2]int64 {
	sort.Slice(in, func(i, j int) bool { return in[i][0] < in[j][0] })
	var out [][2]int64
	for _, r := range in {
		if n := len(out); n > 0 && r[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

// Covers says whether the loads finished every key number of [start, end).
func (r *Record) Covers(start, end int64) bool {
	for _, l := range r.Loaded {
		if l[0] <= start && end <= l[1] {
			return true
		}
	}
	return start >= end
}

// LoadedRecords counts the key numbers the loads finished.
func (r *Record) LoadedRecords() int64 {
	var n int64
	for _, l := range r.Loaded {
		n += l[1] - l[0]
	}
	return n
}

func (r *Record) loadedText() string {
	if len(r.Loaded) == 0 {
		return "none"
	}
	var s []string
	for _, l := range r.Loaded {
		s = append(s, fmt.Sprintf("%d..%d", l[0], l[1]-1))
	}
	return strings.Join(s, ", ")
}

// agrees refuses a configuration that differs from the one the table was loaded with in what makes its keys
// and fields: the property, both values, and the fix.
func (r *Record) agrees(cfg *Config) error {
	type prop struct {
		name       string
		have, want string
	}
	for _, p := range []prop{
		{"table", r.Layout.Table, cfg.Table},
		{"fieldcount", strconv.Itoa(len(r.Layout.Columns)), strconv.Itoa(cfg.FieldCount)},
		{"fieldnameprefix", strings.TrimSuffix(r.Layout.Columns[0], "0"), cfg.FieldPrefix},
		{"recordcount", strconv.FormatInt(r.RecordCount, 10), strconv.FormatInt(cfg.RecordCount, 10)},
		{"insertorder", map[bool]string{true: "ordered", false: "hashed"}[r.Ordered], map[bool]string{true: "ordered", false: "hashed"}[cfg.Ordered]},
		{"zeropadding", strconv.Itoa(r.ZeroPadding), strconv.Itoa(cfg.ZeroPadding)},
	} {
		if !strings.EqualFold(p.have, p.want) {
			return fmt.Errorf("%s=%s, but YCSB's table %s was loaded with %s=%s: give -p %s=%s as the load did, or load again with those properties and --drop",
				p.name, p.want, r.Layout.Table, p.name, p.have, p.name, p.have)
		}
	}
	return nil
}

// putRecord writes the properties of a new load into the build record.
func (db *DB) putRecord(ctx context.Context, cfg *Config) error {
	for _, kv := range [][2]string{{keyStatus, "loading"}, {keyTable, cfg.Table},
		{keyFieldCount, strconv.Itoa(cfg.FieldCount)}, {keyPrefix, cfg.FieldPrefix}, {keyRecordCount, strconv.FormatInt(cfg.RecordCount, 10)},
		{keyOrder, map[bool]string{true: "ordered", false: "hashed"}[cfg.Ordered]}, {keyPadding, strconv.Itoa(cfg.ZeroPadding)},
		{keyFieldLength, strconv.Itoa(cfg.FieldLength)}} {
		if err := db.Data.PutMeta(ctx, kv[0], kv[1]); err != nil {
			return fmt.Errorf("recording the load: %w", err)
		}
	}
	return nil
}

// finishLoad records a load's range as finished and marks the table ready once the loads cover every record.
func (db *DB) finishLoad(ctx context.Context, start, count int64) (*Record, error) {
	if err := db.Data.PutMeta(ctx, keyLoaded+strconv.FormatInt(start, 10), strconv.FormatInt(count, 10)); err != nil {
		return nil, err
	}
	return db.markReady(ctx)
}

// markReady marks the table ready when the loads cover every record (a load of several drivers: the last to
// finish, or the next run, finds them all).
func (db *DB) markReady(ctx context.Context) (*Record, error) {
	rec, err := db.Record(ctx)
	if err != nil || rec == nil {
		return rec, err
	}
	if rec.Status != "ready" && rec.Covers(0, rec.RecordCount) {
		if err := db.Data.PutMeta(ctx, keyStatus, "ready"); err != nil {
			return nil, err
		}
		rec.Status = "ready"
	}
	return rec, nil
}

// keyExists says whether a record of that key is in the table.
func (db *DB) keyExists(ctx context.Context, key string) (bool, error) {
	st := db.Stmts["key_exists"]
	var one int
	err := db.Data.SQL.QueryRowContext(ctx, st.SQL, st.Args([]any{key})...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// count runs a statement that returns one number.
func (db *DB) count(ctx context.Context, name string) (int64, error) {
	var n int64
	if err := db.Data.SQL.QueryRowContext(ctx, db.Stmts[name].SQL).Scan(&n); err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return n, nil
}

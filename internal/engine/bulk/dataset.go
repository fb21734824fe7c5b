package bulk

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/abort"
	"github.com/dbdyno/dbdyno/internal/lib/progress"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/shirou/gopsutil/v4/disk"
)

// Dataset is a workload's tables and the statement files that make and remove them, in its FS:
// sql/generic/FILE with sql/ENGINE/FILE overriding by name (sqlfile.Overlay). The files are schema.sql (the
// build record's table dbdyno_WORKLOAD_meta among them), indexes.sql, procs.sql (engines with stored
// procedures; optional), drop.sql, and admin.sql with the build record's meta_get(k), meta_put(k, v) and
// meta_delete(k).
type Dataset struct {
	Workload string // "tpcc": the build record is dbdyno_tpcc_meta; messages name 'dbdyno tpcc build'
	Title    string // "TPC-C"
	Tables   []string
	FS       fs.FS
	// Parts, when set, is the name format of numbered tables that also belong to the dataset
	// ("dbdyno_probe_read_%d"): a build makes Build.Parts of them, numbered from 1, and each statement of its
	// files that holds {{part}} runs once per part with the part's name in its place.
	Parts string
	// Command is how messages name the workload's commands ("dbdyno probe read"; default "dbdyno WORKLOAD").
	Command string
	// Grows lists the tables a run inserts into and never deletes from: a run's start check (Ready) wants at
	// least the rows the build loaded there. Churns lists those a run inserts into and deletes from: their rows
	// are not compared, only when the build record has the key ChurnsWith if that is set (TPC-H's applied
	// update sets). Every other table must hold exactly the rows the build loaded; the numbered tables (Parts)
	// churn.
	Grows, Churns []string
	ChurnsWith    string
	// Static lists the tables whose contents no run changes (TPC-C's item): the build records a checksum of
	// each (engine.TableChecksum), which the check verbs compare (DB.Contents); a run's start check does not.
	Static []string
}

func (d *Dataset) command() string {
	if d.Command != "" {
		return d.Command
	}
	return "dbdyno " + d.Workload
}

// PartName is the name of numbered table n (from 1).
func (d *Dataset) PartName(n int) string { return fmt.Sprintf(d.Parts, n) }

// owns says whether a table of that name is the dataset's: one of its tables or a numbered part.
func (d *Dataset) owns(table string) bool {
	if slices.Contains(d.Tables, table) {
		return true
	}
	if d.Parts != "" {
		var n int
		if _, err := fmt.Sscanf(table, d.Parts, &n); err == nil && d.PartName(n) == table {
			return true
		}
	}
	return false
}

var datasets []*Dataset

// Register makes a dataset known, so that another workload's build can tell its tables from a user's.
func Register(d *Dataset) *Dataset {
	datasets = append(datasets, d)
	return d
}

func (d *Dataset) metaTable() string { return "dbdyno_" + d.Workload + "_meta" }

// Has reports whether the dataset has a statement file for the engine (procs.sql and other layouts of the
// indexes, such as indexes_columnstore.sql, are optional).
func (d *Dataset) Has(e *engine.Engine, name string) bool { return d.has(e, name) }

func (d *Dataset) has(e *engine.Engine, name string) bool {
	_, err := sqlfile.Overlay(d.FS, e.Name, name, e.Placeholder)
	return !errors.Is(err, fs.ErrNotExist)
}

// Files is the dataset's statement files as they run on an engine, for `dbdyno sql`.
func (d *Dataset) Files(e *engine.Engine) ([]*sqlfile.File, error) {
	var out []*sqlfile.File
	for _, name := range []string{"schema.sql", "indexes.sql", "indexes_columnstore.sql", "procs.sql", "drop.sql", "admin.sql"} {
		if name == "procs.sql" && !(e.Procedures && d.has(e, name)) || name == "indexes_columnstore.sql" && !d.has(e, name) {
			continue
		}
		f, err := sqlfile.Overlay(d.FS, e.Name, name, e.Placeholder)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// DB is a dataset's target, open.
type DB struct {
	D     *Dataset
	T     *engine.Target
	SQL   *sql.DB
	set   sqlfile.Set // admin.sql
	parts int         // the numbered tables there are (Dataset.Parts): found, or being built
	// lock is the dataset's lock while this DB holds it (Ready: shared; Build, Drop: exclusive), until Close.
	lock      *engine.Lock
	exclusive bool // the lock is a build's or drop's
	verified  bool // Ready's start check passed
	owner     *DB  // whose lock the tables are under instead of their own (LockedBy)
}

// Parts is how many numbered tables the dataset has in the target (read by Ready, Drop and Build).
func (db *DB) Parts() int { return db.parts }

// PartNames lists the numbered tables the dataset has in the target.
func (db *DB) PartNames() []string {
	var out []string
	for i := 1; i <= db.parts; i++ {
		out = append(out, db.D.PartName(i))
	}
	return out
}

// Open opens a dataset's target.
func Open(ctx context.Context, d *Dataset, t *engine.Target) (*DB, error) {
	admin, err := sqlfile.Overlay(d.FS, t.Engine.Name, "admin.sql", t.Engine.Placeholder)
	if err != nil {
		return nil, err
	}
	db, err := t.Open(ctx)
	if err != nil {
		return nil, err
	}
	out := &DB{D: d, T: t, SQL: db, set: sqlfile.Set{}}
	for _, st := range admin.Statements {
		out.set[st.Name] = out.expand(st)[0]
	}
	return out, nil
}

// Close gives up the dataset's lock and closes the target.
func (db *DB) Close() {
	db.lock.Release()
	db.lock = nil
	db.SQL.Close()
}

// ServerVersion is the engine's version string.
func (db *DB) ServerVersion(ctx context.Context) string {
	return db.T.Engine.ServerVersion(ctx, db.SQL)
}

// Script runs a statement file's statements in order.
func (db *DB) Script(ctx context.Context, q engine.Queryer, name string) error {
	sts, err := db.statements(name)
	if err != nil {
		return err
	}
	for _, st := range sts {
		if err := db.exec(ctx, q, name, st); err != nil {
			return err
		}
	}
	return nil
}

// statements are a statement file's statements as they run on the dataset.
func (db *DB) statements(name string) ([]*sqlfile.Statement, error) {
	f, err := sqlfile.Overlay(db.D.FS, db.T.Engine.Name, name, db.T.Engine.Placeholder)
	if err != nil {
		return nil, err
	}
	var out []*sqlfile.Statement
	for _, st := range f.Statements {
		out = append(out, db.expand(st)...)
	}
	return out, nil
}

func (db *DB) exec(ctx context.Context, q engine.Queryer, name string, st *sqlfile.Statement) error {
	if _, err := q.ExecContext(ctx, st.SQL); err != nil {
		first, _, _ := strings.Cut(st.SQL, "\n")
		return fmt.Errorf("%s: %s: %w", name, first, err)
	}
	return nil
}

// indexes runs the keys and indexes file on connections readied for it (the engine's index settings): on an
// engine that runs DDL on several tables at once, over threads connections taking the statements in the file's
// order (a statement on a table another one is changing waits for its lock); otherwise one after another.
func (db *DB) indexes(ctx context.Context, name string, threads int) error {
	sts, err := db.statements(name)
	if err != nil {
		return err
	}
	if threads < 2 || !db.T.Engine.ConcurrentDDL {
		threads = 1
	}
	return db.each(ctx, min(threads, len(sts)), len(sts), db.T.Engine.PrepareIndex, func(conn *sql.Conn, i int) error {
		return db.exec(ctx, conn, name, sts[i])
	})
}

// each does n jobs over threads connections of their own (each readied by prepare), in order: a connection
// takes the next job when it is free. The first error stops the rest.
func (db *DB) each(ctx context.Context, threads, n int, prepare func(context.Context, engine.Queryer), do func(conn *sql.Conn, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	queue := make(chan int, n)
	for i := range n {
		queue <- i
	}
	close(queue)
	errs := make(chan error, threads)
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := db.SQL.Conn(ctx)
			if err != nil {
				errs <- db.T.ConnectError(err)
				cancel()
				return
			}
			defer conn.Close()
			prepare(ctx, conn)
			for i := range queue {
				if ctx.Err() != nil {
					return
				}
				if err := do(conn, i); err != nil {
					errs <- err
					cancel()
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return ctx.Err()
}

// analyze gathers the optimizer's statistics for the tables: table by table over threads connections where the
// engine gathers them so and runs DDL at once, otherwise in one go.
func (db *DB) analyze(ctx context.Context, tables []string, threads int) error {
	e := db.T.Engine
	if threads < 2 || !e.ConcurrentDDL || !e.AnalyzesTables() {
		return e.Analyze(ctx, db.SQL, tables)
	}
	return db.each(ctx, min(threads, len(tables)), len(tables), func(context.Context, engine.Queryer) {}, func(conn *sql.Conn, i int) error {
		return e.Analyze(ctx, conn, tables[i:i+1])
	})
}

// expand gives a statement as it runs on the dataset: {{meta}} is its build record's table (files shared by
// several datasets name it so), and a statement holding {{part}} runs once per numbered table.
func (db *DB) expand(st *sqlfile.Statement) []*sqlfile.Statement {
	if st.Templated("meta") {
		st = st.Ident("meta", db.D.metaTable())
	}
	if !st.Templated("part") {
		return []*sqlfile.Statement{st}
	}
	var out []*sqlfile.Statement
	for _, p := range db.PartNames() {
		out = append(out, st.Ident("part", p))
	}
	return out
}

// existing lists which of the dataset's tables exist, and whether its build record does.
func (db *DB) existing(ctx context.Context) (tables []string, meta bool, err error) {
	for _, t := range db.D.Tables {
		ok, err := db.T.Engine.TableExists(ctx, db.SQL, t)
		if err != nil {
			return nil, false, fmt.Errorf("listing tables: %w", err)
		}
		if ok {
			tables = append(tables, t)
		}
	}
	if db.D.Parts != "" {
		db.parts = 0
		for {
			name := db.D.PartName(db.parts + 1)
			ok, err := db.T.Engine.TableExists(ctx, db.SQL, name)
			if err != nil {
				return nil, false, fmt.Errorf("listing tables: %w", err)
			}
			if !ok {
				break
			}
			tables = append(tables, name)
			db.parts++
		}
	}
	meta, err = db.T.Engine.TableExists(ctx, db.SQL, db.D.metaTable())
	return tables, meta, err
}

// foreign explains tables with the dataset's names that are not its build: another dbdyno workload's (TPC-C
// and TPC-H share customer and orders), or a user's.
func (db *DB) foreign(ctx context.Context, tables []string) error {
	for _, o := range datasets {
		if o == db.D {
			continue
		}
		var shared []string // the tables in the way that are o's: the owner is named by what it owns
		for _, t := range tables {
			if o.owns(t) {
				shared = append(shared, t)
			}
		}
		if len(shared) == 0 {
			continue
		}
		if ok, _ := db.T.Engine.TableExists(ctx, db.SQL, o.metaTable()); ok {
			return fmt.Errorf("%s holds dbdyno's %s tables, which share names with %s's (%s): build %s into another database",
				db.T, o.Title, db.D.Title, strings.Join(shared, ", "), db.D.Title)
		}
	}
	return fmt.Errorf("%s has tables named like %s's (%s) that dbdyno did not create: refusing to touch them; use another database",
		db.T, db.D.Title, strings.Join(tables, ", "))
}

// PutMeta records a key of the build record.
func (db *DB) PutMeta(ctx context.Context, k, v string) error {
	del, put := db.set["meta_delete"], db.set["meta_put"]
	if _, err := db.SQL.ExecContext(ctx, del.SQL, del.Args([]any{k})...); err != nil {
		return err
	}
	_, err := db.SQL.ExecContext(ctx, put.SQL, put.Args([]any{k, v})...)
	return err
}

// DeleteMeta removes a key of the build record.
func (db *DB) DeleteMeta(ctx context.Context, k string) error {
	del := db.set["meta_delete"]
	_, err := db.SQL.ExecContext(ctx, del.SQL, del.Args([]any{k})...)
	return err
}

// ErrNoMeta means a key is missing from the build record.
var ErrNoMeta = errors.New("missing from the build record")

// Meta reads a key of the build record.
func (db *DB) Meta(ctx context.Context, k string) (string, error) {
	get := db.set["meta_get"]
	var v string
	err := db.SQL.QueryRowContext(ctx, get.SQL, get.Args([]any{k})...).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("%s %w", k, ErrNoMeta)
	}
	return v, err
}

// NoSchemaError means the target has no finished build of the dataset; it says what to run.
type NoSchemaError struct{ msg string }

func (e *NoSchemaError) Error() string { return e.msg }

func noSchema(format string, args ...any) error { return &NoSchemaError{fmt.Sprintf(format, args...)} }

// Ready checks that the target holds a finished build of the dataset: every table and the build record with
// status "ready", and the tables as the build's manifest has them (a *ChangedError says what differs). It
// takes the dataset's lock, shared, until Close, so that no build or drop replaces the tables meanwhile. The
// error says what to run.
func (db *DB) Ready(ctx context.Context) error {
	if err := db.hold(ctx, false); err != nil {
		return err
	}
	tables, meta, err := db.existing(ctx)
	if err != nil {
		return err
	}
	build := fmt.Sprintf("'%s build", db.D.command())
	if !meta {
		if len(tables) > 0 {
			return noSchema("no %s schema: %v", db.D.Title, db.foreign(ctx, tables))
		}
		return noSchema("no %s schema in %s: run %s --target ...' first", db.D.Title, db.T, build)
	}
	status, err := db.Meta(ctx, "status")
	if err != nil {
		return fmt.Errorf("reading dbdyno's build record: %w: rebuild with %s --drop'", err, build)
	}
	if status != "ready" {
		return noSchema("no %s schema: the build of %s did not finish (status %q): rebuild with %s --drop'", db.D.Title, db.T, status, build)
	}
	if want, _ := db.Meta(ctx, "parts"); len(tables) != len(db.D.Tables)+db.parts || want != "" && want != fmt.Sprint(db.parts) {
		var missing []string
		for _, t := range db.D.Tables {
			if !slices.Contains(tables, t) {
				missing = append(missing, t)
			}
		}
		what := ""
		if len(missing) > 0 {
			what = " (" + strings.Join(missing, ", ") + ")"
		}
		return noSchema("no %s schema: %s lacks some %s tables%s: rebuild with %s --drop'", db.D.Title, db.T, db.D.Title, what, build)
	}
	return db.verify(ctx)
}

// Drop removes the dataset's objects, and only them: it refuses when the tables were not made by dbdyno.
func (db *DB) Drop(ctx context.Context) (bool, error) {
	if err := db.hold(ctx, true); err != nil {
		return false, err
	}
	tables, meta, err := db.existing(ctx)
	if err != nil {
		return false, err
	}
	if !meta {
		if len(tables) > 0 {
			return false, db.foreign(ctx, tables)
		}
		return false, nil
	}
	return true, db.Script(ctx, db.SQL, "drop.sql")
}

// Work is one independent part of the data, generated into a sink (a table or part of one).
type Work struct {
	Name string // for errors: "stock of warehouse 3"
	Do   func(ctx context.Context, s Sink) error
}

// Build is what a build loads and records.
type Build struct {
	Threads int
	Drop    bool
	Version string        // dbdyno's, recorded
	Record  [][2]string   // further keys of the build record, written before loading
	Work    []Work        // spread over Threads connections
	Parts   int           // numbered tables to make (Dataset.Parts), recorded as "parts"
	Rows    *atomic.Int64 // the rows written so far, which Work adds to; read for progress
	Total   int64         // the rows expected, for progress (0: unknown)
	// Tables are the tables' own counts of rows written, which Work adds to beside Rows, for progress per table
	// (optional).
	Tables []*progress.Part
	Bytes  int64 // the rows' size as text, to check an embedded database's disk first (0: unknown)
	// Indexes names the file of keys and indexes made after the load: indexes.sql unless a build option
	// chooses another layout the engine has (Dataset.Has).
	Indexes  string
	Progress io.Writer
}

// Report tells what the build did and how long each step took.
type Report struct {
	Rows                                    int64
	Load, Index, Procedures, Analyze, Total time.Duration
}

// Build creates the schema, records the build, loads the work in parallel, adds keys and indexes, installs
// the stored procedures where the engine has them, gathers statistics and marks the build ready. It refuses
// to touch existing tables unless b.Drop is set, and never drops tables dbdyno did not create.
func (db *DB) Build(ctx context.Context, b Build) (*Report, error) {
	if b.Progress == nil {
		b.Progress = io.Discard
	}
	if b.Rows == nil {
		b.Rows = &atomic.Int64{}
	}
	t0 := time.Now()
	if err := CheckSpace(ctx, db.T, b.Bytes); err != nil {
		return nil, err
	}
	if err := db.hold(ctx, true); err != nil {
		return nil, err
	}
	if why := db.held().Unheld; why != "" {
		fmt.Fprintf(b.Progress, "warning: the %s tables' lock holds nothing here (%s): no other dbdyno may build, drop or run them until this build ends\n", db.D.Title, why)
	}
	tables, meta, err := db.existing(ctx)
	if err != nil {
		return nil, err
	}
	if len(tables) > 0 && !meta {
		return nil, db.foreign(ctx, tables)
	}
	if len(tables) > 0 || meta {
		if !b.Drop {
			if meta {
				tables = append(tables, db.D.metaTable())
			}
			return nil, fmt.Errorf("%s already has %s tables (%s): add --drop to replace them, or run '%s drop'", db.T, db.D.Title, strings.Join(tables, ", "), db.D.command())
		}
		if _, err := db.Drop(ctx); err != nil {
			return nil, err
		}
		fmt.Fprintf(b.Progress, "dropped dbdyno's previous %s tables\n", db.D.Title)
	}
	db.parts = b.Parts
	if db.D.Parts != "" {
		b.Record = append(b.Record, [2]string{"parts", fmt.Sprint(b.Parts)})
	}
	if err := db.Script(ctx, db.SQL, "schema.sql"); err != nil {
		return nil, fmt.Errorf("creating the schema: %w", err)
	}
	record := append([][2]string{{"status", "loading"}, {"dbdyno_version", b.Version}, {"built_at", time.Now().UTC().Format(time.RFC3339)}}, b.Record...)
	for _, kv := range record {
		if err := db.PutMeta(ctx, kv[0], kv[1]); err != nil {
			return nil, fmt.Errorf("recording the build: %w", err)
		}
	}
	rep := &Report{}
	tl := time.Now()
	if err := db.Load(ctx, b.Threads, b.Work, b.Rows, b.Total, b.Progress, b.Tables...); err != nil {
		return nil, fmt.Errorf("loading: %w", err)
	}
	rep.Rows, rep.Load = b.Rows.Load(), time.Since(tl)
	ti := time.Now()
	if b.Indexes == "" {
		b.Indexes = "indexes.sql"
	}
	fmt.Fprintln(b.Progress, "creating keys and indexes")
	if err := db.indexes(ctx, b.Indexes, b.Threads); err != nil {
		return nil, fmt.Errorf("creating indexes: %w", err)
	}
	rep.Index = time.Since(ti)
	if db.T.Procedures(ctx) && db.D.has(db.T.Engine, "procs.sql") {
		tp := time.Now()
		if err := db.Script(ctx, db.SQL, "procs.sql"); err != nil {
			return nil, fmt.Errorf("installing stored procedures: %w", err)
		}
		rep.Procedures = time.Since(tp)
	}
	ta := time.Now()
	fmt.Fprintln(b.Progress, "gathering statistics")
	if err := db.analyze(ctx, append(append([]string{}, db.D.Tables...), db.PartNames()...), b.Threads); err != nil {
		return nil, fmt.Errorf("gathering statistics: %w", err)
	}
	rep.Analyze = time.Since(ta)
	mctx := engine.WithCatalogNotes(ctx)
	if err := db.recordManifest(mctx); err != nil {
		return nil, fmt.Errorf("recording the build's manifest: %w", err)
	}
	// what a distributed SQL product did not answer of the manifest's catalog reads: said, not left out silently
	notes := engine.CatalogNotCollected(mctx)
	for _, st := range slices.Sorted(maps.Keys(notes)) {
		fmt.Fprintf(b.Progress, "the build's manifest has no %s (%s): runs and checks do not compare it\n", st, notes[st])
	}
	if err := db.PutMeta(ctx, "status", "ready"); err != nil {
		return nil, err
	}
	rep.Total = time.Since(t0)
	return rep, nil
}

// InTx runs fn in one transaction on one connection: fn writes rows through sink, the engine's bulk path as a
// build takes it but without the engine's load settings (a run's loads, such as TPC-H's refresh functions, must
// leave the instance as its queries run it), and runs its other statements on tx. The transaction commits when
// fn returns nil; otherwise nothing fn wrote stays.
func (db *DB) InTx(ctx context.Context, fn func(tx *sql.Tx, sink Sink) error) error {
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		return db.T.ConnectError(err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // after Commit: nothing to do
	sink, err := sinkOn(ctx, db.T, conn, tx)
	if err != nil {
		return err
	}
	err = fn(tx, sink)
	if f, ok := sink.(interface{ Finish() error }); ok && err == nil {
		err = f.Finish()
	}
	sink.Close() // before the transaction ends: what it still holds goes into the transaction, or with it
	if err != nil {
		return err
	}
	return tx.Commit()
}

// Load spreads the work over threads connections, each loading through its own sink, and prints progress
// (rows, rows/s, ETA) while it goes.
func (db *DB) Load(ctx context.Context, threads int, work []Work, rows *atomic.Int64, total int64, out io.Writer, tables ...*progress.Part) error {
	if threads < 1 || db.T.Engine.SingleWriter {
		threads = 1
	}
	if out == nil {
		out = io.Discard
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	queue := make(chan Work)
	errs := make(chan error, threads)
	var wg sync.WaitGroup
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sink, err := OpenSink(ctx, db.T, db.SQL)
			if err != nil {
				errs <- err
				cancel()
				return
			}
			defer sink.Close()
			for w := range queue {
				if err := w.Do(ctx, sink); err != nil {
					errs <- fmt.Errorf("%s: %w", w.Name, err)
					cancel()
					return
				}
			}
			if f, ok := sink.(interface{ Finish() error }); ok && ctx.Err() == nil {
				if err := f.Finish(); err != nil {
					errs <- err
					cancel()
				}
			}
		}()
	}
	stop := progress.Start(out, "load", rows, total, tables...)
	go func() {
		defer close(queue)
		for _, w := range work {
			select {
			case queue <- w:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	stop()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return ctx.Err()
}

// Table generates one table (or part of it) into a sink: Begin, fill, End; it returns the rows written.
func Table(s Sink, table string, cols []string, fill func(Row) error) (int64, error) {
	r, err := s.Begin(table, cols)
	if err != nil {
		return 0, err
	}
	if err := fill(r); err != nil {
		s.End()
		return 0, err
	}
	return s.End()
}

// Summary words a build's report for the command line.
func (r *Report) Summary() string {
	procs := ""
	if r.Procedures > 0 {
		procs = fmt.Sprintf(", procedures %.1fs", r.Procedures.Seconds())
	}
	return fmt.Sprintf("built %d rows in %.1fs (load %.1fs, keys/indexes %.1fs%s, statistics %.1fs)",
		r.Rows, r.Total.Seconds(), r.Load.Seconds(), r.Index.Seconds(), procs, r.Analyze.Seconds())
}

// Interrupted turns a build error after Ctrl-C into an aborted one that says how to go on.
func Interrupted(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: build interrupted; the partial schema is marked unfinished: rebuild with --drop", abort.ErrAborted)
	}
	return err
}

// DropCommand drops the dataset as `dbdyno WORKLOAD drop` does, saying what it did.
func (db *DB) DropCommand(ctx context.Context, out io.Writer) error {
	dropped, err := db.Drop(ctx)
	if err != nil {
		return err
	}
	if dropped {
		fmt.Fprintf(out, "dropped dbdyno's %s tables from %s\n", db.D.Title, db.T)
	} else {
		fmt.Fprintf(out, "%s has no dbdyno %s tables: nothing to drop\n", db.T, db.D.Title)
	}
	return nil
}

// CheckSpace refuses a build an embedded database's disk cannot hold (rows of rawBytes as text), before
// anything is written, the database file included.
func CheckSpace(ctx context.Context, t *engine.Target, rawBytes int64) error {
	f := t.Engine.StorageFactor
	if rawBytes <= 0 || f <= 0 || !t.Engine.Embedded {
		return nil
	}
	need := uint64(float64(rawBytes) * f)
	dir := filepath.Dir(t.Path)
	u, err := disk.UsageWithContext(ctx, dir)
	if err != nil {
		return nil // the check is a courtesy: a disk whose use cannot be read is not refused
	}
	if need > u.Free {
		return fmt.Errorf("this build needs about %s on %s, which has %s free: build less (a smaller size: --warehouses, --scale, --size, --table-size, --total, --max) or choose another disk",
			units.FormatBytes(int64(need)), dir, units.FormatBytes(int64(u.Free)))
	}
	return nil
}

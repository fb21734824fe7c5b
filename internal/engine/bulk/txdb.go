package bulk

import (
	"context"
	"fmt"
	"io"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

// TxFiles are the statement files a transaction workload runs over its dataset on an engine, from the
// dataset's FS: tx.sql, and calls.sql where the engine has stored procedures.
func (d *Dataset) TxFiles(e *engine.Engine) ([]*sqlfile.File, error) {
	names := []string{"tx.sql"}
	if e.Procedures {
		names = append(names, "calls.sql")
	}
	return sqlfile.OverlayFiles(d.FS, e.Name, names, e.Placeholder)
}

// SQLFiles lists every statement a transaction workload runs on an engine, file by file, as it runs them: the
// build's, then the transactions' (for `dbdyno sql`).
func (d *Dataset) SQLFiles(e *engine.Engine) ([]*sqlfile.File, error) {
	build, err := d.Files(e)
	if err != nil {
		return nil, err
	}
	run, err := d.TxFiles(e)
	return append(build, run...), err
}

// TxDB is a transaction workload's target, open: the target, the dataset's tables there and the workload's
// statements (TxFiles) in the target's dialect. A workload's DB embeds it for Close, ServerVersion and Drop.
type TxDB struct {
	T     *engine.Target
	Data  *DB
	Stmts sqlfile.Set // tx.sql (+ calls.sql where procedures exist)
}

// OLTPOnly is the engine check of a workload of many concurrent writers: an engine not made for them (DuckDB:
// optimistic concurrency) is refused, saying what of the workload would conflict and abort.
func OLTPOnly(workload, conflicts string) func(*engine.Engine) error {
	return func(e *engine.Engine) error {
		if e.OLTP {
			return nil
		}
		return fmt.Errorf("the %s workload runs on %s targets, not %s://: %s is not made for many concurrent writers (%s instead of waiting their turn)",
			workload, engine.OLTPSchemes(), e.Name, e.Title, conflicts)
	}
}

// OpenTx opens a transaction workload's target as the workload's DB (a struct of the TxDB alone): it refuses
// an engine supported turns down, loads the statements of the engine's dialect, then connects.
func OpenTx[DB ~struct{ TxDB }](ctx context.Context, d *Dataset, t *engine.Target, supported func(*engine.Engine) error) (*DB, error) {
	if err := supported(t.Engine); err != nil {
		return nil, err
	}
	files, err := d.TxFiles(t.Engine)
	if err != nil {
		return nil, err
	}
	data, err := Open(ctx, d, t)
	if err != nil {
		return nil, err
	}
	return &DB{TxDB{T: t, Data: data, Stmts: sqlfile.Merge(files)}}, nil
}

// Close releases the connections.
func (db *TxDB) Close() { db.Data.Close() }

// Contents compares the tables no run changes with their build's checksums (DB.Contents): the check verb's.
func (db *TxDB) Contents(ctx context.Context) (compared, differ []string, err error) {
	return db.Data.Contents(ctx)
}

// ServerVersion is the engine's version string.
func (db *TxDB) ServerVersion(ctx context.Context) string { return db.Data.ServerVersion(ctx) }

// Drop removes the dataset's objects, and only them: it refuses when the tables were not made by dbdyno.
func (db *TxDB) Drop(ctx context.Context) (bool, error) { return db.Data.Drop(ctx) }

// MetaKey is a key of the build record and where ReadMeta reads its value to (fmt.Sscan).
type MetaKey struct {
	Key string
	To  []any
}

// Key is a key of the build record read to the values to (fmt.Sscan: space-separated values, one each).
func Key(k string, to ...any) MetaKey { return MetaKey{Key: k, To: to} }

// MetaError is a key of the build record that is missing or does not read.
type MetaError struct {
	Key string
	Err error
}

func (e *MetaError) Error() string { return e.Err.Error() }
func (e *MetaError) Unwrap() error { return e.Err }

// ReadMeta checks that the target holds a finished build (Ready's error as it is) and reads keys of the build
// record, in order. The first key missing or not reading stops it with a *MetaError.
func (db *DB) ReadMeta(ctx context.Context, keys ...MetaKey) error {
	if err := db.Ready(ctx); err != nil {
		return err
	}
	for _, k := range keys {
		s, err := db.Meta(ctx, k.Key)
		if err == nil {
			_, err = fmt.Sscan(s, k.To...)
		}
		if err != nil {
			return &MetaError{Key: k.Key, Err: err}
		}
	}
	return nil
}

// Opened is what a build command needs of a workload's open target.
type Opened interface {
	Close()
	ServerVersion(ctx context.Context) string
}

// BuildRun is a build command's course once its options are checked (RunBuild).
type BuildRun struct {
	Target  *engine.Target
	Out     io.Writer
	Bytes   int64  // the rows' size as text, for CheckSpace
	What    string // what the build makes, for the banner: "TPC-C schema with 1 warehouse(s)"
	Threads int
}

// RunBuild runs a build command: it refuses a build the disk cannot hold, opens the target, prints the banner
// ("building WHAT in TARGET (VERSION), N thread(s)"), builds and prints the report's summary. A build Ctrl-C
// stopped says so (Interrupted).
func RunBuild[D Opened, R interface{ Summary() string }](ctx context.Context, b BuildRun, open func(context.Context, *engine.Target) (D, error),
	build func(context.Context, D) (R, error)) error {
	if err := CheckSpace(ctx, b.Target, b.Bytes); err != nil {
		return err
	}
	db, err := open(ctx, b.Target)
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(b.Out, "building %s in %s (%s), %d thread(s)\n", b.What, b.Target, db.ServerVersion(ctx), b.Threads)
	rep, err := build(ctx, db)
	if err != nil {
		return Interrupted(ctx, err)
	}
	fmt.Fprintln(b.Out, rep.Summary())
	return nil
}

// DropCommand drops the dataset as `dbdyno WORKLOAD drop` does, saying what it did.
func (db *TxDB) DropCommand(ctx context.Context, out io.Writer) error {
	return db.Data.DropCommand(ctx, out)
}

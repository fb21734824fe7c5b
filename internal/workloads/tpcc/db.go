package tpcc

import (
	"context"
	"embed"
	"errors"
	"fmt"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/method/runner"
)

//go:embed sql
var sqlFS embed.FS

// Dataset is the TPC-C tables and the files that make them (sql/generic and sql/ENGINE).
var Dataset = &bulk.Dataset{Workload: "tpcc", Title: "TPC-C", Tables: Tables, FS: sqlFS,
	Grows: []string{THistory, TOrders, TOrderLine}, Churns: []string{TNewOrder}, Static: []string{TItem}}

// DefaultTarget is the embedded database the workload uses unless told otherwise.
const DefaultTarget = "sqlite://dbdyno.db"

// DB is an open TPC-C target: its database handle (one connection per virtual user comes from it) and the
// statements of its dialect (tx.sql + calls.sql where procedures exist).
type DB struct{ bulk.TxDB }

// Statements loads a dialect's statements (exported for tests).
func Statements(e *engine.Engine) (sqlfile.Set, error) {
	files, err := Dataset.TxFiles(e)
	if err != nil {
		return nil, err
	}
	return sqlfile.Merge(files), nil
}

// Files lists every statement the workload runs on an engine, file by file, as it runs them.
func Files(e *engine.Engine) ([]*sqlfile.File, error) { return Dataset.SQLFiles(e) }

// supported says which engines run the workload: those made for transactions.
func supported(e *engine.Engine) error {
	if e.OLTP {
		return nil
	}
	return fmt.Errorf("the tpcc workload runs on %s targets, not %s://", engine.OLTPSchemes(), e.Name)
}

// Open connects to a target.
func Open(ctx context.Context, t *engine.Target) (*DB, error) {
	return bulk.OpenTx[DB](ctx, Dataset, t, supported)
}

// Meta is what build records about the database it made.
type Meta struct {
	Warehouses int
	Seed       uint64
	C          Constants
	Version    string
}

// ReadMeta reads the build record and checks the build finished.
func (db *DB) ReadMeta(ctx context.Context) (*Meta, error) {
	m := &Meta{}
	err := db.Data.ReadMeta(ctx, bulk.Key("warehouses", &m.Warehouses), bulk.Key("constants", &m.C.CLast, &m.C.CID, &m.C.OLIID),
		bulk.Key("seed", &m.Seed))
	var bad *bulk.MetaError
	if errors.As(err, &bad) {
		return nil, fmt.Errorf("reading dbdyno's build record: %w: rebuild with 'dbdyno tpcc build --drop'", bad.Err)
	}
	if err != nil {
		return nil, err
	}
	m.Version, _ = db.Data.Meta(ctx, "dbdyno_version")
	return m, nil
}

// newSession opens a virtual user's statement session (the engine picks its path).
func (db *DB) newSession(ctx context.Context) (*engine.Session, error) {
	return runner.Connect(ctx, db.Data.SQL, db.T, db.Stmts)
}

// SumNextOrderID is sum(d_next_o_id): it grows by one for each committed New-Order. A connection lost on the
// way is replaced once.
func (db *DB) SumNextOrderID(ctx context.Context) (int64, error) {
	st := db.Stmts["sum_next_o_id"]
	var v int64
	err := db.Data.SQL.QueryRowContext(ctx, st.SQL).Scan(&v)
	if err != nil && db.connLost(err) {
		err = db.Data.SQL.QueryRowContext(ctx, st.SQL).Scan(&v)
	}
	return v, err
}

// NextOrderIDReader reads sum(d_next_o_id) on a connection opened now and kept for the reads, so that a read
// at the measured window's edge costs the query alone, not a connection's set-up while the virtual users run
// (commits during that time would count on the database's side and not the client's). close releases it;
// the reads fall back to the pool if the connection is lost.
func (db *DB) NextOrderIDReader(ctx context.Context) (read func(context.Context) (int64, error), close func(), err error) {
	conn, err := db.Data.SQL.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	st := db.Stmts["sum_next_o_id"]
	read = func(ctx context.Context) (int64, error) {
		var v int64
		err := conn.QueryRowContext(ctx, st.SQL).Scan(&v)
		if err != nil && db.connLost(err) {
			return db.SumNextOrderID(ctx)
		}
		return v, err
	}
	if _, err := read(ctx); err != nil { // warm: the statement is parsed and planned before the window
		conn.Close()
		return nil, nil, err
	}
	return read, func() { conn.Close() }, nil
}

// connLost reports an error after which the connection cannot be used again.
func (db *DB) connLost(err error) bool {
	return err != nil && db.T.Engine.Classify(err) == engine.ConnLost
}

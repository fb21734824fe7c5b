package ch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workloads/tpcc"
)

// DefaultTarget is the embedded database the workload uses unless told otherwise: a file of its own, apart from
// tpcc's, so that neither build replaces the other's tables.
const DefaultTarget = "sqlite://dbdyno-ch.db"

// DB is an open CH-benCHmark target: TPC-C's nine tables (the tpcc workload's, with its transactions'
// statements) and CH-benCHmark's three (CH's own build record).
type DB struct {
	TPCC *tpcc.DB
	CH   *bulk.DB
}

// supported says which engines run the workload: tpcc's (TPC-C's transactions need an engine made for many
// concurrent writers).
func supported(e *engine.Engine) error {
	if e.OLTP {
		return nil
	}
	return fmt.Errorf("the ch workload runs on %s targets, not %s:// (its TPC-C transactions need an engine made for many concurrent writers)", engine.OLTPSchemes(), e.Name)
}

// Open connects to a target: TPC-C's tables and CH's.
func Open(ctx context.Context, t *engine.Target) (*DB, error) {
	if err := supported(t.Engine); err != nil {
		return nil, err
	}
	tp, err := tpcc.Open(ctx, t)
	if err != nil {
		return nil, err
	}
	c, err := bulk.Open(ctx, Dataset, t)
	if err != nil {
		tp.Close()
		return nil, err
	}
	c.LockedBy(tp.Data) // one lock for the twelve tables: TPC-C's
	return &DB{TPCC: tp, CH: c}, nil
}

// Close releases the connections.
func (db *DB) Close() {
	db.CH.Close()
	db.TPCC.Close()
}

// ServerVersion is the database server's version string.
func (db *DB) ServerVersion(ctx context.Context) string { return db.TPCC.ServerVersion(ctx) }

// BuildOptions are a build's settings.
type BuildOptions struct {
	Warehouses, Threads int
	Drop                bool
	Seed                uint64
	Version             string
	Progress            io.Writer
}

// Build loads TPC-C's tables as tpcc build does, then CH-benCHmark's three, each with its own build record
// (CH's names the warehouses and seed too).
func (db *DB) Build(ctx context.Context, o BuildOptions) (*bulk.Report, error) {
	tp, err := db.TPCC.Build(ctx, tpcc.BuildOptions{Warehouses: o.Warehouses, Threads: o.Threads, Drop: o.Drop, Seed: o.Seed,
		Version: o.Version, Progress: o.Progress})
	if err != nil {
		return nil, err
	}
	if o.Progress != nil {
		fmt.Fprintln(o.Progress, "loading CH-benCHmark's supplier, nation and region")
	}
	var rows atomic.Int64
	c, err := db.CH.Build(ctx, bulk.Build{Threads: 1, Drop: o.Drop, Version: o.Version,
		Record: [][2]string{{"warehouses", fmt.Sprint(o.Warehouses)}, {"seed", fmt.Sprint(o.Seed)}},
		Work:   Work(o.Seed, &rows), Rows: &rows, Total: Rows, Progress: o.Progress})
	if err != nil {
		return nil, err
	}
	rep := tp.Report
	rep.Rows += c.Rows
	rep.Load += c.Load
	rep.Index += c.Index
	rep.Analyze += c.Analyze
	rep.Total += c.Total
	return &rep, nil
}

// Ready refuses a database without a finished CH build: TPC-C's tables alone (tpcc build) lack CH's three.
func (db *DB) Ready(ctx context.Context) error {
	if err := db.CH.Ready(ctx); err != nil {
		var none *bulk.NoSchemaError
		if errors.As(err, &none) {
			return fmt.Errorf("%s has no CH-benCHmark tables (supplier, nation, region): build them with 'dbdyno ch build --target %s' (add --drop to replace TPC-C tables tpcc build made)", db.TPCC.T, db.TPCC.T)
		}
		return err
	}
	return nil
}

// Check runs TPC-C's consistency conditions (clause 3.3.2), which the transactions keep on CH's data too.
func (db *DB) Check(ctx context.Context) ([]result.Check, error) { return db.TPCC.Check(ctx) }

// Contents compares the tables no run changes with their builds' checksums: TPC-C's item and CH's three.
func (db *DB) Contents(ctx context.Context) (compared, differ []string, err error) {
	compared, differ, err = db.TPCC.Contents(ctx)
	if err != nil {
		return nil, nil, err
	}
	c, d, err := db.CH.Contents(ctx)
	return append(compared, c...), append(differ, d...), err
}

// DropCommand drops CH's tables, then TPC-C's, saying what it did (only tables dbdyno made).
func (db *DB) DropCommand(ctx context.Context, out io.Writer) error {
	if err := db.CH.DropCommand(ctx, out); err != nil {
		return err
	}
	return db.TPCC.DropCommand(ctx, out)
}

// Files lists every statement the workload runs on an engine, file by file: TPC-C's, CH's build and its queries.
func Files(e *engine.Engine) ([]*sqlfile.File, error) {
	tp, err := tpcc.Files(e)
	if err != nil {
		return nil, err
	}
	own, err := Dataset.Files(e)
	if err != nil {
		return nil, err
	}
	q, err := sqlfile.Overlay(sqlFS, e.Name, "queries.sql", e.Placeholder)
	if err != nil {
		return nil, err
	}
	return append(append(tp, own...), q), nil
}

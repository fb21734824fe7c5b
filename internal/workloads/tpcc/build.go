package tpcc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
)

// BuildOptions are `tpcc build`'s settings.
type BuildOptions struct {
	Warehouses int
	Threads    int
	Drop       bool
	Seed       uint64
	Version    string
	Progress   io.Writer
}

// BuildReport tells what the build did and how long each step took.
type BuildReport struct {
	bulk.Report
	Constants Constants
}

// Build creates the schema and loads the initial population through the shared build lifecycle (bulk): the
// units of every warehouse spread over opts.Threads connections, each streaming into its engine's bulk path;
// then keys, indexes, procedures and statistics. It refuses to touch existing TPC-C tables unless opts.Drop is
// set, and never drops tables dbdyno did not create.
func (db *DB) Build(ctx context.Context, opts BuildOptions) (*BuildReport, error) {
	if opts.Warehouses < 1 {
		return nil, errors.New("--warehouses must be at least 1")
	}
	c := NewLoadConstants(NewRand(opts.Seed, 0))
	var rows atomic.Int64
	gen := &Generator{Seed: opts.Seed, C: c, Now: time.Now().UTC().Truncate(time.Second), Count: func(n int64) { rows.Add(n) }}
	var work []bulk.Work
	for _, u := range Units(opts.Warehouses) {
		work = append(work, bulk.Work{Name: fmt.Sprintf("%s of warehouse %d", u.Kind, u.WID),
			Do: func(ctx context.Context, s bulk.Sink) error { return gen.Generate(u, s) }})
	}
	rep, err := db.Data.Build(ctx, bulk.Build{Threads: opts.Threads, Drop: opts.Drop, Version: opts.Version,
		Record: [][2]string{{"warehouses", fmt.Sprint(opts.Warehouses)}, {"seed", fmt.Sprint(opts.Seed)},
			{"constants", fmt.Sprintf("%d %d %d", c.CLast, c.CID, c.OLIID)}},
		Work: work, Rows: &rows, Total: TotalRows(opts.Warehouses), Bytes: int64(opts.Warehouses) * bytesPerWarehouse, Progress: opts.Progress})
	if err != nil {
		return nil, err
	}
	return &BuildReport{Report: *rep, Constants: c}, nil
}

// bytesPerWarehouse is a warehouse's rows as text (tpcc gen writes 78 MB of CSV for one).
const bytesPerWarehouse = 78 << 20

// TotalRows is the expected row count of a build (order lines at their mean).
func TotalRows(warehouses int) int64 {
	var n int64
	for _, u := range Units(warehouses) {
		n += UnitRows(u)
	}
	return n
}

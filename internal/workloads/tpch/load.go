package tpch

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/progress"
	"github.com/dbdyno/dbdyno/internal/workloads/tpch/dbgen"
)

// BuildOptions are `tpch build`'s settings.
type BuildOptions struct {
	Scale   float64
	Threads int
	Drop    bool
	// Columnstore stores the tables as clustered columnstore indexes (indexes_columnstore.sql), on engines that
	// have them.
	Columnstore bool
	Version     string
	Progress    io.Writer
}

// metaLayout is the build record's key for a table layout other than row tables.
const metaLayout = "layout"

// ColumnstoreEngines lists the targets that take --columnstore, for messages.
func ColumnstoreEngines() string {
	var out []string
	for _, e := range engine.All() {
		if Dataset.Has(e, "indexes_columnstore.sql") {
			out = append(out, e.Name+"://")
		}
	}
	return strings.Join(out, ", ")
}

// Build creates the schema, loads dbgen's population straight from the generator through the shared build
// lifecycle (bulk), adds keys and indexes and gathers statistics. It refuses to replace tables without
// opts.Drop and never drops tables dbdyno did not make.
func (d *DB) Build(ctx context.Context, opts BuildOptions) (*bulk.Report, error) {
	if err := ValidateScale(opts.Scale); err != nil {
		return nil, err
	}
	dbgen.TextPool()
	defer dbgen.HoldGenerationGC()()
	var total int64
	tables := map[dbgen.Table]*progress.Part{}
	var parts []*progress.Part
	for _, t := range dbgen.Tables {
		total += ExpectedRows(t, opts.Scale)
		tables[t] = &progress.Part{Name: t.String(), Total: ExpectedRows(t, opts.Scale)}
		parts = append(parts, tables[t])
	}
	record := [][2]string{{"scale", strconv.FormatFloat(opts.Scale, 'g', -1, 64)}}
	indexes := ""
	if opts.Columnstore {
		if !Dataset.Has(d.T.Engine, "indexes_columnstore.sql") {
			return nil, fmt.Errorf("--columnstore: %s has no columnstore indexes in dbdyno's TPC-H files; it applies to %s targets", d.T.Engine.Title, ColumnstoreEngines())
		}
		if why := d.T.Engine.Lacks(ctx, d.data.SQL, engine.Columnstore); why != "" {
			return nil, fmt.Errorf("--columnstore: %s: build without it", why)
		}
		indexes = "indexes_columnstore.sql"
		record = append(record, [2]string{metaLayout, "columnstore"})
	}
	var rows atomic.Int64
	return d.data.Build(ctx, bulk.Build{Threads: opts.Threads, Drop: opts.Drop, Version: opts.Version, Indexes: indexes,
		Record: record,
		Work:   work(chunks(opts.Scale), opts.Scale, &rows, tables), Rows: &rows, Total: total, Tables: parts,
		Bytes:    int64(opts.Scale * bytesPerScale),
		Progress: opts.Progress})
}

// bytesPerScale is scale factor 1's rows as text (dbgen's .tbl files).
const bytesPerScale = 1.07e9

type chunk struct {
	t            dbgen.Table
	start, count int64
}

func chunks(sf float64) []chunk {
	var out []chunk
	order := []dbgen.Table{dbgen.LineItem, dbgen.Orders, dbgen.PartSupp, dbgen.Part, dbgen.Customer, dbgen.Supplier, dbgen.Nation, dbgen.Region}
	for _, t := range order {
		size := int64(50000)
		if t == dbgen.LineItem || t == dbgen.PartSupp {
			size = 20000
		}
		total := dbgen.BaseRows(t, sf)
		for s := int64(0); s < total; s += size {
			out = append(out, chunk{t, s, min(size, total-s)})
		}
	}
	return out
}

// work turns chunks into the build's parts: each generates its rows into a sink, counting them in rows and in
// its table's part of the progress, if given.
func work(cs []chunk, sf float64, rows *atomic.Int64, tables map[dbgen.Table]*progress.Part) []bulk.Work {
	out := make([]bulk.Work, len(cs))
	for i, c := range cs {
		out[i] = bulk.Work{Name: fmt.Sprintf("%s rows %d..%d", c.t, c.start+1, c.start+c.count), Do: func(ctx context.Context, s bulk.Sink) error {
			n, err := bulk.Table(s, c.t.String(), Columns[c.t], func(r bulk.Row) error {
				return dbgen.Generate(c.t, sf, c.start, c.count, r)
			})
			rows.Add(n)
			if p := tables[c.t]; p != nil {
				p.Done.Add(n)
			}
			return err
		}}
	}
	return out
}

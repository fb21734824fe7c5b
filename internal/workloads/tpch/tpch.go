// Package tpch is the TPC-H-derived analytic workload: data (through dbgen, byte-identical to the reference
// generator), schema and bulk loads per engine, the 22 queries with their substitution parameters, answer
// validation, and the power and throughput tests. Results are not audited TPC-H results.
package tpch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/dbdyno/dbdyno/internal/lib/progress"
	"github.com/dbdyno/dbdyno/internal/workloads/tpch/dbgen"
)

// ValidateScale checks a scale factor.
func ValidateScale(sf float64) error {
	if !(sf >= 0.001 && sf <= 100000) {
		return fmt.Errorf("--scale %g is out of range: use a scale factor from 0.001 to 100000 (e.g. 0.01, 1, 10)", sf)
	}
	return nil
}

// ExpectedRows estimates a table's rows at a scale factor (lineitem at its mean of four lines per order).
func ExpectedRows(t dbgen.Table, sf float64) int64 {
	n := dbgen.BaseRows(t, sf)
	if t == dbgen.PartSupp || t == dbgen.LineItem {
		n *= 4
	}
	return n
}

// GenOptions are `tpch gen`'s settings.
type GenOptions struct {
	Scale    float64
	Dir      string
	Format   dbgen.Format
	Threads  int
	Parts    int // split each table into this many files (table.tbl.1 .. table.tbl.N)
	Updates  int // also write dbgen's update sets 1..Updates (orders.tbl.uN, lineitem.tbl.uN, delete.N)
	NoTables bool
	Progress io.Writer
}

// GenerateFiles writes every table into opts.Dir, each file under a temporary name until it is complete
// (CheckGenSpace checks the disk holds them first).
func GenerateFiles(ctx context.Context, opts GenOptions) (int64, error) {
	if err := ValidateScale(opts.Scale); err != nil {
		return 0, err
	}
	if opts.Parts < 1 {
		opts.Parts = 1
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	ext := ".tbl"
	if opts.Format == dbgen.FormatCSV {
		ext = ".csv"
	}
	if opts.Updates > 0 && opts.Format != dbgen.FormatTBL {
		return 0, fmt.Errorf("update sets are written in dbgen's tbl format only: drop --format csv or --updates")
	}
	own, err := checkOwnFiles(opts)
	if err != nil {
		return 0, err
	}
	tables := dbgen.Tables
	if opts.NoTables {
		tables = nil
	}
	var total int64
	for _, t := range tables {
		total += ExpectedRows(t, opts.Scale)
	}
	total += int64(opts.Updates) * dbgen.UpdateOrders(opts.Scale) * 5 // each set's orders and about 4 lines per order
	var rows atomic.Int64
	defer progress.Start(opts.Progress, "gen", &rows, total)()
	dbgen.TextPool()
	defer dbgen.HoldGenerationGC()()
	for k := 1; k <= opts.Updates; k++ {
		n, err := writeUpdateSet(opts.Dir, opts.Scale, k, own)
		if err != nil {
			return rows.Load(), err
		}
		rows.Add(n)
	}
	for _, t := range tables {
		parts := opts.Parts
		if t == dbgen.Nation || t == dbgen.Region {
			parts = 1
		}
		for k := 1; k <= parts; k++ {
			name := t.String() + ext
			if parts > 1 {
				name += fmt.Sprintf(".%d", k)
			}
			path := filepath.Join(opts.Dir, name)
			if err := writeFile(ctx, path, t, opts, k, parts, &rows); err != nil {
				return rows.Load(), err
			}
			if err := recordWritten(opts.Dir, own, path); err != nil {
				return rows.Load(), err
			}
		}
	}
	return rows.Load(), nil
}

// partialName is where a file is written until it is complete, beside its final name: hidden, so that no
// glob of the tables (*.tbl, lineitem.tbl.*) takes it.
func partialName(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".dbdyno-partial")
}

// complete renames a file written under its partial name to its final name, or removes it after err: no
// file under its final name is ever truncated.
func complete(path string, err error) error {
	tmp := partialName(path)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// writeWhole writes a file's bytes under its partial name and renames it when complete.
func writeWhole(path string, b []byte) error {
	return complete(path, os.WriteFile(partialName(path), b, 0o644))
}

func writeFile(ctx context.Context, path string, t dbgen.Table, opts GenOptions, k, parts int, rows *atomic.Int64) error {
	f, err := os.Create(partialName(path))
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if opts.Format == dbgen.FormatCSV {
		hdr := ""
		for i, c := range Columns[t] {
			if i > 0 {
				hdr += ","
			}
			hdr += c
		}
		fmt.Fprintln(f, hdr)
	}
	start, count := dbgen.Split(dbgen.BaseRows(t, opts.Scale), k, parts)
	err = dbgen.WriteTableFormat(ctx, t, opts.Scale, start, count, opts.Threads, opts.Format, f, func(n int64) { rows.Add(n) })
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return complete(path, err)
}

// writeUpdateSet writes update set k as dbgen -U does: orders.tbl.uK, lineitem.tbl.uK and delete.K.
func writeUpdateSet(dir string, sf float64, k int, own map[string]genStamp) (int64, error) {
	var rows int64
	for _, t := range []dbgen.Table{dbgen.Orders, dbgen.LineItem} {
		var w dbgen.TBL
		if err := dbgen.GenerateUpdate(t, sf, k, &w); err != nil {
			return rows, err
		}
		rows += w.Rows
		path := filepath.Join(dir, fmt.Sprintf("%s.tbl.u%d", t, k))
		if err := writeWhole(path, w.Buf); err != nil {
			return rows, err
		}
		if err := recordWritten(dir, own, path); err != nil {
			return rows, err
		}
	}
	var b bytes.Buffer
	if err := dbgen.WriteDeleteSet(&b, sf, k); err != nil {
		return rows, err
	}
	path := filepath.Join(dir, fmt.Sprintf("delete.%d", k))
	if err := writeWhole(path, b.Bytes()); err != nil {
		return rows, err
	}
	return rows, recordWritten(dir, own, path)
}

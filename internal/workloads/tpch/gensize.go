package tpch

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/workloads/tpch/dbgen"
)

// The sizes of dbgen's files, computed before anything is written so gen can check the disk holds them.
//
// A table's file at scale factor 1 (the reference files: dbgen's, byte-identical) is its rows times their
// mean length. Of that length only the keys' digits change with the scale (the text, dates and prices are
// drawn the same way at every scale), so a row at scale factor sf is its length at SF 1, less the mean digits
// of its keys at SF 1, plus their mean digits at sf. The result is raised by sizeMargin, for the randomness of
// small scales (lines per order, comment lengths), and stays within it of the real size.

// sf1 are the reference files at scale factor 1: bytes and rows.
var sf1 = map[dbgen.Table]struct{ bytes, rows int64 }{
	dbgen.Region:   {389, 5},
	dbgen.Nation:   {2224, 25},
	dbgen.Supplier: {1409184, 10000},
	dbgen.Customer: {24346144, 150000},
	dbgen.Part:     {24135125, 200000},
	dbgen.PartSupp: {118984616, 800000},
	dbgen.Orders:   {171952161, 1500000},
	dbgen.LineItem: {759863287, 6001215},
}

const sizeMargin = 1.01

// keyRanges are the ranges 1..N of a table's keys at a scale factor (the sparse order keys spread over four
// times the orders).
func keyRanges(t dbgen.Table, sf float64) []int64 {
	s, c, p, o := dbgen.BaseRows(dbgen.Supplier, sf), dbgen.BaseRows(dbgen.Customer, sf), dbgen.BaseRows(dbgen.Part, sf), dbgen.BaseRows(dbgen.Orders, sf)
	switch t {
	case dbgen.Supplier:
		return []int64{s}
	case dbgen.Customer:
		return []int64{c}
	case dbgen.Part:
		return []int64{p}
	case dbgen.PartSupp:
		return []int64{p, s}
	case dbgen.Orders:
		return []int64{4 * o, c}
	case dbgen.LineItem:
		return []int64{4 * o, p, s}
	}
	return nil
}

// meanDigits is the mean number of decimal digits of the integers 1..n.
func meanDigits(n int64) float64 {
	if n < 1 {
		return 1
	}
	var sum float64
	for d, lo := 1, int64(1); lo <= n; d, lo = d+1, lo*10 {
		sum += float64(min(n, lo*10-1)-lo+1) * float64(d)
		if lo > n/10 {
			break
		}
	}
	return sum / float64(n)
}

func keyDigits(t dbgen.Table, sf float64) float64 {
	var d float64
	for _, n := range keyRanges(t, sf) {
		d += meanDigits(n)
	}
	return d
}

// rowBytes is a table's mean row length at a scale factor in dbgen's format.
func rowBytes(t dbgen.Table, sf float64) float64 {
	ref := sf1[t]
	return float64(ref.bytes)/float64(ref.rows) - keyDigits(t, 1) + keyDigits(t, sf)
}

// TableBytes is the size of a table's file (all its parts) at a scale factor, in the format given.
func TableBytes(t dbgen.Table, sf float64, f dbgen.Format) int64 {
	var b int64
	if t == dbgen.Nation || t == dbgen.Region {
		b = sf1[t].bytes
	} else {
		rows := float64(ExpectedRows(t, sf))
		if t == dbgen.LineItem {
			rows *= float64(sf1[t].rows) / float64(4*dbgen.BaseRows(dbgen.Orders, 1))
		}
		b = int64(rows*rowBytes(t, sf)*sizeMargin) + 1
	}
	return b + headerBytes(t, f)
}

// headerBytes is the header line of each of a table's files: CSV has one; its rows are a byte shorter (no
// '|' after the last field), with quotes around the few comments that hold a comma, which the margin covers.
func headerBytes(t dbgen.Table, f dbgen.Format) int64 {
	if f != dbgen.FormatCSV {
		return 0
	}
	return int64(len(strings.Join(Columns[t], ",")) + 1)
}

// genFile is one file gen writes, in the order it writes them, with its size.
type genFile struct {
	name  string
	bytes int64
}

// genFiles lists the files GenerateFiles writes, in its order.
func genFiles(opts GenOptions) []genFile {
	ext := ".tbl"
	if opts.Format == dbgen.FormatCSV {
		ext = ".csv"
	}
	parts := max(opts.Parts, 1)
	var out []genFile
	if opts.Updates > 0 {
		n := float64(dbgen.UpdateOrders(opts.Scale))
		// an update set's order keys are above the loaded ones: two digits more, at most
		keys := meanDigits(4*dbgen.BaseRows(dbgen.Orders, opts.Scale)) + 2
		ob := n * (rowBytes(dbgen.Orders, opts.Scale) - meanDigits(4*dbgen.BaseRows(dbgen.Orders, opts.Scale)) + keys)
		lb := 4.01 * n * (rowBytes(dbgen.LineItem, opts.Scale) - meanDigits(4*dbgen.BaseRows(dbgen.Orders, opts.Scale)) + keys)
		for k := 1; k <= opts.Updates; k++ {
			out = append(out,
				genFile{fmt.Sprintf("orders.tbl.u%d", k), int64(ob*sizeMargin) + 1},
				genFile{fmt.Sprintf("lineitem.tbl.u%d", k), int64(lb*sizeMargin) + 1},
				genFile{fmt.Sprintf("delete.%d", k), int64(n*(keys+2)*sizeMargin) + 1})
		}
	}
	if opts.NoTables {
		return out
	}
	for _, t := range dbgen.Tables {
		n := parts
		if t == dbgen.Nation || t == dbgen.Region {
			n = 1
		}
		h := headerBytes(t, opts.Format)
		b := TableBytes(t, opts.Scale, opts.Format) - h
		for k := 1; k <= n; k++ {
			name := t.String() + ext
			if n > 1 {
				name += fmt.Sprintf(".%d", k)
			}
			out = append(out, genFile{name, b/int64(n) + 1 + h})
		}
	}
	return out
}

// GenBytes is the disk space a gen needs in opts.Dir: its files in their order, each written beside the
// file it replaces (if any) and renamed over it when complete, so the most the disk holds at one time.
func GenBytes(opts GenOptions) uint64 {
	var need, peak int64
	for _, f := range genFiles(opts) {
		need += f.bytes + 4096 // the last block of a file, whole
		peak = max(peak, need)
		need -= int64(bulk.Allocated(filepath.Join(opts.Dir, f.name)))
	}
	return uint64(max(peak, 0))
}

// CheckGenSpace refuses, before anything is written, a gen whose files the disk of opts.Dir cannot hold.
func CheckGenSpace(ctx context.Context, opts GenOptions) error {
	return bulk.NeedSpace(ctx, opts.Dir, GenBytes(opts), fmt.Sprintf("tpch gen at scale factor %g", opts.Scale),
		"lower --scale, or give --out a directory on a disk with room")
}

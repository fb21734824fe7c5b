package tpcc

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
)

// The sizes of gen's CSV files, computed before anything is written so gen can check the disk holds them.
// A warehouse's files are those of warehouse 1 (measured), with its id's digits beyond the first where the
// id is written (w_id columns); their random parts (lengths of names and data, lines per order) are covered
// by sizeMargin.

const itemBytes = 7571694 // item.csv

var sizeMargin = 1.01

var warehouseFiles = []struct {
	table            string
	bytes, ids, rows int64 // warehouse 1's file; w_id columns a row; rows
}{
	{TWarehouse, 92, 1, 1}, {TDistrict, 956, 1, DistrictsPerWH},
	{TCustomer, 17183837, 1, DistrictsPerWH * CustomersPerDistrict}, {THistory, 1734631, 2, DistrictsPerWH * CustomersPerDistrict},
	{TNewOrder, 81900, 1, DistrictsPerWH * NewOrdersPerDistrict}, {TOrders, 1190363, 1, DistrictsPerWH * OrdersPerDistrict},
	{TOrderLine, 19816999, 2, DistrictsPerWH * OrdersPerDistrict * 10}, {TStock, 30589839, 1, Items},
}

func fileName(table string, wid int) string {
	if wid > 0 {
		return fmt.Sprintf("%s-w%05d.csv", table, wid)
	}
	return table + ".csv"
}

func digits(n int) int64 {
	d := int64(1)
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// fileBytes is the size of a table's file for warehouse wid (0: the item table), with the margin, whole blocks.
func fileBytes(table string, wid int) int64 {
	if wid == 0 {
		return int64(itemBytes*sizeMargin) + 4096
	}
	for _, f := range warehouseFiles {
		if f.table == table {
			return int64(float64(f.bytes+f.ids*f.rows*(digits(wid)-1))*sizeMargin) + 4096
		}
	}
	return 0
}

// GenBytes is the size of the files gen writes for W warehouses.
func GenBytes(warehouses int) uint64 {
	n := fileBytes(TItem, 0)
	for w := 1; w <= warehouses; w++ {
		for _, f := range warehouseFiles {
			n += fileBytes(f.table, w)
		}
	}
	return uint64(n)
}

// CheckGenSpace refuses, before anything is written, a gen whose files the disk of dir cannot hold. Each file
// is written beside the one it replaces (if any) and renamed over it when complete: the files being written
// (as many as the threads) hold their old ones' space until then.
func CheckGenSpace(ctx context.Context, dir string, warehouses, threads int) error {
	need := int64(GenBytes(warehouses))
	var held, largest int64
	add := func(name string) {
		old := int64(bulk.Allocated(filepath.Join(dir, name)))
		held += old
		largest = max(largest, old)
	}
	add(fileName(TItem, 0))
	for w := 1; w <= warehouses; w++ {
		for _, f := range warehouseFiles {
			add(fileName(f.table, w))
		}
	}
	need -= held - min(held, largest*int64(max(threads, runtime.NumCPU())))
	return bulk.NeedSpace(ctx, dir, uint64(max(need, 0)), fmt.Sprintf("tpcc gen of %d warehouse(s)", warehouses),
		"lower --warehouses, or give --out a directory on a disk with room")
}

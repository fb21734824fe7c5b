package dbgen

import (
	"fmt"
	"io"
	"strconv"
)

// Update sets (dbgen -U): the rows the refresh functions insert (RF1) and the keys they delete (RF2), clause
// 4.2.4. Update set k inserts UpdateOrders(sf) new orders with their lines, made by the order generator as if it
// went on past the loaded orders, with keys in the gaps the loaded keys leave; its delete set names as many
// loaded orders. Insert set k and delete set k cover the same order indexes, so applying set k and then
// RestoreOrders puts the loaded data back.

// UpdateOrders is the number of orders in each update set, computed as dbgen does: 0.1% of the orders, from
// dbgen's integer arithmetic (10 at SF 0.01, 150 at SF 0.1, 1,500 per unit of SF from SF 1).
func UpdateOrders(sf float64) int64 {
	if sf < 1 {
		return BaseRows(Orders, sf) / 10000 * 10
	}
	return ordersBase / 10000 * int64(sf) * 10
}

// updateSeq is the key sequence of update set k's orders (dbgen: 1 + k/1000).
func updateSeq(set int) int64 { return 1 + int64(set)/1000 }

// updateIndexes returns the order indexes [first, first+count) that update set k (1-based) inserts and deletes.
func updateIndexes(sf float64, set int) (first, count int64) {
	n := UpdateOrders(sf)
	return int64(set-1)*n + 1, n
}

// GenerateUpdate writes update set k's new rows of t (Orders or LineItem): dbgen's <table>.tbl.u<k>.
func GenerateUpdate(t Table, sf float64, set int, w Writer) error {
	if set < 1 {
		return fmt.Errorf("update set %d: sets are numbered from 1", set)
	}
	first, n := updateIndexes(sf, set)
	o := orderRange{start: BaseRows(Orders, sf) + first - 1, first: first, count: n, seq: updateSeq(set)}
	switch t {
	case Orders:
		return genOrders(TextPool(), sf, o, w)
	case LineItem:
		return genLineItem(TextPool(), sf, o, w)
	}
	return fmt.Errorf("update sets hold orders and lineitem rows, not %s", t)
}

// DeleteKeys returns update set k's delete set: the keys of the loaded orders RF2 deletes (dbgen's delete.<k>).
func DeleteKeys(sf float64, set int) []int64 {
	first, n := updateIndexes(sf, set)
	keys := make([]int64, n)
	for i := range keys {
		keys[i] = sparseKey(first+int64(i), int64(set)/1000)
	}
	return keys
}

// Restore describes how to undo update sets lo..hi, whatever part of them was applied: delete every order (and
// its lines) with a key in [KeyLo, KeyHi], then load again the loaded orders with indexes [First,
// First+Count), generated as the build did (Generate(t, sf, First-1, Count, w)). The key range covers whole
// groups of 8 indexes, all four key sequences, so it holds the sets' inserted and deleted orders and a few
// loaded neighbours that are loaded again with them; nothing else.
type Restore struct {
	KeyLo, KeyHi, First, Count int64
}

// RestoreSets returns how to undo update sets lo..hi (1-based, lo <= hi).
func RestoreSets(sf float64, lo, hi int) Restore {
	first, _ := updateIndexes(sf, lo)
	f2, n := updateIndexes(sf, hi)
	last := f2 + n - 1
	gFirst, gLast := first&^7, last|7
	r := Restore{KeyLo: sparseKey(gFirst, 0), KeyHi: sparseKey(gLast, 3)}
	r.First = max(gFirst, 1)
	r.Count = min(gLast, BaseRows(Orders, sf)) - r.First + 1
	return r
}

// WriteDeleteSet writes dbgen's delete.<k> file: one key per line, each followed by '|'.
func WriteDeleteSet(w io.Writer, sf float64, set int) error {
	var b []byte
	for _, k := range DeleteKeys(sf, set) {
		b = append(strconv.AppendInt(b, k, 10), '|', '\n')
	}
	_, err := w.Write(b)
	return err
}

package tpcc

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
)

// memSink keeps every row of every table as strings (NULL as null, which no generated value is; col gives nil
// for it). A row is one slice of strings, not a pointer per value: a million rows' worth of pointers made the
// garbage collector most of the population tests' time.
type memSink struct {
	tables map[string][][]string
	cur    string
	row    []string
}

const null = "\x00NULL"

func (m *memSink) Begin(table string, _ []string) (bulk.Row, error) { m.cur = table; return m, nil }
func (m *memSink) End() (int64, error)                              { return 0, nil }
func (m *memSink) Close()                                           {}
func (m *memSink) Bytes(b []byte)                                   { m.add(string(b)) }
func (m *memSink) Date(d int32)                                     { m.add(string(bulk.AppendDate(nil, d))) }
func (m *memSink) add(s string)                                     { m.row = append(m.row, s) }
func (m *memSink) Int(v int64)                                      { m.add(strconv.FormatInt(v, 10)) }
func (m *memSink) Dec(u int64, scale int)                           { m.add(string(bulk.AppendDec(nil, u, scale))) }
func (m *memSink) Str(s string)                                     { m.add(s) }
func (m *memSink) Time(t time.Time)                                 { m.add(t.Format(time.DateTime)) }
func (m *memSink) Null()                                            { m.row = append(m.row, null) }
func (m *memSink) EndRow() error {
	if len(m.row) != len(Columns[m.cur]) {
		return fmt.Errorf("%s row has %d values, want %d", m.cur, len(m.row), len(Columns[m.cur]))
	}
	m.tables[m.cur] = append(m.tables[m.cur], m.row)
	m.row = make([]string, 0, len(Columns[m.cur]))
	return nil
}

func (m *memSink) col(table, name string, row []string) *string {
	for i, c := range Columns[table] {
		if c == name {
			if row[i] == null {
				return nil
			}
			return &row[i]
		}
	}
	panic("no column " + name)
}

func generateW(t *testing.T, w int) *memSink {
	t.Helper()
	m := &memSink{tables: map[string][][]string{}}
	var counted int64
	g := &Generator{Seed: 11, C: Constants{CLast: 77, CID: 5, OLIID: 9}, Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Count: func(n int64) { counted += n }}
	for _, u := range Units(w) {
		if err := g.Generate(u, m); err != nil {
			t.Fatal(err)
		}
	}
	total := 0
	for _, rows := range m.tables {
		total += len(rows)
	}
	if counted != int64(total) {
		t.Fatalf("progress counted %d rows, generated %d", counted, total)
	}
	return m
}

// twoWarehouses is the one generation of 2 warehouses both population tests read (a generation takes most of
// their time): made once, by whichever test asks first.
var twoWarehouses struct {
	sync.Once
	m *memSink
}

func generated2(t *testing.T) *memSink {
	t.Helper()
	twoWarehouses.Do(func() { twoWarehouses.m = generateW(t, 2) })
	if twoWarehouses.m == nil {
		t.Fatal("the generation of 2 warehouses failed (see the test that made it)")
	}
	return twoWarehouses.m
}

func TestPopulationFollowsClause4_3_3(t *testing.T) {
	t.Parallel() // generates beside TestPopulationIsRepeatable
	const W = 2
	m := generated2(t)
	want := map[string]int{TItem: 100000, TWarehouse: W, TDistrict: 10 * W, TStock: 100000 * W, TCustomer: 30000 * W,
		THistory: 30000 * W, TOrders: 30000 * W, TNewOrder: 9000 * W}
	for table, n := range want {
		if got := len(m.tables[table]); got != n {
			t.Errorf("%s: %d rows, want %d", table, got, n)
		}
	}
	// order lines: sum of o_ol_cnt, each count in [5, 15]
	sumOL := 0
	for _, o := range m.tables[TOrders] {
		var cnt, oid int
		fmt.Sscan(*m.col(TOrders, "o_ol_cnt", o), &cnt)
		fmt.Sscan(*m.col(TOrders, "o_id", o), &oid)
		if cnt < 5 || cnt > 15 {
			t.Fatalf("o_ol_cnt %d outside [5, 15]", cnt)
		}
		sumOL += cnt
		carrier := m.col(TOrders, "o_carrier_id", o)
		if (oid < 2101) != (carrier != nil) {
			t.Fatalf("order %d: o_carrier_id %v (must be set below 2,101 and NULL from it)", oid, carrier)
		}
	}
	if got := len(m.tables[TOrderLine]); got != sumOL {
		t.Fatalf("order_line rows %d, want sum(o_ol_cnt) = %d", got, sumOL)
	}
	for _, ol := range m.tables[TOrderLine] {
		var oid int
		fmt.Sscan(*m.col(TOrderLine, "ol_o_id", ol), &oid)
		amount, delivery := *m.col(TOrderLine, "ol_amount", ol), m.col(TOrderLine, "ol_delivery_d", ol)
		if oid < 2101 && (amount != "0.00" || delivery == nil) || oid >= 2101 && (amount == "0.00" || delivery != nil) {
			t.Fatalf("order line of order %d: amount %s, delivery %v", oid, amount, delivery)
		}
		if q := *m.col(TOrderLine, "ol_quantity", ol); q != "5" {
			t.Fatalf("ol_quantity %s, want 5", q)
		}
		if d := *m.col(TOrderLine, "ol_dist_info", ol); len(d) != 24 {
			t.Fatalf("ol_dist_info length %d", len(d))
		}
	}
	// new orders: the last 900 orders of each district
	for _, no := range m.tables[TNewOrder] {
		var oid int
		fmt.Sscan(no[0], &oid)
		if oid < 2101 || oid > 3000 {
			t.Fatalf("new_order for order %d", oid)
		}
	}
	// O_C_ID is a permutation of 1..3000 in each district
	perDistrict := map[string]map[string]bool{}
	for _, o := range m.tables[TOrders] {
		k := *m.col(TOrders, "o_w_id", o) + "/" + *m.col(TOrders, "o_d_id", o)
		if perDistrict[k] == nil {
			perDistrict[k] = map[string]bool{}
		}
		perDistrict[k][*m.col(TOrders, "o_c_id", o)] = true
	}
	for k, ids := range perDistrict {
		if len(ids) != 3000 {
			t.Fatalf("district %s: o_c_id takes %d distinct values, want 3000", k, len(ids))
		}
	}
	// customers: 10% BC, first 1000 last names sequential, the rest from NURand(255, 0, 999)
	bc := 0
	for i, c := range m.tables[TCustomer] {
		var cid int
		fmt.Sscan(c[0], &cid)
		if *m.col(TCustomer, "c_credit", c) == "BC" {
			bc++
		}
		last := *m.col(TCustomer, "c_last", c)
		if cid <= 1000 && last != LastName(cid-1) {
			t.Fatalf("customer %d (row %d): c_last %s, want %s", cid, i, last, LastName(cid-1))
		}
		if l := len(*m.col(TCustomer, "c_data", c)); l < 300 || l > 500 {
			t.Fatalf("c_data length %d", l)
		}
		if *m.col(TCustomer, "c_middle", c) != "OE" || *m.col(TCustomer, "c_balance", c) != "-10.00" ||
			*m.col(TCustomer, "c_credit_lim", c) != "50000.00" || *m.col(TCustomer, "c_ytd_payment", c) != "10.00" {
			t.Fatalf("customer %d constants wrong: %v", cid, c)
		}
		disc := *m.col(TCustomer, "c_discount", c)
		if disc < "0.0000" || disc > "0.5000" || len(disc) != 6 {
			t.Fatalf("c_discount %s outside [0.0000, 0.5000]", disc)
		}
	}
	if p := float64(bc) / float64(len(m.tables[TCustomer])); p < 0.09 || p > 0.11 {
		t.Fatalf("BC credit share %.3f, want 0.10", p)
	}
	orig := 0
	for _, it := range m.tables[TItem] {
		if strings.Contains(*m.col(TItem, "i_data", it), "ORIGINAL") {
			orig++
		}
		p := *m.col(TItem, "i_price", it)
		if p < "1.00" && len(p) == 4 || len(p) > 6 {
			t.Fatalf("i_price %s outside [1.00, 100.00]", p)
		}
	}
	if orig < 9000 || orig > 11000 {
		t.Fatalf("ORIGINAL in %d of 100000 items", orig)
	}
	for _, d := range m.tables[TDistrict] {
		if *m.col(TDistrict, "d_next_o_id", d) != "3001" || *m.col(TDistrict, "d_ytd", d) != "30000.00" {
			t.Fatalf("district constants wrong: %v", d)
		}
	}
	for _, w := range m.tables[TWarehouse] {
		if *m.col(TWarehouse, "w_ytd", w) != "300000.00" {
			t.Fatalf("w_ytd %s", *m.col(TWarehouse, "w_ytd", w))
		}
	}
}

// Two generations with one seed give the same rows: warehouse 1 generated on its own, and in a generation of 2
// warehouses (each unit's random stream is its kind's and warehouse's: warehouse 1's rows come first in each
// table, the same).
func TestPopulationIsRepeatable(t *testing.T) {
	t.Parallel() // generates warehouse 1 while TestPopulationFollowsClause4_3_3 generates the 2 warehouses
	a := generateW(t, 1)
	b := generated2(t)
	for _, table := range Tables {
		ra, rb := a.tables[table], b.tables[table]
		// the rows of warehouse 1 (every item) in the generation of 2: as many as in warehouse 1's own
		n := len(rb)
		for i, c := range Columns[table] {
			if strings.HasSuffix(c, "w_id") {
				n = 0
				for _, r := range rb {
					if r[i] == "1" {
						n++
					}
				}
				break
			}
		}
		if len(ra) != n {
			t.Fatalf("%s: %d vs %d rows", table, len(ra), n)
		}
		for i := 0; i < len(ra); i += 997 {
			for j := range ra[i] {
				if ra[i][j] != rb[i][j] { // NULL is null in both
					t.Fatalf("%s row %d differs between two generations with one seed", table, i)
				}
			}
		}
	}
}

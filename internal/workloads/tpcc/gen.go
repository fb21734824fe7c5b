package tpcc

import (
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
)

// Table names, in load order.
const (
	TWarehouse = "warehouse"
	TDistrict  = "district"
	TCustomer  = "customer"
	THistory   = "history"
	TNewOrder  = "new_order"
	TOrders    = "orders"
	TOrderLine = "order_line"
	TItem      = "item"
	TStock     = "stock"
)

// Tables lists the nine TPC-C tables.
var Tables = []string{TWarehouse, TDistrict, TCustomer, THistory, TNewOrder, TOrders, TOrderLine, TItem, TStock}

// Columns holds each table's columns in the order the generator writes them and the schema files declare them.
var Columns = map[string][]string{
	TWarehouse: {"w_id", "w_ytd", "w_tax", "w_name", "w_street_1", "w_street_2", "w_city", "w_state", "w_zip"},
	TDistrict:  {"d_id", "d_w_id", "d_ytd", "d_tax", "d_next_o_id", "d_name", "d_street_1", "d_street_2", "d_city", "d_state", "d_zip"},
	TCustomer: {"c_id", "c_d_id", "c_w_id", "c_first", "c_middle", "c_last", "c_street_1", "c_street_2", "c_city", "c_state",
		"c_zip", "c_phone", "c_since", "c_credit", "c_credit_lim", "c_discount", "c_balance", "c_ytd_payment", "c_payment_cnt",
		"c_delivery_cnt", "c_data"},
	THistory:   {"h_c_id", "h_c_d_id", "h_c_w_id", "h_d_id", "h_w_id", "h_date", "h_amount", "h_data"},
	TNewOrder:  {"no_o_id", "no_d_id", "no_w_id"},
	TOrders:    {"o_id", "o_d_id", "o_w_id", "o_c_id", "o_entry_d", "o_carrier_id", "o_ol_cnt", "o_all_local"},
	TOrderLine: {"ol_o_id", "ol_d_id", "ol_w_id", "ol_number", "ol_i_id", "ol_supply_w_id", "ol_delivery_d", "ol_quantity", "ol_amount", "ol_dist_info"},
	TItem:      {"i_id", "i_im_id", "i_name", "i_price", "i_data"},
	TStock: {"s_i_id", "s_w_id", "s_quantity", "s_dist_01", "s_dist_02", "s_dist_03", "s_dist_04", "s_dist_05", "s_dist_06",
		"s_dist_07", "s_dist_08", "s_dist_09", "s_dist_10", "s_ytd", "s_order_cnt", "s_remote_cnt", "s_data"},
}

// Cardinalities of clause 1.2 and 4.3.3.1.
const (
	Items                = 100000
	DistrictsPerWH       = 10
	CustomersPerDistrict = 3000
	OrdersPerDistrict    = 3000
	NewOrdersPerDistrict = 900
	firstNewOrder        = OrdersPerDistrict - NewOrdersPerDistrict + 1 // 2101
)

// Unit is an independent part of the data: the item table, or one kind of table group for one warehouse. Each
// unit has its own random stream, so the data does not depend on how units are spread over threads.
type Unit struct {
	Kind string // "item", "warehouse", "stock", "customer", "orders"
	WID  int
}

// Units lists the work for W warehouses, largest first within each warehouse so threads finish together.
func Units(warehouses int) []Unit {
	u := []Unit{{Kind: "item"}}
	for w := 1; w <= warehouses; w++ {
		u = append(u, Unit{"orders", w}, Unit{"stock", w}, Unit{"customer", w}, Unit{"warehouse", w})
	}
	return u
}

// UnitRows is the number of rows a unit writes (order lines are counted at their mean of 10 per order).
func UnitRows(u Unit) int64 {
	switch u.Kind {
	case "item":
		return Items
	case "warehouse":
		return 1 + DistrictsPerWH
	case "stock":
		return Items
	case "customer":
		return 2 * DistrictsPerWH * CustomersPerDistrict
	case "orders":
		return DistrictsPerWH * (OrdersPerDistrict*11 + NewOrdersPerDistrict)
	}
	return 0
}

// Generator writes the initial database population of clause 4.3.3.1.
type Generator struct {
	Seed  uint64
	C     Constants // C_LAST for the load in particular
	Now   time.Time // the load's date and time (C_SINCE, O_ENTRY_D, H_DATE)
	Count func(rows int64)
}

func (g *Generator) streamOf(u Unit) uint64 {
	var k uint64
	switch u.Kind {
	case "item":
		k = 1
	case "warehouse":
		k = 2
	case "stock":
		k = 3
	case "customer":
		k = 4
	case "orders":
		k = 5
	}
	return k<<32 | uint64(u.WID)
}

// Generate writes one unit's rows to the sink.
func (g *Generator) Generate(u Unit, s bulk.Sink) error {
	r := NewRand(g.Seed, g.streamOf(u))
	switch u.Kind {
	case "item":
		return g.table(s, TItem, func(w bulk.Row) error { return g.items(r, w) })
	case "warehouse":
		if err := g.table(s, TWarehouse, func(w bulk.Row) error { return g.warehouse(r, w, u.WID) }); err != nil {
			return err
		}
		return g.table(s, TDistrict, func(w bulk.Row) error { return g.districts(r, w, u.WID) })
	case "stock":
		return g.table(s, TStock, func(w bulk.Row) error { return g.stock(r, w, u.WID) })
	case "customer":
		if err := g.table(s, TCustomer, func(w bulk.Row) error { return g.customers(r, w, u.WID) }); err != nil {
			return err
		}
		return g.table(s, THistory, func(w bulk.Row) error { return g.history(r, w, u.WID) })
	case "orders":
		olCnt := make([]int8, DistrictsPerWH*OrdersPerDistrict)
		if err := g.table(s, TOrders, func(w bulk.Row) error { return g.orders(r, w, u.WID, olCnt) }); err != nil {
			return err
		}
		if err := g.table(s, TOrderLine, func(w bulk.Row) error { return g.orderLines(r, w, u.WID, olCnt) }); err != nil {
			return err
		}
		return g.table(s, TNewOrder, func(w bulk.Row) error { return g.newOrders(w, u.WID) })
	}
	return nil
}

func (g *Generator) table(s bulk.Sink, name string, fill func(bulk.Row) error) error {
	_, err := bulk.Table(s, name, Columns[name], fill)
	return err
}

func (g *Generator) end(w bulk.Row, n *int64) error {
	*n++
	if *n%1024 == 0 && g.Count != nil {
		g.Count(1024)
	}
	return w.EndRow()
}

func (g *Generator) flushCount(n int64) {
	if g.Count != nil {
		g.Count(n % 1024)
	}
}

func (g *Generator) items(r *Rand, w bulk.Row) error {
	var n int64
	defer func() { g.flushCount(n) }()
	for i := 1; i <= Items; i++ {
		w.Int(int64(i))
		w.Int(int64(r.Int(1, 10000)))
		w.Str(r.AString(14, 24))
		w.Dec(r.Decimal(100, 10000), 2)
		w.Str(r.Data())
		if err := g.end(w, &n); err != nil {
			return err
		}
	}
	return nil
}

func (g *Generator) address(r *Rand, w bulk.Row) {
	w.Str(r.AString(10, 20))
	w.Str(r.AString(10, 20))
	w.Str(r.AString(10, 20))
	w.Str(r.AString(2, 2))
	w.Str(r.Zip())
}

func (g *Generator) warehouse(r *Rand, w bulk.Row, wid int) error {
	var n int64
	defer func() { g.flushCount(n) }()
	w.Int(int64(wid))
	w.Dec(30000000, 2) // W_YTD = 300,000.00
	w.Dec(r.Decimal(0, 2000), 4)
	w.Str(r.AString(6, 10))
	g.address(r, w)
	return g.end(w, &n)
}

func (g *Generator) districts(r *Rand, w bulk.Row, wid int) error {
	var n int64
	defer func() { g.flushCount(n) }()
	for d := 1; d <= DistrictsPerWH; d++ {
		w.Int(int64(d))
		w.Int(int64(wid))
		w.Dec(3000000, 2) // D_YTD = 30,000.00
		w.Dec(r.Decimal(0, 2000), 4)
		w.Int(OrdersPerDistrict + 1)
		w.Str(r.AString(6, 10))
		g.address(r, w)
		if err := g.end(w, &n); err != nil {
			return err
		}
	}
	return nil
}

func (g *Generator) stock(r *Rand, w bulk.Row, wid int) error {
	var n int64
	defer func() { g.flushCount(n) }()
	for i := 1; i <= Items; i++ {
		w.Int(int64(i))
		w.Int(int64(wid))
		w.Int(int64(r.Int(10, 100)))
		for d := 0; d < 10; d++ {
			w.Str(r.AString(24, 24))
		}
		w.Int(0)
		w.Int(0)
		w.Int(0)
		w.Str(r.Data())
		if err := g.end(w, &n); err != nil {
			return err
		}
	}
	return nil
}

// CustomerLast is C_LAST for customer c_id at load: the first 1,000 take their number c_id-1, the rest
// NURand(255, 0, 999) (clause 4.3.3.1).
func CustomerLast(r *Rand, cid, cLoad int) string {
	if cid <= 1000 {
		return LastName(cid - 1)
	}
	return LastName(r.NURand(255, 0, 999, cLoad))
}

func (g *Generator) customers(r *Rand, w bulk.Row, wid int) error {
	var n int64
	defer func() { g.flushCount(n) }()
	for d := 1; d <= DistrictsPerWH; d++ {
		for c := 1; c <= CustomersPerDistrict; c++ {
			w.Int(int64(c))
			w.Int(int64(d))
			w.Int(int64(wid))
			w.Str(r.AString(8, 16))
			w.Str("OE")
			w.Str(CustomerLast(r, c, g.C.CLast))
			g.address(r, w)
			w.Str(r.NString(16, 16))
			w.Time(g.Now)
			if r.Int(1, 10) == 1 {
				w.Str("BC")
			} else {
				w.Str("GC")
			}
			w.Dec(5000000, 2) // C_CREDIT_LIM = 50,000.00
			w.Dec(r.Decimal(0, 5000), 4)
			w.Dec(-1000, 2) // C_BALANCE = -10.00
			w.Dec(1000, 2)  // C_YTD_PAYMENT = 10.00
			w.Int(1)
			w.Int(0)
			w.Str(r.AString(300, 500))
			if err := g.end(w, &n); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *Generator) history(r *Rand, w bulk.Row, wid int) error {
	var n int64
	defer func() { g.flushCount(n) }()
	for d := 1; d <= DistrictsPerWH; d++ {
		for c := 1; c <= CustomersPerDistrict; c++ {
			w.Int(int64(c))
			w.Int(int64(d))
			w.Int(int64(wid))
			w.Int(int64(d))
			w.Int(int64(wid))
			w.Time(g.Now)
			w.Dec(1000, 2) // H_AMOUNT = 10.00
			w.Str(r.AString(12, 24))
			if err := g.end(w, &n); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *Generator) orders(r *Rand, w bulk.Row, wid int, olCnt []int8) error {
	var n int64
	defer func() { g.flushCount(n) }()
	for d := 1; d <= DistrictsPerWH; d++ {
		perm := r.Perm(CustomersPerDistrict) // O_C_ID: a random permutation of [1 .. 3,000]
		for o := 1; o <= OrdersPerDistrict; o++ {
			cnt := r.Int(5, 15)
			olCnt[(d-1)*OrdersPerDistrict+o-1] = int8(cnt)
			w.Int(int64(o))
			w.Int(int64(d))
			w.Int(int64(wid))
			w.Int(int64(perm[o-1]))
			w.Time(g.Now)
			if o < firstNewOrder {
				w.Int(int64(r.Int(1, 10)))
			} else {
				w.Null()
			}
			w.Int(int64(cnt))
			w.Int(1)
			if err := g.end(w, &n); err != nil {
				return err
			}
		}
	}
	return nil
}

func (g *Generator) orderLines(r *Rand, w bulk.Row, wid int, olCnt []int8) error {
	var n int64
	defer func() { g.flushCount(n) }()
	for d := 1; d <= DistrictsPerWH; d++ {
		for o := 1; o <= OrdersPerDistrict; o++ {
			cnt := int(olCnt[(d-1)*OrdersPerDistrict+o-1])
			for l := 1; l <= cnt; l++ {
				w.Int(int64(o))
				w.Int(int64(d))
				w.Int(int64(wid))
				w.Int(int64(l))
				w.Int(int64(r.Int(1, Items)))
				w.Int(int64(wid))
				if o < firstNewOrder {
					w.Time(g.Now)
				} else {
					w.Null()
				}
				w.Int(5)
				if o < firstNewOrder {
					w.Dec(0, 2)
				} else {
					w.Dec(r.Decimal(1, 999999), 2)
				}
				w.Str(r.AString(24, 24))
				if err := g.end(w, &n); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (g *Generator) newOrders(w bulk.Row, wid int) error {
	var n int64
	defer func() { g.flushCount(n) }()
	for d := 1; d <= DistrictsPerWH; d++ {
		for o := firstNewOrder; o <= OrdersPerDistrict; o++ {
			w.Int(int64(o))
			w.Int(int64(d))
			w.Int(int64(wid))
			if err := g.end(w, &n); err != nil {
				return err
			}
		}
	}
	return nil
}

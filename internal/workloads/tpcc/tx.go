package tpcc

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// Transaction types, in the order of the mix.
const (
	NewOrder = iota
	Payment
	OrderStatus
	Delivery
	StockLevel
	numTx
)

// TxNames are the transaction names used in output and results.
var TxNames = []string{"new_order", "payment", "order_status", "delivery", "stock_level"}

// mix is the share of each transaction in a deck of 100 cards (clause 5.2.3: at least 43% Payment and 4% each of
// Order-Status, Delivery and Stock-Level; New-Order takes the rest).
var mix = [numTx]int{45, 43, 4, 4, 4}

// Keying times and mean think times in seconds (clause 5.2.5.7).
var keyingTime = [numTx]float64{18, 3, 2, 2, 2}
var thinkMean = [numTx]float64{12, 12, 10, 5, 5}

// errRollback marks the 1% of New-Orders that roll back on an unused item number (clause 2.4.2.3).
var errRollback = errors.New("new-order rolled back: unused item number")

type orderLine struct {
	iID, supplyWID, quantity int
}

// newOrderInput is clause 2.4.1's input data.
type newOrderInput struct {
	wID, dID, cID int
	lines         []orderLine
	allLocal      int
	rollback      bool
}

func (t *Terminal) newOrderInput() newOrderInput {
	r := t.r
	in := newOrderInput{wID: t.homeWID(), dID: r.Int(1, DistrictsPerWH), cID: r.NURand(1023, 1, CustomersPerDistrict, t.c.CID), allLocal: 1}
	n := r.Int(5, 15)
	in.rollback = r.Int(1, 100) == 1
	in.lines = make([]orderLine, n)
	for i := range in.lines {
		l := &in.lines[i]
		l.iID = r.NURand(8191, 1, Items, t.c.OLIID)
		if in.rollback && i == n-1 {
			l.iID = Items + 1 // an unused value
		}
		l.supplyWID = in.wID
		if t.warehouses > 1 && r.Int(1, 100) == 1 {
			l.supplyWID = t.otherWarehouse(in.wID)
			in.allLocal = 0
		}
		l.quantity = r.Int(1, 10)
	}
	// Lock stock rows in one global order so concurrent New-Orders cannot deadlock on them.
	slices.SortStableFunc(in.lines, func(a, b orderLine) int {
		if a.supplyWID != b.supplyWID {
			return a.supplyWID - b.supplyWID
		}
		return a.iID - b.iID
	})
	return in
}

func (t *Terminal) otherWarehouse(w int) int {
	o := t.r.Int(1, t.warehouses-1)
	if o >= w {
		o++
	}
	return o
}

func (t *Terminal) newOrder(ctx context.Context, in newOrderInput) (total float64, err error) {
	s := t.s
	if t.procs {
		items, supply, qty := make([]int32, len(in.lines)), make([]int32, len(in.lines)), make([]int32, len(in.lines))
		for i, l := range in.lines {
			items[i], supply[i], qty[i] = int32(l.iID), int32(l.supplyWID), int32(l.quantity)
		}
		var rolledBack int
		var args []any
		if t.listsAsText {
			args = []any{in.wID, in.dID, in.cID, len(in.lines), in.allLocal, joinInts(items), joinInts(supply), joinInts(qty)}
		} else {
			args = []any{in.wID, in.dID, in.cID, len(in.lines), in.allLocal, items, supply, qty}
		}
		err := s.Batch(ctx, engine.Op{Name: "proc_new_order", Args: args, Dest: []any{&total, &rolledBack}})
		if err != nil {
			if t.isItemNotFound(err) {
				return 0, errRollback
			}
			return 0, err
		}
		if rolledBack != 0 {
			return 0, errRollback
		}
		return total, nil
	}
	if err := s.Begin(ctx, false); err != nil {
		return 0, err
	}
	var wTax, dTax, cDiscount float64
	var oID int
	var cLast, cCredit string
	district := []engine.Op{
		{Name: "no_district", Args: []any{in.wID, in.dID}, Dest: []any{&dTax, &oID}},
		{Name: "no_district_update", Args: []any{in.wID, in.dID}}}
	if t.districtNext {
		// the dialect takes the next order number in one statement: the increment, then its own write read back
		district = []engine.Op{{Name: "no_district_next", Args: []any{in.wID, in.dID}, Dest: []any{&dTax, &oID}}}
	}
	if err := s.Batch(ctx, append(append([]engine.Op{{Name: "no_warehouse", Args: []any{in.wID}, Dest: []any{&wTax}}}, district...),
		engine.Op{Name: "no_customer", Args: []any{in.wID, in.dID, in.cID}, Dest: []any{&cDiscount, &cLast, &cCredit}})...,
	); err != nil {
		return 0, err
	}
	n := len(in.lines)
	prices := make([]float64, n)
	names := make([]string, n)
	idata := make([]string, n)
	found := make([]bool, n)
	ops := make([]engine.Op, 0, 2+2*n)
	ops = append(ops,
		engine.Op{Name: "no_insert_order", Args: []any{oID, in.dID, in.wID, in.cID, t.now(), n, in.allLocal}},
		engine.Op{Name: "no_insert_new_order", Args: []any{oID, in.dID, in.wID}})
	for i, l := range in.lines {
		ops = append(ops, engine.Op{Name: "no_item", Args: []any{l.iID}, Dest: []any{&prices[i], &names[i], &idata[i]}, Found: &found[i]})
	}
	if err := s.Batch(ctx, ops...); err != nil {
		return 0, err
	}
	for i := range found {
		if !found[i] {
			return 0, errRollback // the caller rolls back
		}
	}
	sQty := make([]int, n)
	sData := make([]string, n)
	sDist := make([]string, n)
	ops = ops[:0]
	for i, l := range in.lines {
		ops = append(ops, engine.Op{Name: "no_stock", Args: []any{l.supplyWID, l.iID, in.dID}, Dest: []any{&sQty[i], &sData[i], &sDist[i]}})
	}
	if err := s.Batch(ctx, ops...); err != nil {
		return 0, err
	}
	ops = ops[:0]
	var sum float64
	for i, l := range in.lines {
		q := sQty[i]
		if i > 0 && in.lines[i-1].iID == l.iID && in.lines[i-1].supplyWID == l.supplyWID {
			// A line that repeats the previous line's item (the lines are sorted) sees that line's update, as
			// when the lines are processed one after the other.
			q = sQty[i-1]
		}
		if q >= l.quantity+10 {
			q -= l.quantity
		} else {
			q = q - l.quantity + 91
		}
		sQty[i] = q
		remote := 0
		if l.supplyWID != in.wID {
			remote = 1
		}
		amount := math.Round(float64(l.quantity)*prices[i]*100) / 100
		sum += amount
		// brand-generic (clause 2.4.2.2) is computed for the output screen only.
		_ = strings.Contains(idata[i], "ORIGINAL") && strings.Contains(sData[i], "ORIGINAL")
		ops = append(ops,
			engine.Op{Name: "no_stock_update", Args: []any{q, l.quantity, remote, l.supplyWID, l.iID}},
			engine.Op{Name: "no_insert_order_line", Args: []any{oID, in.dID, in.wID, i + 1, l.iID, l.supplyWID, l.quantity, amount, sDist[i]}})
	}
	if err := s.BatchCommit(ctx, ops...); err != nil {
		return 0, err
	}
	return sum * (1 - cDiscount) * (1 + wTax + dTax), nil
}

func joinInts(v []int32) string {
	var b strings.Builder
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}

// paymentInput is clause 2.5.1's input data.
type paymentInput struct {
	wID, dID, cWID, cDID, cID int
	cLast                     string
	byName                    bool
	amount                    float64
}

func (t *Terminal) paymentInput() paymentInput {
	r := t.r
	in := paymentInput{wID: t.homeWID(), dID: r.Int(1, DistrictsPerWH)}
	if t.warehouses == 1 || r.Int(1, 100) <= 85 {
		in.cWID, in.cDID = in.wID, in.dID
	} else {
		in.cWID, in.cDID = t.otherWarehouse(in.wID), r.Int(1, DistrictsPerWH)
	}
	if r.Int(1, 100) <= 60 {
		in.byName = true
		in.cLast = LastName(r.NURand(255, 0, 999, t.c.CLast))
	} else {
		in.cID = r.NURand(1023, 1, CustomersPerDistrict, t.c.CID)
	}
	in.amount = float64(r.Int(100, 500000)) / 100
	return in
}

// pickByName returns the customer at position ceil(n/2) of those with the last name, sorted by C_FIRST
// (clause 2.5.2.2).
func (t *Terminal) pickByName(ctx context.Context, wID, dID int, last string) (int, error) {
	ids := t.idBuf[:0]
	var id int
	err := t.s.Query(ctx, "customers_by_last", []any{wID, dID, last}, []any{&id}, func() error {
		ids = append(ids, id)
		return nil
	})
	t.idBuf = ids
	if err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, fmt.Errorf("no customer named %s in warehouse %d district %d: %w", last, wID, dID, engine.ErrNoRow)
	}
	return ids[(len(ids)+1)/2-1], nil
}

func (t *Terminal) payment(ctx context.Context, in paymentInput) error {
	s := t.s
	if t.procs {
		var cID int
		var balance float64
		return s.Batch(ctx, engine.Op{Name: "proc_payment", Args: []any{in.wID, in.dID, in.cWID, in.cDID, in.cID, in.byName, in.cLast, in.amount},
			Dest: []any{&cID, &balance}})
	}
	if err := s.Begin(ctx, false); err != nil {
		return err
	}
	var wName, wS1, wS2, wCity, wState, wZip, dName, dS1, dS2, dCity, dState, dZip string
	if err := s.Batch(ctx,
		engine.Op{Name: "pay_warehouse_update", Args: []any{in.wID, in.amount}},
		engine.Op{Name: "pay_warehouse", Args: []any{in.wID}, Dest: []any{&wName, &wS1, &wS2, &wCity, &wState, &wZip}},
		engine.Op{Name: "pay_district_update", Args: []any{in.wID, in.dID, in.amount}},
		engine.Op{Name: "pay_district", Args: []any{in.wID, in.dID}, Dest: []any{&dName, &dS1, &dS2, &dCity, &dState, &dZip}},
	); err != nil {
		return err
	}
	cID := in.cID
	if in.byName {
		var err error
		if cID, err = t.pickByName(ctx, in.cWID, in.cDID, in.cLast); err != nil {
			return err
		}
	}
	var first, middle, last, s1, s2, city, state, zip, phone, credit string
	var since any
	var limit, discount, balance float64
	if err := s.Batch(ctx, engine.Op{Name: "pay_customer", Args: []any{in.cWID, in.cDID, cID},
		Dest: []any{&first, &middle, &last, &s1, &s2, &city, &state, &zip, &phone, &since, &credit, &limit, &discount, &balance}}); err != nil {
		return err
	}
	var tail []engine.Op
	if credit == "BC" {
		var data string
		if err := s.Batch(ctx, engine.Op{Name: "pay_customer_data", Args: []any{in.cWID, in.cDID, cID}, Dest: []any{&data}}); err != nil {
			return err
		}
		data = fmt.Sprintf("%d %d %d %d %d %.2f|%s", cID, in.cDID, in.cWID, in.dID, in.wID, in.amount, data)
		if len(data) > 500 {
			data = data[:500]
		}
		tail = append(tail, engine.Op{Name: "pay_customer_update_bc", Args: []any{in.cWID, in.cDID, cID, in.amount, data}})
	} else {
		tail = append(tail, engine.Op{Name: "pay_customer_update", Args: []any{in.cWID, in.cDID, cID, in.amount}})
	}
	tail = append(tail, engine.Op{Name: "pay_insert_history", Args: []any{cID, in.cDID, in.cWID, in.dID, in.wID, t.now(), in.amount, wName + "    " + dName}})
	return s.BatchCommit(ctx, tail...)
}

// orderStatusInput is clause 2.6.1's input data.
type orderStatusInput struct {
	wID, dID, cID int
	cLast         string
	byName        bool
}

func (t *Terminal) orderStatusInput() orderStatusInput {
	r := t.r
	in := orderStatusInput{wID: t.homeWID(), dID: r.Int(1, DistrictsPerWH)}
	if r.Int(1, 100) <= 60 {
		in.byName = true
		in.cLast = LastName(r.NURand(255, 0, 999, t.c.CLast))
	} else {
		in.cID = r.NURand(1023, 1, CustomersPerDistrict, t.c.CID)
	}
	return in
}

func (t *Terminal) orderStatus(ctx context.Context, in orderStatusInput) error {
	s := t.s
	if t.procs {
		var cID, lines int
		return s.Batch(ctx, engine.Op{Name: "proc_order_status", Args: []any{in.wID, in.dID, in.cID, in.byName, in.cLast}, Dest: []any{&cID, &lines}})
	}
	if err := s.Begin(ctx, true); err != nil {
		return err
	}
	cID := in.cID
	if in.byName {
		var err error
		if cID, err = t.pickByName(ctx, in.wID, in.dID, in.cLast); err != nil {
			return err
		}
	}
	var balance float64
	var first, middle, last string
	var oID int
	var entry, carrier any
	found := false
	if err := s.Batch(ctx,
		engine.Op{Name: "os_customer", Args: []any{in.wID, in.dID, cID}, Dest: []any{&balance, &first, &middle, &last}},
		engine.Op{Name: "os_last_order", Args: []any{in.wID, in.dID, cID}, Dest: []any{&oID, &entry, &carrier}, Found: &found},
	); err != nil {
		return err
	}
	if found {
		var iID, supply, qty int
		var amount float64
		var delivery any
		if err := s.Query(ctx, "os_order_lines", []any{in.wID, in.dID, oID}, []any{&iID, &supply, &qty, &amount, &delivery}, func() error { return nil }); err != nil {
			return err
		}
	}
	return s.Commit(ctx)
}

func (t *Terminal) delivery(ctx context.Context, wID, carrier int) error {
	s := t.s
	if t.procs {
		var delivered int
		return s.Batch(ctx, engine.Op{Name: "proc_delivery", Args: []any{wID, carrier}, Dest: []any{&delivered}})
	}
	if err := s.Begin(ctx, false); err != nil {
		return err
	}
	// Three round trips for the ten districts: find each district's oldest undelivered order, deliver them all,
	// then credit the customers and commit.
	now := t.now()
	var oID, cID [DistrictsPerWH]int
	var amount [DistrictsPerWH]float64
	var found [DistrictsPerWH]bool
	ops := make([]engine.Op, 0, 5*DistrictsPerWH)
	for d := 1; d <= DistrictsPerWH; d++ {
		ops = append(ops, engine.Op{Name: "dl_new_order", Args: []any{wID, d}, Dest: []any{&oID[d-1]}, Found: &found[d-1]})
	}
	if err := s.Batch(ctx, ops...); err != nil {
		return err
	}
	ops = ops[:0]
	for d := 1; d <= DistrictsPerWH; d++ {
		if !found[d-1] {
			continue // no undelivered order in this district: skipped (clause 2.7.4.2)
		}
		o := oID[d-1]
		ops = append(ops,
			engine.Op{Name: "dl_delete_new_order", Args: []any{wID, d, o}},
			engine.Op{Name: "dl_order", Args: []any{wID, d, o}, Dest: []any{&cID[d-1]}},
			engine.Op{Name: "dl_update_order", Args: []any{wID, d, o, carrier}},
			engine.Op{Name: "dl_update_order_lines", Args: []any{wID, d, o, now}},
			engine.Op{Name: "dl_sum_order_lines", Args: []any{wID, d, o}, Dest: []any{&amount[d-1]}})
	}
	if len(ops) == 0 {
		return s.Commit(ctx)
	}
	if err := s.Batch(ctx, ops...); err != nil {
		return err
	}
	ops = ops[:0]
	for d := 1; d <= DistrictsPerWH; d++ {
		if found[d-1] {
			ops = append(ops, engine.Op{Name: "dl_update_customer", Args: []any{wID, d, cID[d-1], amount[d-1]}})
		}
	}
	return s.BatchCommit(ctx, ops...)
}

func (t *Terminal) stockLevel(ctx context.Context, wID, dID, threshold int) (int, error) {
	s := t.s
	var low int
	if t.procs {
		return low, s.Batch(ctx, engine.Op{Name: "proc_stock_level", Args: []any{wID, dID, threshold}, Dest: []any{&low}})
	}
	if err := s.Begin(ctx, true); err != nil {
		return 0, err
	}
	var next int
	if err := s.Batch(ctx, engine.Op{Name: "sl_district", Args: []any{wID, dID}, Dest: []any{&next}}); err != nil {
		return 0, err
	}
	return low, s.BatchCommit(ctx, engine.Op{Name: "sl_count", Args: []any{wID, dID, next, threshold}, Dest: []any{&low}})
}

func (t *Terminal) now() time.Time { return time.Now().UTC().Truncate(time.Second) }

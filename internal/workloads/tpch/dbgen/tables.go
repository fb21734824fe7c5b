package dbgen

import (
	"strconv"
)

// Table is one of the eight TPC-H tables.
type Table int

const (
	Region Table = iota
	Nation
	Supplier
	Customer
	Part
	PartSupp
	Orders
	LineItem
)

// Tables lists them in dbgen's order.
var Tables = []Table{Region, Nation, Supplier, Customer, Part, PartSupp, Orders, LineItem}

var tableNames = []string{"region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"}

func (t Table) String() string { return tableNames[t] }

// Writer receives rows value by value. Decimals are integers of 10^-scale units (dbgen's are hundredths);
// dates are days since 1970-01-01. Every bulk.Row is a Writer.
type Writer interface {
	Int(v int64)
	Dec(units int64, scale int)
	Str(s string)
	Bytes(b []byte)
	Date(days int32)
	EndRow() error
}

// EpochDay is the generator's day 0, 1992-01-01, in days since 1970-01-01.
const EpochDay = 8035

const (
	supplierBase = 10000
	customerBase = 150000
	partBase     = 200000
	ordersBase   = 1500000
)

// BaseRows is the number of generation units of a table at a scale factor: rows, except for partsupp (parts:
// four rows each) and lineitem (orders: one to seven rows each). Parts of a table split these units.
func BaseRows(t Table, sf float64) int64 {
	switch t {
	case Region:
		return int64(len(distRegions.values))
	case Nation:
		return int64(len(nations))
	case Supplier:
		return int64(supplierBase * sf)
	case Customer:
		return int64(customerBase * sf)
	case Part, PartSupp:
		return int64(partBase * sf)
	default:
		return int64(ordersBase * sf)
	}
}

// Split returns the [start, start+count) units of part k (1-based) of n, as dbgen splits a table: equal parts,
// the remainder in the last.
func Split(total int64, k, n int) (start, count int64) {
	per := total / int64(n)
	start = per * int64(k-1)
	count = per
	if k == n {
		count += total % int64(n)
	}
	return start, count
}

// Generate writes units [start, start+count) of table t at scale factor sf.
func Generate(t Table, sf float64, start, count int64, w Writer) error {
	p := TextPool()
	switch t {
	case Region:
		return genRegion(p, start, count, w)
	case Nation:
		return genNation(p, start, count, w)
	case Supplier:
		return genSupplier(p, sf, start, count, w)
	case Customer:
		return genCustomer(p, sf, start, count, w)
	case Part:
		return genPart(p, start, count, w)
	case PartSupp:
		return genPartSupp(p, sf, start, count, w)
	case Orders:
		return genOrders(p, sf, orderRange{start: start, first: start + 1, count: count}, w)
	default:
		return genLineItem(p, sf, orderRange{start: start, first: start + 1, count: count}, w)
	}
}

func genRegion(p *Pool, start, count int64, w Writer) error {
	c := newTextRand(1500869201, p, 72, 1)
	c.advanceRows(start)
	for i := start; i < start+count; i++ {
		w.Int(i)
		w.Str(distRegions.values[i])
		w.Bytes(c.next())
		c.rowFinished()
		if err := w.EndRow(); err != nil {
			return err
		}
	}
	return nil
}

func genNation(p *Pool, start, count int64, w Writer) error {
	c := newTextRand(606179079, p, 72, 1)
	c.advanceRows(start)
	for i := start; i < start+count; i++ {
		w.Int(i)
		w.Str(nations[i].name)
		w.Int(nations[i].region)
		w.Bytes(c.next())
		c.rowFinished()
		if err := w.EndRow(); err != nil {
			return err
		}
	}
	return nil
}

const (
	bbbBase       = "Customer "
	bbbComplaint  = "Complaints"
	bbbRecommend  = "Recommends"
	bbbCommentLen = len(bbbBase) + len(bbbComplaint)
)

func genSupplier(p *Pool, sf float64, start, count int64, w Writer) error {
	address := newAlnumRand(706178559, 25)
	nation := newBoundedInt(110356601, 0, int32(len(nations)-1), 1)
	phone := newPhoneRand(884434366)
	balance := newBoundedInt(962338209, -99999, 999999, 1)
	comment := newTextRand(1341315363, p, 63, 1)
	bbbComment := newBoundedInt(202794285, 1, supplierBase, 1)
	bbbJunk := newRowRand(263032577, 1)
	bbbOffset := newRowRand(715851524, 1)
	bbbType := newBoundedInt(753643799, 0, 100, 1)
	for _, a := range []interface{ advanceRows(int64) }{&address, &nation, &phone, &balance, &comment, &bbbComment, &bbbJunk, &bbbOffset, &bbbType} {
		a.advanceRows(start)
	}
	var buf, cbuf []byte
	for key := start + 1; key <= start+count; key++ {
		text := comment.next()
		if bbbComment.next() <= 10 {
			// "Customer ... Complaints/Recommends" planted in 10 of every 10,000 suppliers' comments (for Q16)
			cbuf = append(cbuf[:0], text...)
			noise := int(bbbJunk.intn(0, int32(len(text)-bbbCommentLen)))
			off := int(bbbOffset.intn(0, int32(len(text)-(bbbCommentLen+noise))))
			kind := bbbRecommend
			if bbbType.next() < 50 {
				kind = bbbComplaint
			}
			copy(cbuf[off:], bbbBase)
			copy(cbuf[off+len(bbbBase)+noise:], kind)
			text = cbuf
		}
		nk := int64(nation.next())
		w.Int(key)
		buf = appendPadded(append(buf[:0], "Supplier#"...), key, 9)
		w.Bytes(buf)
		buf = address.appendNext(buf[:0])
		w.Bytes(buf)
		w.Int(nk)
		buf = phone.appendNext(buf[:0], nk)
		w.Bytes(buf)
		w.Dec(int64(balance.next()), 2)
		w.Bytes(text)
		for _, f := range []interface{ rowFinished() }{&address, &nation, &phone, &balance, &comment, &bbbComment, &bbbJunk, &bbbOffset, &bbbType} {
			f.rowFinished()
		}
		if err := w.EndRow(); err != nil {
			return err
		}
	}
	return nil
}

func genCustomer(p *Pool, sf float64, start, count int64, w Writer) error {
	address := newAlnumRand(881155353, 25)
	nation := newBoundedInt(1489529863, 0, int32(len(nations)-1), 1)
	phone := newPhoneRand(1521138112)
	balance := newBoundedInt(298370230, -99999, 999999, 1)
	segment := newStringRand(1140279430, distSegments, 1)
	comment := newTextRand(1335826707, p, 73, 1)
	all := []interface {
		advanceRows(int64)
		rowFinished()
	}{&address, &nation, &phone, &balance, &segment, &comment}
	for _, a := range all {
		a.advanceRows(start)
	}
	var buf []byte
	for key := start + 1; key <= start+count; key++ {
		nk := int64(nation.next())
		w.Int(key)
		buf = appendPadded(append(buf[:0], "Customer#"...), key, 9)
		w.Bytes(buf)
		buf = address.appendNext(buf[:0])
		w.Bytes(buf)
		w.Int(nk)
		buf = phone.appendNext(buf[:0], nk)
		w.Bytes(buf)
		w.Dec(int64(balance.next()), 2)
		w.Str(segment.next())
		w.Bytes(comment.next())
		for _, f := range all {
			f.rowFinished()
		}
		if err := w.EndRow(); err != nil {
			return err
		}
	}
	return nil
}

// PartPrice is P_RETAILPRICE in hundredths (clause 4.2.3).
func PartPrice(key int64) int64 {
	return 90000 + (key/10)%20001 + (key%1000)*100
}

func genPart(p *Pool, start, count int64, w Writer) error {
	name := newRowRand(709314158, int32(len(distColors.values)))
	mfgr := newBoundedInt(1, 1, 5, 1)
	brand := newBoundedInt(46831694, 1, 5, 1)
	ptype := newStringRand(1841581359, distPartTypes, 1)
	size := newBoundedInt(1193163244, 1, 50, 1)
	container := newStringRand(727633698, distPartContainers, 1)
	comment := newTextRand(804159733, p, 14, 1)
	name.advanceRows(start)
	others := []interface {
		advanceRows(int64)
		rowFinished()
	}{&mfgr, &brand, &ptype, &size, &container, &comment}
	for _, a := range others {
		a.advanceRows(start)
	}
	colors := make([]string, len(distColors.values))
	var buf []byte
	for key := start + 1; key <= start+count; key++ {
		// P_NAME: five distinct colors, a partial shuffle of the list
		copy(colors, distColors.values)
		buf = buf[:0]
		for i := int32(0); i < 5; i++ {
			j := name.intn(i, int32(len(colors))-1)
			colors[i], colors[j] = colors[j], colors[i]
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = append(buf, colors[i]...)
		}
		w.Int(key)
		w.Bytes(buf)
		m := int64(mfgr.next())
		buf = strconv.AppendInt(append(buf[:0], "Manufacturer#"...), m, 10)
		w.Bytes(buf)
		buf = strconv.AppendInt(append(buf[:0], "Brand#"...), m*10+int64(brand.next()), 10)
		w.Bytes(buf)
		w.Str(ptype.next())
		w.Int(int64(size.next()))
		w.Str(container.next())
		w.Dec(PartPrice(key), 2)
		w.Bytes(comment.next())
		name.rowFinished()
		for _, f := range others {
			f.rowFinished()
		}
		if err := w.EndRow(); err != nil {
			return err
		}
	}
	return nil
}

// PartSupplier is the supplier key of the n-th (0..3) supplier of a part (clause 4.2.3).
func PartSupplier(part, n int64, sf float64) int64 {
	s := int64(supplierBase * sf)
	return (part+n*(s/4+(part-1)/s))%s + 1
}

func genPartSupp(p *Pool, sf float64, start, count int64, w Writer) error {
	qty := newBoundedInt(1671059989, 1, 9999, 4)
	cost := newBoundedInt(1051288424, 100, 100000, 4)
	comment := newTextRand(1961692154, p, 124, 4)
	qty.advanceRows(start)
	cost.advanceRows(start)
	comment.advanceRows(start)
	for part := start + 1; part <= start+count; part++ {
		for n := int64(0); n < 4; n++ {
			w.Int(part)
			w.Int(PartSupplier(part, n, sf))
			w.Int(int64(qty.next()))
			w.Dec(int64(cost.next()), 2)
			w.Bytes(comment.next())
			if err := w.EndRow(); err != nil {
				return err
			}
		}
		qty.rowFinished()
		cost.rowFinished()
		comment.rowFinished()
	}
	return nil
}

// Dates: day 0 is 1992-01-01; orders are dated up to 151 days before 1998-12-31 so every line ships in the
// range; "current date" for line status and return flags is 1995-06-17.
const (
	totalDays      = 2557
	shipDaysMax    = 121
	receiptDaysMax = 30
	orderDateMax   = totalDays - (shipDaysMax + receiptDaysMax) - 1
	currentDay     = 1263 // 1995-06-17
)

func inPast(day int32) bool { return day <= currentDay }

// sparseKey is dbgen's mk_sparse, O_ORDERKEY of the index-th order: keys are sparse, 8 used of every 32 (clause
// 4.2.3). The index's low 3 bits stay, 2 bits above them hold seq (0 for the loaded orders, 1 + set/1000 for
// update set orders), the rest of the index goes above those.
func sparseKey(index, seq int64) int64 {
	return ((index>>3)<<2+seq)<<3 + index&7
}

// orderRange is a run of orders: the random streams start as after `start` orders, the first order has index
// `first` and keys are made with `seq` (see sparseKey). For the loaded data first = start+1 and seq = 0.
type orderRange struct {
	start, first, count, seq int64
}

type orderStreams struct {
	date, lines          boundedInt
	qty, disc, tax, ship boundedInt
	partKey              boundedLong
}

func newOrderStreams(sf float64) orderStreams {
	return orderStreams{
		date:    newBoundedInt(1066728069, 0, orderDateMax, 1),
		lines:   newBoundedInt(1434868289, 1, 7, 1),
		qty:     newBoundedInt(209208115, 1, 50, 7),
		disc:    newBoundedInt(554590007, 0, 10, 7),
		tax:     newBoundedInt(721958466, 0, 8, 7),
		partKey: newBoundedLong(1808217256, sf >= 30000, 1, int64(partBase*sf), 7),
		ship:    newBoundedInt(1769349045, 1, shipDaysMax, 7),
	}
}

func genOrders(p *Pool, sf float64, o orderRange, w Writer) error {
	s := newOrderStreams(sf)
	maxCust := int64(customerBase * sf)
	cust := newBoundedLong(851767375, sf >= 30000, 1, maxCust, 1)
	prio := newStringRand(591449447, distPriorities, 1)
	clerk := newBoundedInt(1171034773, 1, int32(max(sf*1000, 1000)), 1)
	comment := newTextRand(276090261, p, 49, 1)
	all := []interface {
		advanceRows(int64)
		rowFinished()
	}{&s.date, &s.lines, &cust, &prio, &clerk, &comment, &s.qty, &s.disc, &s.tax, &s.partKey, &s.ship}
	for _, a := range all {
		a.advanceRows(o.start)
	}
	var buf []byte
	for index := o.first; index < o.first+o.count; index++ {
		date := s.date.next()
		ck := cust.next()
		// a third of the customers place no orders: skip keys divisible by three
		for delta := int64(1); ck%3 == 0; delta = -delta {
			ck = min(ck+delta, maxCust)
		}
		var total int64
		shipped := int32(0)
		n := s.lines.next()
		for l := int32(0); l < n; l++ {
			q := int64(s.qty.next())
			d := int64(s.disc.next())
			t := int64(s.tax.next())
			pk := s.partKey.next()
			ext := PartPrice(pk) * q
			total += ((ext * (100 - d) / 100) * (100 + t)) / 100
			if inPast(s.ship.next() + date) {
				shipped++
			}
		}
		status := "O"
		if shipped == n {
			status = "F"
		} else if shipped > 0 {
			status = "P"
		}
		w.Int(sparseKey(index, o.seq))
		w.Int(ck)
		w.Str(status)
		w.Dec(total, 2)
		w.Date(date + EpochDay)
		w.Str(prio.next())
		buf = appendPadded(append(buf[:0], "Clerk#"...), int64(clerk.next()), 9)
		w.Bytes(buf)
		w.Int(0)
		w.Bytes(comment.next())
		for _, f := range all {
			f.rowFinished()
		}
		if err := w.EndRow(); err != nil {
			return err
		}
	}
	return nil
}

func genLineItem(p *Pool, sf float64, o orderRange, w Writer) error {
	s := newOrderStreams(sf)
	supp := newBoundedInt(2095021727, 0, 3, 7)
	commit := newBoundedInt(904914315, 30, 90, 7)
	receipt := newBoundedInt(373135028, 1, receiptDaysMax, 7)
	rflag := newStringRand(717419739, distReturnFlags, 7)
	instruct := newStringRand(1371272478, distInstructions, 7)
	mode := newStringRand(675466456, distShipModes, 7)
	comment := newTextRand(1095462486, p, 27, 7)
	all := []interface {
		advanceRows(int64)
		rowFinished()
	}{&s.date, &s.lines, &s.qty, &s.disc, &s.tax, &s.partKey, &supp, &s.ship, &commit, &receipt, &rflag, &instruct, &mode, &comment}
	for _, a := range all {
		a.advanceRows(o.start)
	}
	for index := o.first; index < o.first+o.count; index++ {
		date := s.date.next()
		n := s.lines.next()
		key := sparseKey(index, o.seq)
		for l := int32(1); l <= n; l++ {
			q := int64(s.qty.next())
			d := int64(s.disc.next())
			t := int64(s.tax.next())
			pk := s.partKey.next()
			sk := PartSupplier(pk, int64(supp.next()), sf)
			ship := s.ship.next() + date
			com := commit.next() + date
			rec := receipt.next() + ship
			flag := "N"
			if inPast(rec) {
				flag = rflag.next()
			}
			status := "O"
			if inPast(ship) {
				status = "F"
			}
			w.Int(key)
			w.Int(pk)
			w.Int(sk)
			w.Int(int64(l))
			w.Int(q)
			w.Dec(PartPrice(pk)*q, 2)
			w.Dec(d, 2)
			w.Dec(t, 2)
			w.Str(flag)
			w.Str(status)
			w.Date(ship + EpochDay)
			w.Date(com + EpochDay)
			w.Date(rec + EpochDay)
			w.Str(instruct.next())
			w.Str(mode.next())
			w.Bytes(comment.next())
			if err := w.EndRow(); err != nil {
				return err
			}
		}
		for _, f := range all {
			f.rowFinished()
		}
	}
	return nil
}

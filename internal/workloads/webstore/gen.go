package webstore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
)

// Size is a store's scale: its customers, products and orders a month (12 months of history are loaded).
type Size struct {
	Customers      int64
	Products       int64
	OrdersPerMonth int64
	// ReviewsPerProduct: DVD Store 3 loads 20 reviews a product, each with 2-39 helpfulness ratings.
	ReviewsPerProduct int64
}

// Sizes are the named sizes of DVD Store 3's database (S, M, L: its 10 MB, 1 GB and 100 GB before its reviews,
// which add about 100 MB, 1 GB and 10 GB).
var Sizes = map[string]Size{
	"S": {Customers: 20_000, Products: 10_000, OrdersPerMonth: 1_000, ReviewsPerProduct: 20},
	"M": {Customers: 2_000_000, Products: 100_000, OrdersPerMonth: 100_000, ReviewsPerProduct: 20},
	"L": {Customers: 200_000_000, Products: 1_000_000, OrdersPerMonth: 10_000_000, ReviewsPerProduct: 20},
}

// Months of order history a build loads.
const Months = 12

// Orders is the loaded orders' count.
func (s Size) Orders() int64 { return s.OrdersPerMonth * Months }

// Reviews is the loaded reviews' count (their keys are 1..Reviews).
func (s Size) Reviews() int64 { return s.Products * s.ReviewsPerProduct }

// helpfulnessSlots: review r's loaded helpfulness ratings have the keys r*helpfulnessSlots+1 .. +39, so that
// each part of the load knows its keys.
const helpfulnessSlots = 64

// HelpfulnessKeys is the largest key a loaded helpfulness rating may have; runs' ratings take keys above it.
func (s Size) HelpfulnessKeys() int64 { return (s.Reviews() + 1) * helpfulnessSlots }

// MemberEvery: every MemberEvery-th loaded customer is a premier member (DVD Store 3: 10% of the customers).
const MemberEvery = 10

// Categories of products (DVD genres).
var Categories = []string{"Action", "Animation", "Children", "Classics", "Comedy", "Documentary", "Drama", "Family",
	"Foreign", "Games", "Horror", "Music", "New", "Sci-Fi", "Sports", "Travel"}

// bytesPer are each table's bytes per row as text, for the disk check before a build.
const (
	bytesPerCustomer = 190
	bytesPerProduct  = 80
	bytesPerOrder    = 45
	bytesPerLine     = 2 * 30 // an order line and its history row
	bytesPerReview   = 450
	bytesPerRating   = 20
	bytesPerMember   = 20
)

// Bytes is the size of a build's rows as text.
func (s Size) Bytes() int64 {
	return s.Customers*bytesPerCustomer + s.Products*(bytesPerProduct+30) + s.Orders()*(bytesPerOrder+MeanLines*bytesPerLine) +
		s.Reviews()*(bytesPerReview+meanRatings*bytesPerRating) + s.Customers/MemberEvery*bytesPerMember
}

// meanRatings is the mean count of a loaded review's helpfulness ratings (uniform 2..39).
const meanRatings = 20

// MeanLines is the mean order line count of the loaded history (uniform 1..9).
const MeanLines = 5

// Rows is a build's expected row count (order lines at their mean).
func (s Size) Rows() int64 {
	return int64(len(Categories)) + s.Customers + 3*s.Products + s.Orders()*(1+2*MeanLines) + s.Customers/MemberEvery +
		s.Reviews()*(1+meanRatings)
}

// ---- the values every part of the workload derives from the seed ----

// mix is a 64-bit hash (splitmix64's finaliser) of a seed and a key: the loaded data are functions of them, so
// any part can be generated alone and the run can tell a product's price without asking the database.
func mix(seed uint64, key ...uint64) uint64 {
	z := seed ^ 0x9e3779b97f4a7c15
	for _, k := range key {
		z += k * 0xbf58476d1ce4e5b9
		z ^= z >> 31
		z *= 0x94d049bb133111eb
		z ^= z >> 29
	}
	return z
}

const (
	keyPrice = iota + 1
	keyCategory
	keySpecial
	keyStock
	keyActor
	keyTitle
	keyOrder
	keyCustomer
	keyReview
	keyMember
)

// Price is a product's price in cents: 9.99 to 29.99.
func Price(seed uint64, prod int64) int64 { return 999 + int64(mix(seed, keyPrice, uint64(prod))%2001) }

// Category is a product's category number (1-based).
func Category(seed uint64, prod int64) int {
	return 1 + int(mix(seed, keyCategory, uint64(prod))%uint64(len(Categories)))
}

// Special says a product is on the specials list a category browse shows (1 in 100).
func Special(seed uint64, prod int64) bool { return mix(seed, keySpecial, uint64(prod))%100 == 0 }

// Stock is a product's loaded quantity in stock: 0 to 500, ten times that for a hot seller (HotEvery), as DVD
// Store 3 loads it.
func Stock(seed uint64, prod int64) int64 {
	q := int64(mix(seed, keyStock, uint64(prod)) % 501)
	if prod%HotEvery == 0 {
		q *= 10
	}
	return q
}

var actorFirst = []string{"PENELOPE", "NICK", "ED", "JENNIFER", "JOHNNY", "BETTE", "GRACE", "MATTHEW", "JOE", "CHRISTIAN",
	"ZERO", "KARL", "UMA", "VIVIEN", "CUBA", "FRED", "HELEN", "DAN", "BOB", "LUCILLE", "KIRSTEN", "ELVIS", "SANDRA",
	"CAMERON", "KEVIN", "RIP", "JULIA", "WOODY", "ALEC", "SISSY", "TIM", "MILLA", "AUDREY", "JUDY", "BURT", "VAL",
	"TOM", "GOLDIE", "JODIE", "KIRK"}

var actorLast = []string{"GUINESS", "WAHLBERG", "CHASE", "DAVIS", "LOLLOBRIGIDA", "NICHOLSON", "MOSTEL", "JOHANSSON",
	"SWANK", "GABLE", "CAGE", "BERRY", "WOOD", "BERGEN", "OLIVIER", "COSTNER", "VOIGHT", "TORN", "FAWCETT", "TRACY",
	"PALTROW", "MARX", "KILMER", "STREEP", "BLOOM", "CRAWFORD", "MCQUEEN", "HOFFMAN", "WRAY", "SOBIESKI", "HACKMAN",
	"PECK", "OLIVIER", "DEAN", "DUKAKIS", "BOLGER", "MCKELLEN", "BRODY", "HOPKINS", "TEMPLE"}

var titleWords = []string{"ACADEMY", "ACE", "ADAPTATION", "AFFAIR", "AFRICAN", "AGENT", "AIRPLANE", "AIRPORT", "ALABAMA",
	"ALADDIN", "ALAMO", "ALASKA", "ALI", "ALICE", "ALIEN", "ALLEY", "ALONE", "ALTER", "AMADEUS", "AMELIE", "AMERICAN",
	"AMISTAD", "ANACONDA", "ANALYZE", "ANGELS", "ANNIE", "ANONYMOUS", "ANTHEM", "ANTITRUST", "ANYTHING", "APACHE",
	"APOCALYPSE", "APOLLO", "ARABIA", "ARACHNOPHOBIA", "ARGONAUTS", "ARIZONA", "ARK", "ARMAGEDDON", "ARMY"}

// Actor is a product's actor: one of 1,600 names, so a search by actor finds a few of a small store's products
// and many of a large one's.
func Actor(seed uint64, prod int64) string {
	h := mix(seed, keyActor, uint64(prod))
	return actorFirst[h%uint64(len(actorFirst))] + " " + actorLast[(h>>20)%uint64(len(actorLast))]
}

// Title is a product's title: two words and a number that depends on the product, so titles are mostly unique.
func Title(seed uint64, prod int64) string {
	h := mix(seed, keyTitle, uint64(prod))
	return titleWords[h%uint64(len(titleWords))] + " " + titleWords[(h>>16)%uint64(len(titleWords))] + " " + strconv.FormatInt(prod%1000, 10)
}

// Username is a loaded customer's login name; every loaded customer's password is "password".
func Username(customer int64) string { return "user" + strconv.FormatInt(customer, 10) }

// Password of the loaded customers.
const Password = "password"

// historyLine is one line of a loaded order.
type historyLine struct {
	prod, qty int64
}

// historyOrder derives a loaded order from the seed: its customer, day and lines (1 to 9 of 1 to 3 items).
func historyOrder(seed uint64, s Size, order int64, lines []historyLine) (customer int64, day int32, out []historyLine) {
	r := rand.New(rand.NewPCG(mix(seed, keyOrder, uint64(order)), uint64(order)))
	customer = 1 + r.Int64N(s.Customers)
	month := (order - 1) / s.OrdersPerMonth // orders come month by month
	day = historyStart + int32(month*30) + int32(r.IntN(28))
	n := 1 + r.IntN(9)
	out = lines[:0]
	for i := 0; i < n; i++ {
		out = append(out, historyLine{prod: 1 + r.Int64N(s.Products), qty: 1 + r.Int64N(3)})
	}
	return customer, day, out
}

// historyStart is the first day of the loaded history: 2025-01-01 (days since 1970-01-01).
const historyStart = 20089

// Amounts are an order's net amount, tax and total in cents: the lines' quantities times their products'
// prices, tax at 8.25% (rounded half up), total their sum.
func Amounts(seed uint64, prods, qtys []int64) (net, tax, total int64) {
	for i := range prods {
		net += qtys[i] * Price(seed, prods[i])
	}
	tax = (net*825 + 5000) / 10000
	return net, tax, net + tax
}

// ---- loading ----

var (
	categoryCols  = []string{"category", "categoryname"}
	productCols   = []string{"prod_id", "category", "title", "actor", "price", "special", "common_prod_id"}
	inventoryCols = []string{"prod_id", "quan_in_stock", "sales"}
	customerCols  = []string{"customerid", "firstname", "lastname", "address1", "city", "state", "zip", "country", "region",
		"email", "phone", "creditcardtype", "creditcard", "creditcardexpiration", "username", "password", "age", "income", "gender"}
	orderCols       = []string{"orderid", "orderdate", "customerid", "netamount", "tax", "totalamount"}
	lineCols        = []string{"orderlineid", "orderid", "prod_id", "quantity", "orderdate"}
	custHistCols    = []string{"customerid", "orderid", "prod_id"}
	membershipCols  = []string{"customerid", "membershiptype", "expiredate"}
	reviewCols      = []string{"review_id", "prod_id", "review_date", "stars", "customerid", "review_summary", "review_text"}
	helpfulnessCols = []string{"review_helpfulness_id", "review_id", "customerid", "helpfulness"}
)

var countries = []string{"Australia", "Canada", "Chile", "China", "France", "Germany", "Japan", "Russia", "South Africa", "UK"}

const chunkRows = 50_000

// work splits a build into independent parts: the small tables, customers and products in ranges, and orders
// in ranges with their lines and history. rows counts what has been written.
func work(seed uint64, s Size, rows *atomic.Int64) []bulk.Work {
	var out []bulk.Work
	add := func(name string, do func(bulk.Sink) (int64, error)) {
		out = append(out, bulk.Work{Name: name, Do: func(ctx context.Context, sink bulk.Sink) error {
			n, err := do(sink)
			rows.Add(n)
			return err
		}})
	}
	for lo := int64(1); lo <= s.Orders(); lo += chunkRows / 10 {
		hi := min(lo+chunkRows/10-1, s.Orders())
		add(fmt.Sprintf("orders %d-%d", lo, hi), func(sink bulk.Sink) (int64, error) { return genOrders(seed, s, lo, hi, sink) })
	}
	for lo := int64(1); lo <= s.Customers; lo += chunkRows {
		hi := min(lo+chunkRows-1, s.Customers)
		add(fmt.Sprintf("customers %d-%d", lo, hi), func(sink bulk.Sink) (int64, error) { return genCustomers(seed, lo, hi, sink) })
	}
	for lo := int64(1); lo <= s.Products; lo += chunkRows {
		hi := min(lo+chunkRows-1, s.Products)
		add(fmt.Sprintf("products %d-%d", lo, hi), func(sink bulk.Sink) (int64, error) { return genProducts(seed, s, lo, hi, sink) })
	}
	for lo := int64(1); lo <= s.Reviews(); lo += chunkRows / 20 {
		hi := min(lo+chunkRows/20-1, s.Reviews())
		add(fmt.Sprintf("reviews %d-%d", lo, hi), func(sink bulk.Sink) (int64, error) { return genReviews(seed, s, lo, hi, sink) })
	}
	add("categories", func(sink bulk.Sink) (int64, error) {
		return bulk.Table(sink, "categories", categoryCols, func(r bulk.Row) error {
			for i, c := range Categories {
				r.Int(int64(i + 1))
				r.Str(c)
				if err := r.EndRow(); err != nil {
					return err
				}
			}
			return nil
		})
	})
	return out
}

func genCustomers(seed uint64, lo, hi int64, sink bulk.Sink) (int64, error) {
	n, err := bulk.Table(sink, "customers", customerCols, func(row bulk.Row) error {
		var buf []byte
		for c := lo; c <= hi; c++ {
			r := rand.New(rand.NewPCG(mix(seed, keyCustomer, uint64(c)), uint64(c)))
			row.Int(c)
			row.Str(actorFirst[r.IntN(len(actorFirst))])
			row.Str(actorLast[r.IntN(len(actorLast))])
			buf = strconv.AppendInt(buf[:0], 1+r.Int64N(9999), 10)
			buf = append(buf, " Main Street"...)
			row.Bytes(buf)
			us := c%2 == 1 // half the customers are in the US (region 1), the rest abroad (region 2)
			if us {
				row.Str("Springfield")
				row.Str("OH")
				row.Int(10000 + r.Int64N(89999))
				row.Str("US")
				row.Int(1)
			} else {
				row.Str("Capital")
				row.Str("")
				row.Int(0)
				row.Str(countries[r.IntN(len(countries))])
				row.Int(2)
			}
			row.Str(Username(c) + "@dbdyno.example")
			buf = strconv.AppendInt(buf[:0], 1000000000+r.Int64N(8999999999), 10)
			row.Bytes(buf)
			row.Int(1 + r.Int64N(5))
			buf = strconv.AppendInt(buf[:0], 1000000000000000+r.Int64N(8999999999999999), 10)
			row.Bytes(buf)
			buf = strconv.AppendInt(buf[:0], 2027+r.Int64N(5), 10)
			buf = append(buf, '/', byte('0'+r.IntN(9)+1))
			row.Bytes(buf)
			row.Str(Username(c))
			row.Str(Password)
			row.Int(18 + r.Int64N(73))
			row.Int(20000 * (1 + r.Int64N(5)))
			if r.IntN(2) == 0 {
				row.Str("M")
			} else {
				row.Str("F")
			}
			if err := row.EndRow(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	// every 10th customer a premier member (type 1-3), as DVD Store 3 makes 10% of them
	m, err := bulk.Table(sink, "membership", membershipCols, func(row bulk.Row) error {
		for c := (lo + MemberEvery - 1) / MemberEvery * MemberEvery; c <= hi; c += MemberEvery {
			h := mix(seed, keyMember, uint64(c))
			row.Int(c)
			row.Int(1 + int64(h%3))
			row.Date(historyStart + 365*int32(2+(h>>8)%5) + 30*int32((h>>16)%12) + 14)
			if err := row.EndRow(); err != nil {
				return err
			}
		}
		return nil
	})
	return n + m, err
}

var reviewWords = []string{"great", "movie", "film", "story", "acting", "plot", "fun", "classic", "watch", "loved",
	"boring", "best", "worst", "scenes", "cast", "music", "funny", "sad", "dark", "epic", "twist", "ending", "hero",
	"villain", "action", "drama", "comedy", "family", "kids", "again", "never", "always", "good", "bad", "amazing",
	"slow", "fast", "long", "short", "dvd", "picture", "sound", "extras", "director", "role", "script", "fans",
	"recommend", "enjoyed", "perfect", "brilliant", "weak", "strong", "simple", "beautiful", "scary", "touching",
	"season", "sequel", "original"}

// review derives a loaded review from the seed: its product, day, stars, customer, summary (3 words) and text
// (7-130 words, at most 1,000 characters), and how many helpfulness ratings it has (2-39), as DVD Store 3 makes
// them.
func review(seed uint64, s Size, id int64, buf []byte) (prod int64, day int32, stars, customer int64, summary string, text []byte, ratings int, r *rand.Rand) {
	r = rand.New(rand.NewPCG(mix(seed, keyReview, uint64(id)), uint64(id)))
	prod = 1 + r.Int64N(s.Products)
	day = historyStart + int32(r.IntN(365))
	stars = 1 + r.Int64N(5)
	customer = 1 + r.Int64N(s.Customers)
	summary = reviewWords[r.IntN(len(reviewWords))] + " " + reviewWords[r.IntN(len(reviewWords))] + " " + reviewWords[r.IntN(len(reviewWords))]
	text = buf[:0]
	for i, n := 0, 7+r.IntN(124); i < n; i++ {
		w := reviewWords[r.IntN(len(reviewWords))]
		if len(text)+1+len(w) > 1000 {
			break
		}
		if i > 0 {
			text = append(text, ' ')
		}
		text = append(text, w...)
	}
	return prod, day, stars, customer, summary, text, 2 + r.IntN(38), r
}

// genReviews writes reviews lo..hi, then their helpfulness ratings (keys id*64+1 ..), each pass deriving the
// reviews from the seed again.
func genReviews(seed uint64, s Size, lo, hi int64, sink bulk.Sink) (int64, error) {
	var buf []byte
	n, err := bulk.Table(sink, "reviews", reviewCols, func(row bulk.Row) error {
		for id := lo; id <= hi; id++ {
			prod, day, stars, customer, summary, text, _, _ := review(seed, s, id, buf)
			buf = text
			row.Int(id)
			row.Int(prod)
			row.Date(day)
			row.Int(stars)
			row.Int(customer)
			row.Str(summary)
			row.Bytes(text)
			if err := row.EndRow(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	m, err := bulk.Table(sink, "reviews_helpfulness", helpfulnessCols, func(row bulk.Row) error {
		for id := lo; id <= hi; id++ {
			_, _, _, customer, _, text, ratings, r := review(seed, s, id, buf)
			buf = text
			for k := 1; k <= ratings; k++ {
				row.Int(id*helpfulnessSlots + int64(k))
				row.Int(id)
				row.Int(customer)
				row.Int(1 + r.Int64N(10))
				if err := row.EndRow(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return n + m, err
}

func genProducts(seed uint64, s Size, lo, hi int64, sink bulk.Sink) (int64, error) {
	n, err := bulk.Table(sink, "products", productCols, func(row bulk.Row) error {
		for p := lo; p <= hi; p++ {
			row.Int(p)
			row.Int(int64(Category(seed, p)))
			row.Str(Title(seed, p))
			row.Str(Actor(seed, p))
			row.Dec(Price(seed, p), 2)
			if Special(seed, p) {
				row.Int(1)
			} else {
				row.Int(0)
			}
			row.Int(1 + int64(mix(seed, keyPrice, keyTitle, uint64(p))%uint64(s.Products)))
			if err := row.EndRow(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	// the inventory as loaded, twice: the live table and the copy reset restores it from
	for _, table := range []string{"inventory", "inventory_loaded"} {
		m, err := bulk.Table(sink, table, inventoryCols, func(row bulk.Row) error {
			for p := lo; p <= hi; p++ {
				row.Int(p)
				row.Int(Stock(seed, p))
				row.Int(0)
				if err := row.EndRow(); err != nil {
					return err
				}
			}
			return nil
		})
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// genOrders writes orders lo..hi, then their lines, then the customers' history rows, each pass deriving the
// orders from the seed again.
func genOrders(seed uint64, s Size, lo, hi int64, sink bulk.Sink) (int64, error) {
	var lines []historyLine
	prods, qtys := make([]int64, 0, 9), make([]int64, 0, 9)
	var total int64
	n, err := bulk.Table(sink, "orders", orderCols, func(row bulk.Row) error {
		for o := lo; o <= hi; o++ {
			var c int64
			var day int32
			c, day, lines = historyOrder(seed, s, o, lines)
			prods, qtys = prods[:0], qtys[:0]
			for _, l := range lines {
				prods, qtys = append(prods, l.prod), append(qtys, l.qty)
			}
			net, tax, tot := Amounts(seed, prods, qtys)
			row.Int(o)
			row.Date(day)
			row.Int(c)
			row.Dec(net, 2)
			row.Dec(tax, 2)
			row.Dec(tot, 2)
			if err := row.EndRow(); err != nil {
				return err
			}
		}
		return nil
	})
	total += n
	if err != nil {
		return total, err
	}
	n, err = bulk.Table(sink, "orderlines", lineCols, func(row bulk.Row) error {
		for o := lo; o <= hi; o++ {
			var day int32
			_, day, lines = historyOrder(seed, s, o, lines)
			for i, l := range lines {
				row.Int(int64(i + 1))
				row.Int(o)
				row.Int(l.prod)
				row.Int(l.qty)
				row.Date(day)
				if err := row.EndRow(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	total += n
	if err != nil {
		return total, err
	}
	n, err = bulk.Table(sink, "cust_hist", custHistCols, func(row bulk.Row) error {
		for o := lo; o <= hi; o++ {
			var c int64
			c, _, lines = historyOrder(seed, s, o, lines)
			for _, l := range lines {
				row.Int(c)
				row.Int(o)
				row.Int(l.prod)
				if err := row.EndRow(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return total + n, err
}

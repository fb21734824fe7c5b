package tpce

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
)

// Size is a database's scale: its customers (whole load units of 1,000) and its initial trade days.
type Size struct {
	Customers int64
	TradeDays int64
}

// Load units, the specification's constants, and the initial trade period.
const (
	LoadUnit        = 1000
	SpecTradeDays   = 300
	HoursPerDay     = 8
	CustomersPerTPS = 500 // scale factor: nominal tpsE = customers / 500
	DailyMarketDays = 1305
	MaxAccounts     = 10 // account id slots per customer
)

// Check refuses a size the generator cannot make.
func (s Size) Check() error {
	if s.Customers < LoadUnit || s.Customers%LoadUnit != 0 {
		return fmt.Errorf("--customers %d is not a whole number of load units: give a multiple of 1,000 (at least 1,000; the specification's smallest compliant database is 5,000)", s.Customers)
	}
	if s.Customers > 10_000_000 {
		return fmt.Errorf("--customers %d is beyond the generator's keys: at most 10,000,000", s.Customers)
	}
	if s.TradeDays < 1 || s.TradeDays > SpecTradeDays {
		return fmt.Errorf("--trade-days %d is out of range: give 1 to 300 (the specification's 300 unless shrunk)", s.TradeDays)
	}
	return nil
}

// Brokers is C/100; Companies C/2; Securities 0.685·C.
func (s Size) Brokers() int64    { return s.Customers / 100 }
func (s Size) Companies() int64  { return s.Customers / 2 }
func (s Size) Securities() int64 { return s.Customers * 685 / 1000 }

// Trades is the initial trades: hours·3600·C/500 (17,280 per customer at 300 days).
func (s Size) Trades() int64 { return s.TradeDays * HoursPerDay * 3600 * s.Customers / CustomersPerTPS }

// tradesBefore is the trades of the customers before the k-th (0-based): customers share the trades evenly.
func (s Size) tradesBefore(k int64) int64 {
	return k * s.TradeDays * HoursPerDay * 3600 / CustomersPerTPS
}

// TradeID is the id of the n-th initial trade (1-based): one id in 101 is skipped, as EGen's aborted trades.
func TradeID(n int64) int64 { return n + (n-1)/100 }

// FirstRuntimeTradeID is the first id a run's trades take: above the initial id space (1.01 ids per trade).
func (s Size) FirstRuntimeTradeID() int64 { return TradeID(s.Trades()) + 1 }

// Rows is a build's expected rows (approximate ones at their means), for progress.
func (s Size) Rows() int64 {
	c, t := s.Customers, s.Trades()
	return c*(1+5+7+2+1+100+1+1) + s.Securities()*(2+DailyMarketDays) + s.Companies()*(2+3+20+4) + t*(1+2+1+1+2) + 16000
}

// Bytes is a build's rows as text, roughly.
func (s Size) Bytes() int64 {
	return s.Customers*3000 + s.Securities()*DailyMarketDays*40 + s.Companies()*3000 + s.Trades()*420
}

// ---- derived values (every part of the data is a function of the seed and its keys) ----

func mix(seed uint64, key ...uint64) uint64 {
	z := seed ^ 0x6a09e667f3bcc909
	for _, k := range key {
		z += k*0x9e3779b97f4a7c15 + 0x3c6ef372fe94f82b
		z ^= z >> 30
		z *= 0xbf58476d1ce4e5b9
		z ^= z >> 27
		z *= 0x94d049bb133111eb
		z ^= z >> 31
	}
	return z
}

func rng(seed uint64, key ...uint64) *rand.Rand {
	h := mix(seed, key...)
	return rand.New(rand.NewPCG(h, h^0xa5a5a5a5deadbeef))
}

const (
	kAccounts = iota + 1
	kAccount
	kCustomer
	kBasket
	kTrades
	kSecurity
	kCompany
	kDaily
	kWatch
	kPerm
	kNews
	kFinancial
	kBroker
	kAddress
)

// inv677 is 677's inverse modulo 1,000 (the customer scramble's).
var inv677 = func() int64 {
	for x := int64(1); x < 1000; x++ {
		if 677*x%1000 == 1 {
			return x
		}
	}
	panic("no inverse")
}()

// Scramble is the customer id of position low (0..999) in load unit high, as the specification's selection
// scrambles them; Position inverts it.
func Scramble(high, low int64) int64 { return 1000*high + (677*low+33*(high+1))%1000 + 1 }

// Position is customer c's load unit and position in it (its tier follows from the position).
func Position(c int64) (high, low int64) {
	high = (c - 1) / 1000
	r := ((c-1)%1000 - 33*(high+1)%1000 + 2000) % 1000
	return high, r * inv677 % 1000
}

// Tier is customer c's tier: positions 0-199 tier 1, 200-799 tier 2, 800-999 tier 3.
func Tier(c int64) int {
	_, low := Position(c)
	switch {
	case low < 200:
		return 1
	case low < 800:
		return 2
	}
	return 3
}

// Accounts is customer c's account count: tier 1 has 1-4, tier 2 2-8, tier 3 6-9, paired within the load unit
// so that every load unit has exactly 5,000 accounts (tier 1's position p with tier 3's p+800, tier 2's
// positions two by two around 5).
func Accounts(seed uint64, c int64) int64 {
	high, low := Position(c)
	switch {
	case low < 200:
		return 1 + int64(mix(seed, kAccounts, uint64(high), uint64(low))%4)
	case low >= 800:
		return 10 - (1 + int64(mix(seed, kAccounts, uint64(high), uint64(low-800))%4))
	}
	k := int64(mix(seed, kAccounts, uint64(high), uint64(low/2)) % 4)
	if low%2 == 0 {
		return 5 + k
	}
	return 5 - k
}

// AccountID is customer c's i-th account (0-based): ten id slots per customer.
func AccountID(c, i int64) int64 { return (c-1)*MaxAccounts + i + 1 }

// AccountCustomer is the customer of an account.
func AccountCustomer(ca int64) int64 { return (ca-1)/MaxAccounts + 1 }

// AccountBroker is an account's broker.
func AccountBroker(seed uint64, s Size, ca int64) int64 {
	return 1 + int64(mix(seed, kBroker, uint64(ca))%uint64(s.Brokers()))
}

// Basket is an account's securities (indices 0..S-1): 5 to 15 distinct ones.
func Basket(seed uint64, s Size, ca int64) []int64 {
	h := mix(seed, kBasket, uint64(ca))
	n := 5 + int64(h%11)
	S := s.Securities()
	start := int64((h >> 8) % uint64(S))
	step := 1 + int64((h>>40)%uint64(S/16))
	out := make([]int64, n)
	for i := range out {
		out[i] = (start + int64(i)*step) % S
	}
	return out
}

// Symbol is security i's ticker: five letters, a bijection of i.
func Symbol(i int64) string {
	v := (i*7919 + 12345) % 11881376 // 26^5
	b := make([]byte, 5)
	for k := 4; k >= 0; k-- {
		b[k] = byte('A' + v%26)
		v /= 26
	}
	return string(b)
}

// SecurityCompany is security i's company (1-based) and issue: companies have one or two issues.
func (s Size) SecurityCompany(i int64) (co int64, issue string) {
	co = i*s.Companies()/s.Securities() + 1
	first := (co-1)*s.Securities()/s.Companies() + boolInt((co-1)*s.Securities()%s.Companies() != 0)
	if i == first {
		return co, "COMMON"
	}
	return co, "PREF_A"
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Exchanges, sectors and the dictionaries the names are made of (our own).
var Exchanges = []string{"NYSE", "NASDAQ", "AMEX", "PCX"}
var exchangeNames = []string{"New York Stock Exchange", "National Association of Securities Dealers", "American Stock Exchange", "Pacific Exchange"}

// SecurityExchange is security i's exchange index.
func SecurityExchange(seed uint64, i int64) int { return int(mix(seed, kSecurity, uint64(i)) % 4) }

var Sectors = []string{"Basic Materials", "Capital Goods", "Conglomerates", "Consumer Cyclical", "Consumer Non-Cyclical",
	"Energy", "Financial", "Healthcare", "Services", "Technology", "Transportation", "Utilities"}

var industryWords = []string{"Products", "Services", "Equipment", "Supplies", "Manufacturing", "Retail", "Wholesale", "Research", "Holdings"}

// Industries: 102, in_id two letters, spread over the sectors.
const nIndustries = 102

func industryID(i int) string  { return string([]byte{byte('A' + i/26), byte('A' + i%26)}) }
func sectorID(i int) string    { return string([]byte{'S', byte('A' + i)}) }
func industrySector(i int) int { return i % len(Sectors) }
func industryName(i int) string {
	return Sectors[industrySector(i)] + " " + industryWords[(i/len(Sectors))%len(industryWords)] + " " + strconv.Itoa(i/len(Sectors)/len(industryWords)+1)
}

// CompanyIndustry is company co's industry index.
func CompanyIndustry(seed uint64, co int64) int {
	return int(mix(seed, kCompany, uint64(co)) % nIndustries)
}

var nameA = []string{"Alder", "Birch", "Cedar", "Delta", "Ember", "Falcon", "Granite", "Harbor", "Iris", "Juniper", "Kestrel",
	"Lumen", "Maple", "Nimbus", "Onyx", "Pioneer", "Quartz", "Raven", "Summit", "Tundra", "Umber", "Vertex", "Willow", "Yarrow", "Zephyr"}
var nameB = []string{"Analytics", "Bancorp", "Chemicals", "Dynamics", "Energy", "Foods", "Genomics", "Holdings", "Industries",
	"Logistics", "Media", "Networks", "Optics", "Pharma", "Robotics", "Systems", "Textiles", "Utilities", "Ventures", "Works"}
var suffixes = []string{"Inc.", "Corp.", "Ltd.", "Group", "Co."}

// CompanyName is company co's name, unique.
func CompanyName(seed uint64, co int64) string {
	h := mix(seed, kCompany, uint64(co), 1)
	return nameA[h%uint64(len(nameA))] + " " + nameB[(h>>8)%uint64(len(nameB))] + " " + strconv.FormatInt(co, 36) + " " + suffixes[(h>>16)%uint64(len(suffixes))]
}

// SecurityName is security i's name (its company's and its issue).
func (s Size) SecurityName(seed uint64, i int64) string {
	co, issue := s.SecurityCompany(i)
	return CompanyName(seed, co) + " " + issue
}

var firstNames = []string{"Ann", "Ben", "Carla", "David", "Elena", "Frank", "Grace", "Hugo", "Ines", "Jon", "Kara", "Liam",
	"Mona", "Nils", "Olga", "Paul", "Rita", "Sam", "Tara", "Umar", "Vera", "Walt", "Xena", "Yves", "Zoe"}
var lastNames = []string{"Abbott", "Baker", "Chen", "Dunn", "Evans", "Fisher", "Garcia", "Hughes", "Ito", "Jensen", "Kowal",
	"Lopez", "Moreau", "Nakamura", "Okafor", "Patel", "Quinn", "Rossi", "Schmidt", "Tanaka", "Usman", "Varga", "Weber", "Young", "Zhang"}
var towns = []string{"Ashford", "Bramble", "Clearwater", "Dunmore", "Eastwick", "Fairview", "Glenwood", "Hillcrest", "Ironbridge",
	"Juniper Falls", "Kingsport", "Lakeside", "Millbrook", "Northgate", "Oakridge", "Pinecrest", "Riverton", "Stonehaven", "Westfield"}
var divisions = []string{"AL", "AK", "AZ", "CA", "CO", "FL", "GA", "IL", "MA", "MI", "NY", "OH", "OR", "TX", "WA", "ON", "QC", "BC", "AB", "MB"}
var streets = []string{"Main Street", "Oak Avenue", "Elm Road", "Park Lane", "High Street", "Mill Road", "River Drive", "Hill Court"}

// CustomerName is customer c's first and last name.
func CustomerName(seed uint64, c int64) (first, last string) {
	h := mix(seed, kCustomer, uint64(c))
	return firstNames[h%uint64(len(firstNames))], lastNames[(h>>8)%uint64(len(lastNames))]
}

// TaxID is customer c's tax id (unique).
func TaxID(c int64) string { return fmt.Sprintf("%03dTX%09d", c%997, c) }

// BrokerName is broker b's name (unique).
func BrokerName(seed uint64, b int64) string {
	h := mix(seed, kBroker, 0, uint64(b))
	return firstNames[h%uint64(len(firstNames))] + " " + lastNames[(h>>8)%uint64(len(lastNames))] + " " + strconv.FormatInt(b, 10)
}

// Trade types: id, name, is_sell, is_mrkt.
type TradeType struct {
	ID, Name     string
	Sell, Market bool
}

var TradeTypes = []TradeType{{"TMB", "Market-Buy", false, true}, {"TMS", "Market-Sell", true, true},
	{"TSL", "Stop-Loss", true, false}, {"TLS", "Limit-Sell", true, false}, {"TLB", "Limit-Buy", false, false}}

const (
	ttMB = iota
	ttMS
	ttSL
	ttLS
	ttLB
)

// StatusTypes are the trade statuses.
var StatusTypes = [][2]string{{"CMPT", "Completed"}, {"ACTV", "Active"}, {"SBMT", "Submitted"}, {"PNDG", "Pending"}, {"CNCL", "Canceled"}}

// Charge is the charge of a trade type for a tier, in cents (our own values).
func Charge(tt, tier int) int64 { return int64(4-tier)*250 + int64(tt)*50 + 100 }

// commission quantity bands
var qtyBands = [][2]int64{{1, 200}, {201, 500}, {501, 2000}, {2001, 999999}}

// CommRate is the commission rate in hundredths of a percent (0.13%-0.48%: our own values).
func CommRate(tier, tt, ex int, qty int64) int64 {
	band := 0
	for i, b := range qtyBands {
		if qty >= b[0] && qty <= b[1] {
			band = i
		}
	}
	return 48 - int64(band)*8 - int64(tier-1)*4 - int64(ex) - int64(tt%2)
}

// Commission is rate·qty·price in cents, rounded.
func Commission(rate, qty, priceCents int64) int64 { return (rate*qty*priceCents + 5000) / 10000 }

// taxrates: 9 national (US1-5, CN1-4) and 311 regional.
const nTaxRates = 320

func taxID(i int) string {
	switch {
	case i < 5:
		return "US" + strconv.Itoa(i+1)
	case i < 9:
		return "CN" + strconv.Itoa(i-4)
	}
	return fmt.Sprintf("R%03d", i-8)
}

// TaxRate of rate i in hundred-thousandths.
func TaxRate(i int) int64 {
	if i < 9 {
		return 10000 + int64(i)*2500
	}
	return int64(i%50) * 200
}

// CustomerTaxRates are customer c's two rate indices (national, regional).
func CustomerTaxRates(seed uint64, c int64) [2]int {
	h := mix(seed, kCustomer, uint64(c), 7)
	nat := int(h % 5)
	if h>>8%5 == 0 { // a fifth are Canadian
		nat = 5 + int(h>>16%4)
	}
	return [2]int{nat, 9 + int(h>>24%311)}
}

// ---- dates ----

func dayOf(y int, m time.Month, d int) int32 {
	return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

var (
	tradeStartDay  = dayOf(2005, 1, 3) // a Monday: initial trades start at 09:00
	marketStartDay = dayOf(2000, 1, 3) // a Monday: daily_market and financial start
)

// Workday is the n-th weekday (0-based) from a Monday.
func Workday(from int32, n int64) int32 { return from + int32(n/5*7+n%5) }

// TradeTime is the time at second off of the initial trade period (8-hour weekdays from 2005-01-03 09:00).
func TradeTime(off int64) time.Time {
	d := Workday(tradeStartDay, off/(HoursPerDay*3600))
	return time.Unix(int64(d)*86400+9*3600+off%(HoursPerDay*3600), 0).UTC()
}

// InitialEnd is the end of the initial trade period.
func (s Size) InitialEnd() time.Time {
	return TradeTime(s.TradeDays*HoursPerDay*3600 - 1).Add(time.Second)
}

// ---- the trades ----

// trade is one generated trade and what it did to the account's positions.
type trade struct {
	id, ca             int64
	dts                time.Time
	tt                 int
	cash, lifo         bool
	sec, qty           int64
	bid, price         int64 // cents
	chrg, comm, amount int64 // cents; amount is the settlement's
	exec               string
}

type lot struct {
	tid, qty, price int64
	dts             time.Time
}

type hhRow struct{ lotID, tid, before, after int64 }

// customerTrades simulates customer c's initial trades in time order, over its accounts in turn: buys open lots,
// sells close lots (LIFO or FIFO) and never sell more than is held (a sell of what is not held becomes the buy
// of the same kind). It calls emit per trade, then returns the holdings left, account by account.
type simulation struct {
	trades  []trade
	hh      []hhRow
	lots    map[int64]map[int64][]lot // account -> security -> open lots (oldest first)
	cashSum map[int64]int64           // account -> sum of its cash transactions (cents)
}

func simulate(seed uint64, s Size, c int64, sim *simulation) {
	sim.trades, sim.hh = sim.trades[:0], sim.hh[:0]
	sim.lots, sim.cashSum = map[int64]map[int64][]lot{}, map[int64]int64{}
	k := c - 1
	first, n := s.tradesBefore(k), s.tradesBefore(k+1)-s.tradesBefore(k)
	na := Accounts(seed, c)
	tier := Tier(c)
	fn, ln := CustomerName(seed, c)
	exec := fn + " " + ln
	baskets := make([][]int64, na)
	for a := range baskets {
		baskets[a] = Basket(seed, s, AccountID(c, int64(a)))
		sim.lots[AccountID(c, int64(a))] = map[int64][]lot{}
	}
	r := rng(seed, kTrades, uint64(c))
	period := s.TradeDays * HoursPerDay * 3600
	qtys := []int64{100, 200, 400, 800}
	for j := int64(0); j < n; j++ {
		a := j % na
		ca := AccountID(c, a)
		off := (j*period + r.Int64N(period)) / n
		t := trade{id: TradeID(first + j + 1), ca: ca, dts: TradeTime(off), exec: exec}
		t.sec = baskets[a][r.IntN(len(baskets[a]))]
		u := r.IntN(100)
		switch {
		case u < 30:
			t.tt = ttMB
		case u < 60:
			t.tt = ttMS
		case u < 80:
			t.tt = ttLB
		case u < 90:
			t.tt = ttLS
		default:
			t.tt = ttSL
		}
		t.qty = qtys[r.IntN(4)]
		t.lifo = r.IntN(100) < 35
		margin := !TradeTypes[t.tt].Sell && r.IntN(100) < 16 // 16% of the buys drawn; sells are cash
		lots := sim.lots[ca][t.sec]
		held := int64(0)
		for _, l := range lots {
			held += l.qty
		}
		if TradeTypes[t.tt].Sell {
			if held < 100 {
				if t.tt == ttMS {
					t.tt = ttMB
				} else {
					t.tt = ttLB
				}
			} else {
				for t.qty > held {
					t.qty /= 2
				}
			}
		}
		sell := TradeTypes[t.tt].Sell
		t.cash = sell || !margin
		t.price = 2000 + r.Int64N(1001)
		switch {
		case TradeTypes[t.tt].Market:
			t.bid = t.price
		case sell:
			t.bid = max(2000, t.price-r.Int64N(100))
		default:
			t.bid = min(3000, t.price+r.Int64N(100))
		}
		t.chrg = Charge(t.tt, tier)
		t.comm = Commission(CommRate(tier, t.tt, SecurityExchange(seed, t.sec), t.qty), t.qty, t.price)
		v := t.qty * t.price
		if sell {
			t.amount = v - t.chrg - t.comm
			left := t.qty
			for left > 0 {
				i := 0
				if t.lifo {
					i = len(lots) - 1
				}
				l := &lots[i]
				take := min(left, l.qty)
				sim.hh = append(sim.hh, hhRow{l.tid, t.id, l.qty, l.qty - take})
				l.qty -= take
				left -= take
				if l.qty == 0 {
					lots = append(lots[:i], lots[i+1:]...)
				}
			}
		} else {
			t.amount = -(v + t.chrg + t.comm)
			lots = append(lots, lot{tid: t.id, qty: t.qty, price: t.price, dts: t.dts})
			sim.hh = append(sim.hh, hhRow{t.id, t.id, 0, t.qty})
		}
		sim.lots[ca][t.sec] = lots
		if t.cash {
			sim.cashSum[ca] += t.amount
		}
		sim.trades = append(sim.trades, t)
	}
}

// OpeningBalance is an account's balance before its loaded trades (cents): 80% positive, within ±9,999,999.99.
func OpeningBalance(seed uint64, ca int64) int64 {
	h := mix(seed, kAccount, uint64(ca))
	v := int64(h>>8) % 999_999_999
	if h%5 == 0 {
		return -v
	}
	return v
}

// TaxStatus is an account's tax status: 0 (20%), 1 (50%), 2 (30%).
func TaxStatus(seed uint64, ca int64) int {
	switch u := mix(seed, kAccount, uint64(ca), 1) % 10; {
	case u < 2:
		return 0
	case u < 7:
		return 1
	}
	return 2
}

// ---- loading ----

var cols = map[string][]string{
	"customer": {"c_id", "c_tax_id", "c_st_id", "c_l_name", "c_f_name", "c_m_name", "c_gndr", "c_tier", "c_dob", "c_ad_id",
		"c_ctry_1", "c_area_1", "c_local_1", "c_ext_1", "c_ctry_2", "c_area_2", "c_local_2", "c_ext_2", "c_ctry_3", "c_area_3",
		"c_local_3", "c_ext_3", "c_email_1", "c_email_2"},
	"customer_account":    {"ca_id", "ca_b_id", "ca_c_id", "ca_name", "ca_tax_st", "ca_bal"},
	"dbdyno_tpce_opening": {"ob_ca_id", "ob_bal"},
	"account_permission":  {"ap_ca_id", "ap_acl", "ap_tax_id", "ap_l_name", "ap_f_name"},
	"customer_taxrate":    {"cx_tx_id", "cx_c_id"},
	"watch_list":          {"wl_id", "wl_c_id"},
	"watch_item":          {"wi_wl_id", "wi_s_symb"},
	"address":             {"ad_id", "ad_line1", "ad_line2", "ad_zc_code", "ad_ctry"},
	"trade": {"t_id", "t_dts", "t_st_id", "t_tt_id", "t_is_cash", "t_s_symb", "t_qty", "t_bid_price", "t_ca_id", "t_exec_name",
		"t_trade_price", "t_chrg", "t_comm", "t_tax", "t_lifo"},
	"trade_history":      {"th_t_id", "th_dts", "th_st_id"},
	"settlement":         {"se_t_id", "se_cash_type", "se_cash_due_date", "se_amt"},
	"cash_transaction":   {"ct_t_id", "ct_dts", "ct_amt", "ct_name"},
	"holding":            {"h_t_id", "h_ca_id", "h_s_symb", "h_dts", "h_price", "h_qty"},
	"holding_history":    {"hh_h_t_id", "hh_t_id", "hh_before_qty", "hh_after_qty"},
	"holding_summary":    {"hs_ca_id", "hs_s_symb", "hs_qty"},
	"broker":             {"b_id", "b_st_id", "b_name", "b_num_trades", "b_comm_total"},
	"company":            {"co_id", "co_st_id", "co_name", "co_in_id", "co_sp_rate", "co_ceo", "co_ad_id", "co_desc", "co_open_date"},
	"company_competitor": {"cp_co_id", "cp_comp_co_id", "cp_in_id"},
	"financial": {"fi_co_id", "fi_year", "fi_qtr", "fi_qtr_start_date", "fi_revenue", "fi_net_earn", "fi_basic_eps", "fi_dilut_eps",
		"fi_margin", "fi_inventory", "fi_assets", "fi_liability", "fi_out_basic", "fi_out_dilut"},
	"news_item": {"ni_id", "ni_headline", "ni_summary", "ni_item", "ni_dts", "ni_source", "ni_author"},
	"news_xref": {"nx_ni_id", "nx_co_id"},
	"security": {"s_symb", "s_issue", "s_st_id", "s_name", "s_ex_id", "s_co_id", "s_num_out", "s_start_date", "s_exch_date", "s_pe",
		"s_52wk_high", "s_52wk_high_date", "s_52wk_low", "s_52wk_low_date", "s_dividend", "s_yield"},
	"last_trade":      {"lt_s_symb", "lt_dts", "lt_price", "lt_open_price", "lt_vol"},
	"daily_market":    {"dm_date", "dm_s_symb", "dm_close", "dm_high", "dm_low", "dm_vol"},
	"exchange":        {"ex_id", "ex_name", "ex_num_symb", "ex_open", "ex_close", "ex_desc", "ex_ad_id"},
	"sector":          {"sc_id", "sc_name"},
	"industry":        {"in_id", "in_name", "in_sc_id"},
	"status_type":     {"st_id", "st_name"},
	"trade_type":      {"tt_id", "tt_name", "tt_is_sell", "tt_is_mrkt"},
	"charge":          {"ch_tt_id", "ch_c_tier", "ch_chrg"},
	"commission_rate": {"cr_c_tier", "cr_tt_id", "cr_ex_id", "cr_from_qty", "cr_to_qty", "cr_rate"},
	"taxrate":         {"tx_id", "tx_name", "tx_rate"},
	"zip_code":        {"zc_code", "zc_town", "zc_div"},
}

// Zip codes: 14,741 of them.
const nZipCodes = 14741

func zipCode(i int64) string { return strconv.FormatInt(10000+i*6, 10) }

// address ids: the 4 exchanges, then the companies, then the customers.
func companyAddress(co int64) int64          { return 4 + co }
func (s Size) customerAddress(c int64) int64 { return 4 + s.Companies() + c }

type gen struct {
	seed uint64
	s    Size
	rows *atomic.Int64
	// brokers' totals, added to as the trades are written: each broker's completed trades and the sum of their
	// commissions (cents), index b-1; the brokers are written once every trade is (tradesDone).
	brokerTrades, brokerComm []atomic.Int64
	tradesDone               sync.WaitGroup
}

// table writes one table through the sink and counts its rows.
func (g *gen) table(sink bulk.Sink, name string, fill func(bulk.Row) error) error {
	n, err := bulk.Table(sink, name, cols[name], fill)
	g.rows.Add(n)
	return err
}

func each(lo, hi int64, r bulk.Row, do func(i int64)) error {
	for i := lo; i <= hi; i++ {
		do(i)
		if err := r.EndRow(); err != nil {
			return err
		}
	}
	return nil
}

// work splits a build into independent parts.
func work(seed uint64, s Size, rows *atomic.Int64) []bulk.Work {
	g := &gen{seed: seed, s: s, rows: rows, brokerTrades: make([]atomic.Int64, s.Brokers()), brokerComm: make([]atomic.Int64, s.Brokers())}
	var out []bulk.Work
	add := func(name string, do func(bulk.Sink) error) {
		out = append(out, bulk.Work{Name: name, Do: func(ctx context.Context, sink bulk.Sink) error { return do(sink) }})
	}
	perCustomer := max(1, s.tradesBefore(1))
	chunk := min(1000, max(1, 100_000/perCustomer))
	for lo := int64(1); lo <= s.Customers; lo += chunk {
		hi := min(lo+chunk-1, s.Customers)
		g.tradesDone.Add(1)
		add(fmt.Sprintf("trades of customers %d-%d", lo, hi), func(sink bulk.Sink) error {
			defer g.tradesDone.Done()
			return g.trades(sink, lo, hi)
		})
	}
	for lo := int64(1); lo <= s.Customers; lo += 1000 {
		hi := lo + 999
		add(fmt.Sprintf("customers %d-%d", lo, hi), func(sink bulk.Sink) error { return g.customers(sink, lo, hi) })
	}
	for lo := int64(0); lo < s.Securities(); lo += 100 {
		hi := min(lo+99, s.Securities()-1)
		add(fmt.Sprintf("securities %d-%d", lo, hi), func(sink bulk.Sink) error { return g.securities(sink, lo, hi) })
	}
	for lo := int64(1); lo <= s.Companies(); lo += 500 {
		hi := min(lo+499, s.Companies())
		add(fmt.Sprintf("companies %d-%d", lo, hi), func(sink bulk.Sink) error { return g.companies(sink, lo, hi) })
	}
	add("fixed tables", g.fixed)
	// last: the load hands the work out in this order, so every trade's work has been taken (and is done or
	// running) when this starts, and the wait ends
	out = append(out, bulk.Work{Name: "brokers", Do: g.brokers})
	return out
}

func cents(r bulk.Row, v int64) { r.Dec(v, 2) }

func statusOf(b bool) int64 { return boolInt(b) }

// trades writes the trades of customers lo..hi and all that follows from them, and their accounts (whose
// balances are the opening balance plus the cash transactions).
func (g *gen) trades(sink bulk.Sink, lo, hi int64) error {
	seed, s := g.seed, g.s
	// each customer simulated once, its trades kept for every table that follows from them (a chunk's
	// customers hold about 100,000 trades)
	sims := make([]simulation, hi-lo+1)
	for c := lo; c <= hi; c++ {
		simulate(seed, s, c, &sims[c-lo])
	}
	var sim *simulation
	pass := func(name string, do func(r bulk.Row, c int64) error) error {
		return g.table(sink, name, func(r bulk.Row) error {
			for c := lo; c <= hi; c++ {
				sim = &sims[c-lo]
				if err := do(r, c); err != nil {
					return err
				}
			}
			return nil
		})
	}
	secName := map[int64]string{}
	name := func(i int64) string {
		if v, ok := secName[i]; ok {
			return v
		}
		v := s.SecurityName(seed, i)
		secName[i] = v
		return v
	}
	steps := []struct {
		table string
		do    func(r bulk.Row, c int64) error
	}{
		{"trade", func(r bulk.Row, c int64) error {
			for _, t := range sim.trades {
				b := AccountBroker(seed, s, t.ca) - 1 // every initial trade is completed
				g.brokerTrades[b].Add(1)
				g.brokerComm[b].Add(t.comm)
				r.Int(t.id)
				r.Time(t.dts)
				r.Str("CMPT")
				r.Str(TradeTypes[t.tt].ID)
				r.Int(statusOf(t.cash))
				r.Str(Symbol(t.sec))
				r.Int(t.qty)
				cents(r, t.bid)
				r.Int(t.ca)
				r.Str(t.exec)
				cents(r, t.price)
				cents(r, t.chrg)
				cents(r, t.comm)
				cents(r, 0)
				r.Int(statusOf(t.lifo))
				if err := r.EndRow(); err != nil {
					return err
				}
			}
			return nil
		}},
		{"trade_history", func(r bulk.Row, c int64) error {
			for _, t := range sim.trades {
				sb := t.dts.Add(-time.Duration(1+t.id%4) * time.Second)
				rows := [][2]any{{sb, "SBMT"}, {t.dts, "CMPT"}}
				if !TradeTypes[t.tt].Market {
					rows = append([][2]any{{sb.Add(-time.Duration(1+t.id%50) * time.Second), "PNDG"}}, rows...)
				}
				for _, h := range rows {
					r.Int(t.id)
					r.Time(h[0].(time.Time))
					r.Str(h[1].(string))
					if err := r.EndRow(); err != nil {
						return err
					}
				}
			}
			return nil
		}},
		{"settlement", func(r bulk.Row, c int64) error {
			for _, t := range sim.trades {
				r.Int(t.id)
				if t.cash {
					r.Str("Cash Account")
				} else {
					r.Str("Margin")
				}
				r.Date(int32(t.dts.Unix()/86400) + 2)
				cents(r, t.amount)
				if err := r.EndRow(); err != nil {
					return err
				}
			}
			return nil
		}},
		{"cash_transaction", func(r bulk.Row, c int64) error {
			for _, t := range sim.trades {
				if !t.cash {
					continue
				}
				r.Int(t.id)
				r.Time(t.dts)
				cents(r, t.amount)
				r.Str(TradeTypes[t.tt].Name + " " + strconv.FormatInt(t.qty, 10) + " shares of " + name(t.sec))
				if err := r.EndRow(); err != nil {
					return err
				}
			}
			return nil
		}},
		{"holding_history", func(r bulk.Row, c int64) error {
			for _, h := range sim.hh {
				r.Int(h.lotID)
				r.Int(h.tid)
				r.Int(h.before)
				r.Int(h.after)
				if err := r.EndRow(); err != nil {
					return err
				}
			}
			return nil
		}},
		{"holding", func(r bulk.Row, c int64) error {
			for a := int64(0); a < Accounts(seed, c); a++ {
				ca := AccountID(c, a)
				for _, sec := range Basket(seed, s, ca) {
					for _, l := range sim.lots[ca][sec] {
						r.Int(l.tid)
						r.Int(ca)
						r.Str(Symbol(sec))
						r.Time(l.dts)
						cents(r, l.price)
						r.Int(l.qty)
						if err := r.EndRow(); err != nil {
							return err
						}
					}
				}
			}
			return nil
		}},
		{"holding_summary", func(r bulk.Row, c int64) error {
			for a := int64(0); a < Accounts(seed, c); a++ {
				ca := AccountID(c, a)
				for _, sec := range Basket(seed, s, ca) {
					q := int64(0)
					for _, l := range sim.lots[ca][sec] {
						q += l.qty
					}
					if q == 0 {
						continue
					}
					r.Int(ca)
					r.Str(Symbol(sec))
					r.Int(q)
					if err := r.EndRow(); err != nil {
						return err
					}
				}
			}
			return nil
		}},
		{"customer_account", func(r bulk.Row, c int64) error {
			fn, ln := CustomerName(seed, c)
			for a := int64(0); a < Accounts(seed, c); a++ {
				ca := AccountID(c, a)
				r.Int(ca)
				r.Int(AccountBroker(seed, s, ca))
				r.Int(c)
				r.Str(fn + " " + ln + " account " + strconv.FormatInt(a+1, 10))
				r.Int(int64(TaxStatus(seed, ca)))
				cents(r, OpeningBalance(seed, ca)+sim.cashSum[ca])
				if err := r.EndRow(); err != nil {
					return err
				}
			}
			return nil
		}},
	}
	for _, st := range steps {
		if err := pass(st.table, st.do); err != nil {
			return err
		}
	}
	// the opening balances need no simulation
	return g.table(sink, "dbdyno_tpce_opening", func(r bulk.Row) error {
		for c := lo; c <= hi; c++ {
			for a := int64(0); a < Accounts(seed, c); a++ {
				ca := AccountID(c, a)
				r.Int(ca)
				cents(r, OpeningBalance(seed, ca))
				if err := r.EndRow(); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// Permissions is how many extra permission rows account ca has: 0 (60%), 1 (38%), 2 (2%).
func Permissions(seed uint64, ca int64) int {
	switch u := mix(seed, kPerm, uint64(ca)) % 100; {
	case u < 60:
		return 0
	case u < 98:
		return 1
	}
	return 2
}

// WatchItems are customer c's watch list's securities: 50 to 150 distinct ones.
func WatchItems(seed uint64, s Size, c int64) []int64 {
	h := mix(seed, kWatch, uint64(c))
	n := 50 + int64(h%101)
	start := int64((h >> 8) % uint64(s.Securities()))
	out := make([]int64, n)
	for i := range out {
		out[i] = (start + int64(i)) % s.Securities()
	}
	return out
}

func (g *gen) customers(sink bulk.Sink, lo, hi int64) error {
	seed, s := g.seed, g.s
	err := g.table(sink, "customer", func(r bulk.Row) error {
		return each(lo, hi, r, func(c int64) {
			h := mix(seed, kCustomer, uint64(c), 2)
			fn, ln := CustomerName(seed, c)
			r.Int(c)
			r.Str(TaxID(c))
			r.Str("ACTV")
			r.Str(ln)
			r.Str(fn)
			r.Str(string(rune('A' + h%26)))
			if h>>5%2 == 0 {
				r.Str("M")
			} else {
				r.Str("F")
			}
			r.Int(int64(Tier(c)))
			r.Date(dayOf(1930, 1, 1) + int32(h>>8%25000))
			r.Int(s.customerAddress(c))
			for p := 0; p < 3; p++ {
				r.Str("1")
				r.Str(strconv.FormatInt(200+int64(h>>(10+p*7)%800), 10))
				r.Str(fmt.Sprintf("%07d", (h>>(20+p*5))%10000000))
				if p == 0 {
					r.Str(strconv.FormatInt(int64(h>>40%1000), 10))
				} else {
					r.Null()
				}
			}
			r.Str(fn + "." + ln + strconv.FormatInt(c, 10) + "@mail.example")
			r.Str(ln + strconv.FormatInt(c, 10) + "@post.example")
		})
	})
	if err != nil {
		return err
	}
	if err := g.table(sink, "account_permission", func(r bulk.Row) error {
		for c := lo; c <= hi; c++ {
			fn, ln := CustomerName(seed, c)
			for a := int64(0); a < Accounts(seed, c); a++ {
				ca := AccountID(c, a)
				for p := 0; p <= Permissions(seed, ca); p++ {
					r.Int(ca)
					if p == 0 {
						r.Str("0000")
						r.Str(TaxID(c))
						r.Str(ln)
						r.Str(fn)
					} else {
						o := mix(seed, kPerm, uint64(ca), uint64(p))
						r.Str("0011")
						r.Str(fmt.Sprintf("AP%013d%d", ca, p))
						r.Str(lastNames[o%uint64(len(lastNames))])
						r.Str(firstNames[(o>>8)%uint64(len(firstNames))])
					}
					if err := r.EndRow(); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := g.table(sink, "customer_taxrate", func(r bulk.Row) error {
		for c := lo; c <= hi; c++ {
			for _, t := range CustomerTaxRates(seed, c) {
				r.Str(taxID(t))
				r.Int(c)
				if err := r.EndRow(); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := g.table(sink, "watch_list", func(r bulk.Row) error {
		return each(lo, hi, r, func(c int64) { r.Int(c); r.Int(c) })
	}); err != nil {
		return err
	}
	if err := g.table(sink, "watch_item", func(r bulk.Row) error {
		for c := lo; c <= hi; c++ {
			for _, i := range WatchItems(seed, s, c) {
				r.Int(c)
				r.Str(Symbol(i))
				if err := r.EndRow(); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		return err
	}
	return g.table(sink, "address", func(r bulk.Row) error {
		return each(lo, hi, r, func(c int64) { g.address(r, s.customerAddress(c)) })
	})
}

func (g *gen) address(r bulk.Row, id int64) {
	h := mix(g.seed, kAddress, uint64(id))
	r.Int(id)
	r.Str(strconv.FormatInt(int64(1+h%9999), 10) + " " + streets[(h>>16)%uint64(len(streets))])
	if h>>20%4 == 0 {
		r.Str("Suite " + strconv.FormatInt(int64(1+h>>24%500), 10))
	} else {
		r.Null()
	}
	r.Str(zipCode(int64(h>>32) % nZipCodes))
	r.Str("USA")
}

// price of security i on market day d (cents): $20-$30.
func dailyClose(seed uint64, i, d int64) int64 {
	return 2000 + int64(mix(seed, kDaily, uint64(i), uint64(d))%1001)
}

func (g *gen) securities(sink bulk.Sink, lo, hi int64) error {
	seed, s := g.seed, g.s
	if err := g.table(sink, "security", func(r bulk.Row) error {
		return each(lo, hi, r, func(i int64) {
			h := mix(seed, kSecurity, uint64(i), 1)
			co, issue := s.SecurityCompany(i)
			r.Str(Symbol(i))
			r.Str(issue)
			r.Str("ACTV")
			r.Str(s.SecurityName(seed, i))
			r.Str(Exchanges[SecurityExchange(seed, i)])
			r.Int(co)
			r.Int(1_000_000 + int64(h%9_000_000_000))
			start := marketStartDay - 1000 - int32(h>>20%5000)
			r.Date(start)
			r.Date(start + int32(h>>34%300))
			cents(r, 500+int64(h>>40%5000))
			cents(r, 3000+int64(h>>8%500))
			r.Date(marketStartDay + 1200)
			cents(r, 1500+int64(h>>12%500))
			r.Date(marketStartDay + 1000)
			cents(r, int64(h>>16%500))
			cents(r, int64(h>>24%1000))
		})
	}); err != nil {
		return err
	}
	end := g.s.InitialEnd()
	if err := g.table(sink, "last_trade", func(r bulk.Row) error {
		return each(lo, hi, r, func(i int64) {
			p := dailyClose(seed, i, DailyMarketDays)
			r.Str(Symbol(i))
			r.Time(end)
			cents(r, p)
			cents(r, p)
			r.Int(0)
		})
	}); err != nil {
		return err
	}
	return g.table(sink, "daily_market", func(r bulk.Row) error {
		for i := lo; i <= hi; i++ {
			sym := Symbol(i)
			for d := int64(0); d < DailyMarketDays; d++ {
				h := mix(seed, kDaily, uint64(i), uint64(d), 1)
				c := dailyClose(seed, i, d)
				r.Date(Workday(marketStartDay, d))
				r.Str(sym)
				cents(r, c)
				cents(r, c+c*int64(h%50)/1000)
				cents(r, c-c*int64(h>>8%80)/1000)
				r.Int(1000 + int64(h>>16%9001))
				if err := r.EndRow(); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

var newsWords = []string{"market", "shares", "quarter", "growth", "earnings", "outlook", "investors", "board", "dividend",
	"merger", "product", "launch", "analysts", "revenue", "forecast", "strong", "weak", "steady", "record", "expansion"}

func (g *gen) companies(sink bulk.Sink, lo, hi int64) error {
	seed, s := g.seed, g.s
	if err := g.table(sink, "company", func(r bulk.Row) error {
		return each(lo, hi, r, func(co int64) {
			h := mix(seed, kCompany, uint64(co), 2)
			r.Int(co)
			r.Str("ACTV")
			r.Str(CompanyName(seed, co))
			r.Str(industryID(CompanyIndustry(seed, co)))
			r.Str([]string{"AAA", "AA", "A", "BBB", "BB", "B", "CCC"}[h%7])
			r.Str(firstNames[h>>8%uint64(len(firstNames))] + " " + lastNames[h>>16%uint64(len(lastNames))])
			r.Int(companyAddress(co))
			r.Str(CompanyName(seed, co) + " makes " + industryName(CompanyIndustry(seed, co)))
			r.Date(dayOf(1800, 1, 1) + int32(h>>24%70000))
		})
	}); err != nil {
		return err
	}
	if err := g.table(sink, "address", func(r bulk.Row) error {
		return each(lo, hi, r, func(co int64) { g.address(r, companyAddress(co)) })
	}); err != nil {
		return err
	}
	if err := g.table(sink, "company_competitor", func(r bulk.Row) error {
		for co := lo; co <= hi; co++ {
			for k := int64(1); k <= 3; k++ {
				comp := (co-1+k*int64(1+mix(seed, kCompany, uint64(co), 3)%uint64(max(1, s.Companies()/4))))%s.Companies() + 1
				r.Int(co)
				r.Int(comp)
				r.Str(industryID(CompanyIndustry(seed, co)))
				if err := r.EndRow(); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := g.table(sink, "financial", func(r bulk.Row) error {
		for co := lo; co <= hi; co++ {
			for q := int64(0); q < 20; q++ {
				h := mix(seed, kFinancial, uint64(co), uint64(q))
				rev := 1_000_000_00 + int64(h%100_000_000_00)
				earn := rev / int64(5+h>>40%20)
				shares := 1_000_000 + int64(h>>20%100_000_000)
				r.Int(co)
				r.Int(2000 + q/4)
				r.Int(q%4 + 1)
				r.Date(dayOf(2000+int(q/4), time.Month(1+3*(q%4)), 1))
				cents(r, rev)
				cents(r, earn)
				cents(r, earn/shares)
				cents(r, earn/(shares+shares/10))
				cents(r, earn*10000/rev)
				cents(r, rev/7)
				cents(r, rev*3)
				cents(r, rev*2)
				r.Int(shares)
				r.Int(shares + shares/10)
				if err := r.EndRow(); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		return err
	}
	end := int32(s.InitialEnd().Unix() / 86400)
	if err := g.table(sink, "news_item", func(r bulk.Row) error {
		var body []byte
		for co := lo; co <= hi; co++ {
			for k := int64(0); k < 2; k++ {
				id := (co-1)*2 + k + 1
				rr := rng(seed, kNews, uint64(id))
				w := func() string { return newsWords[rr.IntN(len(newsWords))] }
				name := CompanyName(seed, co)
				r.Int(id)
				r.Str(name + " " + w() + " " + w())
				r.Str(name + ": " + w() + " " + w() + " " + w() + " " + w() + " " + w())
				body = body[:0]
				for n := 200 + rr.IntN(800); len(body) < n; {
					body = append(body, w()...)
					body = append(body, ' ')
				}
				r.Bytes(body)
				r.Time(time.Unix(int64(end-1-int32(rr.IntN(50)))*86400+int64(rr.IntN(86400)), 0).UTC())
				r.Str("dbdyno Wire")
				r.Str(firstNames[rr.IntN(len(firstNames))] + " " + lastNames[rr.IntN(len(lastNames))])
				if err := r.EndRow(); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		return err
	}
	return g.table(sink, "news_xref", func(r bulk.Row) error {
		for co := lo; co <= hi; co++ {
			for k := int64(0); k < 2; k++ {
				r.Int((co-1)*2 + k + 1)
				r.Int(co)
				if err := r.EndRow(); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// fixed writes the fixed tables and the exchanges' addresses.
func (g *gen) fixed(sink bulk.Sink) error {
	seed, s := g.seed, g.s
	steps := []struct {
		table string
		fill  func(r bulk.Row) error
	}{
		{"status_type", func(r bulk.Row) error {
			return each(0, int64(len(StatusTypes)-1), r, func(i int64) { r.Str(StatusTypes[i][0]); r.Str(StatusTypes[i][1]) })
		}},
		{"trade_type", func(r bulk.Row) error {
			return each(0, int64(len(TradeTypes)-1), r, func(i int64) {
				t := TradeTypes[i]
				r.Str(t.ID)
				r.Str(t.Name)
				r.Int(statusOf(t.Sell))
				r.Int(statusOf(t.Market))
			})
		}},
		{"sector", func(r bulk.Row) error {
			return each(0, int64(len(Sectors)-1), r, func(i int64) { r.Str(sectorID(int(i))); r.Str(Sectors[i]) })
		}},
		{"industry", func(r bulk.Row) error {
			return each(0, nIndustries-1, r, func(i int64) {
				r.Str(industryID(int(i)))
				r.Str(industryName(int(i)))
				r.Str(sectorID(industrySector(int(i))))
			})
		}},
		{"exchange", func(r bulk.Row) error {
			counts := make([]int64, 4)
			for i := int64(0); i < s.Securities(); i++ {
				counts[SecurityExchange(seed, i)]++
			}
			return each(0, 3, r, func(i int64) {
				r.Str(Exchanges[i])
				r.Str(exchangeNames[i])
				r.Int(counts[i])
				r.Int(930)
				r.Int(1600)
				r.Str(exchangeNames[i] + ", an exchange of dbdyno's market")
				r.Int(i + 1)
			})
		}},
		{"address", func(r bulk.Row) error { return each(1, 4, r, func(i int64) { g.address(r, i) }) }},
		{"charge", func(r bulk.Row) error {
			for tt := range TradeTypes {
				for tier := 1; tier <= 3; tier++ {
					r.Str(TradeTypes[tt].ID)
					r.Int(int64(tier))
					cents(r, Charge(tt, tier))
					if err := r.EndRow(); err != nil {
						return err
					}
				}
			}
			return nil
		}},
		{"commission_rate", func(r bulk.Row) error {
			for tier := 1; tier <= 3; tier++ {
				for tt := range TradeTypes {
					for ex := range Exchanges {
						for _, b := range qtyBands {
							r.Int(int64(tier))
							r.Str(TradeTypes[tt].ID)
							r.Str(Exchanges[ex])
							r.Int(b[0])
							r.Int(b[1])
							cents(r, CommRate(tier, tt, ex, b[0]))
							if err := r.EndRow(); err != nil {
								return err
							}
						}
					}
				}
			}
			return nil
		}},
		{"taxrate", func(r bulk.Row) error {
			return each(0, nTaxRates-1, r, func(i int64) {
				r.Str(taxID(int(i)))
				r.Str("Tax rate " + taxID(int(i)))
				r.Dec(TaxRate(int(i)), 5)
			})
		}},
		{"zip_code", func(r bulk.Row) error {
			return each(0, nZipCodes-1, r, func(i int64) {
				r.Str(zipCode(i))
				r.Str(towns[i%int64(len(towns))])
				r.Str(divisions[(i/7)%int64(len(divisions))])
			})
		}},
	}
	for _, st := range steps {
		if err := g.table(sink, st.table, st.fill); err != nil {
			return err
		}
	}
	return nil
}

// brokers writes the brokers with their completed trades and the sum of their commissions, as the
// specification loads them, once every trade is written.
func (g *gen) brokers(ctx context.Context, sink bulk.Sink) error {
	done := make(chan struct{})
	go func() { g.tradesDone.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return g.table(sink, "broker", func(r bulk.Row) error {
		return each(1, g.s.Brokers(), r, func(b int64) {
			r.Int(b)
			r.Str("ACTV")
			r.Str(BrokerName(g.seed, b))
			r.Int(g.brokerTrades[b-1].Load())
			cents(r, g.brokerComm[b-1].Load())
		})
	})
}

type atomicRows struct{ atomic.Int64 }

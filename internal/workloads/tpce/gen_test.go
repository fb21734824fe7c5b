package tpce

import (
	"context"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
)

// Every load unit has exactly 5,000 accounts, and each tier's counts stay in their ranges.
func TestAccountsPerLoadUnit(t *testing.T) {
	for _, seed := range []uint64{1, 2, 99} {
		for high := int64(0); high < 3; high++ {
			total := int64(0)
			for low := int64(0); low < 1000; low++ {
				c := Scramble(high, low)
				if h, l := Position(c); h != high || l != low {
					t.Fatalf("Position(%d) = %d, %d; want %d, %d", c, h, l, high, low)
				}
				n := Accounts(seed, c)
				lo, hi := map[int][2]int64{1: {1, 4}, 2: {2, 8}, 3: {5, 10}}[Tier(c)][0], map[int][2]int64{1: {1, 4}, 2: {2, 8}, 3: {5, 10}}[Tier(c)][1]
				if n < lo || n > hi {
					t.Fatalf("customer %d (tier %d) has %d accounts", c, Tier(c), n)
				}
				total += n
			}
			if total != 5000 {
				t.Fatalf("seed %d, load unit %d: %d accounts, want 5,000", seed, high, total)
			}
		}
	}
}

// Symbols are unique and five letters; each company has one or two issues, COMMON first.
func TestSymbolsAndIssues(t *testing.T) {
	s := Size{Customers: 3000, TradeDays: 1}
	seen := map[string]bool{}
	issues := map[int64][]string{}
	for i := int64(0); i < s.Securities(); i++ {
		sym := Symbol(i)
		if len(sym) != 5 || seen[sym] {
			t.Fatalf("symbol %q of security %d repeats or is not 5 letters", sym, i)
		}
		seen[sym] = true
		co, is := s.SecurityCompany(i)
		issues[co] = append(issues[co], is)
	}
	if int64(len(issues)) != s.Companies() {
		t.Fatalf("%d companies have securities, want %d", len(issues), s.Companies())
	}
	for co, is := range issues {
		if is[0] != "COMMON" || len(is) > 2 || len(is) == 2 && is[1] != "PREF_A" {
			t.Fatalf("company %d has issues %v", co, is)
		}
	}
}

// The simulated trades never sell what an account does not hold, and the lots left are the summaries'.
func TestSimulationKeepsPositions(t *testing.T) {
	s := Size{Customers: 1000, TradeDays: 3}
	var sim simulation
	trades := int64(0)
	for c := int64(1); c <= 50; c++ {
		simulate(1, s, c, &sim)
		trades += int64(len(sim.trades))
		held := map[[2]int64]int64{}
		for _, tr := range sim.trades {
			k := [2]int64{tr.ca, tr.sec}
			if TradeTypes[tr.tt].Sell {
				if held[k] < tr.qty {
					t.Fatalf("trade %d sells %d of %d held", tr.id, tr.qty, held[k])
				}
				held[k] -= tr.qty
			} else {
				held[k] += tr.qty
			}
		}
		for ca, m := range sim.lots {
			for sec, lots := range m {
				q := int64(0)
				for _, l := range lots {
					q += l.qty
				}
				if q != held[[2]int64{ca, sec}] {
					t.Fatalf("account %d security %d: lots hold %d, trades leave %d", ca, sec, q, held[[2]int64{ca, sec}])
				}
			}
		}
	}
	if want := s.tradesBefore(50); trades != want {
		t.Fatalf("%d trades for 50 customers, want %d", trades, want)
	}
}

func TestSizeRefusals(t *testing.T) {
	for _, s := range []Size{{1500, 10}, {0, 10}, {999, 10}, {1000, 0}, {1000, 301}} {
		if s.Check() == nil {
			t.Errorf("%+v was accepted", s)
		}
	}
	if err := (Size{5000, 300}).Check(); err != nil {
		t.Fatal(err)
	}
	if got := (Size{5000, 300}).Trades(); got != 5000*17280 {
		t.Fatalf("300 days of 5,000 customers: %d trades, want 86,400,000", got)
	}
}

// textSink encodes every table as COPY's text (bulk.TSV) into a discarding writer: the generator and its
// encoding alone, without a database.
type textSink struct {
	row  *bulk.Text
	rows int64
}

func (s *textSink) Begin(string, []string) (bulk.Row, error) {
	s.row = bulk.TSV(io.Discard)
	return s, nil
}
func (s *textSink) Int(v int64)         { s.row.Int(v) }
func (s *textSink) Dec(u int64, sc int) { s.row.Dec(u, sc) }
func (s *textSink) Str(v string)        { s.row.Str(v) }
func (s *textSink) Bytes(b []byte)      { s.row.Bytes(b) }
func (s *textSink) Date(d int32)        { s.row.Date(d) }
func (s *textSink) Time(t time.Time)    { s.row.Time(t) }
func (s *textSink) Null()               { s.row.Null() }
func (s *textSink) EndRow() error       { s.rows++; return s.row.EndRow() }
func (s *textSink) End() (int64, error) { n := s.rows; s.rows = 0; return n, s.row.W.Flush() }
func (s *textSink) Close()              {}

// BenchmarkGenerate: the generator's rows a second with the writer discarded (1,000 customers, 30 trade days,
// on one goroutine): go test -run - -bench Generate -benchtime 1x -cpuprofile gen.prof ./internal/workloads/tpce/
func BenchmarkGenerate(b *testing.B) {
	s := Size{Customers: 1000, TradeDays: 30}
	for b.Loop() {
		var rows atomic.Int64
		t0 := time.Now()
		for _, w := range work(1, s, &rows) {
			if err := w.Do(context.Background(), &textSink{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rows.Load())/time.Since(t0).Seconds(), "rows/s")
	}
}

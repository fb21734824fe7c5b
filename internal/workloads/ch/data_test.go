package ch_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/workloads/ch"
)

// memSink keeps the rows it is given, as text, table by table.
type memSink struct {
	tables map[string][][]string
	cols   map[string][]string
	cur    string
	row    []string
}

func (m *memSink) Begin(table string, cols []string) (bulk.Row, error) {
	if m.tables == nil {
		m.tables, m.cols = map[string][][]string{}, map[string][]string{}
	}
	m.cur, m.cols[table] = table, cols
	return m, nil
}
func (m *memSink) End() (int64, error) { return int64(len(m.tables[m.cur])), nil }
func (m *memSink) Close()              {}

func (m *memSink) Int(v int64) { m.row = append(m.row, fmt.Sprint(v)) }
func (m *memSink) Dec(units int64, scale int) {
	m.row = append(m.row, string(bulk.AppendDec(nil, units, scale)))
}
func (m *memSink) Str(s string)     { m.row = append(m.row, s) }
func (m *memSink) Bytes(b []byte)   { m.row = append(m.row, string(b)) }
func (m *memSink) Date(days int32)  { m.row = append(m.row, string(bulk.AppendDate(nil, days))) }
func (m *memSink) Time(t time.Time) { m.row = append(m.row, t.String()) }
func (m *memSink) Null()            { m.row = append(m.row, "NULL") }
func (m *memSink) EndRow() error {
	if len(m.row) != len(m.cols[m.cur]) {
		return fmt.Errorf("%s: a row of %d values for %d columns", m.cur, len(m.row), len(m.cols[m.cur]))
	}
	m.tables[m.cur] = append(m.tables[m.cur], m.row)
	m.row = nil
	return nil
}

func generate(t *testing.T, seed uint64) (*memSink, int64) {
	t.Helper()
	s := &memSink{}
	var rows atomic.Int64
	for _, w := range ch.Work(seed, &rows) {
		if err := w.Do(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", w.Name, err)
		}
	}
	return s, rows.Load()
}

// TestCHTablesAsThePaper checks the three generated tables against the paper's definitions (as BenchBase loads
// them): 5 regions, 62 nations keyed by the ASCII codes of 0-9, A-Z and a-z, each of a region, and 10,000
// suppliers of those nations, a few of whose comments Q16 leaves out; and that the data is the seed's.
func TestCHTablesAsThePaper(t *testing.T) {
	s, rows := generate(t, 1)
	if rows != ch.Rows || ch.Rows != 5+62+10000 {
		t.Fatalf("wrote %d rows, Rows = %d, want %d", rows, ch.Rows, 5+62+10000)
	}
	if got := len(s.tables["region"]); got != 5 {
		t.Fatalf("%d regions", got)
	}
	regions := map[string]string{}
	for i, r := range s.tables["region"] {
		if r[0] != fmt.Sprint(i+1) || r[2] == "" || len(r[2]) > 152 {
			t.Errorf("region %v", r)
		}
		regions[r[0]] = r[1]
	}
	if want := map[string]string{"1": "Africa", "2": "America", "3": "Asia", "4": "Australia", "5": "Europe"}; !reflect.DeepEqual(regions, want) {
		t.Errorf("regions %v, want %v", regions, want)
	}
	keys := "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	nations := s.tables["nation"]
	if len(nations) != 62 {
		t.Fatalf("%d nations", len(nations))
	}
	nationOf := map[string]string{}
	names := map[string]bool{}
	for i, n := range nations {
		if want := fmt.Sprint(int(keys[i])); n[0] != want {
			t.Errorf("nation %d has key %s, want %s (the code of %q)", i, n[0], want, keys[i])
		}
		if regions[n[2]] == "" {
			t.Errorf("nation %v: no region %s", n, n[2])
		}
		if names[n[1]] || n[1] == "" || len(n[1]) > 25 || len(n[3]) > 152 {
			t.Errorf("nation %v: name twice, empty or too long", n)
		}
		names[n[1]] = true
		nationOf[n[0]] = n[1]
	}
	// the nations the queries name: Germany and Cambodia (Q7), Germany of Europe (Q2, Q5, Q8, Q11, Q20, Q21)
	for key, name := range map[string]string{"54": "Germany", "78": "Cambodia"} {
		if nationOf[key] != name {
			t.Errorf("nation %s is %q, want %s", key, nationOf[key], name)
		}
	}
	sup := s.tables["supplier"]
	if len(sup) != 10000 {
		t.Fatalf("%d suppliers", len(sup))
	}
	perNation := map[string]int{}
	bad := 0
	for i, r := range sup {
		if r[0] != fmt.Sprint(i+1) || r[1] != fmt.Sprintf("Supplier#%09d", i+1) {
			t.Fatalf("supplier %d: %v", i+1, r)
		}
		if nationOf[r[3]] == "" {
			t.Fatalf("supplier %v: no nation %s", r, r[3])
		}
		perNation[r[3]]++
		if len(r[2]) < 10 || len(r[2]) > 40 || len(r[4]) != 15 || strings.Trim(r[4], "0123456789") != "" {
			t.Errorf("supplier %v: address or phone", r)
		}
		if len(r[6]) < 1 || len(r[6]) > 101 {
			t.Errorf("supplier %v: comment of %d characters", r, len(r[6]))
		}
		for _, c := range r[1] + r[2] + r[4] + r[6] {
			if c == '\t' || c == ',' || c == '\n' || c == '\\' || c == '"' || c == '\'' {
				t.Fatalf("supplier %v holds %q, which a bulk path would need to escape", r, c)
			}
		}
		if strings.Contains(strings.ToLower(r[6]), "bad") {
			bad++
			if !strings.Contains(r[6], "Customer bad Complaints") {
				t.Errorf("supplier %v: 'bad' outside a complaint", r)
			}
		}
	}
	if bad != ch.BadSuppliers {
		t.Errorf("%d suppliers' comments say bad, want %d", bad, ch.BadSuppliers)
	}
	if len(perNation) != 62 {
		t.Errorf("suppliers in %d nations, want all 62", len(perNation))
	}
	for k, n := range perNation {
		if n < 100 || n > 250 { // 161 each on average
			t.Errorf("nation %s has %d suppliers: not uniform", k, n)
		}
	}
	again, _ := generate(t, 1)
	if !reflect.DeepEqual(s.tables, again.tables) {
		t.Error("the same seed made other data")
	}
	other, _ := generate(t, 2)
	if reflect.DeepEqual(s.tables["supplier"], other.tables["supplier"]) {
		t.Error("another seed made the same suppliers")
	}
}

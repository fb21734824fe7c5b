package ch

import (
	"context"
	"embed"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/workloads/tpcc"
)

//go:embed sql
var sqlFS embed.FS

// Dataset is the three tables CH-benCHmark adds to TPC-C's (SUPPLIER, NATION, REGION) and the files that make
// them (sql/generic and sql/ENGINE). No run changes them. The workload's registration (workload.Register, with
// Datasets) makes it known to bulk.
var Dataset = &bulk.Dataset{Workload: "ch", Title: "CH-benCHmark", Tables: []string{"region", "nation", "supplier"},
	FS: sqlFS, Static: []string{"region", "nation", "supplier"}}

// The paper's sizes: SUPPLIER has 10,000 rows whatever the number of warehouses (a stock row's supplier is
// mod(s_w_id * s_i_id, 10000)), NATION 62 and REGION 5.
const (
	Suppliers = 10000
	Nations   = 62
	Regions   = 5
	Rows      = Regions + Nations + Suppliers
)

// QueryNames are the 22 queries' names as reports show them; their statements are q1 .. q22.
var QueryNames = []string{"Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8", "Q9", "Q10", "Q11", "Q12", "Q13",
	"Q14", "Q15", "Q16", "Q17", "Q18", "Q19", "Q20", "Q21", "Q22"}

// Queries loads an engine's 22 queries (q1 .. q22): sql/generic/queries.sql overlaid by
// sql/ENGINE/queries.sql.
func Queries(e *engine.Engine) (sqlfile.Set, error) {
	f, err := sqlfile.Overlay(sqlFS, e.Name, "queries.sql", e.Placeholder)
	if err != nil {
		return nil, err
	}
	set := f.Set()
	for i := range QueryNames {
		if set[fmt.Sprintf("q%d", i+1)] == nil {
			return nil, fmt.Errorf("ch queries for %s: q%d is missing", e.Name, i+1)
		}
	}
	return set, nil
}

// Region is one of REGION's rows as BenchBase's region_gen.tbl (the paper's data) has them: keys 1 to 5.
type Region struct {
	Key  int
	Name string
}

// RegionList is the paper's regions, in key order.
var RegionList = []Region{{1, "Africa"}, {2, "America"}, {3, "Asia"}, {4, "Australia"}, {5, "Europe"}}

// Nation is one of NATION's 62 rows: its key is the ASCII code of a character c_state can start with (0-9, A-Z,
// a-z), so that a customer's nation is ascii(substr(c_state, 1, 1)).
type Nation struct {
	Key    int
	Name   string
	Region int
}

// NationList is the paper's nations with their regions, as BenchBase's nation_gen.tbl has them (its spelling
// "Finnland" kept), in key order.
var NationList = []Nation{
	{'0', "Australia", 4}, {'1', "Belgium", 5}, {'2', "Cameroon", 1}, {'3', "Denmark", 5}, {'4', "Ecuador", 2},
	{'5', "France", 5}, {'6', "Germany", 5}, {'7', "Hungary", 5}, {'8', "Italy", 5}, {'9', "Japan", 3},
	{'A', "Kenya", 1}, {'B', "Lithuania", 5}, {'C', "Mexico", 2}, {'D', "Netherlands", 5}, {'E', "Oman", 1},
	{'F', "Portugal", 5}, {'G', "Qatar", 1}, {'H', "Rwanda", 1}, {'I', "Serbia", 5}, {'J', "Togo", 1},
	{'K', "United States", 2}, {'L', "Vietnam", 3}, {'M', "Singapore", 3}, {'N', "Cambodia", 3}, {'O', "Yemen", 1},
	{'P', "Zimbabwe", 1}, {'Q', "Argentina", 2}, {'R', "Bolivia", 2}, {'S', "Canada", 2},
	{'T', "Dominican Republic", 2}, {'U', "Egypt", 1}, {'V', "Finnland", 5}, {'W', "Ghana", 1}, {'X', "Haiti", 2},
	{'Y', "India", 3}, {'Z', "Jamaica", 4}, {'a', "Kazakhstan", 3}, {'b', "Luxembourg", 5}, {'c', "Morocco", 1},
	{'d', "Norway", 5}, {'e', "Poland", 5}, {'f', "Peru", 2}, {'g', "Nicaragua", 2}, {'h', "Romania", 5},
	{'i', "South Africa", 1}, {'j', "Thailand", 3}, {'k', "United Kingdom", 5}, {'l', "Venezuela", 2},
	{'m', "Liechtenstein", 5}, {'n', "Austria", 5}, {'o', "Laos", 3}, {'p', "Zambia", 1}, {'q', "Switzerland", 5},
	{'r', "China", 3}, {'s', "Papua New Guinea", 4}, {'t', "East Timor", 4}, {'u', "Bulgaria", 5},
	{'v', "Brazil", 2}, {'w', "Albania", 5}, {'x', "Andorra", 5}, {'y', "Belize", 2}, {'z', "Botswana", 1},
}

// BadSuppliers is how many suppliers' comments hold TPC-H's "Customer ... Complaints" with the word "bad" in
// it, which Q16 leaves out (TPC-H has 5 complaints per 10,000 suppliers; the paper's filter is '%bad%').
const BadSuppliers = 10

var (
	columnsRegion   = []string{"r_regionkey", "r_name", "r_comment"}
	columnsNation   = []string{"n_nationkey", "n_name", "n_regionkey", "n_comment"}
	columnsSupplier = []string{"su_suppkey", "su_name", "su_address", "su_nationkey", "su_phone", "su_acctbal", "su_comment"}
)

// the random streams of the three tables (tpcc.NewRand's stream), apart from TPC-C's (warehouse numbers below
// 2^32 under small kinds).
const (
	streamRegion = 0xc4<<40 | iota + 1
	streamNation
	streamSupplier
)

// words are the comments' vocabulary, lower-case words of TPC-H's text grammar, none of which holds "bad" (so
// only the complaints match Q16's '%bad%', whatever the collation).
var words = strings.Fields(`furiously quickly carefully blithely slyly fluffily ironic final regular special
	express pending even bold silent unusual packages requests accounts deposits foxes ideas theodolites pinto
	beans instructions dependencies excuses platelets asymptotes courts dolphins multipliers sauternes warthogs
	frets dinos attainments somas patterns forges braids frays warhorses dugouts epitaphs pearls tithes waters
	orbits gifts sheaves depths sentiments decoys realms pains grouches escapades sleep wake are cajole haggle nag
	use boost affix detect integrate maintain nod was lose sublate solve thrash promise engage hinder print x-ray
	breach eat grow impress mold poach serve run dazzle snooze doze unwind kindle play hang believe doubt above
	after along among across against around beside beyond near the about`)

// comment is lower-case text of random words, between lo and hi characters long.
func comment(r *tpcc.Rand, lo, hi int) string {
	n := r.Int(lo, hi)
	var b strings.Builder
	for b.Len() < n {
		w := words[r.Int(0, len(words)-1)]
		if b.Len() > 0 {
			if b.Len()+1+len(w) > hi {
				break
			}
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// complaint is a comment that holds "Customer bad Complaints", TPC-H's complaint with the paper's word in it.
func complaint(r *tpcc.Rand, lo, hi int) string {
	const c = "Customer bad Complaints"
	head := comment(r, 1, max(1, r.Int(lo, hi)-len(c)-1)) // room for the complaint and a space
	return head + " " + c
}

// Work is the generation of the three tables, one work each, deterministic from the seed; rows (optional)
// counts the rows written.
func Work(seed uint64, rows *atomic.Int64) []bulk.Work {
	count := func(n int64) {
		if rows != nil {
			rows.Add(n)
		}
	}
	return []bulk.Work{
		{Name: "region", Do: func(ctx context.Context, s bulk.Sink) error {
			r := tpcc.NewRand(seed, streamRegion)
			n, err := bulk.Table(s, "region", columnsRegion, func(w bulk.Row) error {
				for _, g := range RegionList {
					w.Int(int64(g.Key))
					w.Str(g.Name)
					w.Str(comment(r, 31, 115))
					if err := w.EndRow(); err != nil {
						return err
					}
				}
				return nil
			})
			count(n)
			return err
		}},
		{Name: "nation", Do: func(ctx context.Context, s bulk.Sink) error {
			r := tpcc.NewRand(seed, streamNation)
			n, err := bulk.Table(s, "nation", columnsNation, func(w bulk.Row) error {
				for _, g := range NationList {
					w.Int(int64(g.Key))
					w.Str(g.Name)
					w.Int(int64(g.Region))
					w.Str(comment(r, 31, 114))
					if err := w.EndRow(); err != nil {
						return err
					}
				}
				return nil
			})
			count(n)
			return err
		}},
		{Name: "supplier", Do: func(ctx context.Context, s bulk.Sink) error {
			r := tpcc.NewRand(seed, streamSupplier)
			bad := map[int]bool{}
			for len(bad) < BadSuppliers {
				bad[r.Int(1, Suppliers)] = true
			}
			n, err := bulk.Table(s, "supplier", columnsSupplier, func(w bulk.Row) error {
				for k := 1; k <= Suppliers; k++ {
					if k%1024 == 0 {
						if err := ctx.Err(); err != nil {
							return err
						}
					}
					w.Int(int64(k))
					w.Str(fmt.Sprintf("Supplier#%09d", k))
					w.Str(r.AString(10, 40))
					w.Int(int64(NationList[r.Int(0, Nations-1)].Key))
					w.Str(r.NString(15, 15))
					w.Dec(int64(r.Int(-99999, 999999)), 2) // -999.99 .. 9,999.99, as TPC-H's S_ACCTBAL
					if bad[k] {
						w.Str(complaint(r, 25, 100))
					} else {
						w.Str(comment(r, 25, 100))
					}
					if err := w.EndRow(); err != nil {
						return err
					}
				}
				return nil
			})
			count(n)
			return err
		}},
	}
}

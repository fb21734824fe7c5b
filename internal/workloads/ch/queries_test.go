package ch_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
	"github.com/dbdyno/dbdyno/internal/workloads/ch"
)

// emptyAtLoad are the queries that find nothing in TPC-C's initial population, whatever their literals: Q11
// wants stock that was ordered (s_order_cnt is 0), Q17 lines below their item's mean quantity (every quantity is
// 5), Q21 lines delivered after their order was entered (the load stamps both with its time), Q22 customers
// without orders and with a positive balance (every customer has an order and a balance of -10.00). A TPC-C
// run's transactions make rows for them.
var emptyAtLoad = []string{"q11", "q17", "q21", "q22"}

// outcome is what a query returned: its rows, and whether any value of them is not NULL (an aggregate over
// nothing is one row of NULLs).
type outcome struct {
	rows    int
	notNull bool
	took    time.Duration
}

// runQueries builds TPC-C at one warehouse and the CH tables on a target, then runs the 22 queries on the data
// as loaded and again after changing it as a run would (asAfterARun).
func runQueries(t *testing.T, url string) (load, run map[string]outcome) {
	t.Helper()
	ctx := context.Background()
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	built, err := ch.Open(ctx, tg)
	if err != nil {
		t.Fatal(err)
	}
	// ch build's own course: TPC-C's tables, then CH's three (ch.Work's rows, counted in TestCHTablesAsThePaper)
	if _, err := built.Build(ctx, ch.BuildOptions{Warehouses: 1, Threads: 2, Seed: 1, Drop: true}); err != nil {
		built.Close()
		t.Fatalf("ch build: %v", err)
	}
	built.Close()
	db, err := tg.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// the tables as loaded, read back: every supplier's nation a nation, every nation's region a region
	for q, want := range map[string]int{
		"select count(*) from region":   ch.Regions,
		"select count(*) from nation":   ch.Nations,
		"select count(*) from supplier": ch.Suppliers,
		"select count(*) from supplier, nation, region where su_nationkey = n_nationkey and n_regionkey = r_regionkey":                       ch.Suppliers,
		"select count(*) from nation where n_nationkey between 48 and 57 or n_nationkey between 65 and 90 or n_nationkey between 97 and 122": ch.Nations,
		"select count(*) from supplier where su_comment like '%Customer%Complaints%'":                                                        ch.BadSuppliers,
	} {
		var n int
		if err := db.QueryRowContext(ctx, q).Scan(&n); err != nil || n != want {
			t.Errorf("%s: %d, %v; want %d", q, n, err, want)
		}
	}
	load = queryAll(t, db, tg.Engine)
	for _, q := range asAfterARun {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return load, queryAll(t, db, tg.Engine)
}

// asAfterARun changes the TPC-C tables the way transactions would, so that the queries empty at the load have
// rows to find: stock that was ordered (Q11), lines of varied quantities (Q17), orders entered before their
// lines were delivered (Q21), and customers without orders and with positive balances (Q22, whose grouping by
// state's first character then tells 'a' from 'A').
var asAfterARun = []string{
	"update stock set s_order_cnt = 100 where s_i_id % 50 = 0",
	"update order_line set ol_quantity = 1 + ol_number % 10",
	"update orders set o_entry_d = '2020-01-01 00:00:00' where o_id % 10 = 0",
	"update customer set c_balance = 100 + c_id where c_id % 3 = 0",
	"delete from orders where o_id % 10 = 5",
}

// queryAll runs the 22 queries.
func queryAll(t *testing.T, db *sql.DB, e *engine.Engine) map[string]outcome {
	t.Helper()
	ctx := context.Background()
	set, err := ch.Queries(e)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]outcome{}
	for i := range ch.QueryNames {
		name := fmt.Sprintf("q%d", i+1)
		st := set[name]
		t0 := time.Now()
		rs, err := db.QueryContext(ctx, st.SQL)
		if err != nil {
			t.Errorf("%s (%s): %v", name, st.From, err)
			continue
		}
		cols, _ := rs.Columns()
		var o outcome
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for j := range vals {
			ptrs[j] = &vals[j]
		}
		for rs.Next() {
			if err := rs.Scan(ptrs...); err != nil {
				t.Errorf("%s: %v", name, err)
				break
			}
			o.rows++
			for _, v := range vals {
				if v != nil {
					o.notNull = true
				}
			}
		}
		if err := rs.Err(); err != nil {
			t.Errorf("%s (%s): %v", name, st.From, err)
		}
		rs.Close()
		o.took = time.Since(t0)
		out[name] = o
	}
	return out
}

// TestCHQueries runs the 22 queries on every engine at one warehouse (SQLite always; PostgreSQL, MariaDB and
// SQL Server where the servers are): each runs, every query but those empty at the load selects rows, and the
// engines agree on every query's row count (the same seed makes the same data).
func TestCHQueries(t *testing.T) {
	t.Parallel()
	urls := map[string]string{"sqlite": "sqlite://" + filepath.Join(t.TempDir(), "ch.db")}
	for _, u := range testsrv.Servers(t) {
		tg, err := engine.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		urls[tg.Engine.Name] = testsrv.Beside(t, u, "dbdyno_ch_queries")
	}
	var mu sync.Mutex
	got := map[string]map[string]outcome{} // "load/" or "run/" and the engine: the query's outcome
	t.Run("engines", func(t *testing.T) {
		for name, url := range urls {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				load, run := runQueries(t, url)
				for _, phase := range []struct {
					name  string
					res   map[string]outcome
					empty []string
				}{{"load", load, emptyAtLoad}, {"run", run, nil}} {
					var line []string
					for i := range ch.QueryNames {
						q := fmt.Sprintf("q%d", i+1)
						o, ok := phase.res[q]
						if !ok {
							continue
						}
						line = append(line, fmt.Sprintf("%s=%d(%.1fs)", ch.QueryNames[i], o.rows, o.took.Seconds()))
						if slices.Contains(phase.empty, q) {
							continue
						}
						if o.rows == 0 || !o.notNull {
							t.Errorf("%s selects nothing on %s at one warehouse, %s (%d rows)", ch.QueryNames[i], name, phase.name, o.rows)
						}
					}
					t.Logf("%s, %s: %s", name, phase.name, strings.Join(line, " "))
					mu.Lock()
					got[phase.name+"/"+name] = phase.res
					mu.Unlock()
				}
			})
		}
	})
	for _, phase := range []string{"load", "run"} {
		var engines []string
		for k := range got {
			if e, ok := strings.CutPrefix(k, phase+"/"); ok {
				engines = append(engines, e)
			}
		}
		slices.Sort(engines)
		for i := range ch.QueryNames {
			q := fmt.Sprintf("q%d", i+1)
			counts := map[int][]string{}
			for _, e := range engines {
				if o, ok := got[phase+"/"+e][q]; ok {
					counts[o.rows] = append(counts[o.rows], e)
				}
			}
			if len(counts) > 1 {
				t.Errorf("%s (%s) returns different row counts: %v", ch.QueryNames[i], phase, counts)
			}
		}
	}
}

// TestCHQueriesPerEngine checks that every engine has the 22 queries and that each engine's own file only
// overrides queries the generic file has; and that the functions SQLite lacks (ascii, extract) and the
// case-blind LIKE of SQLite, MySQL/MariaDB and SQL Server are overridden wherever a query uses them.
func TestCHQueriesPerEngine(t *testing.T) {
	for _, name := range []string{"sqlite", "postgres", "mysql", "sqlserver"} {
		e, ok := engine.Lookup(name)
		if !ok {
			t.Fatalf("no engine %s", name)
		}
		if _, err := ch.Dataset.Files(e); err != nil { // schema, keys, drop and admin files, as they run there
			t.Errorf("%s: %v", name, err)
		}
		set, err := ch.Queries(e)
		if err != nil {
			t.Fatal(err)
		}
		if len(set) != 22 {
			t.Errorf("%s: %d queries", name, len(set))
		}
		for q, st := range set {
			text := strings.ToLower(st.SQL)
			lacks := map[string][]string{
				"sqlite":    {"ascii(", "extract(", "mod("},
				"sqlserver": {"extract(", "mod(", "substr(", " limit "},
			}[name]
			for _, f := range lacks {
				if strings.Contains(text, f) {
					t.Errorf("%s on %s uses %s", q, name, f)
				}
			}
			if name != "postgres" && caseBlindLike(text) {
				t.Errorf("%s on %s has a LIKE on generated data that ignores case: %s", q, name, st.From)
			}
		}
	}
}

// caseBlindLike says whether a query compares generated mixed-case data (i_data, c_state, su_comment) with a
// plain LIKE.
func caseBlindLike(text string) bool {
	for _, col := range []string{"i_data", "c_state", "su_comment"} {
		for _, op := range []string{" like '", " not like '"} {
			if strings.Contains(text, col+op) {
				return true
			}
		}
	}
	return false
}

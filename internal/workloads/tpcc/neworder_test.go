package tpcc

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// txTarget returns a target for the New-Order tests: SQLite in a temporary file, or a database beside the server
// test database so that these tests never meet the command tests' TPC-C tables.
func txTarget(t *testing.T, name string) *engine.Target {
	t.Helper()
	var url string
	switch name {
	case "sqlite":
		url = "sqlite://" + filepath.Join(t.TempDir(), "tx.db")
	case "postgres":
		url = testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_tpcc_tx")
	case "mysql":
		url = testsrv.Beside(t, testsrv.URL(t, testsrv.MySQLEnv), "dbdyno_tpcc_tx")
	case "sqlserver":
		url = testsrv.Beside(t, os.Getenv(testsrv.MSSQLEnv), "dbdyno_tpcc_tx")
	}
	tg, err := engine.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// sqlHandle opens a database/sql handle on the target for the checks.
func sqlHandle(t *testing.T, tg *engine.Target) (*sql.DB, error) {
	t.Helper()
	return tg.Open(context.Background())
}

// stockRow is the part of a stock row New-Order changes.
type stockRow struct{ qty, ytd, orderCnt, remoteCnt int }

type lineRow struct {
	number, iID, supplyWID, qty int
	amount                      float64
	dist                        string
}

// New-Order changes the database the same way in both modes and on every engine: the stock rows of its lines
// (quantity rule of clause 2.4.2.2 applied line after line, also when a line repeats an item), its order,
// new-order and order-line rows, and its total; the 1% with an unused item leave everything as it was.
func TestNewOrderEffectsInEveryMode(t *testing.T) {
	names := []string{"sqlite", "postgres", "mysql"}
	if os.Getenv(testsrv.MSSQLEnv) != "" {
		names = append(names, "sqlserver")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each engine its own database: the builds wait on their servers side by side
			ctx := context.Background()
			tg := txTarget(t, name)
			db, err := Open(ctx, tg)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Build(ctx, BuildOptions{Warehouses: 2, Threads: 2, Drop: true, Seed: 5}); err != nil {
				t.Fatal(err)
			}
			defer db.Drop(ctx)
			if name == "postgres" {
				t.Run("SessionOutlivesTheRunsContext", func(t *testing.T) { sessionOutlivesTheRunsContext(t, db) })
			}
			h, err := sqlHandle(t, tg)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			q := func(query string) string { return query }
			switch tg.Engine.Placeholder {
			case sqlfile.Dollar:
				q = func(query string) string { return numberedParams(query, "$") }
			case sqlfile.AtP:
				q = func(query string) string { return numberedParams(query, "@p") }
			}

			inputs := []newOrderInput{
				// every line its own stock row, one of them in the other warehouse
				{wID: 1, dID: 3, cID: 17, allLocal: 0, lines: []orderLine{{5, 1, 3}, {77, 1, 10}, {900, 1, 1}, {5, 2, 4}, {40000, 2, 9}}},
				// a line that repeats an item: its stock row is updated twice, the second time from the first's result
				{wID: 2, dID: 7, cID: 2999, allLocal: 1, lines: []orderLine{{9, 2, 2}, {9, 2, 9}, {9, 2, 10}, {321, 2, 5}, {99999, 2, 7}}},
			}
			modes := []bool{false}
			if tg.Engine.Procedures {
				modes = append(modes, true)
			}
			for _, procs := range modes {
				w, err := db.NewWorkload(ctx, RunOptions{Procedures: procs, Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				wk, err := w.NewWorker(ctx, 0)
				if err != nil {
					t.Fatal(err)
				}
				term := wk.(*Terminal)
				for k, in := range inputs {
					before := stockOf(t, h, q, in)
					nextBefore := nextOrderID(t, h, q, in)
					total, err := term.newOrder(ctx, in)
					if err != nil {
						t.Fatalf("procedures=%v input %d: %v", procs, k, err)
					}
					oID := nextBefore
					if got := nextOrderID(t, h, q, in); got != nextBefore+1 {
						t.Fatalf("procedures=%v input %d: d_next_o_id %d -> %d, want +1", procs, k, nextBefore, got)
					}
					// expected stock rows: the quantity rule line after line
					want := map[[2]int]stockRow{}
					for key, r := range before {
						want[key] = r
					}
					var sum float64
					prices := pricesOf(t, h, q, in)
					wantLines := make([]lineRow, len(in.lines))
					for i, l := range in.lines {
						key := [2]int{l.supplyWID, l.iID}
						r := want[key]
						if r.qty >= l.quantity+10 {
							r.qty -= l.quantity
						} else {
							r.qty = r.qty - l.quantity + 91
						}
						r.ytd += l.quantity
						r.orderCnt++
						if l.supplyWID != in.wID {
							r.remoteCnt++
						}
						want[key] = r
						amount := math.Round(float64(l.quantity)*prices[l.iID]*100) / 100
						sum += amount
						wantLines[i] = lineRow{i + 1, l.iID, l.supplyWID, l.quantity, amount, distOf(t, h, q, l.supplyWID, l.iID, in.dID)}
					}
					after := stockOf(t, h, q, in)
					for key, r := range want {
						if after[key] != r {
							t.Errorf("procedures=%v input %d: stock %v = %+v, want %+v (before %+v)", procs, k, key, after[key], r, before[key])
						}
					}
					lines := linesOf(t, h, q, in, oID)
					if len(lines) != len(wantLines) {
						t.Fatalf("procedures=%v input %d: %d order lines, want %d", procs, k, len(lines), len(wantLines))
					}
					for i := range lines {
						if lines[i] != wantLines[i] {
							t.Errorf("procedures=%v input %d: order line %+v, want %+v", procs, k, lines[i], wantLines[i])
						}
					}
					var cnt, allLocal, newOrders int
					h.QueryRow(q("SELECT o_ol_cnt, o_all_local FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?"), in.wID, in.dID, oID).Scan(&cnt, &allLocal)
					h.QueryRow(q("SELECT count(*) FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?"), in.wID, in.dID, oID).Scan(&newOrders)
					if cnt != len(in.lines) || allLocal != in.allLocal || newOrders != 1 {
						t.Errorf("procedures=%v input %d: order ol_cnt %d all_local %d, %d new_order rows", procs, k, cnt, allLocal, newOrders)
					}
					var disc, wTax, dTax float64
					h.QueryRow(q("SELECT c_discount FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?"), in.wID, in.dID, in.cID).Scan(&disc)
					h.QueryRow(q("SELECT w_tax FROM warehouse WHERE w_id = ?"), in.wID).Scan(&wTax)
					h.QueryRow(q("SELECT d_tax FROM district WHERE d_w_id = ? AND d_id = ?"), in.wID, in.dID).Scan(&dTax)
					if wantTotal := sum * (1 - disc) * (1 + wTax + dTax); math.Abs(total-wantTotal) > 0.01 {
						t.Errorf("procedures=%v input %d: total %.4f, want %.4f", procs, k, total, wantTotal)
					}
				}

				// an unused item number: rolled back, nothing changed
				in := newOrderInput{wID: 1, dID: 2, cID: 5, allLocal: 1, rollback: true, lines: []orderLine{{12, 1, 5}, {Items + 1, 1, 5}}}
				before, next := stockOf(t, h, q, in), nextOrderID(t, h, q, in)
				if _, err := term.newOrder(ctx, in); !errors.Is(err, errRollback) {
					t.Fatalf("procedures=%v: New-Order with an unused item: %v, want the rollback", procs, err)
				}
				term.s.Rollback(ctx)
				if after, n := stockOf(t, h, q, in), nextOrderID(t, h, q, in); n != next || after[[2]int{1, 12}] != before[[2]int{1, 12}] {
					t.Errorf("procedures=%v: the rolled-back New-Order changed d_next_o_id %d -> %d or stock %+v -> %+v", procs, next, n, before, after)
				}
				term.Close()
			}
		})
	}
}

// numberedParams numbers the ? of a query after prefix ($1 or @p1).
func numberedParams(query, prefix string) string {
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			b.WriteString(prefix + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

func stockOf(t *testing.T, h *sql.DB, q func(string) string, in newOrderInput) map[[2]int]stockRow {
	t.Helper()
	out := map[[2]int]stockRow{}
	for _, l := range in.lines {
		var r stockRow
		err := h.QueryRow(q("SELECT s_quantity, s_ytd, s_order_cnt, s_remote_cnt FROM stock WHERE s_w_id = ? AND s_i_id = ?"), l.supplyWID, l.iID).
			Scan(&r.qty, &r.ytd, &r.orderCnt, &r.remoteCnt)
		if err != nil && !(errors.Is(err, sql.ErrNoRows) && l.iID > Items) {
			t.Fatal(err)
		}
		out[[2]int{l.supplyWID, l.iID}] = r
	}
	return out
}

func nextOrderID(t *testing.T, h *sql.DB, q func(string) string, in newOrderInput) int {
	t.Helper()
	var n int
	if err := h.QueryRow(q("SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?"), in.wID, in.dID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func pricesOf(t *testing.T, h *sql.DB, q func(string) string, in newOrderInput) map[int]float64 {
	t.Helper()
	out := map[int]float64{}
	for _, l := range in.lines {
		var p float64
		if err := h.QueryRow(q("SELECT i_price FROM item WHERE i_id = ?"), l.iID).Scan(&p); err != nil {
			t.Fatal(err)
		}
		out[l.iID] = p
	}
	return out
}

func distOf(t *testing.T, h *sql.DB, q func(string) string, w, i, d int) string {
	t.Helper()
	var s string
	col := "s_dist_" + strconv.Itoa(100 + d)[1:]
	if err := h.QueryRow(q("SELECT "+col+" FROM stock WHERE s_w_id = ? AND s_i_id = ?"), w, i).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func linesOf(t *testing.T, h *sql.DB, q func(string) string, in newOrderInput, oID int) []lineRow {
	t.Helper()
	rows, err := h.Query(q("SELECT ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ? ORDER BY ol_number"), in.wID, in.dID, oID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []lineRow
	for rows.Next() {
		var r lineRow
		if err := rows.Scan(&r.number, &r.iID, &r.supplyWID, &r.qty, &r.amount, &r.dist); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// A PostgreSQL session that watched a context which ended (a run's) works again under another context (the
// consistency check after the run): the deadline the ended context left on the socket is cleared. It runs on
// TestNewOrderEffectsInEveryMode's PostgreSQL build (a build of its own took most of its time).
func sessionOutlivesTheRunsContext(t *testing.T, db *DB) {
	ctx := context.Background()
	s, err := db.newSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run, end := context.WithCancel(ctx)
	var v int64
	if err := s.Batch(run, engine.Op{Name: "sum_next_o_id", Dest: []any{&v}}); err != nil {
		t.Fatal(err)
	}
	end()
	time.Sleep(50 * time.Millisecond) // the watcher has set the deadline by now
	for _, c := range []context.Context{context.Background(), context.WithoutCancel(run)} {
		if err := s.Batch(c, engine.Op{Name: "sum_next_o_id", Dest: []any{&v}}); err != nil || v == 0 {
			t.Fatalf("after the run's context ended: %v (sum %d)", err, v)
		}
	}
}

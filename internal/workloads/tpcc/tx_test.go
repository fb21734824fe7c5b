package tpcc

import (
	"math"
	"testing"

	"github.com/dbdyno/dbdyno/internal/engine"
)

func testTerminal(warehouses int) *Terminal {
	w := &Workload{opts: RunOptions{Warehouses: warehouses}}
	return &Terminal{w: w, r: NewRand(1, 1), c: Constants{CLast: 200, CID: 300, OLIID: 400}, warehouses: warehouses, home: 3, cur: 3, did: 1}
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.4f, want %.4f ± %.4f", what, got, want, tol)
	}
}

func TestTransactionMixIsExact(t *testing.T) {
	term := testTerminal(1)
	var counts [numTx]int
	for i := 0; i < 100000; i++ {
		tx, k, th := term.Next()
		if k != 0 || th != 0 {
			t.Fatal("keying/think times must be off by default")
		}
		counts[tx]++
	}
	for tx, want := range mix {
		if counts[tx] != want*1000 {
			t.Errorf("%s: %d of 100000, want %d", TxNames[tx], counts[tx], want*1000)
		}
	}
	term.w.opts.KeyingThinking = true
	tx, k, th := term.Next()
	if k.Seconds() != keyingTime[tx] || th < 0 || th.Seconds() > 10*thinkMean[tx] {
		t.Errorf("keying %s think %s for %s", k, th, TxNames[tx])
	}
}

func TestNewOrderInputs(t *testing.T) {
	term := testTerminal(10)
	const n = 200000
	rollbacks, lines, remote := 0, 0, 0
	for i := 0; i < n; i++ {
		in := term.newOrderInput()
		if in.wID != 3 || in.dID < 1 || in.dID > 10 || in.cID < 1 || in.cID > 3000 {
			t.Fatalf("bad input %+v", in)
		}
		if len(in.lines) < 5 || len(in.lines) > 15 {
			t.Fatalf("%d order lines", len(in.lines))
		}
		if in.rollback {
			rollbacks++
			unused := 0
			for _, l := range in.lines {
				if l.iID == Items+1 {
					unused++
				}
			}
			if unused != 1 {
				t.Fatalf("a rollback New-Order must carry exactly one unused item, has %d", unused)
			}
		}
		for _, l := range in.lines {
			lines++
			if l.supplyWID != in.wID {
				remote++
			}
			if l.quantity < 1 || l.quantity > 10 {
				t.Fatalf("quantity %d", l.quantity)
			}
		}
	}
	near(t, "rollback share", float64(rollbacks)/n, 0.01, 0.001)
	near(t, "remote order-line share", float64(remote)/float64(lines), 0.01, 0.001)
	near(t, "mean order lines", float64(lines)/n, 10, 0.05)

	one := testTerminal(1)
	for i := 0; i < 1000; i++ {
		for _, l := range one.newOrderInput().lines {
			if l.supplyWID != 3 {
				t.Fatal("with one warehouse every supply warehouse is the home warehouse")
			}
		}
	}
}

func TestPaymentAndOrderStatusInputs(t *testing.T) {
	term := testTerminal(10)
	const n = 200000
	byName, remote := 0, 0
	minAmt, maxAmt := 1e9, 0.0
	for i := 0; i < n; i++ {
		in := term.paymentInput()
		if in.byName {
			byName++
			if in.cID != 0 || in.cLast == "" {
				t.Fatal("by-name payment must carry only the last name")
			}
		} else if in.cID < 1 || in.cID > 3000 {
			t.Fatalf("c_id %d", in.cID)
		}
		if in.cWID != in.wID {
			remote++
			if in.cWID < 1 || in.cWID > 10 {
				t.Fatalf("remote warehouse %d", in.cWID)
			}
		}
		minAmt, maxAmt = math.Min(minAmt, in.amount), math.Max(maxAmt, in.amount)
	}
	near(t, "payment by last name", float64(byName)/n, 0.60, 0.005)
	near(t, "payment to a remote warehouse", float64(remote)/n, 0.15, 0.005)
	if minAmt < 1 || maxAmt > 5000 || maxAmt < 4990 {
		t.Errorf("payment amounts span [%.2f, %.2f], want within [1.00, 5000.00]", minAmt, maxAmt)
	}
	byName = 0
	for i := 0; i < n; i++ {
		if term.orderStatusInput().byName {
			byName++
		}
	}
	near(t, "order-status by last name", float64(byName)/n, 0.60, 0.005)
}

func TestEveryDialectHasEveryStatement(t *testing.T) {
	pgEngine, _ := engine.Lookup("postgres")
	pg, err := Statements(pgEngine)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mysql", "sqlite"} {
		e, _ := engine.Lookup(name)
		set, err := Statements(e)
		if err != nil {
			t.Fatal(err)
		}
		for name, st := range pg {
			if len(name) > 5 && name[:5] == "proc_" && !e.Procedures {
				continue
			}
			other, ok := set[name]
			if !ok {
				t.Errorf("%s lacks statement %s", e, name)
				continue
			}
			if len(other.Params) != len(st.Params) {
				t.Errorf("%s: statement %s takes %v, postgres takes %v", e, name, other.Params, st.Params)
			}
		}
	}
}

package tpce

import (
	"context"
	"reflect"
	"sync/atomic"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// tripCount counts the client's round trips (statements, and each transaction's begin and commit) and the
// transactions they belong to: a run's round trips per transaction, which the driver's CPU per transaction is
// read against (bench/tpce-driver: the engine's ping floor is one round trip).
type tripCount struct{ n, tx atomic.Int64 }

// perTx is the round trips per transaction so far (0 before any).
func (c *tripCount) perTx() float64 {
	if tx := c.tx.Load(); tx > 0 {
		return float64(c.n.Load()) / float64(tx)
	}
	return 0
}

// tapRows reads a frame's statement once more for the test's tap (the frame then reads it as it always does,
// in the same transaction): what the frame's statement returns, as plain values.
func (wk *worker) tapRows(ctx context.Context, e engine.Queryer, name string, args []any) error {
	st := wk.w.db.Stmts[name]
	out, err := readRows(e.QueryContext(ctx, st.SQL, st.Args(args)...))
	if err != nil {
		return err
	}
	wk.tap(e, name, args, out)
	return nil
}

// tapOne hands the test's tap the single row a frame scanned (none when there was none).
func (wk *worker) tapOne(e engine.Queryer, name string, args []any, err error, dest []any) {
	if err != nil {
		wk.tap(e, name, args, nil)
		return
	}
	row := make([]any, len(dest))
	for i, d := range dest {
		row[i] = reflect.ValueOf(d).Elem().Interface()
	}
	wk.tap(e, name, args, [][]any{row})
}

// MaintainNow makes Data-Maintenance the next transaction a virtual user takes (its schedule is once a minute):
// the event a test triggers it by.
func (w *Workload) MaintainNow() { w.dmNext.Store(0) }

package tpch

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workloads/tpch/dbgen"
)

// The refresh functions use dbgen's update sets (clause 4.2.4): pair N of a run inserts update set N's new orders
// (RF1) and deletes the loaded orders of its delete set (RF2). The sets applied and not yet undone are recorded in
// the build record before RF1 starts, so a run that stops half-way leaves a database that Restore can put back.

// metaRefreshSets is the build record key of the update sets applied: "lo-hi".
const metaRefreshSets = "refresh_sets"

type setRange struct{ lo, hi int } // lo == 0: none

// String names the sets: "update set 2", "update sets 1..3".
func (s setRange) String() string { return SetsString(s.lo, s.hi) }

// SetsString names update sets lo..hi: "update set 2", "update sets 1..3".
func SetsString(lo, hi int) string {
	if lo == hi {
		return "update set " + strconv.Itoa(lo)
	}
	return fmt.Sprintf("update sets %d..%d", lo, hi)
}

// ErrRefreshed means dbgen update sets are applied: the data is a valid TPC-H database but no longer the one the
// build loaded, so the validation answers do not hold.
var ErrRefreshed = errors.New("the refresh functions' update sets are applied")

func (d *DB) appliedSets(ctx context.Context) (setRange, error) {
	v, err := d.data.Meta(ctx, metaRefreshSets)
	if errors.Is(err, bulk.ErrNoMeta) {
		return setRange{}, nil
	}
	if err != nil {
		return setRange{}, err
	}
	var s setRange
	a, b, ok := strings.Cut(v, "-")
	s.lo, err = strconv.Atoi(a)
	if err == nil && ok {
		s.hi, err = strconv.Atoi(b)
	}
	if err != nil || !ok || s.lo < 1 || s.hi < s.lo {
		return setRange{}, fmt.Errorf("build record %s = %q is not a range of update sets: rebuild with --drop", metaRefreshSets, v)
	}
	return s, nil
}

// Restore undoes the update sets applied (by a run with --no-restore or an interrupted one): see undo. It
// returns the sets undone (0, 0 when there was nothing to do).
func (d *DB) Restore(ctx context.Context) (lo, hi int, err error) {
	s, err := d.appliedSets(ctx)
	if err != nil || s.lo == 0 {
		return 0, 0, err
	}
	sf, err := d.Scale(ctx)
	if err != nil {
		return 0, 0, err
	}
	if err := d.undo(ctx, sf, s); err != nil {
		return 0, 0, err
	}
	return s.lo, s.hi, nil
}

// undo deletes the orders and lines of the applied sets' key range and loads the build's rows of that range
// again, in one transaction (through the build's bulk path, without its load settings: the run's queries keep
// theirs), then clears the record of applied sets.
func (d *DB) undo(ctx context.Context, sf float64, s setRange) error {
	r := dbgen.RestoreSets(sf, s.lo, s.hi)
	err := d.data.InTx(ctx, func(tx *sql.Tx, sink bulk.Sink) error {
		for _, name := range []string{"restore_lineitem", "restore_orders"} {
			st := d.refresh[name]
			if _, err := tx.ExecContext(ctx, st.SQL, st.Args([]any{r.KeyLo, r.KeyHi})...); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		for _, t := range []dbgen.Table{dbgen.Orders, dbgen.LineItem} {
			if _, err := bulk.Table(sink, t.String(), Columns[t], func(row bulk.Row) error {
				return dbgen.Generate(t, sf, r.First-1, r.Count, row)
			}); err != nil {
				return fmt.Errorf("loading the %s rows again: %w", t, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("undoing %s: %w", s, err)
	}
	return d.data.DeleteMeta(ctx, metaRefreshSets)
}

// startRefresh decides which update set comes first: set 1 on the loaded data, after undoing what an earlier
// run left, or with NoRestore the set after the ones already applied.
func (r *runner) startRefresh(ctx context.Context) error {
	s, err := r.d.appliedSets(ctx)
	if err != nil || s.lo == 0 {
		return err
	}
	if r.opts.NoRestore {
		r.sets = s
		r.say("%s applied by earlier runs: this run goes on with update set %d\n", s, s.hi+1)
		return nil
	}
	t0 := time.Now()
	if err := r.d.undo(ctx, r.sf, s); err != nil {
		return fmt.Errorf("undoing %s left by an earlier run: %w", s, err)
	}
	r.say("undid %s left by an earlier run (%.1fs)\n", s, time.Since(t0).Seconds())
	return nil
}

// endRefresh puts the loaded data back unless NoRestore, and returns what the result's note says of it.
func (r *runner) endRefresh(ctx context.Context) string {
	s := r.sets
	if s.lo == 0 {
		return "; no update set was applied"
	}
	note := fmt.Sprintf("; the refresh functions used dbgen's %s (RF1 inserts orders.tbl.uN and lineitem.tbl.uN, RF2 deletes the orders of delete.N)", s)
	switch {
	case r.opts.NoRestore:
		r.say("%s left applied (--no-restore): the next run goes on with update set %d; `dbdyno tpch restore` puts the loaded data back\n", s, s.hi+1)
		return note + "; left applied (--no-restore)"
	case ctx.Err() != nil:
		r.say("%s left applied by the interruption: the next run, or `dbdyno tpch restore`, undoes it\n", s)
		return note + "; the run was interrupted before the loaded data was restored"
	}
	t0 := time.Now()
	if err := r.d.undo(ctx, r.sf, s); err != nil {
		r.say("restoring the loaded data failed: %v; `dbdyno tpch restore` tries again\n", err)
		return note + "; restoring the loaded data failed: " + err.Error()
	}
	r.say("restored the loaded data: undid %s (%.1fs, not timed)\n", s, time.Since(t0).Seconds())
	return note + "; the loaded data was restored after the run (not timed)"
}

// nextSet records the next update set as applied, before anything of it is written. The record is written
// outside the lock: on an embedded database the query streams may hold the only connection while they print.
func (r *runner) nextSet(ctx context.Context) (pair, set int, err error) {
	r.mu.Lock()
	r.pair++
	if r.sets.lo == 0 {
		r.sets = setRange{1, 1}
	} else {
		r.sets.hi++
	}
	pair, s := r.pair, r.sets
	r.mu.Unlock()
	err = r.d.data.PutMeta(ctx, metaRefreshSets, fmt.Sprintf("%d-%d", s.lo, s.hi))
	return pair, s.hi, err
}

// failPair records a refresh function's error in its pair; an error of a fatal class ends the run (r.fatal).
func (r *runner) failPair(ctx context.Context, p *result.RefreshPair, err error) {
	if err == nil || p.Status != result.StatusOK {
		return
	}
	p.Status, p.Error = result.StatusFailed, err.Error()
	if ctx.Err() != nil {
		p.Status, p.Error = r.cut()
		return
	}
	r.fatal(fmt.Sprintf("refresh pair %d", p.Pair), err)
}

// rf1 inserts the next update set's orders and lines (dbgen's orders.tbl.uN and lineitem.tbl.uN) in one
// transaction, through the engine's bulk path as the build loads (without its load settings). The specification
// leaves how the refresh functions write to the implementation, as long as they are ACID transactions; rows sent
// one INSERT at a time made RF1 take a minute per set on DuckDB at SF 10.
func (r *runner) rf1(ctx context.Context) result.RefreshPair {
	pair, set, err := r.nextSet(ctx)
	p := result.RefreshPair{Pair: pair, UpdateSet: set, Status: result.StatusOK}
	if err != nil {
		r.failPair(ctx, &p, fmt.Errorf("recording update set %d: %w", set, err))
		p.UpdateSet = 0 // not recorded: RF2 must not touch the data either
		return p
	}
	var rows int64
	t0 := time.Now()
	err = r.d.data.InTx(ctx, func(_ *sql.Tx, sink bulk.Sink) error {
		for _, t := range []dbgen.Table{dbgen.Orders, dbgen.LineItem} {
			n, err := bulk.Table(sink, t.String(), Columns[t], func(row bulk.Row) error {
				return dbgen.GenerateUpdate(t, r.sf, set, row)
			})
			if t == dbgen.Orders {
				rows = n
			}
			if err != nil {
				return fmt.Errorf("RF1 %s: %w", t, err)
			}
		}
		return nil
	})
	p.RF1 = time.Since(t0).Seconds()
	p.Orders = rows
	r.failPair(ctx, &p, err)
	r.say("refresh    RF1 %9.3fs  %6d orders inserted (update set %d)\n", p.RF1, rows, set)
	return p
}

// rf2 deletes the orders of the pair's delete set with their lines, key by key, in one transaction
// (clause 2.27.2). Every key must be found: a missing order means the data is not what the set expects.
func (r *runner) rf2(ctx context.Context, p *result.RefreshPair) {
	if p.UpdateSet == 0 {
		return // the set was never recorded: nothing of it was applied
	}
	keys := dbgen.DeleteKeys(r.sf, p.UpdateSet)
	var deleted int64
	t0 := time.Now()
	err := func() error {
		tx, err := r.d.data.SQL.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		lines, orders := r.d.refresh["rf2_lineitem"], r.d.refresh["rf2_orders"]
		var stmts [2]*sql.Stmt
		for i, st := range []*sqlfile.Statement{lines, orders} {
			if stmts[i], err = tx.PrepareContext(ctx, st.SQL); err != nil {
				return fmt.Errorf("%s: %w", st.Name, err)
			}
			defer stmts[i].Close()
		}
		for _, k := range keys {
			key := []any{k}
			if _, err := stmts[0].ExecContext(ctx, lines.Args(key)...); err != nil {
				return fmt.Errorf("rf2_lineitem: %w", err)
			}
			res, err := stmts[1].ExecContext(ctx, orders.Args(key)...)
			if err != nil {
				return fmt.Errorf("rf2_orders: %w", err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			deleted += n
		}
		if deleted != int64(len(keys)) {
			return fmt.Errorf("delete set %d: %d of its %d orders found: the data is not the loaded data (rebuild, or `dbdyno tpch restore`)", p.UpdateSet, deleted, len(keys))
		}
		return tx.Commit()
	}()
	p.RF2 = time.Since(t0).Seconds()
	r.failPair(ctx, p, err)
	r.say("refresh    RF2 %9.3fs  %6d orders deleted (delete set %d)\n", p.RF2, deleted, p.UpdateSet)
}

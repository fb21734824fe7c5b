package webstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

var checks = []struct{ name, stmt, what string }{
	{"stock", "check_stock", "every product's stock plus sales equals its loaded stock"},
	{"sales", "check_sales", "every product's sales equal the quantities of its lines in orders placed since the load"},
	{"totals", "check_totals", "every order's net amount is its lines' quantities times prices, its total net plus tax"},
	{"lines", "check_lines", "every order has lines, and every line a customer history row"},
}

// Check verifies the store's consistency conditions. First, where the engine has one, its own integrity check of
// the database (SQLite's quick_check), whose first finding is the error.
func (db *DB) Check(ctx context.Context) ([]result.Check, error) {
	if err := db.Data.Integrity(ctx); err != nil {
		return nil, err
	}
	m, err := db.ReadMeta(ctx)
	if err != nil {
		return nil, err
	}
	var out []result.Check
	for _, c := range checks {
		st := db.Stmts[c.stmt]
		var args []any
		if len(st.Params) == 1 {
			args = []any{m.Size.Orders()}
		}
		r, err := runner.Violations(ctx, db.Data.SQL, c.name, c.what, st.SQL, st.Args(args)...)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// ResetReport says what a reset removed and restored.
type ResetReport struct {
	Customers, Orders, Lines, History, Reorders, Inventory int64
	Members, Reviews, Helpfulness                          int64
	Tidied                                                 bool // the engine's clean-up ran (reset_tidy: PostgreSQL's VACUUM ANALYZE)
	Took                                                   time.Duration
}

func (r *ResetReport) String() string {
	tidy := ""
	if r.Tidied {
		tidy = "; the tables vacuumed and analyzed"
	}
	return fmt.Sprintf("reset to the loaded state in %.1fs: removed %d customer(s), %d order(s) with %d line(s) and %d history row(s), %d reorder record(s), %d member(s), %d review(s), %d helpfulness rating(s); restored %d inventory row(s)%s",
		r.Took.Seconds(), r.Customers, r.Orders, r.Lines, r.History, r.Reorders, r.Members, r.Reviews, r.Helpfulness, r.Inventory, tidy)
}

// Reset brings the store back to its loaded state: everything runs added is removed by key range (customers
// and orders beyond the loaded keys, their lines and history, every reorder record), the inventory rows that
// changed are restored from the loaded copy, and the id blocks start after the loaded keys again. One
// transaction, so that a reset cut short leaves the store as it was. Then, where the engine has one and rows
// were removed, its clean-up (reset_tidy), so that the next run does not meet it midway. A loaded copy whose
// contents differ from the checksum its build recorded is not restored from: the reset refuses.
func (db *DB) Reset(ctx context.Context) (*ResetReport, error) {
	t0 := time.Now()
	m, err := db.ReadMeta(ctx)
	if err != nil {
		return nil, err
	}
	_, differ, err := db.Data.ContentsOf(ctx, "inventory_loaded")
	if err != nil {
		return nil, fmt.Errorf("comparing the loaded copy of the inventory with its build: %w", err)
	}
	if len(differ) > 0 {
		return nil, fmt.Errorf("%s: the loaded copy of the inventory a reset restores from is not what the build loaded: %s: refusing to restore from it; rebuild with 'dbdyno webstore build --drop'",
			db.T, strings.Join(differ, "; "))
	}
	conn, err := db.Data.SQL.Conn(ctx)
	if err != nil {
		return nil, db.T.ConnectError(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, db.Stmts["begin_write"].SQL); err != nil {
		return nil, err
	}
	rep := &ResetReport{}
	loaded := m.Size.Orders()
	for _, s := range []struct {
		name string
		arg  []any
		n    *int64
	}{
		{"reset_history", []any{loaded}, &rep.History},
		{"reset_lines", []any{loaded}, &rep.Lines},
		{"reset_orders", []any{loaded}, &rep.Orders},
		{"reset_customers", []any{m.Size.Customers}, &rep.Customers},
		{"reset_reorder", nil, &rep.Reorders},
		{"reset_members", nil, &rep.Members},
		{"reset_helpfulness", []any{m.Size.HelpfulnessKeys()}, &rep.Helpfulness},
		{"reset_reviews", []any{m.Size.Reviews()}, &rep.Reviews},
		{"reset_inventory", nil, &rep.Inventory},
	} {
		r, err := db.exec(ctx, conn, s.name, s.arg...)
		if err != nil {
			conn.ExecContext(context.WithoutCancel(ctx), db.Stmts["rollback"].SQL)
			return nil, err
		}
		*s.n, _ = r.RowsAffected()
	}
	if err := db.setIDs(ctx, conn, m); err != nil {
		conn.ExecContext(context.WithoutCancel(ctx), db.Stmts["rollback"].SQL)
		return nil, err
	}
	if _, err := conn.ExecContext(ctx, db.Stmts["commit"].SQL); err != nil {
		return nil, err
	}
	// the engine's own clean-up of the removed rows, where it has one (reset_tidy), after the transaction
	if st := db.Stmts["reset_tidy"]; st != nil && rep.Customers+rep.Orders+rep.Lines+rep.History+rep.Reorders+rep.Inventory+rep.Members+rep.Reviews+rep.Helpfulness > 0 {
		if _, err := conn.ExecContext(ctx, st.SQL); err != nil {
			return nil, fmt.Errorf("reset_tidy: %w", err)
		}
		rep.Tidied = true
	}
	rep.Took = time.Since(t0)
	return rep, nil
}

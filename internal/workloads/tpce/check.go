package tpce

import (
	"context"

	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

var checks = []struct{ name, stmt, what string }{
	{"brokers", "check_brokers", "each broker's trade count and commission total are its accounts' completed trades and their commissions"},
	{"holdings", "check_holdings", "each holding summary is the sum of its holdings, not 0, and every holding has its summary"},
	{"settlements", "check_settlements", "every completed trade has one settlement, and only completed trades have one"},
	{"cash", "check_cash", "every completed cash trade has one cash transaction of its settlement's amount, margin trades none"},
	{"balances", "check_balances", "every account's balance is its opening balance plus its cash transactions"},
	{"trades", "check_trades", "a trade has its price exactly when completed, and a completed trade its CMPT history row"},
}

// Check verifies the consistency conditions a kit checks after a run.
func (db *DB) Check(ctx context.Context) ([]result.Check, error) {
	if _, err := db.ReadMeta(ctx); err != nil {
		return nil, err
	}
	var out []result.Check
	for _, c := range checks {
		st := db.Stmts[c.stmt]
		r, err := runner.Violations(ctx, db.Data.SQL, c.name, c.what, st.SQL)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

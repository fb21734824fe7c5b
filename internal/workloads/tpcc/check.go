package tpcc

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Consistency conditions of clause 3.3.2 that `tpcc check` verifies.
// The statements (tx.sql) return the rows that break a condition, cols columns each.
var checks = []struct {
	stmt, name string
	cols       int
}{
	{"check_1", "1: W_YTD = sum(D_YTD) for each warehouse", 2},
	{"check_2", "2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) for each district", 2},
	{"check_3", "3: max(NO_O_ID) - min(NO_O_ID) + 1 = new_order rows for each district", 2},
	{"check_4", "4: sum(O_OL_CNT) = order_line rows for each district", 2},
	{"check_5", "5: O_CARRIER_ID is null exactly for the orders with a new_order row", 3},
	{"check_6", "6: O_OL_CNT = order_line rows for each order", 3},
	{"check_7", "7: OL_DELIVERY_D is null exactly for the lines of orders without a carrier", 3},
	{"check_8", "8: W_YTD = sum(H_AMOUNT) for each warehouse", 2},
	{"check_9", "9: D_YTD = sum(H_AMOUNT) for each district", 3},
	{"check_10", "10: C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT) for each customer", 3},
	{"check_11", "11: orders - new_order rows = 2100 (and the orders delivered since the load) for each district", 3},
	{"check_12", "12: C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT) for each customer", 3},
}

// Check runs the consistency conditions; each result names the first rows that break it. First, where the
// engine has one, its own integrity check of the database (SQLite's quick_check: pages no condition reads), whose
// first finding is the error.
func (db *DB) Check(ctx context.Context) ([]result.Check, error) {
	if err := db.Data.Integrity(ctx); err != nil {
		return nil, err
	}
	if _, err := db.ReadMeta(ctx); err != nil {
		return nil, err
	}
	var out []result.Check
	for _, c := range checks {
		vals := make([]any, c.cols)
		dest := make([]any, c.cols)
		for i := range vals {
			dest[i] = &vals[i]
		}
		var bad []string
		err := db.rows(ctx, c.stmt, dest, func() error {
			if len(bad) < 5 {
				parts := make([]string, len(vals))
				for i, v := range vals {
					if b, ok := v.([]byte); ok {
						v = string(b)
					}
					parts[i] = fmt.Sprint(v)
				}
				bad = append(bad, "("+strings.Join(parts, ", ")+")")
			} else if len(bad) == 5 {
				bad = append(bad, "...")
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("consistency condition %s: %w", c.name, err)
		}
		r := result.Check{Name: c.name, Passed: len(bad) == 0}
		if !r.Passed {
			r.Detail = "violated at " + strings.Join(bad, " ")
		}
		out = append(out, r)
	}
	return out, nil
}

// rows runs an argument-less statement and calls each for every row, after scanning it into dest.
func (db *DB) rows(ctx context.Context, name string, dest []any, each func() error) error {
	rows, err := db.Data.SQL.QueryContext(ctx, db.Stmts[name].SQL)
	return eachRow(rows, err, dest, each)
}

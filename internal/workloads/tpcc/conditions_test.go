package tpcc_test

import (
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

var failRe = regexp.MustCompile(`(?m)^consistency FAIL\s+(\d+):`)

// failed are the consistency conditions `tpcc check` reports broken on a database.
func failedConditions(t *testing.T, url string) []int {
	t.Helper()
	r := clitest.Run(context.Background(), "tpcc", "check", "--target", url)
	var out []int
	for _, m := range failRe.FindAllStringSubmatch(r.Stdout, -1) {
		n, _ := strconv.Atoi(m[1])
		out = append(out, n)
	}
	if (len(out) == 0) != (r.Code == 0) {
		t.Fatalf("exit %d with failed conditions %v:\n%s%s", r.Code, out, r.Stdout, r.Stderr)
	}
	return out
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// The twelve consistency conditions of TPC-C clause 3.3.2 hold on a built database and after a run; each
// corruption below breaks one condition and only that one, and `tpcc check` names exactly it. (Loaded orders
// 1-2100 are delivered, with OL_AMOUNT 0; 2101-3000 wait in new_order; each customer has paid 10.00 once.)
func TestEachConditionDetectsItsCorruption(t *testing.T) {
	t.Parallel() // on a SQLite file of its own: beside the tests that wait on servers
	dir := t.TempDir()
	built := builtSQLite(t)
	if f := failedConditions(t, "sqlite://"+built); len(f) != 0 {
		t.Fatalf("conditions %v fail on a freshly built database", f)
	}
	ran := filepath.Join(dir, "ran.db")
	copyFile(t, built, ran)
	// a count, not a time: 300 transactions change every table a run changes, however slow the machine
	clitest.Must(t, "tpcc", "run", "--target", "sqlite://"+ran, "--vus", "2", "--rampup", "0s", "--transactions", "300", "--store", "")
	if f := failedConditions(t, "sqlite://"+ran); len(f) != 0 {
		t.Fatalf("conditions %v fail after a run", f)
	}
	for _, c := range []struct {
		cond  int
		stmts []string
	}{
		// a payment of 10.00 recorded for district 99 of warehouse 1 (no such district or customer): the warehouse's
		// W_YTD and history agree (8), each district's (9) and customer's (10) too, and W_YTD exceeds sum(D_YTD)
		{1, []string{"INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) " +
			"SELECT 0, 99, 1, 99, 1, h_date, 10, 'x' FROM history WHERE h_c_id = 1 AND h_c_d_id = 1",
			"UPDATE warehouse SET w_ytd = w_ytd + 10"}},
		{2, []string{"UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 1 AND d_id = 2"}},
		// a hole in district 3's new orders: order 2500 delivered instead, with no lines (so no amount to deliver)
		{3, []string{"DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 3 AND no_o_id = 2500",
			"UPDATE orders SET o_carrier_id = 1, o_ol_cnt = 0 WHERE o_w_id = 1 AND o_d_id = 3 AND o_id = 2500",
			"DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 3 AND ol_o_id = 2500"}},
		// a line of no order in district 4
		{4, []string{"INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) " +
			"VALUES (1, 4, 999999, 1, 1, 1, NULL, 5, 0, 'x')"}},
		// order 2101 left without its new_order row (and a delivered order removed, so that 11 still counts 2100)
		{5, []string{"DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 5 AND no_o_id = 2101",
			"DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 5 AND ol_o_id = 5",
			"DELETE FROM orders WHERE o_w_id = 1 AND o_d_id = 5 AND o_id = 5"}},
		{6, []string{"UPDATE orders SET o_ol_cnt = o_ol_cnt + 1 WHERE o_w_id = 1 AND o_d_id = 6 AND o_id = 10",
			"UPDATE orders SET o_ol_cnt = o_ol_cnt - 1 WHERE o_w_id = 1 AND o_d_id = 6 AND o_id = 11"}},
		{7, []string{"UPDATE order_line SET ol_delivery_d = NULL WHERE ol_w_id = 1 AND ol_d_id = 7 AND ol_o_id = 5 AND ol_number = 1"}},
		// the payment of 1 without the warehouse's W_YTD
		{8, []string{"INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) " +
			"SELECT 0, 99, 1, 99, 1, h_date, 10, 'x' FROM history WHERE h_c_id = 1 AND h_c_d_id = 1"}},
		{9, []string{"UPDATE history SET h_d_id = 2 WHERE h_c_id = 1 AND h_c_d_id = 1 AND h_w_id = 1"}},
		{10, []string{"UPDATE customer SET c_balance = c_balance + 1, c_ytd_payment = c_ytd_payment - 1 WHERE c_w_id = 1 AND c_d_id = 8 AND c_id = 9"}},
		{11, []string{"DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 9 AND ol_o_id = 5",
			"DELETE FROM orders WHERE o_w_id = 1 AND o_d_id = 9 AND o_id = 5"}},
		{12, []string{"UPDATE customer SET c_ytd_payment = c_ytd_payment + 1 WHERE c_w_id = 1 AND c_d_id = 10 AND c_id = 9"}},
	} {
		t.Run(strconv.Itoa(c.cond), func(t *testing.T) {
			t.Parallel() // each corruption in a copy of its own
			path := filepath.Join(t.TempDir(), "c.db")
			copyFile(t, built, path)
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			// the build's row counts go, so that a run's guard against a changed database lets check look at rows
			// deleted on purpose
			for _, s := range append([]string{"DELETE FROM dbdyno_tpcc_meta WHERE k LIKE 'rows:%'"}, c.stmts...) {
				if _, err := db.Exec(s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			db.Close()
			if f := failedConditions(t, "sqlite://"+path); !slices.Equal(f, []int{c.cond}) {
				t.Fatalf("the corruption of condition %d makes conditions %v fail", c.cond, f)
			}
		})
	}
}

package tpcc_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// TestCustomMix: --mix runs the transactions in the weights given, marks the result "custom mix", and compare
// refuses it beside a standard run unless allowed; a bad weight is one line.
func TestCustomMix(t *testing.T) {
	t.Parallel() // on a SQLite file of its own: beside the tests that wait on servers
	dir := t.TempDir()
	url := "sqlite://" + builtSQLite(t)
	st := filepath.Join(dir, "results.db")
	// counts, not times: 200 transactions hold payments and new orders however slow the machine
	run := func(file string, extra ...string) {
		clitest.Must(t, append([]string{"tpcc", "run", "--target", url, "--vus", "1", "--rampup", "0s", "--transactions", "200",
			"--store", st, "--result", filepath.Join(dir, file)}, extra...)...)
	}
	run("std.json")
	run("custom.json", "--mix", "new_order=1,payment=3")
	std, _ := clitest.ReadResult(t, filepath.Join(dir, "std.json"))
	custom, _ := clitest.ReadResult(t, filepath.Join(dir, "custom.json"))
	tx := custom.Measurement.Transactions
	if tx["order_status"].Count != 0 || tx["delivery"].Count != 0 || tx["stock_level"].Count != 0 || tx["payment"].Count == 0 || tx["new_order"].Count == 0 {
		t.Fatalf("a custom mix of payment and new_order ran %+v", tx)
	}
	// the deck holds 3 payments to 1 new order exactly every 4 transactions (the measured window cuts decks; rolled-back new orders count)
	if p, o := tx["payment"].Count+tx["payment"].Rollbacks, tx["new_order"].Count+tx["new_order"].Rollbacks; p < 3*o-4 || p > 3*o+4 {
		t.Fatalf("payment %d, new_order %d: not 3 to 1", p, o)
	}
	if custom.Options["mix"] != "new_order=1,payment=3" || std.Options["mix"] != nil {
		t.Fatalf("mix options: custom %v, standard %v", custom.Options["mix"], std.Options["mix"])
	}
	ctx := context.Background()
	var out bytes.Buffer
	err := results.Compare(ctx, &out, st, []string{std.RunID, custom.RunID})
	if err == nil || !strings.Contains(err.Error(), "custom mix") {
		t.Fatalf("compare of a custom mix beside the standard: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := results.CompareWith(ctx, &out, st, []string{std.RunID, custom.RunID}, results.CompareOptions{AllowDifferentWork: true}); err != nil {
		t.Fatalf("compare allowed to set different work side by side: %v", err)
	}
	for mix, want := range map[string]string{"payment=-1": "0 or more", "refund=1": "names no transaction", "payment=1": "gives new_order no weight"} {
		r := clitest.Run(ctx, "tpcc", "run", "--target", url, "--mix", mix, "--duration", "1s", "--store", "")
		if r.Code == 0 || !strings.Contains(r.Stderr, want) {
			t.Fatalf("--mix %s: exit %d, %q", mix, r.Code, r.Stderr)
		}
	}
}

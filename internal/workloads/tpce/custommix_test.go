package tpce_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/workloads/tpce"
)

// TestCustomMix: --mix weighs the customer emulator's transactions (the measured mix follows the weights; the
// market exchange emulator's Trade-Results follow the Trade-Orders), marks the result "custom mix", and compare
// refuses it beside a standard run unless allowed; the standard weights in proportion are not custom; a bad
// weight, or a weight on what the market exchange emulator starts, is one line.
func TestCustomMix(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "tpce.db")
	st := filepath.Join(dir, "results.db")
	tpce.TinyAt(t, url)
	run := func(file string, extra ...string) {
		clitest.Must(t, append([]string{"tpce", "run", "--target", url, "--vus", "1", "--rampup", "0s", "--duration", "3s",
			"--store", st, "--result", filepath.Join(dir, file), "--seed", "3"}, extra...)...)
	}
	run("std.json")
	run("custom.json", "--mix", "trade_order=1,broker_volume=1,trade_status=2")
	run("scaled.json", "--mix", "broker_volume=4.9,customer_position=13,market_watch=18,security_detail=14,trade_lookup=8,trade_order=10.1,trade_status=19,trade_update=2")
	std, _ := clitest.ReadResult(t, filepath.Join(dir, "std.json"))
	custom, _ := clitest.ReadResult(t, filepath.Join(dir, "custom.json"))
	scaled, _ := clitest.ReadResult(t, filepath.Join(dir, "scaled.json"))
	tx := custom.Measurement.Transactions
	n := func(name string) int64 { return tx[name].Count + tx[name].Rollbacks }
	for _, name := range []string{"customer_position", "market_watch", "security_detail", "trade_lookup", "trade_update"} {
		if n(name) != 0 {
			t.Errorf("%s ran %d times with no weight", name, n(name))
		}
	}
	// one user's deck holds 1 broker volume, 1 trade order and 2 trade statuses every 4 cards (the measured
	// window cuts a deck at each end)
	bv, to, ts := n("broker_volume"), n("trade_order"), n("trade_status")
	if bv < 10 || to < bv-4 || to > bv+4 || ts < 2*bv-4 || ts > 2*bv+4 {
		t.Errorf("broker_volume %d, trade_order %d, trade_status %d: not 1:1:2", bv, to, ts)
	}
	if n("trade_result") == 0 || n("trade_result") > to {
		t.Errorf("%d trade results for %d trade orders", n("trade_result"), to)
	}
	if custom.Options["mix"] != "broker_volume=1,trade_order=1,trade_status=2" || std.Options["mix"] != nil || scaled.Options["mix"] != nil {
		t.Fatalf("mix options: custom %v, standard %v, standard in proportion %v", custom.Options["mix"], std.Options["mix"], scaled.Options["mix"])
	}
	ctx := context.Background()
	var out bytes.Buffer
	if err := results.Compare(ctx, &out, st, []string{std.RunID, scaled.RunID}); err != nil {
		t.Fatalf("compare of the standard mix beside the standard weights in proportion: %v", err)
	}
	out.Reset()
	err := results.Compare(ctx, &out, st, []string{std.RunID, custom.RunID})
	if err == nil || !strings.Contains(err.Error(), "custom mix") {
		t.Fatalf("compare of a custom mix beside the standard: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := results.CompareWith(ctx, &out, st, []string{std.RunID, custom.RunID}, results.CompareOptions{AllowDifferentWork: true}); err != nil {
		t.Fatalf("compare allowed to set different work side by side: %v", err)
	}
	for mix, want := range map[string]string{
		"trade_order=-1":               "0 or more",
		"refund=1":                     "names no transaction",
		"trade_order=0,trade_status=0": "every weight is 0",
		"trade_status=1":               "gives trade_order no weight",
		"trade_order=1,trade_result=1": "trade_result is not the customer emulator's to weigh",
		"trade_order=1, market_feed=1": "market_feed is not the customer emulator's to weigh",
		"trade_order=1,trade_status=x": "not a number",
	} {
		r := clitest.Run(ctx, "tpce", "run", "--target", url, "--mix", mix, "--duration", "1s", "--store", "")
		if r.Code == 0 || !strings.Contains(r.Stderr, want) || strings.Count(strings.TrimSpace(r.Stderr), "\n") > 0 {
			t.Errorf("--mix %s: exit %d, want one line saying %q: %q", mix, r.Code, want, r.Stderr)
		}
	}
}

// The standard weights, in any proportion, are not a custom mix; the deck of a custom mix holds its weights.
func TestParseMix(t *testing.T) {
	for _, s := range []string{"", "broker_volume=49,customer_position=130,market_watch=180,security_detail=140,trade_lookup=80,trade_order=101,trade_status=190,trade_update=20"} {
		if m, err := tpce.ParseMix(s); err != nil || m.Custom {
			t.Errorf("--mix %q: custom %v, %v", s, m.Custom, err)
		}
	}
	m, err := tpce.ParseMix("trade_order=3,market_watch=1")
	if err != nil || !m.Custom || m.Text != "market_watch=1,trade_order=3" {
		t.Fatalf("custom mix: %+v, %v", m, err)
	}
	if c := m.Cards(); c[tpce.TO] != 3 || c[tpce.MW] != 1 || c[tpce.BV] != 0 {
		t.Fatalf("cards %v", c)
	}
}

package tpce_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
	"github.com/dbdyno/dbdyno/internal/workloads/tpce"
)

// Two shards of one run (--shard 1/2 and 2/2, the same --start-at) on one PostgreSQL database of 2,000
// customers: each shard's Trade-Orders are its own load unit's customers' and carry trade ids of its own
// residue (so none collides), both shards trade, and `results merge` makes one result whose tpsE is the sum of
// theirs and whose Trade-Results are the sum of theirs.
func TestShardsMerge(t *testing.T) {
	t.Parallel()
	pg := testsrv.Beside(t, testsrv.URL(t, testsrv.PostgresEnv), "dbdyno_tpce_shards")
	clitest.Must(t, "tpce", "build", "--target", pg, "--customers", "2000", "--trade-days", "1", "--drop")
	db := raw(t, pg)
	first := tpce.Size{Customers: 2000, TradeDays: 1}.FirstRuntimeTradeID()
	dir := t.TempDir()
	at := time.Now().Add(20 * time.Second).UTC().Format(time.RFC3339Nano)
	files := []string{filepath.Join(dir, "s1.json"), filepath.Join(dir, "s2.json")}
	var wg sync.WaitGroup
	outs := make([]clitest.Result, 2)
	for i := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = clitest.Run(context.Background(), "tpce", "run", "--target", pg, "--mode", "sql", "--vus", "2", "--rampup", "1s",
				"--duration", "10s", "--start-at", at, "--store", "", "--seed", fmt.Sprint(i+1), "--wait-interval", "0",
				"--shard", fmt.Sprintf("%d/2", i+1), "--result", files[i])
		}()
	}
	wg.Wait()
	var sumTPSE float64
	var sumTR int64
	for i, o := range outs {
		if o.Code != 0 {
			t.Fatalf("shard %d/2: exit %d\n%s\n%s", i+1, o.Code, o.Stdout, o.Stderr)
		}
		r, _ := clitest.ReadResult(t, files[i])
		if r.Options["shard"] != fmt.Sprintf("%d/2", i+1) || r.Options["shard_share"] == nil {
			t.Fatalf("shard %d records shard %v, share %v", i+1, r.Options["shard"], r.Options["shard_share"])
		}
		h, ok := r.Headline()
		if !ok || h.Name != "tpsE" {
			t.Fatalf("shard %d: headline %+v", i+1, h)
		}
		sumTPSE += h.Value
		sumTR += r.Measurement.Transactions["trade_result"].Count
	}
	// every runtime trade: its account's customer's load unit is the shard that ordered it, and its id that
	// shard's residue modulo 2
	rows, err := db.Query(fmt.Sprintf("SELECT t_id, t_ca_id FROM trade WHERE t_id >= %d", first))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	per := [2]int{}
	for rows.Next() {
		var id, ca int64
		if err := rows.Scan(&id, &ca); err != nil {
			t.Fatal(err)
		}
		unit := ((ca-1)/tpce.MaxAccounts + 1 - 1) / tpce.LoadUnit
		if unit < 0 || unit > 1 || id%2 != unit {
			t.Fatalf("trade %d of account %d (load unit %d): not shard %d's id (ids of shard I are I-1 modulo 2)", id, ca, unit, unit+1)
		}
		per[unit]++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if per[0] == 0 || per[1] == 0 {
		t.Fatalf("runtime trades per shard %v: each shard must trade", per)
	}
	// dbdyno results merge
	var out strings.Builder
	m, err := results.Merge(context.Background(), &out, filepath.Join(dir, "merged.db"), files, nil, "test")
	if err != nil {
		t.Fatalf("merge: %v\n%s", err, out.String())
	}
	h, ok := m.Headline()
	if m.Status != result.StatusOK || !ok || h.Name != "tpsE" || math.Abs(h.Value-sumTPSE) > 0.011 {
		t.Fatalf("merged: status %s (%s), headline %+v, want tpsE %.2f (the shards' sum)", m.Status, m.Error, h, sumTPSE)
	}
	if n := m.Measurement.Transactions["trade_result"].Count; n != sumTR || n == 0 {
		t.Fatalf("merged: %d Trade-Results, the shards %d", n, sumTR)
	}
}

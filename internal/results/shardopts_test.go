package results_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// --shard on each workload: a share it cannot split, or a setting one shard cannot honour, is refused in one
// line naming the fix.
func TestShardRefusals(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite://" + filepath.Join(dir, "x.db")
	clitest.Must(t, "ping", "--target", db, "--store", "", "--duration", "1s", "--rampup", "0s") // the file exists
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"webstore", "run", "--shard", "1/2"}, "give every shard --no-reset"},
		{[]string{"webstore", "run", "--shard", "3/2", "--no-reset"}, "give I/N with 1 <= I <= N"},
		{[]string{"probe", "mixed", "--vus", "2", "--shard", "1/3"}, "3 shards of 2 virtual users"},
		{[]string{"tpch", "run", "--power", "--shard", "1/2"}, "the power test and the refresh stream are one per run"},
		{[]string{"tpcc", "run", "--shard", "1/0"}, "give I/N"},
	} {
		r := clitest.Run(context.Background(), append(c.args, "--target", db, "--store", "")...)
		if r.Code == 0 || strings.Count(r.Stderr, "\n") != 1 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%s: exit %d, %q (want one line saying %q)", strings.Join(c.args, " "), r.Code, r.Stderr, c.want)
		}
	}
}

// The merge checks the shards' recorded shares whatever their unit: shares that overlap are refused, shares of
// other totals or units too.
func TestMergeChecksShares(t *testing.T) {
	shard := func(id, i string, from, to, of int, unit string) *result.Result {
		return &result.Result{RunID: id, Workload: "webstore", Status: result.StatusFailed, StartedAt: time.Now(),
			Options: map[string]any{"shard": i, "shard_share": map[string]any{"unit": unit, "from": float64(from), "to": float64(to), "of": float64(of)}}}
	}
	for want, rs := range map[string][]*result.Result{
		"both took customers 3..4":    {shard("a", "1/2", 0, 4, 8, "customers"), shard("b", "2/2", 2, 8, 8, "customers")},
		"took a share of 9 customers": {shard("a", "1/2", 0, 4, 8, "customers"), shard("b", "2/2", 4, 9, 9, "customers")},
		"took a share of 8 streams":   {shard("a", "1/2", 0, 4, 8, "customers"), shard("b", "2/2", 4, 8, 8, "streams")},
	} {
		if _, err := results.MergeResults(rs, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("merge: %v, want %q", err, want)
		}
	}
	// shares that leave a gap (the shards of 1/2 and 2/2 of different totals read alike) leave it incomplete
	if _, err := results.MergeResults([]*result.Result{shard("a", "1/2", 0, 3, 8, "customers"), shard("b", "2/2", 4, 8, 8, "customers")}, nil); err == nil ||
		!strings.Contains(err.Error(), "customers 4..4 were driven by no shard") {
		t.Errorf("a gap: %v", err)
	}
}

package tpch_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// tpch run --shard I/N runs the I-th of N ranges of the throughput test's streams, each stream keeping its
// number (and so its seed), and records its share; more shards than streams are refused.
func TestTPCHShardRunsItsStreams(t *testing.T) {
	url := builtCopy(t, "duckdb")
	file := filepath.Join(t.TempDir(), "s.json")
	clitest.Must(t, "tpch", "run", "--target", url, "--throughput", "--streams", "5", "--shard", "2/2", "--queries", "6", "--seed", "9", "--result", file, "--store", "")
	res, _ := clitest.ReadResult(t, file)
	sh, _ := res.Options["shard_share"].(map[string]any)
	if res.Options["shard"] != "2/2" || sh["unit"] != "streams" || sh["from"] != 2.0 || sh["to"] != 5.0 || sh["of"] != 5.0 {
		t.Fatalf("recorded shard %v, share %v", res.Options["shard"], res.Options["shard_share"])
	}
	var streams []int
	for _, tt := range res.Analytic.Tests {
		if tt.Kind == "throughput" {
			for _, s := range tt.QueryStreams {
				streams = append(streams, s.Stream)
			}
		}
	}
	if len(streams) != 3 || streams[0] != 3 || streams[2] != 5 {
		t.Fatalf("shard 2/2 of 5 streams ran streams %v, want 3, 4, 5", streams)
	}
	if r := clitest.Run(t.Context(), "tpch", "run", "--target", url, "--throughput", "--streams", "2", "--shard", "1/3", "--queries", "6", "--store", ""); r.Code == 0 ||
		r.Stderr == "" || !strings.Contains(r.Stderr, "3 shards of 2 streams") {
		t.Fatalf("3 shards of 2 streams: exit %d, %q", r.Code, r.Stderr)
	}
}

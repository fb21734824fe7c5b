package tpcc

import (
	"testing"

	"github.com/dbdyno/dbdyno/internal/workload"
)

// The shards' home warehouses cover every warehouse once, in ranges that differ by at most one warehouse.
func TestShardHomes(t *testing.T) {
	for _, w := range []int{1, 2, 7, 10, 100} {
		for n := 1; n <= w && n <= 16; n++ {
			seen := make([]int, w+2)
			for i := 1; i <= n; i++ {
				lo, hi := RunOptions{Warehouses: w, Shard: workload.Shard{I: i, N: n}}.homes()
				if hi-lo < w/n || hi-lo > w/n+1 {
					t.Fatalf("W=%d shard %d/%d: %d warehouses", w, i, n, hi-lo)
				}
				for h := lo; h < hi; h++ {
					seen[h]++
				}
			}
			for h := 1; h <= w; h++ {
				if seen[h] != 1 {
					t.Fatalf("W=%d N=%d: warehouse %d is home to %d shards", w, n, h, seen[h])
				}
			}
		}
	}
	if lo, hi := (RunOptions{Warehouses: 5}).homes(); lo != 1 || hi != 6 {
		t.Fatalf("without --shard: homes %d..%d", lo, hi)
	}
}

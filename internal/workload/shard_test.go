package workload

import "testing"

// The N shards' ranges split 0..n once, in order, each at least one thing when N <= n.
func TestShardRangesCoverOnce(t *testing.T) {
	for _, n := range []int{1, 3, 7, 16, 100} {
		for N := 1; N <= n && N <= 17; N++ {
			next := 0
			for i := 1; i <= N; i++ {
				s := Shard{i, N}
				if err := s.Check(n, "things"); err != nil {
					t.Fatal(err)
				}
				lo, hi := s.Range(n)
				if lo != next || hi <= lo {
					t.Fatalf("shard %d/%d of %d: [%d, %d), want it to start at %d and hold one", i, N, n, lo, hi, next)
				}
				next = hi
			}
			if next != n {
				t.Fatalf("%d shards of %d cover %d", N, n, next)
			}
		}
	}
	if err := (Shard{1, 4}).Check(3, "streams"); err == nil {
		t.Fatal("4 shards of 3 streams were not refused")
	}
	for _, bad := range []string{"0/2", "3/2", "1", "a/b", "1/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("--shard %s was taken", bad)
		}
	}
}

package workload

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

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
		if _, err := ParseShard("--shard", bad); err == nil {
			t.Errorf("--shard %s was taken", bad)
		}
	}
}

// --shard is declared once (Sharding) and parsed once, when the flags are read: the options hold a Shard, a
// bad one is refused then in one line, the embedding command words its help, and a copy written back keeps it.
func TestShardOption(t *testing.T) {
	type opts struct {
		Sharding `shard.help:"the I-th of N ranges of the rows"`
		Rows     int `flag:"rows" default:"10" help:"rows"`
	}
	flags := FlagsOf(&opts{})
	if flags[0].Name != "shard" || flags[0].Kind != Sharded || flags[0].Help != "the I-th of N ranges of the rows" {
		t.Fatalf("the shard flag: %+v", flags[0])
	}
	read := func(args ...string) (*Values, error) {
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		r := Define(fs, flags)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return r()
	}
	v, err := read("--shard", "2/4")
	if err != nil {
		t.Fatal(err)
	}
	var o opts
	if err := v.Decode(&o); err != nil || o.Shard != (Shard{2, 4}) || o.Sharded() != (Shard{2, 4}) || o.Shard.String() != "2/4" {
		t.Fatalf("--shard 2/4 decoded as %+v (%v)", o.Shard, err)
	}
	if c := v.With(&o); c.get("shard") != (Shard{2, 4}) {
		t.Fatalf("written back as %v", c.get("shard"))
	}
	if v, err := read(); err != nil || v.get("shard") != (Shard{}) {
		t.Fatalf("no --shard: %v %v", v, err)
	}
	if _, err := read("--shard", "3/2"); err == nil || !strings.Contains(err.Error(), `--shard "3/2": give I/N`) {
		t.Fatalf("--shard 3/2: %v", err)
	}
}

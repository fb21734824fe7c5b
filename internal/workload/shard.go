package workload

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is a run's --shard I/N: shard I of N of one run driven by N processes (the zero Shard: the whole run).
// Each workload splits its work into N even ranges of some unit (warehouses, customers, streams, threads,
// jobs) and drives the I-th; the result records the share as plain data (Record), and dbdyno results merge
// checks the shards' shares cover the work once, whatever the unit.
type Shard struct{ I, N int }

// ShardHelp is the --shard flag's help, the unit said by each workload.
const ShardHelp = "drive shard I of N (I/N, e.g. 2/4) of a run driven by N processes: the I-th of N even ranges of "

// ParseShard reads --shard I/N ("" is the whole run).
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	i, n, ok := strings.Cut(s, "/")
	si, err1 := strconv.Atoi(i)
	sn, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || sn < 1 || si < 1 || si > sn {
		return Shard{}, fmt.Errorf("--shard %q: give I/N with 1 <= I <= N, e.g. --shard 2/4", s)
	}
	return Shard{si, sn}, nil
}

// On says the run is a shard.
func (s Shard) On() bool { return s.N > 0 }

// Range is the shard's share [lo, hi) of n things numbered from 0: the I-th of N even ranges (all of them for
// the whole run).
func (s Shard) Range(n int) (lo, hi int) {
	if !s.On() {
		return 0, n
	}
	return (s.I - 1) * n / s.N, s.I * n / s.N
}

// Check refuses more shards than there are things to split (some shard would have none), in one line.
func (s Shard) Check(n int, unit string) error {
	if s.On() && s.N > n {
		return fmt.Errorf("--shard %d/%d: %d shards of %d %s leave some without any: use at most %d shards", s.I, s.N, s.N, n, unit, n)
	}
	return nil
}

// Record writes the shard into a run's options: "shard" (I/N), "shard_range" (its share in words, numbered
// from first) and "shard_share" (the plain data the merge checks: unit, from, to as [from, to) of "of"
// things numbered from 0). Nothing for the whole run.
func (s Shard) Record(opts map[string]any, unit string, n, first int) {
	if !s.On() || opts == nil {
		return
	}
	lo, hi := s.Range(n)
	opts["shard"] = fmt.Sprintf("%d/%d", s.I, s.N)
	opts["shard_range"] = fmt.Sprintf("%s %d..%d", unit, lo+first, hi-1+first)
	opts["shard_share"] = map[string]any{"unit": unit, "from": lo, "to": hi, "of": n}
}

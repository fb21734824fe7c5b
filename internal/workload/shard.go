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

// Sharding is the --shard option, declared once: a measured command that can drive a share of one run embeds
// it, saying what it splits in its embedding field's tag (`shard.help:"..."`). The option is parsed once, when
// the flags or the plan are read, into a Shard (an option of Go type Shard is of kind Sharded).
type Sharding struct {
	Shard Shard `flag:"shard" help:"drive shard I of N (I/N, e.g. 2/4) of a run driven by N processes; merge the shards' results with dbdyno results merge"`
}

// Sharded is the shard the options hold: the runner gives a shard its share of an open-loop rate through it.
func (s Sharding) Sharded() Shard { return s.Shard }

// ParseShard reads --shard I/N ("" is the whole run); flag names the option in the refusal.
func ParseShard(flag, s string) (Shard, error) {
	if strings.TrimSpace(s) == "" {
		return Shard{}, nil
	}
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	si, err1 := strconv.Atoi(i)
	sn, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || sn < 1 || si < 1 || si > sn {
		return Shard{}, fmt.Errorf("%s %q: give I/N with 1 <= I <= N, e.g. %s 2/4", flag, s, flag)
	}
	return Shard{si, sn}, nil
}

// String is the shard as it is typed (I/N), "" for the whole run.
func (s Shard) String() string {
	if !s.On() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
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
	opts["shard"] = s.String()
	opts["shard_range"] = fmt.Sprintf("%s %d..%d", unit, lo+first, hi-1+first)
	opts["shard_share"] = map[string]any{"unit": unit, "from": lo, "to": hi, "of": n}
}

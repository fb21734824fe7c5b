package ioprobe

import (
	"fmt"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// shardTests splits the tests for --shard I/N: every job's clones (numjobs) into N even ranges, this shard
// running the I-th; clones that each have their own file (--directory) then share nothing with another
// shard's, and the clones of a job on one file (--filename, --device) get the I-th of N even regions of it,
// so no two shards touch the same block. Refused, in one line: jobs of different numjobs (the shards' share
// would differ test by test), several passes or a CrystalDiskMark preset (each shard would keep its own best
// pass, which the merge cannot add), and a warm-up over a shared file (it writes the whole file). It returns
// the clones of each job.
func shardTests(tests []Test, sh workload.Shard, o *RunFlags) (int, error) {
	if !sh.On() {
		return 0, nil
	}
	if o.Preset != "" && cdmOf(o) != nil {
		return 0, fmt.Errorf("--shard with --preset %s: a CrystalDiskMark preset keeps each test's best pass, and the shards' best passes are not one window to merge; run the tests without the preset (--matrix)", o.Preset)
	}
	n := tests[0].Jobs[0].NumJobs
	for _, t := range tests {
		if t.Passes > 1 {
			return 0, fmt.Errorf("--shard with %d passes: each shard would keep its own best pass, and those are not one window to merge; give --passes 1", t.Passes)
		}
		for _, j := range t.Jobs {
			if j.NumJobs != n {
				return 0, fmt.Errorf("--shard splits each job's clones (numjobs), and job %s has %d, another %d: give every job the same numjobs", j.Name, j.NumJobs, n)
			}
		}
	}
	if err := sh.Check(n, "job clones (numjobs)"); err != nil {
		return 0, err
	}
	lo, hi := sh.Range(n)
	for i := range tests {
		for k := range tests[i].Jobs {
			j := &tests[i].Jobs[k]
			j.CloneLo, j.CloneHi = lo, hi
			if j.Filename == "" {
				continue // a file per clone: the shard's clones' own
			}
			if o.WarmupWrite > 0 || o.WarmupRead > 0 {
				return 0, fmt.Errorf("--shard with a warm-up on the shared file %s: the warm-up goes over the whole file, into the other shards' regions; warm it up in an unsharded run first, or use --directory", j.path(0))
			}
			align := int64(max(j.maxBS(), 4096))
			per := j.Size / int64(sh.N) / align * align
			if per < int64(j.maxBS()) {
				return 0, fmt.Errorf("--shard %d/%d: --size %s split over %d shards leaves less than a block (%s) each: give a larger --size", sh.I, sh.N, result.FormatSize(j.Size), sh.N, result.FormatSize(int64(j.maxBS())))
			}
			j.Offset = int64(sh.I-1) * per
			if sh.I == sh.N {
				j.Size = (j.Size - j.Offset) / align * align // the last region takes what is left, in whole blocks
			} else {
				j.Size = per
			}
		}
	}
	return n, nil
}

// refuseSharedLayout refuses, for a shard, to lay out a file its clones share with other shards': shards that
// lay one file out at once would write over each other.
func refuseSharedLayout(tests []Test, files []*File) error {
	shared := map[string]bool{}
	for _, t := range tests {
		for _, j := range t.Jobs {
			if j.CloneHi > 0 && j.Filename != "" {
				shared[j.path(0)] = true
			}
		}
	}
	for _, f := range files {
		if f.LayOut && shared[f.Path] {
			return fmt.Errorf("--shard on %s, which is to be laid out: the shards share it and would lay it out at once; lay it out first with one unsharded run (dbdyno io run --filename %s --size %s --runtime 1s), or use --directory", f.Path, f.Path, result.FormatSize(f.Size))
		}
	}
	return nil
}

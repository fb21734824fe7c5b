package probe

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
	"github.com/shirou/gopsutil/v4/disk"
	"github.com/shirou/gopsutil/v4/mem"
)

// cachedKnee is the share of a working set's second read that must come from the cache for the set to count
// as kept cached.
const cachedKnee = 90

// MemoryFlags are `probe memory`'s options.
type MemoryFlags struct {
	StepSize string `flag:"step-size" default:"256m" help:"bytes of each table the working set grows by (it doubles: 1, 2, 4 ... tables)"`
	Max      string `flag:"max" help:"the largest working set, a maximum (default: one that fits this machine: 2x the memory available for an embedded engine, at most what 80% of its disk's free space holds; 4x the engine's cache for a server)"`
	Build
}

type memoryProbe struct{}

func (memoryProbe) Prepare(o *MemoryFlags, _ *workload.Values) error {
	size, err := units.ParseSize(o.StepSize)
	if err != nil {
		return fmt.Errorf("--step-size: %v", err)
	}
	if size < RowBytes {
		return fmt.Errorf("--step-size %s holds no row: give at least %d bytes", o.StepSize, RowBytes)
	}
	if m := o.Max; m != "" {
		max, err := units.ParseSize(m)
		if err != nil {
			return fmt.Errorf("--max: %v", err)
		}
		if max < size {
			return fmt.Errorf("--max %s is less than one --step-size %s: give a larger --max", m, o.StepSize)
		}
	}
	return o.Build.check()
}

func (memoryProbe) Warmup(*MemoryFlags) (bool, string) { return false, "" }

// memoryMax is the largest working set: --max, else one that fits this machine: for an embedded engine (the
// operating system's page cache is its cache) 2x the memory available now, for a server 4x the engine's own
// cache; and for an embedded engine no more than 80% of its disk's free space holds (the build's own check).
func memoryMax(ctx context.Context, sp workload.Spec, o *MemoryFlags) (int64, string, error) {
	if m := o.Max; m != "" {
		n, err := units.ParseSize(m)
		return n, "--max", err
	}
	t := sp.Target
	if t.Engine.Embedded {
		vm, err := mem.VirtualMemoryWithContext(ctx)
		if err != nil {
			return 0, "", fmt.Errorf("reading this machine's memory for the default --max: %v: give --max", err)
		}
		max, why := 2*int64(vm.Available), fmt.Sprintf("2x the %s of memory available", mb(int64(vm.Available)))
		if f := t.Engine.StorageFactor; f > 0 {
			if u, err := disk.UsageWithContext(ctx, filepath.Dir(t.Path)); err == nil {
				if fit := int64(float64(u.Free) * 0.8 / f); fit < max {
					max, why = fit, fmt.Sprintf("what 80%% of the %s free on %s holds", mb(int64(u.Free)), filepath.Dir(t.Path))
				}
			}
		}
		return max, why, nil
	}
	db, err := t.Open(ctx)
	if err != nil {
		return 0, "", err
	}
	defer db.Close()
	c, ok := t.Engine.CacheBytes(ctx, db)
	if !ok {
		return 0, "", fmt.Errorf("%s does not say how large its cache is: give --max", t)
	}
	return 4 * c, fmt.Sprintf("4x the engine's cache of %s", mb(c)), nil
}

// workingSets are the tables each working set reads: 1, 2, 4 ... and, when max is not such a multiple of a
// table, the most tables max holds; none beyond max (it is a maximum).
func workingSets(max, tableBytes int64) []int {
	n := int(max / tableBytes)
	var sets []int
	for k := 1; k <= n; k *= 2 {
		sets = append(sets, k)
	}
	if len(sets) > 0 && sets[len(sets)-1] < n {
		sets = append(sets, n)
	}
	return sets
}

func (memoryProbe) Start(ctx context.Context, sp workload.Spec, o *MemoryFlags) (workload.Run, error) {
	size, _ := units.ParseSize(o.StepSize)
	rows := size / RowBytes
	max, why, err := memoryMax(ctx, sp, o)
	if err != nil {
		return nil, err
	}
	sets := workingSets(max, rows*RowBytes)
	if len(sets) == 0 {
		return nil, fmt.Errorf("the largest working set, %s (%s), is less than one --step-size %s: give a smaller --step-size", mb(max), why, o.StepSize)
	}
	tables := sets[len(sets)-1]
	fmt.Fprintf(sp.Out, "memory probe: working sets up to %s (%s), in tables of %s\n", mb(int64(tables)*rows*RowBytes), why, mb(rows*RowBytes))
	db, err := ensure(ctx, memorySet, sp.Target, built{"rows_per_table": fmt.Sprint(rows)}, tables, o.Rebuild, o.LoadThreads,
		int64(tables)*rows*RowBytes, func(c adder) []bulk.Work {
			var w []bulk.Work
			for i := 1; i <= tables; i++ {
				w = append(w, rowWork(memorySet.PartName(i), 1, rows, 250_000, c)...)
			}
			return w
		}, sp.Out)
	if err != nil {
		return nil, err
	}
	db.Close()
	s := &stepper{kind: "memory", rate: "MB/min", spec: sp,
		options: map[string]any{"probe": "memory", "step_mib": round(float64(rows*RowBytes)/mib, 1), "max_mib": round(float64(max)/mib, 1), "max_from": why,
			"rows_per_table": rows, "row_bytes": RowBytes}}
	if err := s.open(ctx, memorySet); err != nil {
		s.Close()
		return nil, err
	}
	s.steps = func(ctx context.Context, s *stepper) error { return memorySteps(ctx, s, sets, rows) }
	return s, nil
}

// memorySteps reads each working set twice: the first pass brings it in, the second shows what stayed.
func memorySteps(ctx context.Context, s *stepper, sets []int, rows int64) error {
	names := s.data.PartNames()
	for _, k := range sets {
		bytes := int64(k) * rows * RowBytes
		for pass := 1; pass <= 2; pass++ {
			st, err := s.step(ctx, fmt.Sprintf("%s pass %d", mb(bytes), pass), float64(bytes)/mib, int64(k)*rows, bytes, func(ctx context.Context) error {
				for _, name := range names[:k] {
					if _, err := s.count(ctx, s.table("scan", name)); err != nil {
						return fmt.Errorf("scanning %s: %w", name, err)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			st.Pass = pass
			cached(&st)
			s.probe.Steps = append(s.probe.Steps, st)
			c := "?"
			if st.Cached != nil {
				c = fmt.Sprintf("%.0f%%", *st.Cached)
			}
			fmt.Fprintf(s.spec.Out, "working set %s pass %d: %.2fs = %.0f MB/min, %s cached\n", mb(bytes), pass, st.Seconds, st.Rate, c)
		}
	}
	return nil
}

// memoryEstimate reads the knee off the second passes: the largest working set still read at least 90% from
// the cache, and the next one, which was not. The estimate is the larger of that set and the bytes the next
// one's second pass still found cached.
func memoryEstimate(p *result.Probe) map[string]any {
	var below, above *result.ProbeStep
	for i := range p.Steps {
		st := &p.Steps[i]
		if st.Pass != 2 || st.Cached == nil {
			continue
		}
		if *st.Cached >= cachedKnee {
			below = st
			continue
		}
		above = st
		break
	}
	out := map[string]any{}
	switch {
	case below == nil && above == nil:
		return out // no counters: no estimate
	case above == nil:
		out["cache_mib"] = below.X
		out["cache_note"] = fmt.Sprintf("at least %s: every working set stayed cached", mibs(below.X))
		out["cache_bound"] = "at least"
	case below == nil:
		// Even the smallest set fell out: the cache holds less than it, a bound (an estimate of the part that
		// stayed would read as 0 MiB when none did, a figure that claims no work was done).
		out["cache_mib"] = above.X
		out["cache_note"] = fmt.Sprintf("less than %s, the smallest working set (%.0f%% cached on its second read)", mibs(above.X), *above.Cached)
		out["cache_bound"] = "less than"
	default:
		est := max(below.X, round(above.X**above.Cached/100, 1))
		out["cache_mib"] = est
		out["cache_note"] = fmt.Sprintf("between %s (%.0f%% cached on the second read) and %s (%.0f%%)", mibs(below.X), *below.Cached, mibs(above.X), *above.Cached)
		out["knee_low_mib"], out["knee_high_mib"] = below.X, above.X
	}
	return out
}

package probe

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/workload"
)

var cpuTable = cpuSet.PartName(1)

// CPUFlags are `probe cpu`'s options.
type CPUFlags struct {
	Rows      int           `flag:"rows" default:"280000" help:"rows of the cpu table (28 bytes each: about 7.5 MiB at the default)"`
	Steps     string        `flag:"steps" default:"1000.." help:"the join's N: a list 1000,2000,4000, or FROM.. doubling from FROM until a query passes --limit or N reaches --rows"`
	Limit     time.Duration `flag:"limit" default:"2m" help:"the last step is the first to run longer than this (it is stopped at the limit)"`
	Reference string        `flag:"reference" help:"a cpu probe run (store id or result file) whose step times this run is a multiple of"`
	Build
}

// cpuSteps reads --steps: a list of N, or FROM.. (doubling from FROM); the list is cut at the table's rows.
func cpuSteps(o *CPUFlags) (steps []int64, doubling bool, err error) {
	rows := int64(o.Rows)
	if rows < 2 || rows > 1<<31-1 {
		return nil, false, fmt.Errorf("--rows must be 2 to 2,147,483,647 (got %d)", rows)
	}
	s := strings.TrimSpace(o.Steps)
	bad := fmt.Errorf("--steps %q is not a list of row counts (1000,2000,4000) or FROM.. (1000..: doubling)", s)
	if from, ok := strings.CutSuffix(s, ".."); ok {
		n, err := strconv.ParseInt(from, 10, 64)
		if err != nil || n < 1 {
			return nil, false, bad
		}
		for ; n < rows; n *= 2 {
			steps = append(steps, n)
		}
		return append(steps, rows), true, nil
	}
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || n < 1 {
			return nil, false, bad
		}
		if n > rows {
			return nil, false, fmt.Errorf("--steps %d is more than the table's --rows %d", n, rows)
		}
		steps = append(steps, n)
	}
	return steps, false, nil
}

// minLimit is the shortest --limit: a step shorter than it measures the client's round trip more than the CPU.
const minLimit = time.Second

type cpuProbe struct{}

func (cpuProbe) Prepare(o *CPUFlags, v *workload.Values) error {
	if _, _, err := cpuSteps(o); err != nil {
		return err
	}
	if l := o.Limit; l < minLimit {
		return fmt.Errorf("--limit %s is shorter than one step can be measured: give at least %s (the study's is 2m)", l, minLimit)
	}
	if ref := o.Reference; ref != "" {
		if _, err := reference(resultsStore(v), ref); err != nil {
			return err
		}
	}
	return o.Build.check()
}

func (cpuProbe) Warmup(*CPUFlags) (bool, string) { return false, "" }

// resultsStore is the method's --store, where a --reference run is looked up: one of the options every
// measured command shares (workload.Measuring), not one of the probe's own.
func resultsStore(v *workload.Values) string {
	m, _ := workload.Options[workload.Measuring](v)
	return m.Store
}

// reference reads a cpu probe run: a result file, or a run in the results store.
func reference(storePath, ref string) (*result.Result, error) {
	var r *result.Result
	if _, err := os.Stat(ref); err == nil {
		if r, err = result.Read(ref); err != nil {
			return nil, fmt.Errorf("--reference %s: %v", ref, err)
		}
	} else {
		if storePath == "" {
			return nil, fmt.Errorf("--reference %s is not a file and there is no results store to find it in: give a result file", ref)
		}
		st, err := store.Open(context.Background(), storePath)
		if err != nil {
			return nil, fmt.Errorf("--reference %s: %v", ref, err)
		}
		defer st.Close()
		runs, err := st.Get(context.Background(), ref)
		if err != nil {
			return nil, fmt.Errorf("--reference %s: %v", ref, err)
		}
		if len(runs) != 1 {
			return nil, fmt.Errorf("--reference %s names %d runs: give one run's id", ref, len(runs))
		}
		r = runs[0]
	}
	if r.Workload != "probe" || r.Probe == nil || r.Probe.Kind != "cpu" {
		kind := r.Workload
		if r.Probe != nil {
			kind += " " + r.Probe.Kind
		} else if p, ok := r.Options["probe"]; ok {
			kind += fmt.Sprint(" ", p)
		}
		return nil, fmt.Errorf("--reference %s is a %s run, not a cpu probe run: give a run of dbdyno probe cpu", ref, kind)
	}
	return r, nil
}

func (cpuProbe) Start(ctx context.Context, sp workload.Spec, o *CPUFlags) (workload.Run, error) {
	rows := int64(o.Rows)
	steps, doubling, _ := cpuSteps(o)
	db, err := ensure(ctx, cpuSet, sp.Target, built{"rows": fmt.Sprint(rows)}, 1, o.Rebuild, o.LoadThreads, rows*CPURowBytes,
		func(c adder) []bulk.Work { return cpuWork(rows, c) }, sp.Out)
	if err != nil {
		return nil, err
	}
	db.Close()
	s := &stepper{kind: "cpu", rate: "row pairs/s", spec: sp,
		options: map[string]any{"probe": "cpu", "rows": rows, "steps": o.Steps, "limit_s": o.Limit.Seconds()}}
	if err := s.open(ctx, cpuSet); err != nil {
		s.Close()
		return nil, err
	}
	// cached first: one read of the whole table
	if _, err := s.count(ctx, s.table("count", cpuTable)); err != nil {
		s.Close()
		return nil, err
	}
	var ref *result.Result
	if r := o.Reference; r != "" {
		if ref, err = reference(resultsStore(sp.Values), r); err != nil {
			s.Close()
			return nil, err
		}
		s.options["reference"] = ref.RunID
	}
	s.steps = func(ctx context.Context, s *stepper) error {
		err := cpuRun(ctx, s, steps, doubling, o.Limit)
		if ref != nil {
			if m, ok := Multiple(s.probe, ref.Probe); ok {
				s.options["reference_multiple"] = m
				fmt.Fprintf(s.spec.Out, "%.2fx the reference (%s): the median of its step times over this run's, on the steps both completed\n", m, ref.RunID)
			}
		}
		return err
	}
	fmt.Fprintf(sp.Out, "dbdyno probe cpu on %s (%s): loop join of the first N of %d rows, steps %s, limit %s\n", s.version, sp.Target, rows, o.Steps, o.Limit)
	return s, nil
}

// cpuWork loads the cpu table's narrow rows: the probe rows' ints.
func cpuWork(rows int64, c adder) []bulk.Work {
	var out []bulk.Work
	for lo := int64(1); lo <= rows; lo += 100_000 {
		hi := min(lo+99_999, rows)
		out = append(out, bulk.Work{Name: fmt.Sprintf("%s rows %d-%d", cpuTable, lo, hi), Do: func(ctx context.Context, s bulk.Sink) error {
			_, err := bulk.Table(s, cpuTable, CPUColumns, func(w bulk.Row) error {
				for id := lo; id <= hi; id++ {
					r := MakeRow(id, 0)
					w.Int(id)
					w.Int(r.I1)
					w.Int(r.I2)
					w.Int(r.I3)
					w.Int(r.I4)
					w.Int(r.I5)
					if err := w.EndRow(); err != nil {
						return err
					}
					c.Add(1)
				}
				return nil
			})
			return err
		}})
	}
	return out
}

// cpuRun records the join's plan and runs the steps: each query's time, its row pairs per second, and stops at
// the first that passes the limit (stopped there and marked).
func cpuRun(ctx context.Context, s *stepper, steps []int64, doubling bool, limit time.Duration) error {
	join := s.table("cpu_join", cpuTable)
	if pre := explainPrefix(s.e); pre != "" {
		s.probe.Plan = plan(ctx, s.conn, strings.TrimSuffix(pre, ";")+" "+join.SQL, join.Args([]any{steps[0]}))
	}
	// the first step once, untimed: the session's caches and the engine's plan machinery (PostgreSQL loads its
	// JIT compiler on the first query that needs it) warm before anything is measured
	wctx, cancel := context.WithTimeout(ctx, limit)
	_, err := s.count(wctx, join, steps[0])
	cancel()
	if err != nil {
		if ctx.Err() == nil && wctx.Err() != nil {
			return fmt.Errorf("the first step (N %d) ran longer than --limit %s: raise --limit or start with a smaller --steps", steps[0], limit)
		}
		return fmt.Errorf("cpu join at N %d: %w", steps[0], err)
	}
	for i, n := range steps {
		var matches int64
		st, err := s.step(ctx, fmt.Sprintf("N %d", n), float64(n), n*n, 0, func(ctx context.Context) (err error) {
			qctx, cancel := context.WithTimeout(ctx, limit)
			defer cancel()
			matches, err = s.count(qctx, join, n)
			if err != nil && ctx.Err() == nil && qctx.Err() != nil {
				return errLimit
			}
			return err
		})
		if errors.Is(err, errLimit) {
			st.Exceeded, st.Seconds, st.Rate = true, limit.Seconds(), 0
			s.probe.Steps = append(s.probe.Steps, st)
			fmt.Fprintf(s.spec.Out, "step %d N %d: stopped at the limit %s\n", i+1, n, limit)
			if i == 0 {
				return fmt.Errorf("the first step (N %d) ran longer than --limit %s: raise --limit or start with a smaller --steps", n, limit)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("cpu join at N %d: %w", n, err)
		}
		st.Rate = 0
		if st.Seconds > 0 {
			st.Rate = round(float64(n*n)/st.Seconds, 0)
		}
		st.Counters = nil
		s.probe.Steps = append(s.probe.Steps, st)
		cpu := ""
		if st.CPUSeconds > 0 {
			cpu = fmt.Sprintf(", CPU %.2fs", st.CPUSeconds)
		}
		fmt.Fprintf(s.spec.Out, "step %d N %d: %.3fs, %.0f row pairs/s, %d matches%s\n", i+1, n, st.Seconds, st.Rate, matches, cpu)
	}
	if doubling {
		fmt.Fprintf(s.spec.Out, "every row of the table joined within the limit\n")
	}
	return nil
}

var errLimit = errors.New("the step ran past the limit")

// plan is the engine's plan of a query as text, one line per row.
func plan(ctx context.Context, conn *sql.Conn, q string, args []any) string {
	rows, err := conn.QueryContext(ctx, q, args...)
	if err != nil {
		return "(no plan: " + err.Error() + ")"
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if rows.Scan(ptrs...) != nil {
			continue
		}
		var parts []string
		for _, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			if v != nil {
				parts = append(parts, fmt.Sprint(v))
			}
		}
		lines = append(lines, strings.Join(parts, " "))
	}
	return strings.Join(lines, "\n")
}

// Multiple is how many times faster this run is than the reference: the median, over the steps both completed
// at the same N, of the reference's time over this run's.
func Multiple(p, ref *result.Probe) (float64, bool) {
	at := map[float64]float64{}
	for _, st := range ref.Steps {
		if !st.Exceeded && st.Seconds > 0 {
			at[st.X] = st.Seconds
		}
	}
	var ratios []float64
	for _, st := range p.Steps {
		if r, ok := at[st.X]; ok && !st.Exceeded && st.Seconds > 0 {
			ratios = append(ratios, r/st.Seconds)
		}
	}
	if len(ratios) == 0 {
		return 0, false
	}
	return round(median(ratios), 2), true
}

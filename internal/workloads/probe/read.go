package probe

import (
	"context"
	"fmt"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// cachedWarning is the share of a table's bytes above which a scan counts as served from cache.
const cachedWarning = 50

// ReadFlags are `probe read`'s options.
type ReadFlags struct {
	TableSize string `flag:"table-size" default:"1g" help:"bytes of rows per table (rows x 410 bytes): 64m, 1g"`
	Tables    int    `flag:"tables" default:"4" help:"tables to scan, one after the other"`
	Total     string `flag:"total" help:"or the bytes to scan in all (tables of --table-size)"`
	ColdStart
	Build
}

// readSize is the read probe's tables: how many, and rows each; total says whether --total was given.
func readSize(o *ReadFlags, total bool) (tables int, rows int64, err error) {
	size, err := units.ParseSize(o.TableSize)
	if err != nil {
		return 0, 0, fmt.Errorf("--table-size: %v", err)
	}
	rows = size / RowBytes
	if rows < 1 {
		return 0, 0, fmt.Errorf("--table-size %s holds no row: give at least %d bytes (one row)", o.TableSize, RowBytes)
	}
	tables = o.Tables
	if total {
		total, err := units.ParseSize(o.Total)
		if err != nil {
			return 0, 0, fmt.Errorf("--total: %v", err)
		}
		tables = int((total + size - 1) / size)
	}
	if tables < 1 || tables > 10000 {
		return 0, 0, fmt.Errorf("the read probe needs 1 to 10,000 tables (got %d): set --tables or --total", tables)
	}
	return tables, rows, nil
}

type readProbe struct{}

func (readProbe) Prepare(o *ReadFlags, v *workload.Values) error {
	if _, _, err := readSize(o, v.Given(o, &o.Total)); err != nil {
		return err
	}
	return o.Build.check()
}

func (readProbe) Warmup(*ReadFlags) (bool, string) { return false, "" }

func (readProbe) Start(ctx context.Context, sp workload.Spec, o *ReadFlags) (workload.Run, error) {
	tables, rows, _ := readSize(o, sp.Values.Given(o, &o.Total))
	want := built{"rows_per_table": fmt.Sprint(rows)}
	db, err := ensure(ctx, readSet, sp.Target, want, tables, o.Rebuild, o.LoadThreads, int64(tables)*rows*RowBytes,
		func(c adder) []bulk.Work {
			var w []bulk.Work
			for i := 1; i <= tables; i++ {
				w = append(w, rowWork(readSet.PartName(i), 1, rows, 250_000, c)...)
			}
			return w
		}, sp.Out)
	if err != nil {
		return nil, err
	}
	db.Close()
	if o.Cold || sp.Cold != nil {
		if err := cold(ctx, sp.Target, sp.Cold); err != nil {
			return nil, err
		}
	}
	s := &stepper{kind: "read", rate: "MB/min", spec: sp,
		options: map[string]any{"probe": "read", "tables": tables, "rows_per_table": rows, "table_mib": round(float64(rows*RowBytes)/mib, 1),
			"row_bytes": RowBytes, "cold": o.Cold, "cold_cmd": sp.Cold != nil}}
	if err := s.open(ctx, readSet); err != nil {
		s.Close()
		return nil, err
	}
	s.steps = readSteps(rows)
	fmt.Fprintf(sp.Out, "dbdyno probe read on %s (%s): %d table(s) of %s, each scanned once\n", s.version, sp.Target, tables, mb(rows*RowBytes))
	return s, nil
}

// readSteps scans each table once with the study's predicate and reports its MB/min and what the engine read.
func readSteps(rows int64) func(ctx context.Context, s *stepper) error {
	return func(ctx context.Context, s *stepper) error {
		names := s.data.PartNames()
		for i, name := range names {
			scan := s.table("scan", name)
			var got int64
			st, err := s.step(ctx, name, float64(i+1), rows, rows*RowBytes, func(ctx context.Context) (err error) {
				got, err = s.count(ctx, scan)
				return err
			})
			if err != nil {
				return fmt.Errorf("scanning %s: %w", name, err)
			}
			if got < 1 {
				return fmt.Errorf("scanning %s matched no row: the table is not the probe's: rebuild with --rebuild", name)
			}
			cached(&st)
			s.probe.Steps = append(s.probe.Steps, st)
			line := fmt.Sprintf("table %d/%d %s: %s in %.2fs = %.0f MB/min (%.1f MB/s)", i+1, len(names), name, mb(st.Bytes), st.Seconds, st.Rate, st.Rate/60)
			if st.Cached != nil {
				line += fmt.Sprintf(", %s from storage (%.0f%% cached)", mb(int64(st.Counters["read_bytes"])), *st.Cached)
				if *st.Cached > cachedWarning {
					w := fmt.Sprintf("%s: %.0f%% of its bytes did not come from storage (the engine read %s): the scan was served from cache "+
						"(or a columnar engine read only the predicate's columns); run cold with --cold-cmd (restart the server or drop its caches)", name, *st.Cached, mb(int64(st.Counters["read_bytes"])))
					s.probe.Warnings = append(s.probe.Warnings, w)
				}
			}
			fmt.Fprintln(s.spec.Out, line)
		}
		return nil
	}
}

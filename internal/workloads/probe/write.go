package probe

import (
	"context"
	"fmt"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// The write probe's two tables: the cached chunk that is copied, and the table written.
var (
	chunkTable  = writeSet.PartName(1)
	targetTable = writeSet.PartName(2)
)

// WriteFlags are `probe write`'s options.
type WriteFlags struct {
	Chunk   string `flag:"chunk" default:"100m" help:"bytes of rows per chunk"`
	Total   string `flag:"total" default:"1g" help:"bytes to write in all (whole chunks): the study wrote 1g, 2g, 5g, 10g"`
	Method  string `flag:"method" default:"sql" help:"sql (INSERT ... SELECT of the cached chunk, in the server) or bulk (rows sent by the client through the engine's bulk path: COPY, LOAD DATA, appender, bulk copy)"`
	Threads int    `flag:"threads" default:"1" help:"client connections of --method bulk"`
	Build
}

// writeSize is the write probe's chunk rows and chunk count.
func writeSize(o *WriteFlags) (rows int64, chunks int, err error) {
	chunk, err := units.ParseSize(o.Chunk)
	if err != nil {
		return 0, 0, fmt.Errorf("--chunk: %v", err)
	}
	total, err := units.ParseSize(o.Total)
	if err != nil {
		return 0, 0, fmt.Errorf("--total: %v", err)
	}
	rows = chunk / RowBytes
	if rows < 1 || total < chunk {
		return 0, 0, fmt.Errorf("--chunk %s and --total %s: a chunk holds at least one %d-byte row and the total at least one chunk", o.Chunk, o.Total, RowBytes)
	}
	chunks = int(total / chunk)
	if chunks > 100000 {
		return 0, 0, fmt.Errorf("--total %s is more than 100,000 chunks of %s: give a larger --chunk", o.Total, o.Chunk)
	}
	switch o.Method {
	case "sql", "bulk":
	default:
		return 0, 0, fmt.Errorf("--method %q is not known: use sql (INSERT ... SELECT) or bulk (the engine's bulk path from the client)", o.Method)
	}
	if o.Threads < 1 {
		return 0, 0, fmt.Errorf("--threads must be at least 1 (got %d)", o.Threads)
	}
	return rows, chunks, nil
}

type writeProbe struct{}

func (writeProbe) Prepare(o *WriteFlags, _ *workload.Values) error {
	if _, _, err := writeSize(o); err != nil {
		return err
	}
	return o.Build.check()
}

func (writeProbe) Warmup(*WriteFlags) (bool, string) { return false, "" }

func (writeProbe) Start(ctx context.Context, sp workload.Spec, o *WriteFlags) (workload.Run, error) {
	rows, chunks, _ := writeSize(o)
	// the disk must hold the chunk and everything written (checked before building)
	if err := bulk.CheckSpace(ctx, sp.Target, int64(chunks+1)*rows*RowBytes); err != nil {
		return nil, err
	}
	db, err := ensure(ctx, writeSet, sp.Target, built{"chunk_rows": fmt.Sprint(rows)}, 2, o.Rebuild, o.LoadThreads, rows*RowBytes,
		func(c adder) []bulk.Work { return rowWork(chunkTable, 1, rows, 250_000, c) }, sp.Out)
	if err != nil {
		return nil, err
	}
	db.Close()
	method := o.Method
	s := &stepper{kind: "write", rate: "MB/min", spec: sp,
		options: map[string]any{"probe": "write", "chunk_rows": rows, "chunk_mib": round(float64(rows*RowBytes)/mib, 1), "chunks": chunks,
			"total_mib": round(float64(int64(chunks)*rows*RowBytes)/mib, 1), "row_bytes": RowBytes, "method": method, "threads": 1}}
	if method == "bulk" {
		s.options["threads"] = o.Threads
	}
	if err := s.open(ctx, writeSet); err != nil {
		s.Close()
		return nil, err
	}
	// start from an empty table, with the chunk cached (read once)
	if _, err := s.conn.ExecContext(ctx, s.table("empty", targetTable).SQL); err != nil {
		s.Close()
		return nil, fmt.Errorf("emptying %s: %w", targetTable, err)
	}
	if _, err := s.count(ctx, s.table("count", chunkTable)); err != nil {
		s.Close()
		return nil, err
	}
	s.steps = writeSteps(rows, chunks, method, o.Threads)
	fmt.Fprintf(sp.Out, "dbdyno probe write on %s (%s): %d chunk(s) of %s by %s\n", s.version, sp.Target, chunks, mb(rows*RowBytes), method)
	return s, nil
}

// writeSteps appends the chunk again and again (ids moved past the rows already written), one statement per
// chunk in its own transaction, or the same rows through the engine's bulk path from the client.
func writeSteps(rows int64, chunks int, method string, threads int) func(ctx context.Context, s *stepper) error {
	return func(ctx context.Context, s *stepper) error {
		write := s.st["write_chunk"].Ident("part", targetTable).Ident("chunk", chunkTable)
		var bytes, secs float64
		for k := 1; k <= chunks; k++ {
			shift := int64(k-1) * rows
			st, err := s.step(ctx, fmt.Sprintf("chunk %d", k), float64(k), rows, rows*RowBytes, func(ctx context.Context) error {
				if method == "bulk" {
					var n counter
					part := (rows + int64(threads) - 1) / int64(threads)
					return s.data.Load(ctx, threads, rowWork(targetTable, shift+1, shift+rows, part, &n), &n.Int64, 0, nil)
				}
				_, err := s.conn.ExecContext(ctx, write.SQL, write.Args([]any{shift})...)
				return err
			})
			if err != nil {
				return fmt.Errorf("writing chunk %d: %w", k, err)
			}
			s.probe.Steps = append(s.probe.Steps, st)
			bytes += float64(st.Bytes)
			secs += st.Seconds
			logged := ""
			if lb, ok := st.Counters["log_bytes"]; ok {
				logged = fmt.Sprintf(", log %s", mb(int64(lb)))
			} else if wb, ok := st.Counters["written_bytes"]; ok {
				logged = fmt.Sprintf(", process wrote %s", mb(int64(wb)))
			}
			fmt.Fprintf(s.spec.Out, "chunk %d/%d: %s in %.2fs = %.0f MB/min; rolling %.0f MB/min%s\n", k, chunks, mb(st.Bytes), st.Seconds, st.Rate,
				bytes/1e6/(secs/60), logged)
		}
		return nil
	}
}

package tpcc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/progress"
	"github.com/dbdyno/dbdyno/internal/target"
)

// BuildOptions are `tpcc build`'s settings.
type BuildOptions struct {
	Warehouses int
	Threads    int
	Drop       bool
	Seed       uint64
	Version    string
	Progress   io.Writer
}

// BuildReport tells what the build did and how long each step took.
type BuildReport struct {
	Rows                                    int64
	Load, Index, Procedures, Analyze, Total time.Duration
	Constants                               Constants
}

// Build creates the schema, loads the initial population, adds keys and indexes, installs the procedures and
// gathers statistics. It refuses to touch existing TPC-C tables unless opts.Drop is set, and never drops tables
// dbdyno did not create.
func (db *DB) Build(ctx context.Context, opts BuildOptions) (*BuildReport, error) {
	if opts.Warehouses < 1 {
		return nil, errors.New("--warehouses must be at least 1")
	}
	if opts.Threads < 1 {
		opts.Threads = 1
	}
	if db.T.Engine == target.SQLite {
		opts.Threads = 1 // one writer at a time
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	t0 := time.Now()
	tables, meta, err := db.existing(ctx)
	if err != nil {
		return nil, err
	}
	if len(tables) > 0 && !meta {
		return nil, db.foreignTables(ctx, tables)
	}
	if len(tables) > 0 || meta {
		if !opts.Drop {
			return nil, fmt.Errorf("%s already has TPC-C tables (%s): add --drop to replace them, or run 'dbdyno tpcc drop'", db.T, strings.Join(append(tables, metaTableIf(meta)...), ", "))
		}
		if _, err := db.Drop(ctx); err != nil {
			return nil, err
		}
		fmt.Fprintf(opts.Progress, "dropped dbdyno's previous TPC-C tables\n")
	}
	if err := db.script(ctx, "schema.sql"); err != nil {
		return nil, fmt.Errorf("creating the schema: %w", err)
	}
	r := NewRand(opts.Seed, 0)
	c := NewLoadConstants(r)
	for _, kv := range [][2]string{{"status", "loading"}, {"warehouses", fmt.Sprint(opts.Warehouses)}, {"seed", fmt.Sprint(opts.Seed)},
		{"constants", fmt.Sprintf("%d %d %d", c.CLast, c.CID, c.OLIID)}, {"dbdyno_version", opts.Version},
		{"built_at", time.Now().UTC().Format(time.RFC3339)}} {
		if err := db.putMeta(ctx, kv[0], kv[1]); err != nil {
			return nil, fmt.Errorf("recording the build: %w", err)
		}
	}
	if db.T.Engine == target.MySQL {
		// Loading is faster without per-row checks; these settings apply to this session only.
		for _, q := range []string{"SET SESSION unique_checks = 0", "SET SESSION foreign_key_checks = 0"} {
			db.exec(ctx, q)
		}
	}
	rep := &BuildReport{Constants: c}
	tl := time.Now()
	gen := &Generator{Seed: opts.Seed, C: c, Now: time.Now().UTC().Truncate(time.Second)}
	rows, err := db.load(ctx, gen, opts)
	if err != nil {
		return nil, fmt.Errorf("loading: %w", err)
	}
	rep.Rows, rep.Load = rows, time.Since(tl)
	ti := time.Now()
	fmt.Fprintf(opts.Progress, "creating keys and indexes\n")
	if err := db.script(ctx, "indexes.sql"); err != nil {
		return nil, fmt.Errorf("creating indexes: %w", err)
	}
	rep.Index = time.Since(ti)
	if HasProcedures(db.T.Engine) {
		tp := time.Now()
		if err := db.script(ctx, "procs.sql"); err != nil {
			return nil, fmt.Errorf("installing stored procedures: %w", err)
		}
		rep.Procedures = time.Since(tp)
	}
	ta := time.Now()
	fmt.Fprintf(opts.Progress, "gathering statistics\n")
	if err := db.analyze(ctx); err != nil {
		return nil, fmt.Errorf("gathering statistics: %w", err)
	}
	rep.Analyze = time.Since(ta)
	if err := db.putMeta(ctx, "status", "ready"); err != nil {
		return nil, err
	}
	rep.Total = time.Since(t0)
	return rep, nil
}

func metaTableIf(b bool) []string {
	if b {
		return []string{metaTable}
	}
	return nil
}

func (db *DB) analyze(ctx context.Context) error {
	switch db.T.Engine {
	case target.Postgres:
		return db.exec(ctx, "ANALYZE "+strings.Join(Tables, ", "))
	case target.MySQL:
		for _, t := range Tables {
			if err := db.queryDiscard(ctx, "ANALYZE TABLE "+t); err != nil {
				return err
			}
		}
		return nil
	default:
		return db.exec(ctx, "ANALYZE")
	}
}

func (db *DB) queryDiscard(ctx context.Context, q string) error {
	rows, err := db.admin.(*sqlSession).conn.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	for rows.Next() {
	}
	rows.Close()
	return rows.Err()
}

// TotalRows is the expected row count of a build (order lines at their mean).
func TotalRows(warehouses int) int64 {
	var n int64
	for _, u := range Units(warehouses) {
		n += UnitRows(u)
	}
	return n
}

// load spreads the units over opts.Threads connections, each streaming into its own sink.
func (db *DB) load(ctx context.Context, gen *Generator, opts BuildOptions) (int64, error) {
	units := Units(opts.Warehouses)
	total := TotalRows(opts.Warehouses)
	var rows atomic.Int64
	gen.Count = func(n int64) { rows.Add(n) }
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	work := make(chan Unit)
	errs := make(chan error, opts.Threads)
	var wg sync.WaitGroup
	for i := 0; i < opts.Threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sink, closeSink, err := db.newLoadSink(ctx)
			if err != nil {
				errs <- err
				cancel()
				return
			}
			defer closeSink()
			for u := range work {
				if err := gen.Generate(u, sink); err != nil {
					errs <- fmt.Errorf("%s of warehouse %d: %w", u.Kind, u.WID, err)
					cancel()
					return
				}
			}
		}()
	}
	stopProgress := progress.Start(opts.Progress, "load", &rows, total)
	go func() {
		defer close(work)
		for _, u := range units {
			select {
			case work <- u:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	stopProgress()
	close(errs)
	if err := <-errs; err != nil {
		return rows.Load(), err
	}
	if err := ctx.Err(); err != nil {
		return rows.Load(), err
	}
	return rows.Load(), nil
}

func (db *DB) newLoadSink(ctx context.Context) (Sink, func(), error) {
	switch db.T.Engine {
	case target.Postgres:
		c, err := db.T.ConnectPg(ctx)
		if err != nil {
			return nil, nil, err
		}
		c.Exec(ctx, "SET synchronous_commit = off")
		return PgCopySink(ctx, c), func() { c.Close(context.Background()) }, nil
	case target.MySQL:
		conn, err := db.sqldb.Conn(ctx)
		if err != nil {
			return nil, nil, db.T.ConnectError(err)
		}
		conn.ExecContext(ctx, "SET SESSION unique_checks = 0")
		conn.ExecContext(ctx, "SET SESSION foreign_key_checks = 0")
		return MySQLLoadSink(ctx, conn), func() { conn.Close() }, nil
	default:
		conn, err := db.sqldb.Conn(ctx)
		if err != nil {
			return nil, nil, db.T.ConnectError(err)
		}
		return NewSQLiteSink(ctx, conn), func() { conn.Close() }, nil
	}
}

package tpch

import (
	"bufio"
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/bulk"
	"github.com/dbdyno/dbdyno/internal/progress"
	"github.com/dbdyno/dbdyno/internal/target"
	"github.com/dbdyno/dbdyno/internal/tpch/dbgen"
	"github.com/duckdb/duckdb-go/v2"
)

// BuildOptions are `tpch build`'s settings.
type BuildOptions struct {
	Scale    float64
	Threads  int
	Drop     bool
	Version  string
	Progress io.Writer
}

// BuildReport tells what the build did.
type BuildReport struct {
	Rows                        int64
	Load, Index, Analyze, Total time.Duration
}

// Build creates the schema, loads dbgen's population straight from the generator, adds keys and indexes and
// gathers statistics. It refuses to replace tables without opts.Drop and never drops tables dbdyno did not make.
func (d *DB) Build(ctx context.Context, opts BuildOptions) (*BuildReport, error) {
	if err := ValidateScale(opts.Scale); err != nil {
		return nil, err
	}
	if opts.Threads < 1 {
		opts.Threads = 1
	}
	if d.T.Engine == target.SQLite {
		opts.Threads = 1
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	t0 := time.Now()
	tables, meta, err := d.existing(ctx)
	if err != nil {
		return nil, err
	}
	if len(tables) > 0 && !meta {
		return nil, d.foreignTables(ctx, tables)
	}
	if len(tables) > 0 || meta {
		if !opts.Drop {
			return nil, fmt.Errorf("%s already has TPC-H tables (%s): add --drop to replace them, or run 'dbdyno tpch drop'", d.T, strings.Join(tables, ", "))
		}
		if _, err := d.Drop(ctx); err != nil {
			return nil, err
		}
		fmt.Fprintln(opts.Progress, "dropped dbdyno's previous TPC-H tables")
	}
	if err := d.script(ctx, "schema.sql"); err != nil {
		return nil, fmt.Errorf("creating the schema: %w", err)
	}
	for _, kv := range [][2]string{{"status", "loading"}, {"scale", strconv.FormatFloat(opts.Scale, 'g', -1, 64)},
		{"dbdyno_version", opts.Version}, {"built_at", time.Now().UTC().Format(time.RFC3339)}} {
		if err := d.putMeta(ctx, kv[0], kv[1]); err != nil {
			return nil, fmt.Errorf("recording the build: %w", err)
		}
	}
	rep := &BuildReport{}
	tl := time.Now()
	if rep.Rows, err = d.load(ctx, opts); err != nil {
		return nil, fmt.Errorf("loading: %w", err)
	}
	rep.Load = time.Since(tl)
	ti := time.Now()
	fmt.Fprintln(opts.Progress, "creating keys and indexes")
	if err := d.script(ctx, "indexes.sql"); err != nil {
		return nil, fmt.Errorf("creating indexes: %w", err)
	}
	rep.Index = time.Since(ti)
	ta := time.Now()
	fmt.Fprintln(opts.Progress, "gathering statistics")
	if err := d.analyze(ctx); err != nil {
		return nil, fmt.Errorf("gathering statistics: %w", err)
	}
	rep.Analyze = time.Since(ta)
	if err := d.putMeta(ctx, "status", "ready"); err != nil {
		return nil, err
	}
	rep.Total = time.Since(t0)
	return rep, nil
}

func (d *DB) analyze(ctx context.Context) error {
	switch d.T.Engine {
	case target.MySQL:
		for _, t := range tableNames {
			rows, err := d.db.QueryContext(ctx, "ANALYZE TABLE "+t)
			if err != nil {
				return err
			}
			rows.Close()
		}
		return nil
	case target.DuckDB:
		_, err := d.db.ExecContext(ctx, "CHECKPOINT")
		return err
	default:
		_, err := d.db.ExecContext(ctx, "ANALYZE")
		return err
	}
}

type chunk struct {
	t            dbgen.Table
	start, count int64
}

func chunks(sf float64) []chunk {
	var out []chunk
	order := []dbgen.Table{dbgen.LineItem, dbgen.Orders, dbgen.PartSupp, dbgen.Part, dbgen.Customer, dbgen.Supplier, dbgen.Nation, dbgen.Region}
	for _, t := range order {
		size := int64(50000)
		if t == dbgen.LineItem || t == dbgen.PartSupp {
			size = 20000
		}
		total := dbgen.BaseRows(t, sf)
		for s := int64(0); s < total; s += size {
			out = append(out, chunk{t, s, min(size, total-s)})
		}
	}
	return out
}

// loader writes chunks into one connection.
type loader interface {
	load(ctx context.Context, c chunk, sf float64, rows *atomic.Int64) error
	close()
}

func (d *DB) load(ctx context.Context, opts BuildOptions) (int64, error) {
	dbgen.TextPool()
	var total int64
	for _, t := range dbgen.Tables {
		total += ExpectedRows(t, opts.Scale)
	}
	var rows atomic.Int64
	stop := progress.Start(opts.Progress, "load", &rows, total)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan chunk)
	errs := make(chan error, opts.Threads)
	var wg sync.WaitGroup
	for i := 0; i < opts.Threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := d.newLoader(ctx)
			if err != nil {
				errs <- err
				cancel()
				return
			}
			defer l.close()
			for c := range work {
				if err := l.load(ctx, c, opts.Scale, &rows); err != nil {
					errs <- fmt.Errorf("%s rows %d..%d: %w", c.t, c.start+1, c.start+c.count, err)
					cancel()
					return
				}
			}
		}()
	}
	go func() {
		defer close(work)
		for _, c := range chunks(opts.Scale) {
			select {
			case work <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return rows.Load(), err
	}
	return rows.Load(), ctx.Err()
}

func (d *DB) newLoader(ctx context.Context) (loader, error) {
	switch d.T.Engine {
	case target.Postgres:
		c, err := d.T.ConnectPg(ctx)
		if err != nil {
			return nil, err
		}
		c.Exec(ctx, "SET synchronous_commit = off")
		return &textLoader{closeFn: func() { c.Close(context.Background()) }, run: func(ctx context.Context, table string, cols []string, fill bulk.Fill) error {
			return bulk.PgCopy(ctx, c, table, cols, fill)
		}}, nil
	case target.MySQL:
		c, err := d.db.Conn(ctx)
		if err != nil {
			return nil, d.T.ConnectError(err)
		}
		c.ExecContext(ctx, "SET SESSION unique_checks = 0")
		return &textLoader{closeFn: func() { c.Close() }, run: func(ctx context.Context, table string, cols []string, fill bulk.Fill) error {
			return bulk.MySQLLoad(ctx, c, table, cols, fill)
		}}, nil
	case target.DuckDB:
		c, err := d.db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		return &duckLoader{conn: c}, nil
	default:
		c, err := d.db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		c.ExecContext(ctx, "PRAGMA synchronous = OFF")
		return &sqliteLoader{conn: c}, nil
	}
}

// tsv encodes rows for COPY text format and LOAD DATA: tab-separated, no quoting (generated text holds no tabs
// or backslashes).
type tsv struct {
	w     *bufio.Writer
	first bool
	buf   []byte
	n     int64
}

func (t *tsv) sep() {
	if t.first {
		t.w.WriteByte('\t')
	}
	t.first = true
}
func (t *tsv) Int(v int64)    { t.sep(); t.w.Write(strconv.AppendInt(t.buf[:0], v, 10)) }
func (t *tsv) Dec(h int64)    { t.sep(); t.w.Write(dbgen.AppendDec(t.buf[:0], h)) }
func (t *tsv) Str(s string)   { t.sep(); t.w.WriteString(s) }
func (t *tsv) Bytes(b []byte) { t.sep(); t.w.Write(b) }
func (t *tsv) Date(d int32)   { t.sep(); t.w.WriteString(dbgen.DateString(d)) }
func (t *tsv) EndRow() error {
	t.first = false
	t.n++
	return t.w.WriteByte('\n')
}

type textLoader struct {
	run     func(ctx context.Context, table string, cols []string, fill bulk.Fill) error
	closeFn func()
}

func (l *textLoader) load(ctx context.Context, c chunk, sf float64, rows *atomic.Int64) error {
	return l.run(ctx, c.t.String(), Columns[c.t], func(w io.Writer) error {
		enc := &tsv{w: bufio.NewWriterSize(w, 256<<10), buf: make([]byte, 0, 32)}
		err := dbgen.Generate(c.t, sf, c.start, c.count, enc)
		rows.Add(enc.n)
		if err != nil {
			return err
		}
		return enc.w.Flush()
	})
}

func (l *textLoader) close() { l.closeFn() }

var dayTime = func() []time.Time {
	out := make([]time.Time, 2557)
	for i := range out {
		out[i] = time.Date(1992, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i)
	}
	return out
}()

// execRows returns a valueRow that executes a prepared INSERT for every row, with decimals as float64 and dates
// as text (what every database/sql driver takes); bind, when set, orders the values as the statement wants them.
func execRows(ctx context.Context, stmt *sql.Stmt, scaleCol int, bind func([]any) []any) *valueRow {
	return &valueRow{scaleCol: scaleCol, decFloat: true, emit: func(vals []driver.Value) error {
		args := make([]any, len(vals))
		for i, x := range vals {
			args[i] = x
		}
		if bind != nil {
			args = bind(args)
		}
		_, err := stmt.ExecContext(ctx, args...)
		return err
	}}
}

// valueRow collects a row as driver values: decimals as hundredths (int64), dates as time.Time.
type valueRow struct {
	vals     []driver.Value
	scaleCol int // a decimal column that dbgen writes as an integer (l_quantity): sent in hundredths
	emit     func([]driver.Value) error
	n        int64
	decFloat bool // decimals as float64 (SQLite REAL)
}

func (v *valueRow) Int(x int64) {
	if len(v.vals) == v.scaleCol {
		if v.decFloat {
			v.vals = append(v.vals, float64(x))
			return
		}
		x *= 100
	}
	v.vals = append(v.vals, x)
}
func (v *valueRow) Dec(h int64) {
	if v.decFloat {
		v.vals = append(v.vals, float64(h)/100)
		return
	}
	v.vals = append(v.vals, h)
}
func (v *valueRow) Str(s string)   { v.vals = append(v.vals, s) }
func (v *valueRow) Bytes(b []byte) { v.vals = append(v.vals, string(b)) }
func (v *valueRow) Date(d int32) {
	if v.decFloat {
		v.vals = append(v.vals, dbgen.DateString(d))
		return
	}
	v.vals = append(v.vals, dayTime[d])
}
func (v *valueRow) EndRow() error {
	err := v.emit(v.vals)
	v.vals = v.vals[:0]
	v.n++
	return err
}

func scaleColumn(t dbgen.Table) int {
	if t == dbgen.LineItem {
		return 4 // l_quantity
	}
	return -1
}

// duckLoader appends through DuckDB's appender.
type duckLoader struct{ conn *sql.Conn }

func (l *duckLoader) load(ctx context.Context, c chunk, sf float64, rows *atomic.Int64) error {
	return l.conn.Raw(func(dc any) error {
		app, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", c.t.String())
		if err != nil {
			return err
		}
		v := &valueRow{scaleCol: scaleColumn(c.t), emit: func(vals []driver.Value) error { return app.AppendRow(vals...) }}
		err = dbgen.Generate(c.t, sf, c.start, c.count, v)
		rows.Add(v.n)
		if cerr := app.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

func (l *duckLoader) close() { l.conn.Close() }

// sqliteLoader inserts with a prepared statement, one transaction per chunk.
type sqliteLoader struct{ conn *sql.Conn }

func (l *sqliteLoader) load(ctx context.Context, c chunk, sf float64, rows *atomic.Int64) error {
	cols := Columns[c.t]
	q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", c.t, strings.Join(cols, ", "), strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", "))
	tx, err := l.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, q)
	if err != nil {
		return err
	}
	defer stmt.Close()
	v := execRows(ctx, stmt, scaleColumn(c.t), nil)
	err = dbgen.Generate(c.t, sf, c.start, c.count, v)
	rows.Add(v.n)
	if err != nil {
		return err
	}
	return tx.Commit()
}

func (l *sqliteLoader) close() { l.conn.Close() }

package bulk

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

// OpenSink returns a sink on a connection of its own from db, readied for loading (the engine's load settings),
// through the engine's bulk path.
func OpenSink(ctx context.Context, t *engine.Target, db *sql.DB) (Sink, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, t.ConnectError(err)
	}
	t.Engine.PrepareLoad(ctx, conn)
	s, err := sinkOn(ctx, t, conn, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return s, nil
}

// sinkFunc opens a sink of one bulk path on conn. Inside the caller's transaction tx (nil outside one) the sink
// leaves conn open when it closes and loads inside tx.
type sinkFunc func(ctx context.Context, t *engine.Target, conn *sql.Conn, tx *sql.Tx) (Sink, error)

// sinks maps each bulk path to the sink that loads through it. Each path's file registers its sink once; an
// engine names its path in its own file (engine.Engine.Bulk), so a new engine that takes a known path needs
// nothing here.
var sinks = map[engine.BulkPath]sinkFunc{}

func registerSink(p engine.BulkPath, f sinkFunc) {
	if _, dup := sinks[p]; dup {
		panic(fmt.Sprintf("bulk: path %q registered twice", p))
	}
	sinks[p] = f
}

func init() {
	registerSink(engine.BulkInsert, func(ctx context.Context, t *engine.Target, conn *sql.Conn, tx *sql.Tx) (Sink, error) {
		return newInsertSink(ctx, t, conn, tx), nil
	})
}

// sinkOn returns the sink of the engine's bulk path on conn, inside the caller's transaction tx when it is not
// nil (then the sink leaves conn open when it closes).
func sinkOn(ctx context.Context, t *engine.Target, conn *sql.Conn, tx *sql.Tx) (Sink, error) {
	path := t.BulkPath(ctx) // the engine's, or that of the distributed SQL database behind its wire
	f, ok := sinks[path]
	if !ok {
		return nil, fmt.Errorf("%s: no bulk loader for its bulk path %q", t.Engine.Title, path)
	}
	return f(ctx, t, conn, tx)
}

// streamSink feeds a load that reads text from a pipe (COPY, LOAD DATA) while the generator writes into it.
type streamSink struct {
	conn *sql.Conn
	keep bool // conn is the caller's
	load func(table string, cols []string, r io.Reader) error
	row  *Text
	pw   *io.PipeWriter
	done chan error
}

func newStream(conn *sql.Conn, keep bool, load func(table string, cols []string, r io.Reader) error) *streamSink {
	return &streamSink{conn: conn, keep: keep, load: load}
}

func (s *streamSink) Begin(table string, cols []string) (Row, error) {
	pr, pw := io.Pipe()
	s.pw, s.done = pw, make(chan error, 1)
	go func() {
		err := s.load(table, cols, pr)
		pr.CloseWithError(fmt.Errorf("bulk load of %s stopped", table))
		s.done <- err
	}()
	s.row = TSV(pw)
	return s.row, nil
}

func (s *streamSink) End() (int64, error) {
	ferr := s.row.Flush()
	s.pw.CloseWithError(ferr)
	if err := <-s.done; err != nil {
		return s.row.Rows, err
	}
	return s.row.Rows, ferr
}

func (s *streamSink) Close() {
	if !s.keep {
		s.conn.Close()
	}
}

// insertSink inserts rows with prepared multi-row INSERTs (a statement of up to insertBatchRows rows, within
// insertParams parameters) inside transactions of about 50,000 rows, or inside the caller's transaction (outer).
// One row per statement took a round trip per row: a network engine's build spent its time waiting.
type insertSink struct {
	ctx   context.Context
	conn  *sql.Conn
	ph    sqlfile.Placeholder
	outer *sql.Tx
	table string
	cols  []string
	per   int       // rows per full statement
	tx    *sql.Tx   // the sink's own
	stmt  *sql.Stmt // the full statement, prepared in the transaction
	vals  ArgRow
	batch []any // the rows not yet sent, their values in order
	rows  int   // in batch
	since int   // rows sent since the transaction began
}

const (
	insertTx = 50000
	// insertParams keeps a statement under every engine's parameter limit (SQL Server's 2,100 the lowest;
	// SQLite's 32,766, PostgreSQL's and MySQL's 65,535); insertBatchRows is where more rows a statement stop paying.
	insertParams    = 2000
	insertBatchRows = 100
)

func newInsertSink(ctx context.Context, t *engine.Target, conn *sql.Conn, tx *sql.Tx) *insertSink {
	return &insertSink{ctx: ctx, conn: conn, ph: t.Engine.Placeholder, outer: tx}
}

// insertSQL is the INSERT of rows rows into the sink's table.
func (s *insertSink) insertSQL(rows int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES ", s.table, strings.Join(s.cols, ", "))
	n := 0
	for r := 0; r < rows; r++ {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for i := range s.cols {
			if i > 0 {
				b.WriteString(", ")
			}
			n++
			switch s.ph {
			case sqlfile.Dollar:
				b.WriteString("$" + strconv.Itoa(n))
			case sqlfile.AtP:
				b.WriteString("@p" + strconv.Itoa(n))
			default:
				b.WriteByte('?')
			}
		}
		b.WriteByte(')')
	}
	return b.String()
}

func (s *insertSink) Begin(table string, cols []string) (Row, error) {
	s.table, s.cols = table, cols
	s.per = max(1, min(insertBatchRows, insertParams/max(1, len(cols))))
	if err := s.begin(); err != nil {
		return nil, fmt.Errorf("insert into %s: %w", table, err)
	}
	s.batch, s.rows, s.since = s.batch[:0], 0, 0
	s.vals = ArgRow{Emit: s.emit}
	return &s.vals, nil
}

func (s *insertSink) begin() error {
	tx := s.outer
	if tx == nil {
		var err error
		if tx, err = s.conn.BeginTx(s.ctx, nil); err != nil {
			return err
		}
	}
	stmt, err := tx.PrepareContext(s.ctx, s.insertSQL(s.per))
	if err != nil {
		if s.outer == nil {
			tx.Rollback()
		}
		return err
	}
	if s.outer == nil {
		s.tx = tx
	}
	s.stmt = stmt
	return nil
}

func (s *insertSink) commit() error {
	s.stmt.Close()
	s.stmt = nil
	if s.tx == nil {
		return nil
	}
	err := s.tx.Commit()
	s.tx = nil
	return err
}

func (s *insertSink) emit(vals []any) error {
	s.batch = append(s.batch, vals...)
	if s.rows++; s.rows < s.per {
		return nil
	}
	return s.flush()
}

// flush sends the rows held (a full statement, or the last few through a statement of their own), and begins
// a new transaction of the sink's own every insertTx rows.
func (s *insertSink) flush() error {
	if s.rows == 0 {
		return nil
	}
	var err error
	if s.rows == s.per {
		_, err = s.stmt.ExecContext(s.ctx, s.batch...)
	} else {
		q := s.outer
		if q == nil {
			q = s.tx
		}
		_, err = q.ExecContext(s.ctx, s.insertSQL(s.rows), s.batch...)
	}
	if err != nil {
		return err
	}
	s.since += s.rows
	clear(s.batch) // no string kept alive by the buffer
	s.batch, s.rows = s.batch[:0], 0
	if s.since >= insertTx && s.outer == nil {
		s.since = 0
		if err := s.commit(); err != nil {
			return err
		}
		return s.begin()
	}
	return nil
}

func (s *insertSink) End() (int64, error) {
	if s.stmt == nil {
		return s.vals.Rows, nil
	}
	if err := s.flush(); err != nil {
		return s.vals.Rows, err
	}
	return s.vals.Rows, s.commit()
}

func (s *insertSink) Close() {
	if s.stmt != nil {
		s.stmt.Close()
	}
	if s.tx != nil {
		s.tx.Rollback()
	}
	if s.outer == nil {
		s.conn.Close()
	}
}

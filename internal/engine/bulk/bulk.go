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

// insertSink inserts rows with one prepared INSERT per table inside transactions of 50,000 rows, or inside the
// caller's transaction (outer).
type insertSink struct {
	ctx   context.Context
	conn  *sql.Conn
	ph    sqlfile.Placeholder
	outer *sql.Tx
	q     string
	tx    *sql.Tx // the sink's own
	stmt  *sql.Stmt
	vals  ArgRow
	n     int
}

const insertTx = 50000

func newInsertSink(ctx context.Context, t *engine.Target, conn *sql.Conn, tx *sql.Tx) *insertSink {
	return &insertSink{ctx: ctx, conn: conn, ph: t.Engine.Placeholder, outer: tx}
}

func (s *insertSink) Begin(table string, cols []string) (Row, error) {
	marks := make([]string, len(cols))
	for i := range marks {
		marks[i] = "?"
		switch s.ph {
		case sqlfile.Dollar:
			marks[i] = "$" + strconv.Itoa(i+1)
		case sqlfile.AtP:
			marks[i] = "@p" + strconv.Itoa(i+1)
		}
	}
	s.q = fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(cols, ", "), strings.Join(marks, ", "))
	if err := s.begin(); err != nil {
		return nil, fmt.Errorf("insert into %s: %w", table, err)
	}
	s.n = 0
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
	stmt, err := tx.PrepareContext(s.ctx, s.q)
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
	if _, err := s.stmt.ExecContext(s.ctx, vals...); err != nil {
		return err
	}
	if s.n++; s.n%insertTx == 0 && s.outer == nil {
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

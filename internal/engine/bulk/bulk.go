package bulk

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/go-sql-driver/mysql"
	mssql "github.com/microsoft/go-mssqldb"
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

// sinkOn returns the engine's sink on conn. Inside the caller's transaction tx the sink leaves conn open when it
// closes, and SQL Server's bulk copy gives way to INSERTs: its table lock would last to the end of the
// transaction and stop every reader of the table.
func sinkOn(ctx context.Context, t *engine.Target, conn *sql.Conn, tx *sql.Tx) (Sink, error) {
	keep := tx != nil
	switch {
	case t.Engine.Bulk == engine.BulkCopy:
		return newStream(conn, keep, func(table string, cols []string, r io.Reader) error { return pgCopy(ctx, conn, table, cols, r) }), nil
	case t.Engine.Bulk == engine.BulkLoadData:
		if !t.Engine.BulkAllowed(ctx, conn) { // then rows go in as multi-row INSERTs, about half as fast
			return newStream(conn, keep, func(table string, cols []string, r io.Reader) error { return insertTSV(ctx, conn, table, cols, r) }), nil
		}
		return newStream(conn, keep, func(table string, cols []string, r io.Reader) error { return loadData(ctx, conn, table, cols, r) }), nil
	case t.Engine.Bulk == engine.BulkAppender:
		s, err := newVectorSink(ctx, conn)
		if err != nil {
			return nil, err
		}
		s.keep = keep
		return s, nil
	case t.Engine.Bulk == engine.BulkCopyIn && tx == nil:
		return &copyInSink{ctx: ctx, conn: conn}, nil
	default:
		return &insertSink{ctx: ctx, conn: conn, ph: t.Engine.Placeholder, outer: tx}, nil
	}
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

// pgCopy loads text rows into a PostgreSQL table with COPY ... FROM STDIN.
func pgCopy(ctx context.Context, conn *sql.Conn, table string, cols []string, r io.Reader) error {
	pc, err := engine.Pgx(conn)
	if err != nil {
		return err
	}
	q := fmt.Sprintf("COPY %s (%s) FROM STDIN", table, strings.Join(cols, ", "))
	if _, err := pc.PgConn().CopyFrom(ctx, r, q); err != nil {
		return fmt.Errorf("COPY %s: %w", table, err)
	}
	return nil
}

var readerSeq atomic.Int64

// loadData loads text rows into a MySQL/MariaDB table with LOAD DATA LOCAL INFILE from memory.
func loadData(ctx context.Context, conn *sql.Conn, table string, cols []string, r io.Reader) error {
	name := fmt.Sprintf("dbdyno-%s-%d", table, readerSeq.Add(1))
	mysql.RegisterReaderHandler(name, func() io.Reader { return r })
	defer mysql.DeregisterReaderHandler(name)
	q := fmt.Sprintf("LOAD DATA LOCAL INFILE 'Reader::%s' INTO TABLE %s CHARACTER SET utf8mb4 (%s)", name, table, strings.Join(cols, ", "))
	if _, err := conn.ExecContext(ctx, q); err != nil {
		if strings.Contains(err.Error(), "local_infile") || strings.Contains(err.Error(), "1148") || strings.Contains(err.Error(), "3948") {
			return fmt.Errorf("LOAD DATA LOCAL INFILE into %s was refused: enable it on the server with SET GLOBAL local_infile=1: %w", table, err)
		}
		return fmt.Errorf("LOAD DATA into %s: %w", table, err)
	}
	return nil
}

const insertRows = 500

// insertTSV loads text rows with prepared multi-row INSERT statements of 500 rows (\N is NULL), one
// transaction per statement.
func insertTSV(ctx context.Context, conn *sql.Conn, table string, cols []string, r io.Reader) error {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	stmtFor := map[int]*sql.Stmt{}
	defer func() {
		for _, s := range stmtFor {
			s.Close()
		}
	}()
	exec := func(args []any) error {
		n := len(args) / len(cols)
		st, ok := stmtFor[n]
		if !ok {
			q := fmt.Sprintf("INSERT INTO %s (%s) VALUES %s", table, strings.Join(cols, ", "), strings.TrimSuffix(strings.Repeat(row+", ", n), ", "))
			var err error
			if st, err = conn.PrepareContext(ctx, q); err != nil {
				return fmt.Errorf("INSERT into %s: %w", table, err)
			}
			stmtFor[n] = st
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("INSERT into %s: %w", table, err)
		}
		return nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	args := make([]any, 0, insertRows*len(cols))
	for sc.Scan() {
		for _, f := range strings.Split(sc.Text(), "\t") {
			if f == `\N` {
				args = append(args, nil)
			} else {
				args = append(args, f)
			}
		}
		if len(args) == cap(args) {
			if err := exec(args); err != nil {
				return err
			}
			args = args[:0]
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(args) > 0 {
		return exec(args)
	}
	return nil
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
	vals  Values
	n     int
}

const insertTx = 50000

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
	s.vals = Values{Emit: s.emit}
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

// copyInSink loads through SQL Server's bulk copy: the rows travel as the TDS bulk-load stream in the columns'
// own binary types (the driver reads them from the table), with a table lock so that parallel loads into a
// heap are minimally logged where the recovery model allows.
type copyInSink struct {
	ctx  context.Context
	conn *sql.Conn
	b    *mssql.Bulk
	vals []any
	buf  []byte
	rows int64
}

func (s *copyInSink) Begin(table string, cols []string) (Row, error) {
	err := s.conn.Raw(func(dc any) error {
		c, ok := engine.SQLServerConn(dc)
		if !ok {
			return fmt.Errorf("not a SQL Server connection: %T", dc)
		}
		s.b = c.CreateBulkContext(s.ctx, table, cols)
		s.b.Options = mssql.BulkOptions{Tablock: true}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bulk copy into %s: %w", table, err)
	}
	s.vals, s.rows = s.vals[:0], 0
	return s, nil
}

func (s *copyInSink) Int(v int64) { s.vals = append(s.vals, v) }

// Dec travels as its decimal text, which the driver scales to the column's type without a float between.
func (s *copyInSink) Dec(units int64, scale int) {
	s.vals = append(s.vals, string(AppendDec(s.buf[:0], units, scale)))
}
func (s *copyInSink) Str(v string)     { s.vals = append(s.vals, v) }
func (s *copyInSink) Bytes(b []byte)   { s.vals = append(s.vals, string(b)) }
func (s *copyInSink) Date(days int32)  { s.vals = append(s.vals, DayTime(days)) }
func (s *copyInSink) Time(t time.Time) { s.vals = append(s.vals, t) }
func (s *copyInSink) Null()            { s.vals = append(s.vals, nil) }

func (s *copyInSink) EndRow() error {
	err := s.b.AddRow(s.vals)
	s.vals = s.vals[:0]
	s.rows++
	return err
}

func (s *copyInSink) End() (int64, error) {
	_, err := s.b.Done()
	s.b = nil
	return s.rows, err
}

func (s *copyInSink) Close() {
	if s.b != nil {
		s.b.Done() // ends the bulk stream so that the connection can be closed cleanly
	}
	s.conn.Close()
}

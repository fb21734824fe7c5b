package tpcc

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/bulk"
	"github.com/jackc/pgx/v5"
)

// textRow encodes rows as delimited text: tab-separated with \N for NULL (PostgreSQL COPY text format, MySQL
// LOAD DATA defaults) or comma-separated with empty NULLs (CSV). Generated strings hold only letters, digits
// and spaces, so no value needs quoting or escaping.
type textRow struct {
	w     *bufio.Writer
	delim byte
	null  string
	first bool
	buf   []byte
	tSeen time.Time
	tText []byte
}

func newTextRow(w io.Writer, delim byte, null string) *textRow {
	return &textRow{w: bufio.NewWriterSize(w, 256<<10), delim: delim, null: null, first: true, buf: make([]byte, 0, 64)}
}

func (t *textRow) sep() {
	if !t.first {
		t.w.WriteByte(t.delim)
	}
	t.first = false
}

func (t *textRow) Int(v int64) {
	t.sep()
	t.w.Write(strconv.AppendInt(t.buf[:0], v, 10))
}

func (t *textRow) Dec(units int64, scale int) {
	t.sep()
	t.w.Write(appendDec(t.buf[:0], units, scale))
}

func appendDec(b []byte, units int64, scale int) []byte {
	if units < 0 {
		b = append(b, '-')
		units = -units
	}
	p := int64(1)
	for i := 0; i < scale; i++ {
		p *= 10
	}
	b = strconv.AppendInt(b, units/p, 10)
	if scale == 0 {
		return b
	}
	b = append(b, '.')
	frac := strconv.AppendInt(nil, units%p+p, 10) // leading 1 keeps the zeros
	return append(b, frac[1:]...)
}

func (t *textRow) Str(s string) {
	t.sep()
	t.w.WriteString(s)
}

func (t *textRow) Time(v time.Time) {
	t.sep()
	if !v.Equal(t.tSeen) || t.tText == nil {
		t.tSeen, t.tText = v, []byte(v.Format("2006-01-02 15:04:05"))
	}
	t.w.Write(t.tText)
}

func (t *textRow) Null() {
	t.sep()
	t.w.WriteString(t.null)
}

func (t *textRow) EndRow() error {
	t.first = true
	return t.w.WriteByte('\n')
}

// streamSink feeds a bulk load (COPY, LOAD DATA) that reads from a pipe while the generator writes into it.
type streamSink struct {
	load func(table string, fill bulk.Fill) error
	row  *textRow
	next chan io.Writer
	fin  chan error
	done chan error
}

func (s *streamSink) Begin(table string) (RowWriter, error) {
	s.next, s.done = make(chan io.Writer), make(chan error, 1)
	fin := make(chan error)
	go func() {
		s.done <- s.load(table, func(w io.Writer) error {
			s.next <- w
			return <-fin
		})
	}()
	select {
	case w := <-s.next:
		s.row = newTextRow(w, '\t', `\N`)
		s.fin = fin
		return s.row, nil
	case err := <-s.done:
		return nil, err
	}
}

func (s *streamSink) End() error {
	s.fin <- s.row.w.Flush()
	return <-s.done
}

// PgCopySink streams rows into PostgreSQL with COPY ... FROM STDIN over one pgx connection.
func PgCopySink(ctx context.Context, conn *pgx.Conn) Sink {
	return &streamSink{load: func(table string, fill bulk.Fill) error { return bulk.PgCopy(ctx, conn, table, Columns[table], fill) }}
}

// MySQLLoadSink streams rows into MySQL/MariaDB with LOAD DATA LOCAL INFILE from memory.
func MySQLLoadSink(ctx context.Context, conn *sql.Conn) Sink {
	return &streamSink{load: func(table string, fill bulk.Fill) error {
		return bulk.MySQLLoad(ctx, conn, table, Columns[table], fill)
	}}
}

var pow10 = [...]float64{1, 10, 100, 1000, 10000, 100000}

// FileSink writes CSV files, one per table and unit, into a directory: DIR/<table>-<unit>.csv.
type FileSink struct {
	Dir  string
	Unit Unit
	f    *os.File
	row  *textRow
}

func (s *FileSink) Begin(table string) (RowWriter, error) {
	name := table
	if s.Unit.WID > 0 {
		name = fmt.Sprintf("%s-w%05d", table, s.Unit.WID)
	}
	f, err := os.Create(filepath.Join(s.Dir, name+".csv"))
	if err != nil {
		return nil, err
	}
	s.f, s.row = f, newTextRow(f, ',', "")
	return s.row, nil
}

func (s *FileSink) End() error {
	err := s.row.w.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// SQLiteSink inserts rows with one prepared INSERT per table inside large transactions.
type SQLiteSink struct {
	ctx   context.Context
	conn  *sql.Conn
	stmt  *sql.Stmt
	vals  []any
	n     int
	inTx  bool
	tText string
	tSeen time.Time
}

// NewSQLiteSink returns a sink writing through conn.
func NewSQLiteSink(ctx context.Context, conn *sql.Conn) *SQLiteSink {
	return &SQLiteSink{ctx: ctx, conn: conn}
}

func (s *SQLiteSink) Begin(table string) (RowWriter, error) {
	cols := Columns[table]
	q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(cols, ", "), strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", "))
	stmt, err := s.conn.PrepareContext(s.ctx, q)
	if err != nil {
		return nil, fmt.Errorf("prepare insert into %s: %w", table, err)
	}
	s.stmt, s.vals, s.n = stmt, make([]any, 0, len(cols)), 0
	if _, err := s.conn.ExecContext(s.ctx, "BEGIN IMMEDIATE"); err != nil {
		return nil, err
	}
	s.inTx = true
	return s, nil
}

func (s *SQLiteSink) Int(v int64) { s.vals = append(s.vals, v) }
func (s *SQLiteSink) Dec(units int64, scale int) {
	s.vals = append(s.vals, float64(units)/pow10[scale])
}
func (s *SQLiteSink) Str(v string) { s.vals = append(s.vals, v) }
func (s *SQLiteSink) Null()        { s.vals = append(s.vals, nil) }
func (s *SQLiteSink) Time(v time.Time) {
	if !v.Equal(s.tSeen) || s.tText == "" {
		s.tSeen, s.tText = v, v.Format("2006-01-02 15:04:05")
	}
	s.vals = append(s.vals, s.tText)
}

func (s *SQLiteSink) EndRow() error {
	_, err := s.stmt.ExecContext(s.ctx, s.vals...)
	s.vals = s.vals[:0]
	if err != nil {
		return err
	}
	if s.n++; s.n%50000 == 0 {
		if _, err := s.conn.ExecContext(s.ctx, "COMMIT"); err != nil {
			return err
		}
		if _, err := s.conn.ExecContext(s.ctx, "BEGIN IMMEDIATE"); err != nil {
			return err
		}
	}
	return nil
}

func (s *SQLiteSink) End() error {
	defer s.stmt.Close()
	if s.inTx {
		s.inTx = false
		if _, err := s.conn.ExecContext(s.ctx, "COMMIT"); err != nil {
			return err
		}
	}
	return nil
}

package bulk

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	mssql "github.com/microsoft/go-mssqldb"
)

// SQL Server's path: its bulk copy. Inside the caller's transaction it gives way to INSERTs: its table lock
// would last to the end of the transaction and stop every reader of the table.
func init() {
	registerSink(engine.BulkCopyIn, func(ctx context.Context, t *engine.Target, conn *sql.Conn, tx *sql.Tx) (Sink, error) {
		if tx != nil {
			return newInsertSink(ctx, t, conn, tx), nil
		}
		return &copyInSink{ctx: ctx, conn: conn}, nil
	})
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

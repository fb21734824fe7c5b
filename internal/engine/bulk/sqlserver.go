package bulk

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
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
	// kinds holds each column's kind of type, which decides how a generator's number travels: the driver's
	// bulk copy encodes a Go integer into a decimal column with scale 0 whatever the column's scale (17 into
	// decimal(15,2) arrives as 0.17), refuses one for a bit column and takes no text for a float or integer
	// column.
	kinds []intKind
}

type intKind uint8

const (
	intAsInt intKind = iota // integer columns, and any other type the driver converts itself
	intAsDecimal
	intAsBit
	intAsFloat
	intAsText
)

// columnKinds reads the columns' types (an empty query, so no row is read) and says how each takes an integer.
func columnKinds(ctx context.Context, conn *sql.Conn, table string, cols []string) ([]intKind, error) {
	rows, err := conn.QueryContext(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM "+table+" WHERE 1 = 0")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	kinds := make([]intKind, len(types))
	for i, ct := range types {
		switch strings.ToUpper(ct.DatabaseTypeName()) {
		case "DECIMAL", "NUMERIC", "MONEY", "SMALLMONEY":
			kinds[i] = intAsDecimal
		case "BIT":
			kinds[i] = intAsBit
		case "FLOAT", "REAL":
			kinds[i] = intAsFloat
		case "TINYINT", "SMALLINT", "INT", "BIGINT":
		default:
			kinds[i] = intAsText
		}
	}
	return kinds, rows.Err()
}

func (s *copyInSink) Begin(table string, cols []string) (Row, error) {
	kinds, err := columnKinds(s.ctx, s.conn, table, cols)
	if err != nil {
		return nil, fmt.Errorf("bulk copy into %s: reading its column types: %w", table, err)
	}
	s.kinds = kinds
	err = s.conn.Raw(func(dc any) error {
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

func (s *copyInSink) kind() intKind {
	if i := len(s.vals); i < len(s.kinds) {
		return s.kinds[i]
	}
	return intAsInt
}

func (s *copyInSink) Int(v int64) {
	switch s.kind() {
	case intAsDecimal, intAsText: // as text, which the driver scales to a decimal column's type (a Go integer it would not)
		s.vals = append(s.vals, strconv.FormatInt(v, 10))
	case intAsBit:
		s.vals = append(s.vals, v != 0)
	case intAsFloat:
		s.vals = append(s.vals, float64(v))
	default:
		s.vals = append(s.vals, v)
	}
}

// Dec travels as its decimal text, which the driver scales to the column's type without a float between (as a
// float into a float column, the whole units into an integer column).
func (s *copyInSink) Dec(units int64, scale int) {
	switch s.kind() {
	case intAsFloat:
		s.vals = append(s.vals, float64(units)/math.Pow10(scale))
	case intAsInt:
		s.vals = append(s.vals, units/int64(math.Pow10(scale)))
	default:
		s.vals = append(s.vals, string(AppendDec(s.buf[:0], units, scale)))
	}
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

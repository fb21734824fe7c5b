// Package bulk moves generated rows into a database through its fastest load path while they are generated,
// and owns the build lifecycle every workload's data goes through (dataset.go). One Row interface takes a
// generator's values; a Sink opens a Row per table: PostgreSQL COPY FROM STDIN and MySQL/MariaDB LOAD DATA
// LOCAL INFILE read a pipe the generator writes (no file, no whole table held), DuckDB's appender and prepared
// INSERTs take values. The engine names its path (engine.BulkPath) in its own file; the file of each path here
// registers the sink that loads through it (registerSink).
package bulk

import (
	"bufio"
	"io"
	"strconv"
	"time"
)

// Row receives one row at a time, value by value, in the table's column order. Decimals arrive as integers of
// 10^-scale units, so no sink rounds a float on the way. A Row may reuse nothing it is given after EndRow.
type Row interface {
	Int(v int64)
	Dec(units int64, scale int)
	Str(s string)
	Bytes(b []byte)
	Date(days int32) // days since 1970-01-01
	Time(t time.Time)
	Null()
	EndRow() error
}

// Sink opens a Row for one table at a time; End finishes the table and says how many rows it took. A sink is
// used by one goroutine.
type Sink interface {
	Begin(table string, cols []string) (Row, error)
	End() (rows int64, err error)
	Close()
}

// Text encodes rows as delimited text: tab-separated with \N for NULL (PostgreSQL COPY text format, MySQL
// LOAD DATA defaults) or comma-separated with empty NULLs (CSV). Generated strings hold no delimiter, quote,
// backslash or newline, so no value needs escaping.
type Text struct {
	W     *bufio.Writer
	Rows  int64
	delim byte
	null  string
	first bool
	buf   []byte
	tSeen time.Time
	tText []byte
}

// NewText returns an encoder writing into w.
func NewText(w io.Writer, delim byte, null string) *Text {
	return &Text{W: bufio.NewWriterSize(w, 256<<10), delim: delim, null: null, first: true, buf: make([]byte, 0, 64)}
}

// TSV is the COPY / LOAD DATA encoding.
func TSV(w io.Writer) *Text { return NewText(w, '\t', `\N`) }

// CSV is the files' encoding.
func CSV(w io.Writer) *Text { return NewText(w, ',', "") }

func (t *Text) sep() {
	if !t.first {
		t.W.WriteByte(t.delim)
	}
	t.first = false
}

func (t *Text) Int(v int64)                { t.sep(); t.W.Write(strconv.AppendInt(t.buf[:0], v, 10)) }
func (t *Text) Dec(units int64, scale int) { t.sep(); t.W.Write(AppendDec(t.buf[:0], units, scale)) }
func (t *Text) Str(s string)               { t.sep(); t.W.WriteString(s) }
func (t *Text) Bytes(b []byte)             { t.sep(); t.W.Write(b) }
func (t *Text) Date(days int32)            { t.sep(); t.W.Write(AppendDate(t.buf[:0], days)) }
func (t *Text) Null()                      { t.sep(); t.W.WriteString(t.null) }

// Time writes a timestamp to the second; a run of equal times (a generator's "now") is formatted once.
func (t *Text) Time(v time.Time) {
	t.sep()
	if !v.Equal(t.tSeen) || t.tText == nil {
		t.tSeen, t.tText = v, []byte(v.Format("2006-01-02 15:04:05"))
	}
	t.W.Write(t.tText)
}

func (t *Text) EndRow() error {
	t.first = true
	t.Rows++
	return t.W.WriteByte('\n')
}

// Flush writes what is buffered.
func (t *Text) Flush() error { return t.W.Flush() }

var pow10 = [...]int64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// AppendDec appends units x 10^-scale as a decimal number.
func AppendDec(b []byte, units int64, scale int) []byte {
	if units < 0 {
		b = append(b, '-')
		units = -units
	}
	p := pow10[scale]
	b = strconv.AppendInt(b, units/p, 10)
	if scale == 0 {
		return b
	}
	b = append(b, '.')
	frac := units % p
	for d := p / 10; d > frac && d > 1; d /= 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, frac, 10)
}

// AppendDate appends a day (days since 1970-01-01) as YYYY-MM-DD, by the civil-from-days algorithm.
func AppendDate(b []byte, days int32) []byte {
	y, m, d := civil(int64(days))
	b = strconv.AppendInt(b, y, 10)
	b = append(b, '-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
	return b
}

// civil converts days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil inverse).
func civil(z int64) (y, m, d int64) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// DayTime is a day (days since 1970-01-01) as a time at midnight UTC.
func DayTime(days int32) time.Time { return time.Unix(int64(days)*86400, 0).UTC() }

// ArgRow collects a row as database/sql arguments and hands them to Emit at the end of each row: decimals as
// float64, dates and times as text (what every driver takes, and what SQLite stores). Emit may keep nothing.
type ArgRow struct {
	Emit  func(vals []any) error
	Rows  int64
	vals  []any
	buf   []byte
	tSeen time.Time
	tText string
}

func (v *ArgRow) Int(x int64) { v.vals = append(v.vals, x) }
func (v *ArgRow) Dec(units int64, scale int) {
	v.vals = append(v.vals, float64(units)/float64(pow10[scale]))
}
func (v *ArgRow) Str(s string)   { v.vals = append(v.vals, s) }
func (v *ArgRow) Bytes(b []byte) { v.vals = append(v.vals, string(b)) }
func (v *ArgRow) Date(days int32) {
	v.buf = AppendDate(v.buf[:0], days)
	v.vals = append(v.vals, string(v.buf))
}
func (v *ArgRow) Null() { v.vals = append(v.vals, nil) }

// Time passes a timestamp as text to the second; a run of equal times is formatted once.
func (v *ArgRow) Time(t time.Time) {
	if !t.Equal(v.tSeen) || v.tText == "" {
		v.tSeen, v.tText = t, t.Format("2006-01-02 15:04:05")
	}
	v.vals = append(v.vals, v.tText)
}
func (v *ArgRow) EndRow() error {
	err := v.Emit(v.vals)
	v.vals = v.vals[:0]
	v.Rows++
	return err
}

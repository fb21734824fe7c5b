package bulk

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"runtime"
	"time"
	"unsafe"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/duckdb/duckdb-go/v2/mapping"
)

// vectorSink appends to DuckDB through its C appender with data chunks the sink fills itself: each value goes
// straight into its column's vector as DuckDB stores it (integers and scaled decimals at the column's width,
// days, microseconds, strings as DuckDB's 16-byte string headers over memory the sink holds), and one call
// hands DuckDB a full chunk. duckdb-go's appender takes every value as an interface, converts it through a
// type switch and crosses into C once per string; on TPC-H's lineitem that was a third of the build's CPU
// (bench/tpch-load has the figures). DuckDB copies a chunk's values when it is appended, so the sink reuses its
// chunk and its string memory from one chunk to the next.
type vectorSink struct {
	ctx   context.Context
	conn  *sql.Conn
	keep  bool               // conn is the caller's
	h     mapping.Connection // valid while conn is held
	app   mapping.Appender
	chunk mapping.DataChunk
	types []mapping.LogicalType
	cols  []vecCol
	size  int    // a chunk's capacity in rows
	table string // the open appender's
	open  int    // rows the open appender has taken
	n     int    // rows in the chunk
	col   int    // the column the next value goes to
	rows  int64  // rows of the current part
	err   error
	text  arena
}

// vecCol is one column of the open appender's chunk.
type vecCol struct {
	kind     vecKind
	scale    int // a DECIMAL's scale (its values are integers of 10^-scale units); 0 for an integer
	typ      string
	vec      mapping.Vector
	data     unsafe.Pointer
	validity *uint64 // the chunk's validity mask, once a NULL was written to the column
}

type vecKind uint8

const (
	vBool vecKind = iota
	vI8
	vI16
	vI32
	vI64
	vI128
	vF32
	vF64
	vDate
	vTimestamp
	vString
)

// DuckDB's path: its appender, fed by the vector sink.
func init() {
	registerSink(engine.BulkAppender, func(ctx context.Context, _ *engine.Target, conn *sql.Conn, tx *sql.Tx) (Sink, error) {
		s, err := newVectorSink(ctx, conn)
		if err != nil {
			return nil, err
		}
		s.keep = tx != nil
		return s, nil
	})
}

// newVectorSink returns a sink on conn, or an error when conn is not a DuckDB connection the sink can reach.
func newVectorSink(ctx context.Context, conn *sql.Conn) (*vectorSink, error) {
	s := &vectorSink{ctx: ctx, conn: conn, size: int(mapping.VectorSize())}
	err := conn.Raw(func(dc any) error {
		h, ok := engine.DuckDBConn(dc)
		if !ok {
			return fmt.Errorf("append: not a DuckDB connection dbdyno can append through (%T)", dc)
		}
		s.h = h
		return nil
	})
	return s, err
}

// Begin appends to table. An appender stays open across the parts of one table that the sink loads in a row
// (End does not close it), up to appenderRows rows, so that the rows go in as large transactions whose full row
// groups DuckDB writes straight to the database file, as its own COPY does, instead of one commit (and its log
// writes) per part.
func (s *vectorSink) Begin(table string, cols []string) (Row, error) {
	if s.table == table && s.open < appenderRows && s.err == nil {
		s.rows, s.col = 0, 0
		return s, nil
	}
	if err := s.closeAppender(); err != nil {
		return nil, err
	}
	if mapping.AppenderCreateExt(s.h, "", "", table, &s.app) == mapping.StateError {
		err := fmt.Errorf("append to %s: %s", table, mapping.AppenderError(s.app))
		mapping.AppenderDestroy(&s.app)
		return nil, err
	}
	s.table, s.open, s.rows, s.n, s.col, s.err = table, 0, 0, 0, 0, nil
	n := int(mapping.AppenderColumnCount(s.app))
	if n != len(cols) {
		s.closeAppender()
		return nil, fmt.Errorf("append to %s: the table has %d columns, the rows %d", table, n, len(cols))
	}
	s.cols = make([]vecCol, n)
	for i := range n {
		t := mapping.AppenderColumnType(s.app, mapping.IdxT(i))
		s.types = append(s.types, t)
		c, err := vecColumn(t)
		if err != nil {
			s.closeAppender()
			return nil, fmt.Errorf("append to %s: column %s: %w", table, cols[i], err)
		}
		s.cols[i] = c
	}
	s.chunk = mapping.CreateDataChunk(s.types)
	s.vectors()
	return s, nil
}

// vecColumn reads how a column of logical type t is stored.
func vecColumn(t mapping.LogicalType) (vecCol, error) {
	id := mapping.GetTypeId(t)
	c := vecCol{}
	switch id {
	case mapping.TypeBoolean:
		c.kind, c.typ = vBool, "BOOLEAN"
	case mapping.TypeTinyInt:
		c.kind, c.typ = vI8, "TINYINT"
	case mapping.TypeSmallInt:
		c.kind, c.typ = vI16, "SMALLINT"
	case mapping.TypeInteger:
		c.kind, c.typ = vI32, "INTEGER"
	case mapping.TypeBigInt:
		c.kind, c.typ = vI64, "BIGINT"
	case mapping.TypeHugeInt:
		c.kind, c.typ = vI128, "HUGEINT"
	case mapping.TypeFloat:
		c.kind, c.typ = vF32, "FLOAT"
	case mapping.TypeDouble:
		c.kind, c.typ = vF64, "DOUBLE"
	case mapping.TypeDate:
		c.kind, c.typ = vDate, "DATE"
	case mapping.TypeTimestamp, mapping.TypeTimestampTZ:
		c.kind, c.typ = vTimestamp, "TIMESTAMP"
	case mapping.TypeVarchar, mapping.TypeBlob:
		c.kind, c.typ = vString, "VARCHAR"
	case mapping.TypeDecimal:
		c.scale = int(mapping.DecimalScale(t))
		c.typ = fmt.Sprintf("DECIMAL(%d,%d)", mapping.DecimalWidth(t), c.scale)
		if c.scale >= len(pow10) {
			return c, fmt.Errorf("%s has a scale dbdyno's loads do not write (at most %d)", c.typ, len(pow10)-1)
		}
		switch mapping.DecimalInternalType(t) {
		case mapping.TypeSmallInt:
			c.kind = vI16
		case mapping.TypeInteger:
			c.kind = vI32
		case mapping.TypeBigInt:
			c.kind = vI64
		default:
			c.kind = vI128
		}
	default:
		return c, fmt.Errorf("DuckDB type %d is not one dbdyno's loads write", id)
	}
	return c, nil
}

// vectors reads each column's vector and data after the chunk was made or reset.
func (s *vectorSink) vectors() {
	for i := range s.cols {
		c := &s.cols[i]
		c.vec = mapping.DataChunkGetVector(s.chunk, mapping.IdxT(i))
		c.data = mapping.VectorGetData(c.vec)
		c.validity = nil
	}
}

// appenderRows is how many rows an appender takes before it is flushed and a new one opened: large enough that
// the commits cost little, small enough that the uncommitted rows DuckDB holds in memory stay bounded.
const appenderRows = 1 << 20

// next is the column the next value goes to, or nil (and the sink's error) past the row's last column.
func (s *vectorSink) next() *vecCol {
	if s.col >= len(s.cols) {
		s.fail(fmt.Errorf("append to %s: more values than its %d columns", s.table, len(s.cols)))
		return nil
	}
	c := &s.cols[s.col]
	s.col++
	return c
}

func (s *vectorSink) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *vectorSink) mismatch(c *vecCol, what string) {
	s.fail(fmt.Errorf("append to %s: column %d is %s, the generator gave %s", s.table, s.col, c.typ, what))
}

func slot[T any](c *vecCol, row int) *T {
	return (*T)(unsafe.Add(c.data, uintptr(row)*unsafe.Sizeof(*new(T))))
}

// integer writes v (already in the column's units) at the column's width.
func (s *vectorSink) integer(c *vecCol, v int64) {
	switch c.kind {
	case vBool:
		*slot[bool](c, s.n) = v != 0
	case vI8:
		*slot[int8](c, s.n) = int8(v)
	case vI16:
		*slot[int16](c, s.n) = int16(v)
	case vI32:
		*slot[int32](c, s.n) = int32(v)
	case vI64:
		*slot[int64](c, s.n) = v
	case vI128: // DuckDB's hugeint: the low 64 bits unsigned, then the high 64 bits signed
		p := slot[[2]uint64](c, s.n)
		p[0], p[1] = uint64(v), uint64(v>>63)
	case vF32:
		*slot[float32](c, s.n) = float32(v)
	case vF64:
		*slot[float64](c, s.n) = float64(v)
	default:
		s.mismatch(c, "a number")
	}
}

func (s *vectorSink) Int(v int64) {
	c := s.next()
	if c == nil {
		return
	}
	if c.scale > 0 {
		v *= pow10[c.scale]
	}
	s.integer(c, v)
}

func (s *vectorSink) Dec(units int64, scale int) {
	c := s.next()
	if c == nil {
		return
	}
	switch {
	case c.kind == vF32 || c.kind == vF64:
		f := float64(units) / float64(pow10[scale])
		if c.kind == vF32 {
			*slot[float32](c, s.n) = float32(f)
		} else {
			*slot[float64](c, s.n) = f
		}
	case c.scale >= scale:
		s.integer(c, units*pow10[c.scale-scale])
	default:
		s.integer(c, units/pow10[scale-c.scale])
	}
}

func (s *vectorSink) Str(v string) {
	if c := s.next(); c != nil {
		putString(s, c, v)
	}
}

func (s *vectorSink) Bytes(b []byte) {
	if c := s.next(); c != nil {
		putString(s, c, b)
	}
}

// putString writes DuckDB's string header (duckdb_string_t): the length, then up to 12 bytes inline, or the
// first 4 bytes and a pointer to the whole string, copied into the sink's memory.
func putString[T string | []byte](s *vectorSink, c *vecCol, v T) {
	if c.kind != vString {
		s.mismatch(c, "a string")
		return
	}
	h := slot[[16]byte](c, s.n)
	*(*uint32)(unsafe.Pointer(h)) = uint32(len(v))
	if len(v) <= 12 {
		clear(h[4+copy(h[4:], v):])
		return
	}
	b := s.text.alloc(len(v))
	copy(b, v)
	copy(h[4:8], b)
	// A plain word, not a pointer store: h is DuckDB's memory, and a typed store would run the write barrier on
	// the word it replaces, the last chunk's pointer into a block the arena may have let go and the collector
	// freed ("found bad pointer in Go heap"). The block is pinned and held by the arena until DuckDB copied it.
	*(*uintptr)(unsafe.Pointer(&h[8])) = uintptr(unsafe.Pointer(unsafe.SliceData(b)))
}

func (s *vectorSink) Date(days int32) {
	c := s.next()
	if c == nil {
		return
	}
	switch c.kind {
	case vDate:
		*slot[int32](c, s.n) = days
	case vTimestamp:
		*slot[int64](c, s.n) = int64(days) * 86400e6
	default:
		s.mismatch(c, "a date")
	}
}

func (s *vectorSink) Time(t time.Time) {
	c := s.next()
	if c == nil {
		return
	}
	switch c.kind {
	case vTimestamp:
		*slot[int64](c, s.n) = t.UnixMicro()
	case vDate:
		*slot[int32](c, s.n) = int32(math.Floor(float64(t.Unix()) / 86400))
	default:
		s.mismatch(c, "a time")
	}
}

func (s *vectorSink) Null() {
	c := s.next()
	if c == nil {
		return
	}
	if c.validity == nil {
		mapping.VectorEnsureValidityWritable(c.vec)
		c.validity = (*uint64)(mapping.VectorGetValidity(c.vec))
	}
	w := unsafe.Slice(c.validity, (s.size+63)/64)
	w[s.n/64] &^= 1 << (s.n % 64)
	if c.kind == vString {
		*slot[[16]byte](c, s.n) = [16]byte{}
	}
}

func (s *vectorSink) EndRow() error {
	if s.col != len(s.cols) {
		s.fail(fmt.Errorf("append to %s: a row of %d values for %d columns", s.table, s.col, len(s.cols)))
	}
	if s.err != nil {
		return s.err
	}
	s.col = 0
	s.n++
	s.rows++
	s.open++
	if s.n == s.size {
		s.appendChunk()
	}
	return s.err
}

// appendChunk hands the chunk's rows to the appender and readies the chunk for the next rows.
func (s *vectorSink) appendChunk() {
	if s.n == 0 {
		return
	}
	mapping.DataChunkSetSize(s.chunk, mapping.IdxT(s.n))
	if mapping.AppendDataChunk(s.app, s.chunk) == mapping.StateError {
		s.fail(fmt.Errorf("append to %s: %s", s.table, mapping.AppenderError(s.app)))
	}
	mapping.DataChunkReset(s.chunk)
	s.n = 0
	s.text.reset()
	s.vectors()
}

// End ends a part; its rows are flushed with the table's other parts when the sink moves to another table or
// closes.
func (s *vectorSink) End() (int64, error) { return s.rows, s.err }

// Finish flushes what the sink has appended; Load calls it before the sink is closed.
func (s *vectorSink) Finish() error { return s.closeAppender() }

// closeAppender appends the last chunk, flushes and closes the open appender, if any, and frees its chunk.
func (s *vectorSink) closeAppender() error {
	if s.app.Ptr == nil {
		return nil
	}
	if s.err == nil {
		s.appendChunk()
	}
	if s.err == nil && mapping.AppenderClose(s.app) == mapping.StateError {
		s.fail(fmt.Errorf("append to %s: %s", s.table, mapping.AppenderError(s.app)))
	}
	mapping.AppenderDestroy(&s.app)
	if s.chunk.Ptr != nil {
		mapping.DestroyDataChunk(&s.chunk)
	}
	for i := range s.types {
		mapping.DestroyLogicalType(&s.types[i])
	}
	s.types, s.cols, s.table, s.n = s.types[:0], nil, "", 0
	s.text.reset()
	err := s.err
	s.err = nil
	return err
}

func (s *vectorSink) Close() {
	s.closeAppender()
	s.text.free()
	if !s.keep {
		s.conn.Close()
	}
}

// arena holds the strings of one chunk. DuckDB reads them when the chunk is appended, from string headers in
// its own memory, so the blocks are pinned (Go's rule for Go memory that C memory points to) until then.
type arena struct {
	blocks [][]byte
	cur    []byte
	pin    runtime.Pinner
}

const arenaBlock = 1 << 20

func (a *arena) alloc(n int) []byte {
	if len(a.cur)+n > cap(a.cur) {
		b := make([]byte, 0, max(arenaBlock, n))
		a.pin.Pin(unsafe.SliceData(b[:1]))
		a.blocks = append(a.blocks, b)
		a.cur = b
	}
	off := len(a.cur)
	a.cur = a.cur[:off+n]
	return a.cur[off : off+n : off+n]
}

// reset makes the arena's memory free for the next chunk, keeping its first block.
func (a *arena) reset() {
	if len(a.blocks) == 0 {
		return
	}
	if len(a.blocks) > 1 {
		a.pin.Unpin()
		a.blocks = a.blocks[:1]
		a.pin.Pin(unsafe.SliceData(a.blocks[0][:1]))
	}
	a.cur = a.blocks[0][:0]
}

func (a *arena) free() {
	a.pin.Unpin()
	a.blocks, a.cur = nil, nil
}

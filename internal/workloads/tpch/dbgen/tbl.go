package dbgen

import (
	"context"
	"io"
	"strconv"
	"sync"
	"time"
)

// TBL encodes rows in dbgen's .tbl format: values separated by "|", a "|" after the last one, "\n" line ends.
type TBL struct {
	Buf  []byte
	Rows int64
}

func (t *TBL) Int(v int64) { t.Buf = append(strconv.AppendInt(t.Buf, v, 10), '|') }

func (t *TBL) Dec(units int64, scale int) {
	t.Buf = append(appendDec(t.Buf, units, scale), '|')
}

// appendDec appends units x 10^-scale as a decimal ("-0.05", "1234.50" for hundredths).
func appendDec(b []byte, units int64, scale int) []byte {
	if units < 0 {
		b = append(b, '-')
		units = -units
	}
	if scale == 2 {
		b = strconv.AppendInt(b, units/100, 10)
		f := units % 100
		return append(b, '.', byte('0'+f/10), byte('0'+f%10))
	}
	p := int64(1)
	for i := 0; i < scale; i++ {
		p *= 10
	}
	b = strconv.AppendInt(b, units/p, 10)
	if scale == 0 {
		return b
	}
	frac := strconv.AppendInt(nil, units%p+p, 10) // the leading 1 keeps the zeros
	return append(append(b, '.'), frac[1:]...)
}

func (t *TBL) Str(s string)   { t.Buf = append(append(t.Buf, s...), '|') }
func (t *TBL) Bytes(b []byte) { t.Buf = append(append(t.Buf, b...), '|') }
func (t *TBL) Date(d int32)   { t.Buf = append(append(t.Buf, dateText[d-EpochDay][:]...), '|') }
func (t *TBL) EndRow() error {
	t.Buf = append(t.Buf, '\n')
	t.Rows++
	return nil
}

var dateText = func() [totalDays][10]byte {
	var out [totalDays][10]byte
	base := time.Date(1992, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := range out {
		copy(out[d][:], base.AddDate(0, 0, d).Format("2006-01-02"))
	}
	return out
}()

// DateString is a generator day as YYYY-MM-DD.
func DateString(day int32) string { return string(dateText[day][:]) }

// Format of written files.
type Format int

const (
	FormatTBL Format = iota
	FormatCSV
)

type encoder interface {
	Writer
	bytes() []byte
	rows() int64
}

func (t *TBL) bytes() []byte { return t.Buf }
func (t *TBL) rows() int64   { return t.Rows }
func (c *CSV) bytes() []byte { return c.Buf }
func (c *CSV) rows() int64   { return c.Rows }

// WriteTable writes units [start, start+count) of a table as .tbl text (or CSV), generated in chunks by
// `threads` goroutines and written in order, so memory stays bounded whatever the scale. progress, when set,
// receives the number of rows of each chunk written.
func WriteTable(ctx context.Context, t Table, sf float64, start, count int64, threads int, out io.Writer, progress func(rows int64)) error {
	return WriteTableFormat(ctx, t, sf, start, count, threads, FormatTBL, out, progress)
}

// WriteTableFormat is WriteTable in a chosen format.
func WriteTableFormat(ctx context.Context, t Table, sf float64, start, count int64, threads int, f Format, out io.Writer, progress func(rows int64)) error {
	if threads < 1 {
		threads = 1
	}
	chunk := chunkUnits(t)
	type job struct {
		start, count int64
		done         chan encoder
		err          error
	}
	jobs := make(chan *job, threads)
	ordered := make(chan *job, threads*2)
	go func() {
		defer close(jobs)
		defer close(ordered)
		for s := start; s < start+count; s += chunk {
			j := &job{start: s, count: min(chunk, start+count-s), done: make(chan encoder, 1)}
			select {
			case ordered <- j:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- j:
			case <-ctx.Done():
				// queued for writing but never handed to a worker: it ends here, or the writer would wait on it
				j.err = ctx.Err()
				j.done <- nil
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if err := ctx.Err(); err != nil { // cancelled: the job ends unmade
					j.err = err
					j.done <- nil
					continue
				}
				var tb encoder = &TBL{Buf: make([]byte, 0, 1<<20)}
				if f == FormatCSV {
					tb = &CSV{Buf: make([]byte, 0, 1<<20)}
				}
				j.err = Generate(t, sf, j.start, j.count, tb)
				j.done <- tb
			}
		}()
	}
	var werr error
	for j := range ordered {
		tb := <-j.done
		if werr != nil {
			continue
		}
		if j.err != nil {
			werr = j.err
			continue
		}
		if _, err := out.Write(tb.bytes()); err != nil {
			werr = err
			continue
		}
		if progress != nil {
			progress(tb.rows())
		}
	}
	wg.Wait()
	if werr != nil {
		return werr
	}
	return ctx.Err()
}

func chunkUnits(t Table) int64 {
	switch t {
	case LineItem:
		return 5000
	case Orders, PartSupp:
		return 10000
	default:
		return 20000
	}
}

// CSV encodes rows as RFC 4180 CSV: comma-separated, fields quoted when they hold a comma or a quote.
type CSV struct {
	Buf   []byte
	Rows  int64
	first bool
}

func (c *CSV) sep() {
	if c.first {
		c.Buf = append(c.Buf, ',')
	}
	c.first = true
}

func (c *CSV) Int(v int64)                { c.sep(); c.Buf = strconv.AppendInt(c.Buf, v, 10) }
func (c *CSV) Dec(units int64, scale int) { c.sep(); c.Buf = appendDec(c.Buf, units, scale) }
func (c *CSV) Str(s string) {
	c.sep()
	c.Buf = appendCSV(c.Buf, s)
}
func (c *CSV) Bytes(b []byte) {
	c.sep()
	c.Buf = appendCSV(c.Buf, b)
}
func (c *CSV) Date(d int32) { c.sep(); c.Buf = append(c.Buf, dateText[d-EpochDay][:]...) }
func (c *CSV) EndRow() error {
	c.Buf = append(c.Buf, '\n')
	c.first = false
	c.Rows++
	return nil
}

func appendCSV[T string | []byte](b []byte, s T) []byte {
	quote := false
	for i := 0; i < len(s); i++ {
		if s[i] == ',' || s[i] == '"' || s[i] == '\n' {
			quote = true
			break
		}
	}
	if !quote {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

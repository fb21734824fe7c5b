package bulk

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/duckdb/duckdb-go/v2/mapping"
)

// The DuckDB sink writes every column type dbdyno's schemas use as DuckDB stores it: read back, each value is
// what the generator gave, across several chunks, NULLs, inline and out-of-line strings, strings longer than
// the sink's string blocks, and parts of one table sharing one appender.
func TestDuckDBSinkWritesEveryType(t *testing.T) {
	ctx := context.Background()
	tg, db := duckTarget(t)
	if _, err := db.Exec(`CREATE TABLE v (b BOOLEAN, t TINYINT, s SMALLINT, i INTEGER, g BIGINT, d4 DECIMAL(4,2),
		d9 DECIMAL(9,3), d18 DECIMAL(15,2), d38 DECIMAL(30,4), f REAL, x DOUBLE, dt DATE, ts TIMESTAMP, ds DOUBLE,
		c VARCHAR, n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	cols := []string{"b", "t", "s", "i", "g", "d4", "d9", "d18", "d38", "f", "x", "dt", "ts", "ds", "c", "n"}
	str := func(i int) string { // inline (<= 12 bytes), out of line, and now and then past a string block
		switch {
		case i%997 == 0:
			return strings.Repeat(fmt.Sprint(i%10), arenaBlock+10)
		case i%3 == 0:
			return fmt.Sprintf("s%d", i)
		}
		return fmt.Sprintf("a longer string number %d", i)
	}
	at := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	sink, err := OpenSink(ctx, tg, db)
	if err != nil {
		t.Fatal(err)
	}
	const rows = 5000
	for part := 0; part < 2; part++ {
		r, err := sink.Begin("v", cols)
		if err != nil {
			t.Fatal(err)
		}
		for i := part * rows / 2; i < (part+1)*rows/2; i++ {
			r.Int(int64(i % 2))
			r.Int(int64(i%200 - 100))
			r.Int(int64(i - 2500))
			r.Int(int64(i) * 100000)
			r.Int(int64(i) * 1e12)
			r.Dec(int64(i%9999-5000), 2)
			r.Dec(int64(i)*7, 1)
			r.Dec(int64(i)*1234567, 2)
			r.Int(int64(i) * 1e9)
			r.Dec(int64(i), 1)
			r.Int(int64(i))
			r.Date(int32(i - 2500))
			r.Time(at.Add(time.Duration(i) * time.Second))
			r.Dec(int64(i)*3, 3)
			r.Str(str(i))
			if i%7 == 0 {
				r.Null()
			} else {
				r.Int(int64(i))
			}
			if err := r.EndRow(); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := sink.End(); err != nil || n != rows/2 {
			t.Fatalf("part %d: %d rows, %v", part, n, err)
		}
	}
	if err := sink.(interface{ Finish() error }).Finish(); err != nil {
		t.Fatal(err)
	}
	sink.Close()

	q, err := db.Query(`SELECT b, t, s, i, g, d4::VARCHAR, d9::VARCHAR, d18::VARCHAR, d38::VARCHAR, f, x, dt::VARCHAR,
		ts::VARCHAR, ds, c, n FROM v ORDER BY s`)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	i := 0
	for q.Next() {
		var (
			b                        bool
			tt, s, ii, g             int64
			d4, d9, d18, d38, dt, ts string
			f                        float32
			x, ds                    float64
			c                        string
			n                        *int64
		)
		if err := q.Scan(&b, &tt, &s, &ii, &g, &d4, &d9, &d18, &d38, &f, &x, &dt, &ts, &ds, &c, &n); err != nil {
			t.Fatal(err)
		}
		want := []string{fmt.Sprint(i%2 == 1), fmt.Sprint(i%200 - 100), fmt.Sprint(i - 2500), fmt.Sprint(i * 100000),
			fmt.Sprint(int64(i) * 1e12), string(AppendDec(nil, int64(i%9999-5000), 2)), string(AppendDec(nil, int64(i)*700, 3)),
			string(AppendDec(nil, int64(i)*1234567, 2)), fmt.Sprintf("%d.0000", int64(i)*1e9), fmt.Sprint(float32(float64(i) / 10)),
			fmt.Sprint(float64(i)), string(AppendDate(nil, int32(i-2500))),
			at.Add(time.Duration(i) * time.Second).Format("2006-01-02 15:04:05.999999"), fmt.Sprint(float64(i*3) / 1000), str(i), "<nil>"}
		if i%7 != 0 {
			want[15] = fmt.Sprint(i)
		}
		nv := "<nil>"
		if n != nil {
			nv = fmt.Sprint(*n)
		}
		got := []string{fmt.Sprint(b), fmt.Sprint(tt), fmt.Sprint(s), fmt.Sprint(ii), fmt.Sprint(g), d4, d9, d18, d38,
			fmt.Sprint(f), fmt.Sprint(x), dt, ts, fmt.Sprint(ds), c, nv}
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("row %d column %s: %.40q, want %.40q", i, cols[k], got[k], want[k])
			}
		}
		i++
	}
	if err := q.Err(); err != nil {
		t.Fatal(err)
	}
	if i != rows {
		t.Fatalf("%d rows read back, want %d", i, rows)
	}
	// short strings, written into slots that held long ones in the chunk before, compare and group as strings
	short := 0
	for i := range rows {
		if len(str(i)) <= 12 {
			short++
		}
	}
	var distinct, found int
	if err := db.QueryRow(`SELECT count(DISTINCT c), count(*) FILTER (WHERE c = 's3' OR c = 's2997') FROM v
		WHERE length(c) <= 12`).Scan(&distinct, &found); err != nil {
		t.Fatal(err)
	}
	if distinct != short || found != 2 {
		t.Fatalf("%d distinct short strings, want %d; %d found by equality, want 2", distinct, short, found)
	}
}

// A value the column cannot take fails the row in one line naming the column's type, and a row with a value
// missing fails instead of shifting the next row's values.
func TestDuckDBSinkRefusesMismatches(t *testing.T) {
	ctx := context.Background()
	tg, db := duckTarget(t)
	if _, err := db.Exec(`CREATE TABLE m (i INTEGER, dt DATE)`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		row  func(Row)
		want string
	}{
		{func(r Row) { r.Str("x"); r.Date(1) }, "column 1 is INTEGER, the generator gave a string"},
		{func(r Row) { r.Int(1); r.Int(2) }, "column 2 is DATE, the generator gave a number"},
		{func(r Row) { r.Int(1) }, "a row of 1 values for 2 columns"},
	} {
		sink, err := OpenSink(ctx, tg, db)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sink.Begin("m", []string{"i", "dt"})
		if err != nil {
			t.Fatal(err)
		}
		c.row(r)
		if err := r.EndRow(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
		sink.Close()
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM m`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d rows after refused rows (%v), want 0", n, err)
	}
}

// duckTarget is a DuckDB file of the test's own, open.
func duckTarget(t *testing.T) (*engine.Target, *sql.DB) {
	tg, err := engine.Parse("duckdb://" + filepath.Join(t.TempDir(), "t.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := tg.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return tg, db
}

// A string header's pointer is stored into DuckDB's vector as a plain word: a typed pointer store there ran
// Go's write barrier on the word it replaced, the previous chunk's pointer into string memory already freed, and
// a collection running meanwhile stopped the process ("found bad pointer in Go heap", CI, a TPC-H refresh on
// DuckDB). The collector runs throughout while every chunk's slots, holding the last chunk's pointers into
// freed blocks, take new strings.
func TestDuckDBSinkUnderTheCollector(t *testing.T) {
	ctx := context.Background()
	tg, db := duckTarget(t)
	if _, err := db.Exec(`CREATE TABLE s (c VARCHAR)`); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	defer func() { close(stop); <-done }()
	sink, err := OpenSink(ctx, tg, db)
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	r, err := sink.Begin("s", []string{"c"})
	if err != nil {
		t.Fatal(err)
	}
	// Every chunk puts a long string in a block of its own and the rest in a fresh block: each replaces the
	// last chunk's block in the sink's list, so the slots not yet written point into blocks no longer held,
	// which a collection then frees. No allocation in the loop but the blocks.
	size := int(mapping.VectorSize())
	const chunks = 80
	rows := size * chunks
	long := strings.Repeat("x", arenaBlock+10)
	short := make([]string, size)
	for i := range short {
		short[i] = fmt.Sprintf("a string out of line, row %d", i)
	}
	var want int64
	for i := range rows {
		s := short[i%size]
		switch i % size {
		case 1:
			s = long
		case 3:
			runtime.GC() // the blocks replaced at rows 1 and 2 freed before slots 3 on are written
		}
		want += int64(len(s))
		r.Str(s)
		if err := r.EndRow(); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := sink.End(); err != nil || n != int64(rows) {
		t.Fatalf("%d rows, %v", n, err)
	}
	if err := sink.(interface{ Finish() error }).Finish(); err != nil {
		t.Fatal(err)
	}
	var got int64
	if err := db.QueryRow(`SELECT sum(length(c)) FROM s`).Scan(&got); err != nil || got != want {
		t.Fatalf("%d bytes of strings read back (%v), want %d", got, err, want)
	}
}

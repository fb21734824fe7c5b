// Package probe is dbdyno's capacity probes (dbdyno probe read|write|cpu|memory|mixed): what a database tier
// really gives, measured the way one of the studies this product reproduces measured cloud tiers that publish
// only relative units: MB/min read from storage, MB/min written through the log, CPU as a multiple of a
// reference machine, the data the engine keeps cached, and a skewed CRUD mix by threads. Each probe builds its
// own tables through the shared build lifecycle (bulk), once, and reuses them while they match what is asked.
package probe

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/lib/units"
)

//go:embed sql
var sqlFS embed.FS

//go:embed cpusql
var cpuFS embed.FS

// RowBytes is the size of one probe row as the probes count it: the declared widths of its values (bigint 8,
// boolean 1, smallint 2, five ints 20, bigint 8, money 8, double 8, date 4, timestamp 8, char(10), and the two
// strings, always full: 70 and 263), about the study's 410 bytes. MB figures are rows x RowBytes.
const RowBytes = 410

// CPURowBytes is the cpu probe's narrow row (the id and five ints).
const CPURowBytes = 28

// Columns are the probe rows' columns, in order.
var Columns = []string{"id", "flag", "tiny", "i1", "i2", "i3", "i4", "i5", "big", "amount", "ratio", "born", "stamp", "code", "name", "note"}

// CPUColumns are the cpu probe table's columns.
var CPUColumns = []string{"id", "i1", "i2", "i3", "i4", "i5"}

// The probes' datasets: one build record each (dbdyno_probe_KIND_meta), so that each probe's tables are built,
// kept and dropped on their own.
var (
	readSet   = dataset("read", "read probe", "dbdyno_probe_read_%d", sqlFS)
	writeSet  = dataset("write", "write probe", "dbdyno_probe_write_%d", sqlFS)
	cpuSet    = dataset("cpu", "cpu probe", "dbdyno_probe_cpu_%d", overlay{sub(cpuFS, "cpusql"), sqlFS})
	memorySet = dataset("memory", "memory probe", "dbdyno_probe_memory_%d", sqlFS)
	mixedSet  = dataset("mixed", "mixed probe", "dbdyno_probe_mixed_%d", sqlFS)
	datasets  = []*bulk.Dataset{readSet, writeSet, cpuSet, memorySet, mixedSet}
)

func dataset(kind, title, parts string, fsys fs.FS) *bulk.Dataset {
	return &bulk.Dataset{Workload: "probe_" + kind, Title: title, Parts: parts, FS: fsys, Command: "dbdyno probe " + kind}
}

func sub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return s
}

// overlay serves the first file system's files and falls back to the second's: the cpu probe's table is its
// own (cpusql), the rest of its files are every probe's.
type overlay [2]fs.FS

func (o overlay) Open(name string) (fs.File, error) {
	f, err := o[0].Open(name)
	if err == nil {
		return f, nil
	}
	return o[1].Open(name)
}

// Files lists the statements the probes run on an engine, file by file, as they run them ({{part}} is each
// probe table, {{meta}} a probe's build record, {{chunk}} the write probe's chunk table).
func Files(e *engine.Engine) ([]*sqlfile.File, error) {
	out, err := readSet.Files(e)
	if err != nil {
		return nil, err
	}
	cpu, err := sqlfile.Overlay(cpuSet.FS, e.Name, "schema.sql", e.Placeholder)
	if err != nil {
		return nil, err
	}
	cpu.Name = "cpusql/" + cpu.Name
	out = append(out, cpu)
	names := []string{"probe.sql"}
	if _, err := sqlfile.Overlay(sqlFS, e.Name, "plan.sql", e.Placeholder); err == nil {
		names = append(names, "plan.sql")
	}
	more, err := sqlfile.OverlayFiles(sqlFS, e.Name, names, e.Placeholder)
	return append(out, more...), err
}

// statements are probe.sql's statements for an engine.
func statements(e *engine.Engine) (sqlfile.Set, error) {
	f, err := sqlfile.Overlay(sqlFS, e.Name, "probe.sql", e.Placeholder)
	if err != nil {
		return nil, err
	}
	return f.Set(), nil
}

// explainPrefix is what precedes a query to show its plan on the engine, "" where dbdyno has none for it.
func explainPrefix(e *engine.Engine) string {
	f, err := sqlfile.Overlay(sqlFS, e.Name, "plan.sql", e.Placeholder)
	if err != nil {
		return ""
	}
	if st := f.Set()["explain"]; st != nil {
		return st.SQL
	}
	return ""
}

// mix64 is splitmix64's finalizer: every value of a row is a function of its id (and the stream), so any row
// can be made again, by anyone, without the others.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// text is the pool the rows' strings are cut from: printable, no delimiter, quote or backslash.
var text = func() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-"
	b := make([]byte, 1<<16+512)
	x := uint64(7)
	for i := range b {
		x = mix64(x)
		b[i] = alphabet[x%uint64(len(alphabet))]
	}
	return string(b)
}()

// Row is one probe row's values.
type Row struct {
	ID                 int64
	Flag               bool
	Tiny               int64
	I1, I2, I3, I4, I5 int64
	Big                int64
	Amount             int64 // 10^-4 units
	Ratio              float64
	Born               int32 // days since 1970-01-01
	Stamp              time.Time
	Code, Name, Note   string
}

var epoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// MakeRow is the row with the given id in stream v (0 for the loaded rows; an update draws a new version).
// The study's scan predicate holds for about 93% of rows (tiny 10..240); every value is in its column's range
// on every engine (int products in the cpu join stay below 2^31).
func MakeRow(id int64, v uint64) Row {
	h := mix64(uint64(id) ^ v<<48)
	g := mix64(h)
	k := mix64(g)
	return Row{
		ID: id, Flag: h&1 == 1, Tiny: int64(h>>1) % 256,
		I1: int64(h>>9) % 10000, I2: int64(h>>23) % 10000, I3: int64(g % 1000000), I4: 100000 + int64(g>>20)%1000000000, I5: int64(k % 1000),
		Big: int64(k >> 1), Amount: int64(g>>3) % 100_000_000_000, Ratio: float64(h%1000000) / 7,
		Born:  int32(18262 + int64(k>>5)%3650),
		Stamp: epoch.Add(time.Duration(int64(k>>7)%(86400*3650)) * time.Second),
		Code:  text[k%60000 : k%60000+10], Name: text[h%60000 : h%60000+70], Note: text[g%65000 : g%65000+263],
	}
}

// put writes a row into a bulk row.
func (r *Row) put(w bulk.Row) error {
	w.Int(r.ID)
	if r.Flag {
		w.Int(1)
	} else {
		w.Int(0)
	}
	w.Int(r.Tiny)
	w.Int(r.I1)
	w.Int(r.I2)
	w.Int(r.I3)
	w.Int(r.I4)
	w.Int(r.I5)
	w.Int(r.Big)
	w.Dec(r.Amount, 4)
	w.Dec(int64(r.Ratio*1e6), 6)
	w.Date(r.Born)
	w.Time(r.Stamp)
	w.Str(r.Code)
	w.Str(r.Name)
	w.Str(r.Note)
	return w.EndRow()
}

// args are the row as insert_row's arguments.
func (r *Row) args() []any {
	return []any{r.ID, r.Flag, r.Tiny, r.I1, r.I2, r.I3, r.I4, r.I5, r.Big, float64(r.Amount) / 1e4, r.Ratio,
		bulk.DayTime(r.Born), r.Stamp, r.Code, r.Name, r.Note}
}

// rowWork loads ids [from, to] of a table in parts of at most part rows.
func rowWork(table string, from, to, part int64, rows adder) []bulk.Work {
	var out []bulk.Work
	for lo := from; lo <= to; lo += part {
		hi := min(lo+part-1, to)
		out = append(out, bulk.Work{Name: fmt.Sprintf("%s rows %d-%d", table, lo, hi), Do: func(ctx context.Context, s bulk.Sink) error {
			_, err := bulk.Table(s, table, Columns, func(w bulk.Row) error {
				for id := lo; id <= hi; id++ {
					if id&4095 == 0 && ctx.Err() != nil {
						return ctx.Err()
					}
					r := MakeRow(id, 0)
					if err := r.put(w); err != nil {
						return err
					}
					rows.Add(1)
				}
				return nil
			})
			return err
		}})
	}
	return out
}

// adder is the build's row counter as the row generators see it.
type adder interface{ Add(int64) int64 }

// built is what a probe's build record says was built, as "key=value" pairs a probe compares with what it is
// asked for.
type built map[string]string

// ensure opens a probe's dataset on the target and builds it unless it holds what want says (the build record's
// keys): missing tables are built; tables built otherwise are replaced only with rebuild, else one line says
// so. work makes the build's parts.
func ensure(ctx context.Context, d *bulk.Dataset, t *engine.Target, want built, parts int, rebuild bool, threads int, bytes int64,
	work func(rows adder) []bulk.Work, out io.Writer) (*bulk.DB, error) {
	if _, err := os.Stat(t.Path); t.Engine.Embedded && err != nil {
		// a new database file: refuse a build the disk cannot hold before the file is made
		if err := bulk.CheckSpace(ctx, t, bytes); err != nil {
			return nil, err
		}
	}
	db, err := bulk.Open(ctx, d, t)
	if err != nil {
		return nil, err
	}
	want["parts"] = fmt.Sprint(parts) // the build record's count of numbered tables
	err = db.Ready(ctx)
	if err == nil {
		differs := ""
		for k, v := range want {
			if have, _ := db.Meta(ctx, k); have != v {
				differs += fmt.Sprintf(" %s %s (asked %s)", k, orNone(have), v)
			}
		}
		if differs == "" {
			return db, nil
		}
		if !rebuild {
			db.Close()
			return nil, fmt.Errorf("%s holds %s tables built otherwise:%s: add --rebuild to replace them, or ask for what was built", t, d.Title, differs)
		}
	} else if _, ok := err.(*bulk.NoSchemaError); !ok {
		db.Close()
		return nil, err
	}
	var rows counter
	var rec [][2]string
	for k, v := range want {
		if k != "parts" { // recorded by the build itself
			rec = append(rec, [2]string{k, v})
		}
	}
	fmt.Fprintf(out, "building the %s tables in %s (%d table(s), %s)\n", d.Title, t, parts, mb(bytes))
	drop := rebuild || err != nil
	var rep *bulk.Report
	for attempt := 1; ; attempt++ {
		rows.Store(0)
		rep, err = db.Build(ctx, bulk.Build{Threads: threads, Drop: drop, Record: rec, Parts: parts,
			Work: work(&rows), Rows: &rows.Int64, Bytes: bytes, Progress: out})
		// parallel loads into one table can deadlock on some engines (InnoDB's locks at the parts' edges): the
		// partial build is dbdyno's own, so it is dropped and built again
		if err == nil || attempt == 3 || ctx.Err() != nil || t.Engine.Classify(err) != engine.Retryable {
			break
		}
		fmt.Fprintf(out, "the load met a lock conflict (%v): building again (attempt %d of 3)\n", err, attempt+1)
		drop = true
	}
	if err != nil {
		db.Close()
		return nil, bulk.Interrupted(ctx, err)
	}
	fmt.Fprintln(out, rep.Summary())
	return db, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// mb writes a size in the binary units it is typed in (--table-size 16m is 16 MiB, not 16.8 MB).
func mb(b int64) string { return units.FormatBytes(b) }

package tpcc

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/progress"
)

// FileSink writes CSV files, one per table and unit, into a directory: DIR/<table>-w<warehouse>.csv.
type FileSink struct {
	Dir  string
	Unit Unit
	f    *os.File
	row  *bulk.Text
}

func (s *FileSink) Begin(table string, _ []string) (bulk.Row, error) {
	name := table
	if s.Unit.WID > 0 {
		name = fmt.Sprintf("%s-w%05d", table, s.Unit.WID)
	}
	f, err := os.Create(filepath.Join(s.Dir, name+".csv"))
	if err != nil {
		return nil, err
	}
	s.f, s.row = f, bulk.CSV(f)
	return s.row, nil
}

func (s *FileSink) End() (int64, error) {
	err := s.row.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return s.row.Rows, err
}

func (s *FileSink) Close() {}

// GenerateFiles writes the initial population of W warehouses as CSV files into dir.
func GenerateFiles(ctx context.Context, dir string, warehouses, threads int, seed uint64, out io.Writer) (int64, error) {
	if threads < 1 {
		threads = 1
	}
	r := NewRand(seed, 0)
	gen := &Generator{Seed: seed, C: NewLoadConstants(r), Now: time.Now().UTC().Truncate(time.Second)}
	var rows atomic.Int64
	gen.Count = func(n int64) { rows.Add(n) }
	work := make(chan Unit)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range work {
				if err := gen.Generate(u, &FileSink{Dir: dir, Unit: u}); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	stopProgress := progress.Start(out, "gen", &rows, TotalRows(warehouses))
	for _, u := range Units(warehouses) {
		if ctx.Err() != nil {
			break
		}
		work <- u
	}
	close(work)
	wg.Wait()
	stopProgress()
	if first != nil {
		return rows.Load(), first
	}
	return rows.Load(), ctx.Err()
}

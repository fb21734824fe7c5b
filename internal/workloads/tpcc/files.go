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

// FileSink writes CSV files, one per table and unit, into a directory: DIR/<table>-w<warehouse>.csv. Each is
// written under a temporary name (hidden, so no glob of the tables takes it) and renamed when complete: no
// file under its final name is ever truncated.
type FileSink struct {
	Dir  string
	Unit Unit
	f    *os.File
	row  *bulk.Text
	path string
}

func partialName(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".dbdyno-partial")
}

func (s *FileSink) Begin(table string, _ []string) (bulk.Row, error) {
	s.path = filepath.Join(s.Dir, fileName(table, s.Unit.WID))
	f, err := os.Create(partialName(s.path))
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", s.path, err)
	}
	s.f, s.row = f, bulk.CSV(f)
	return s.row, nil
}

func (s *FileSink) End() (int64, error) {
	err := s.row.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(partialName(s.path), s.path)
	}
	if err != nil {
		os.Remove(partialName(s.path))
		return s.row.Rows, fmt.Errorf("writing %s: %w", s.path, err)
	}
	return s.row.Rows, nil
}

func (s *FileSink) Close() {}

// GenerateFiles writes the initial population of W warehouses as CSV files into dir (CheckGenSpace checks
// the disk holds them first).
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

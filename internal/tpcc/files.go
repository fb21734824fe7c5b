package tpcc

import (
	"context"
	"github.com/dbdyno/dbdyno/internal/progress"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

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

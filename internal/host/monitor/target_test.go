package monitor

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

func TestMain(m *testing.M) {
	code := testsrv.Run(m)
	if weekStore.dir != "" {
		os.RemoveAll(weekStore.dir)
	}
	os.Exit(code)
}

// With --target the recording holds the server's transactions a second, counted from its own counters while
// a client commits; the checklist's TPS row is then measured.
func TestRecordTargetTPS(t *testing.T) {
	for _, url := range testsrv.Servers(t) {
		tg, db := testsrv.Open(t, url)
		e := tg.Engine
		if _, err := e.ReadTxCounts(context.Background(), db); err != nil {
			t.Logf("%s: %v", e.Title, err)
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var commits atomic.Int64
			done := make(chan struct{})
			go func() { // commits until the recording ends
				defer close(done)
				for ctx.Err() == nil {
					tx, err := db.BeginTx(ctx, nil)
					if err != nil {
						return
					}
					if _, err := tx.ExecContext(ctx, "SELECT 1"); err != nil {
						tx.Rollback()
						return
					}
					if tx.Commit() == nil {
						commits.Add(1)
					}
				}
			}()
			st, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			target, _ := engine.Parse(url)
			var tps float64
			var with int
			_, err = Record(ctx, st, Options{Name: "db", Interval: 500 * time.Millisecond, Duration: 3 * time.Second, Target: target,
				Stored: func(s Sample) {
					if s.TPS != nil {
						with++
						tps += *s.TPS * s.Seconds
					}
				}})
			cancel()
			<-done
			if err != nil {
				t.Fatal(err)
			}
			if with != 6 || tps <= 0 || commits.Load() == 0 {
				t.Fatalf("%d of 6 intervals with TPS, %.0f transactions counted, %d committed", with, tps, commits.Load())
			}
			c, err := ChecklistOf(context.Background(), st, "db", nil, nil, 1, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			if r, _ := c.Periods[0].Row(KeyTPS); r.Stat == nil || r.Max <= 0 {
				t.Errorf("the checklist's TPS row: %+v", r)
			}
		})
	}
}

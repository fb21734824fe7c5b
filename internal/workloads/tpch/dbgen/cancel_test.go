package dbgen

import (
	"context"
	"errors"
	"testing"
	"time"
)

// cancelOnWrite cancels the generation when the first chunk is written: Ctrl-C in the middle of `tpch gen`.
type cancelOnWrite struct {
	cancel func()
	n      int
}

func (w *cancelOnWrite) Write(b []byte) (int, error) {
	if w.n++; w.n == 1 {
		w.cancel()
	}
	return len(b), nil
}

// Ctrl-C in the middle of writing a table ends the writing every time: it deadlocked 2 of 2 times (a chunk
// queued for writing but never handed to a worker, then waited on forever).
func TestCancelMidTableNeverHangs(t *testing.T) {
	for i := 0; i < 25; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- WriteTableFormat(ctx, LineItem, 1, 1, 150_000, 4, FormatTBL, &cancelOnWrite{cancel: cancel}, nil)
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("attempt %d: %v, want context canceled", i, err)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("attempt %d: still writing 60s after the cancel", i)
		}
		cancel()
	}
}

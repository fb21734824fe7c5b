// Package progress prints progress lines for long work: rows done, rows per second and the time left.
package progress

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// Rows prints "what: pct  done/total rows  rate rows/s  ETA" every two seconds until stop closes, then a final
// line with the total and the mean rate. A total of 0 means unknown (no percentage or ETA).
func Rows(w io.Writer, what string, done *atomic.Int64, total int64, stop <-chan struct{}) {
	t0 := time.Now()
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			n := done.Load()
			rate := float64(n) / time.Since(t0).Seconds()
			if total <= 0 {
				fmt.Fprintf(w, "%s: %d rows  %.0f rows/s\n", what, n, rate)
				continue
			}
			eta := "0s"
			if total > n {
				eta = "?"
				if rate > 0 {
					eta = (time.Duration(float64(total-n)/rate) * time.Second).Truncate(time.Second).String()
				}
			}
			fmt.Fprintf(w, "%s: %5.1f%%  %d/%d rows  %.0f rows/s  ETA %s\n", what, min(100, 100*float64(n)/float64(total)), n, total, rate, eta)
		case <-stop:
			n := done.Load()
			el := time.Since(t0).Seconds()
			fmt.Fprintf(w, "%s: %d rows in %.1fs (%.0f rows/s)\n", what, n, el, float64(n)/max(el, 1e-9))
			return
		}
	}
}

// Start runs Rows in the background; the returned function stops it and waits for the final line.
func Start(w io.Writer, what string, done *atomic.Int64, total int64) (stop func()) {
	ch := make(chan struct{})
	fin := make(chan struct{})
	go func() { defer close(fin); Rows(w, what, done, total, ch) }()
	return func() { close(ch); <-fin }
}

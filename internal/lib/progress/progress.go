// Package progress prints progress lines for long work: rows done, rows per second and the time left, for the
// whole and for each part under way (a table of a load).
package progress

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync/atomic"
	"time"
)

// Part is one named part of the work (a table) with rows of its own: the lines show its share, rate and time
// left while it is under way.
type Part struct {
	Name  string
	Total int64
	Done  atomic.Int64
	began time.Time // the last tick it had no rows yet
}

// Interval is the time between two lines.
var Interval = 2 * time.Second

// Rows prints "what: pct  done/total rows  rate rows/s  ETA" every Interval until stop closes, followed by
// each part under way, then a final line with the total and the mean rate. A total of 0 means unknown (no
// percentage or ETA).
func Rows(w io.Writer, what string, done *atomic.Int64, total int64, stop <-chan struct{}, parts ...*Part) {
	t0 := time.Now()
	for _, p := range parts {
		p.began = t0
	}
	tick := time.NewTicker(Interval)
	defer tick.Stop()
	for {
		select {
		case now := <-tick.C:
			n := done.Load()
			rate := float64(n) / now.Sub(t0).Seconds()
			if total <= 0 {
				fmt.Fprintf(w, "%s: %d rows  %.0f rows/s\n", what, n, rate)
				continue
			}
			fmt.Fprintf(w, "%s: %5.1f%%  %d/%d rows  %.0f rows/s  ETA %s%s\n", what, min(100, 100*float64(n)/float64(total)), n, total, rate,
				eta(total-n, rate), underWay(parts, now))
		case <-stop:
			n := done.Load()
			el := time.Since(t0).Seconds()
			fmt.Fprintf(w, "%s: %d rows in %.1fs (%.0f rows/s)\n", what, n, el, float64(n)/max(el, 1e-9))
			return
		}
	}
}

func eta(left int64, rate float64) string {
	switch {
	case left <= 0:
		return "0s"
	case rate <= 0:
		return "?"
	}
	return (time.Duration(float64(left)/rate) * time.Second).Truncate(time.Second).String()
}

// underWay is "  [name pct rate rows/s ETA t; ...]" for the parts begun and not finished at now.
func underWay(parts []*Part, now time.Time) string {
	var out []string
	for _, p := range parts {
		d := p.Done.Load()
		if d == 0 {
			p.began = now
			continue
		}
		if d >= p.Total {
			continue
		}
		rate := float64(d) / now.Sub(p.began).Seconds()
		// a part under way reads at most 99% (a total may be an estimate, as TPC-H's lineitem rows are)
		out = append(out, fmt.Sprintf("%s %.0f%% %.0f rows/s ETA %s", p.Name, min(99, math.Floor(100*float64(d)/float64(p.Total))), rate,
			eta(p.Total-d, rate)))
	}
	if len(out) == 0 {
		return ""
	}
	return "  [" + strings.Join(out, "; ") + "]"
}

// Start runs Rows in the background; the returned function stops it and waits for the final line.
func Start(w io.Writer, what string, done *atomic.Int64, total int64, parts ...*Part) (stop func()) {
	ch := make(chan struct{})
	fin := make(chan struct{})
	go func() { defer close(fin); Rows(w, what, done, total, ch, parts...) }()
	return func() { close(ch); <-fin }
}

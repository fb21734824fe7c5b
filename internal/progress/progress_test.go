package progress

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The progress lines name each table under way with its share and time left, and neither a table not begun nor
// one finished.
func TestLinesShowThePartsUnderWay(t *testing.T) {
	Interval = 20 * time.Millisecond
	defer func() { Interval = 2 * time.Second }()
	var done atomic.Int64
	lineitem := &Part{Name: "lineitem", Total: 1000}
	orders := &Part{Name: "orders", Total: 100}
	region := &Part{Name: "region", Total: 5}
	var buf bytes.Buffer
	stop := Start(&buf, "load", &done, 1105, lineitem, orders, region)
	time.Sleep(50 * time.Millisecond)
	lineitem.Done.Store(500)
	orders.Done.Store(100)
	done.Store(600)
	time.Sleep(80 * time.Millisecond)
	stop()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) < 3 {
		t.Fatalf("too few lines:\n%s", buf.String())
	}
	last := lines[len(lines)-2]
	if !strings.Contains(last, "load:  54.3%  600/1105 rows") || !strings.Contains(last, "[lineitem 50% ") ||
		!strings.Contains(last, "ETA") || strings.Contains(last, "orders") || strings.Contains(last, "region") {
		t.Fatalf("last progress line %q: want the whole at 54.3%% and lineitem alone, at 50%%", last)
	}
	if strings.Contains(lines[0], "[") {
		t.Fatalf("first line %q names a table before any has rows", lines[0])
	}
	if !strings.HasPrefix(lines[len(lines)-1], "load: 600 rows in ") {
		t.Fatalf("final line %q", lines[len(lines)-1])
	}
}

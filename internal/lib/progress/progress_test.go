package progress

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The progress lines name each table under way with its share and time left (below 100% until it ends), and
// neither a table not begun nor one finished.
func TestLinesShowThePartsUnderWay(t *testing.T) {
	Interval = 20 * time.Millisecond
	defer func() { Interval = 2 * time.Second }()
	var done atomic.Int64
	lineitem := &Part{Name: "lineitem", Total: 1000}
	orders := &Part{Name: "orders", Total: 100}
	region := &Part{Name: "region", Total: 5}
	customer := &Part{Name: "customer", Total: 1000}
	nation := &Part{Name: "nation", Total: 25} // not begun
	var buf lines
	stop := Start(&buf, "load", &done, 2130, lineitem, orders, region, customer, nation)
	// each step follows a line printed (an event), not a sleep a loaded machine may outlast
	buf.waitFor(t, "load:")
	lineitem.Done.Store(500)
	region.Done.Store(4) // 80%: under way
	orders.Done.Store(100)
	customer.Done.Store(999) // 99.9%: still under way, read as 99%
	done.Store(1603)
	buf.waitFor(t, "1603/2130")
	stop()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) < 3 {
		t.Fatalf("too few lines:\n%s", buf.String())
	}
	last := lines[len(lines)-2]
	if !strings.Contains(last, "load:  75.3%  1603/2130 rows") || !strings.Contains(last, "[lineitem 50% ") ||
		!strings.Contains(last, "ETA") || strings.Contains(last, "orders") || strings.Contains(last, "nation") || !strings.Contains(last, "customer 99% ") || !strings.Contains(last, "region 80% ") {
		t.Fatalf("last progress line %q: want the whole at 75.3%%, lineitem at 50%%, region at 80%%, customer at 99%%, not orders (done) nor nation (not begun)", last)
	}
	if strings.Contains(lines[0], "[") {
		t.Fatalf("first line %q names a table before any has rows", lines[0])
	}
	if !strings.HasPrefix(lines[len(lines)-1], "load: 1603 rows in ") {
		t.Fatalf("final line %q", lines[len(lines)-1])
	}
}

// lines is a writer the test reads while the progress goroutine writes.
type lines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// waitFor waits until a whole line containing s is written; after a minute (a hang, not a slow machine) it fails.
func (l *lines) waitFor(t *testing.T, s string) {
	t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		text := l.String()
		if i := strings.LastIndex(text, s); i >= 0 && strings.Contains(text[i:], "\n") {
			return
		}
	}
	t.Fatalf("no line with %q in a minute:\n%s", s, l.String())
}

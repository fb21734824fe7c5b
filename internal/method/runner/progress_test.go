package runner

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"
)

// A progress line fits a terminal however many transaction types the workload has: up to six each show their
// percentiles, beyond that the key type's and the slowest p95 (the web store's 14 steps made lines of over 300
// characters). A type is abbreviated by its words' first letters and its numbers whole (type_13 is T13; it was
// "T" and a control character).
func TestProgressLineFits(t *testing.T) {
	for _, n := range []int{5, 14} {
		var names []string
		st := &stats{}
		for i := range n {
			names = append(names, fmt.Sprintf("type_%d", i))
			st.interval = append(st.interval, newTxStat())
			st.total = append(st.total, newTxStat())
			st.record(i, time.Duration(i+1)*time.Millisecond, Outcome{}, true)
		}
		var out bytes.Buffer
		cfg := Config{Progress: &out, KeyTx: 1, KeyLabel: "KPM"}
		cfg.defaults()
		st.intervalLine(cfg, names, 10*time.Second, 10*time.Second, true, "")
		line := strings.TrimSpace(out.String())
		switch {
		case n <= progressTypes && strings.Count(line, "/") < 2*n:
			t.Errorf("%d types: not every type's percentiles: %s", n, line)
		case n > progressTypes && (len(line) > 160 || !strings.Contains(line, "slowest p95 T13 14.0") || strings.ContainsFunc(line, unicode.IsControl)):
			t.Errorf("%d types: a line of %d characters: %q", n, len(line), line)
		}
	}
}

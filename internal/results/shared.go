package results

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// What the run commands and the results commands share: labels, the aggregate of several targets' metrics,
// how a metric's value is written, paths as the user can find them, a shard's clock offset.

// Labels are short: they name systems and settings, and travel in every list, result and report.
const maxLabelKey, maxLabelValue = 64, 256

func short(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// ParseLabels reads key=value pairs; numbers stay numbers (price_per_hour=1.008).
func ParseLabels(in []string) (map[string]any, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := map[string]any{}
	for _, l := range in {
		k, v, ok := strings.Cut(l, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("--label %q: use key=value, e.g. system=E16ds_v4", short(l))
		}
		if len(k) > maxLabelKey || len(v) > maxLabelValue {
			return nil, fmt.Errorf("--label %q: a label's key may hold %d characters and its value %d", short(l), maxLabelKey, maxLabelValue)
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			out[k] = f
		} else {
			out[k] = v
		}
	}
	return out, nil
}

// Only is the one key of a set, or "several".
func Only(set map[string]bool) string {
	if len(set) == 1 {
		for k := range set {
			return k
		}
	}
	return result.Several
}

// Combine adds up the parts' metrics marked "sum" and takes the largest of those marked "max"; a metric some
// part lacks is left out.
func Combine(parts []*result.Result) []result.Metric {
	var out []result.Metric
	for _, m := range parts[0].Metrics {
		if m.Aggregate == "" {
			continue
		}
		v, all := m.Value, true
		for _, p := range parts[1:] {
			found := false
			for _, o := range p.Metrics {
				if o.Name == m.Name {
					found = true
					if m.Aggregate == "sum" {
						v += o.Value
					} else if o.Value > v {
						v = o.Value
					}
				}
			}
			all = all && found
		}
		if all {
			m.Value = v
			out = append(out, m)
		}
	}
	return out
}

// WithUnit writes a metric's value with its unit, unless its name says it ("read MB/min 5047.1"): the store's
// headline, the medians and the aggregate line state what the number counts.
func WithUnit(m result.Metric, v float64) string { return UnitAfter(m, compare.Format(v)) }

// UnitAfter is a metric's figure, already written, with its unit after it where its name does not end in it.
func UnitAfter(m result.Metric, s string) string {
	if m.Unit != "" && !strings.HasSuffix(m.Name, m.Unit) {
		s += " " + m.Unit
	}
	return s
}

// AbsPath is a path as the user can find it from anywhere.
func AbsPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// ClockOffset is the offset a shard recorded (reference − local; 0 without --clock-ref).
func ClockOffset(opts map[string]any) time.Duration {
	c, ok := opts["clock"].(map[string]any)
	if !ok {
		return 0
	}
	ms, _ := c["offset_ms"].(float64)
	return time.Duration(ms * float64(time.Millisecond))
}

package sizing

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/host/monitor"
	"github.com/dbdyno/dbdyno/internal/lib/units"
)

// ReadNeed reads --need: a checklist file (dbdyno monitor checklist NAME --output-format json) at a percentile,
// for one period or the largest figure over every period; or inline figures, iops=16000,mbps=200,io-size=8k,gib=2048.
func ReadNeed(arg, pct, period string) (Need, error) {
	if strings.Contains(arg, "=") {
		if _, err := os.Stat(arg); errors.Is(err, fs.ErrNotExist) {
			return inlineNeed(arg)
		}
	}
	b, err := os.ReadFile(arg)
	if err != nil {
		return Need{}, fmt.Errorf("--need: %w", err)
	}
	var c monitor.Checklist
	if err := json.Unmarshal(b, &c); err != nil || len(c.Periods) == 0 {
		return Need{}, fmt.Errorf("--need %s is not a checklist (dbdyno monitor checklist NAME --output-format json): %v", arg, err)
	}
	return FromChecklist(&c, pct, period, arg)
}

// FromChecklist takes IOPS, throughput and request size at the percentile: of one period, or the largest of
// every period's (the storage must meet each).
func FromChecklist(c *monitor.Checklist, pct, period, file string) (Need, error) {
	n := Need{From: fmt.Sprintf("%s %s", file, pct)}
	n.Asked = Asked{File: file, Name: c.Name, Percentile: pct, Period: period, Periods: len(c.Periods), Growth: c.Growth,
		Of: map[string]string{}, Scaled: map[string]bool{}}
	found := false
	for _, p := range c.Periods {
		if period != "" && p.Name != period {
			continue
		}
		found = true
		for _, k := range []struct {
			key string
			to  *float64
		}{{monitor.KeyIOPS, &n.IOPS}, {monitor.KeyMBps, &n.MBps}, {monitor.KeyIOSize, &n.IOSizeKB}} {
			r, ok := p.Row(k.key)
			if !ok || r.Stat == nil {
				continue
			}
			v, err := r.Value(pct)
			if err != nil {
				return Need{}, fmt.Errorf("--percentile: %v", err)
			}
			if v > *k.to || n.Asked.Of[k.key] == "" {
				n.Asked.Of[k.key], n.Asked.Scaled[k.key] = p.Name+" ("+p.Spec+")", r.Scaled
			}
			*k.to = max(*k.to, v)
		}
	}
	for _, p := range c.Periods { // the read share: the periods' average, the largest (a read cache is sized for it)
		if period != "" && p.Name != period {
			continue
		}
		if r, ok := p.Row(monitor.KeyReadPct); ok && r.Stat != nil {
			if r.Avg > n.ReadPct || n.Asked.Of[monitor.KeyReadPct] == "" {
				n.Asked.Of[monitor.KeyReadPct] = p.Name + " (" + p.Spec + ")"
			}
			n.ReadPct = max(n.ReadPct, r.Avg)
		}
	}
	if !found {
		var names []string
		for _, p := range c.Periods {
			names = append(names, p.Name)
		}
		return Need{}, fmt.Errorf("--period %s: the checklist's periods are %s", period, strings.Join(names, ", "))
	}
	if period != "" {
		n.From += " of " + period
	} else if len(c.Periods) > 1 {
		n.From += ", the largest of every period"
	}
	if c.Growth != 1 {
		n.From += fmt.Sprintf(", growth x%g", c.Growth)
	}
	return n, nil
}

func inlineNeed(s string) (Need, error) {
	n := Need{From: "--need " + s, Asked: Asked{Inline: s}}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Need{}, fmt.Errorf("--need %q: write key=value pairs (iops, mbps, io-size, gib)", part)
		}
		var err error
		var x float64
		switch k {
		case "iops", "mbps", "gib", "read":
			x, err = strconv.ParseFloat(v, 64)
		case "io-size":
			var b int64
			b, err = units.ParseSize(v)
			x = float64(b) / 1024
		default:
			return Need{}, fmt.Errorf("--need: unknown key %q (iops, mbps, io-size, gib, read)", k)
		}
		if err != nil || x < 0 {
			return Need{}, fmt.Errorf("--need %s=%s: not a non-negative figure", k, v)
		}
		switch k {
		case "iops":
			n.IOPS = x
		case "mbps":
			n.MBps = x
		case "gib":
			n.GiB = x
		case "read":
			if x > 100 {
				return Need{}, fmt.Errorf("--need read=%s: a percentage of the operations, 0 to 100", v)
			}
			n.ReadPct = x
		case "io-size":
			n.IOSizeKB = x
		}
	}
	return n, nil
}

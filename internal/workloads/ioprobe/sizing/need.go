package sizing

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/host/monitor"
	"github.com/dbdyno/dbdyno/internal/lib/units"
)

// checklistHow is how a checklist file is written, for the refusals of one that is not.
const checklistHow = "write one with dbdyno monitor checklist NAME --output-format json > FILE, or give the figures, --need iops=16000,mbps=200"

// ReadNeed reads --need: a checklist file (dbdyno monitor checklist NAME --output-format json) at a percentile,
// for one period or the largest figure over every period; or inline figures, iops=16000,mbps=200,io-size=8k,gib=2048.
// A file that is missing, unreadable or not a checklist is one error naming it and saying how to write one.
func ReadNeed(arg, pct, period string) (Need, error) {
	if strings.Contains(arg, "=") {
		if _, err := os.Stat(arg); errors.Is(err, fs.ErrNotExist) {
			return inlineNeed(arg)
		}
	}
	b, err := os.ReadFile(arg)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Need{}, fmt.Errorf("--need %s: no such file: it takes a checklist file (%s)", arg, checklistHow)
	case err != nil:
		why := err.Error()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			why = pe.Err.Error() // "permission denied", "is a directory": the path is named already
		}
		return Need{}, fmt.Errorf("--need %s: cannot read it (%s): it takes a checklist file (%s)", arg, why, checklistHow)
	}
	var c monitor.Checklist
	if err := json.Unmarshal(b, &c); err != nil {
		var syn *json.SyntaxError
		switch {
		case errors.As(err, &syn) || len(strings.TrimSpace(string(b))) == 0:
			return Need{}, fmt.Errorf("--need %s is not a checklist: it is not JSON (%v): %s", arg, err, checklistHow)
		case !strings.HasPrefix(strings.TrimSpace(string(b)), "{"):
			return Need{}, fmt.Errorf("--need %s is not a checklist: it is JSON but not an object: %s", arg, checklistHow)
		}
		return Need{}, fmt.Errorf("--need %s is not a checklist: %s (%v): %s", arg, whatJSON(b), err, checklistHow)
	}
	if len(c.Periods) == 0 {
		return Need{}, fmt.Errorf("--need %s is not a checklist: %s: %s", arg, whatJSON(b), checklistHow)
	}
	return FromChecklist(&c, pct, period, arg)
}

// whatJSON says what a JSON document that is not a checklist is, for the refusal: a dbdyno result, or what
// it lacks.
func whatJSON(b []byte) string {
	var doc map[string]json.RawMessage
	if json.Unmarshal(b, &doc) != nil {
		return "it is JSON but not an object"
	}
	var r struct {
		Schema   int    `json:"schema_version"`
		Workload string `json:"workload"`
	}
	if _, ok := doc["schema_version"]; ok && json.Unmarshal(b, &r) == nil && r.Workload != "" {
		return fmt.Sprintf("it is a dbdyno result (a %s run), which io size does not read", r.Workload)
	}
	if raw, ok := doc["periods"]; ok {
		if t := strings.TrimSpace(string(raw)); t == "[]" || t == "null" {
			return "its periods are empty"
		}
		return "its periods are not a checklist's"
	}
	return "it has no periods"
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

// needMax is the most --need takes of each figure: beyond any storage a catalogue offers (a billion IOPS,
// a petabyte a second, a zebibyte), far within what the sizing's arithmetic and its output print exactly.
var needMax = map[string]struct {
	max  float64
	unit string
}{
	"iops":    {1e9, "IOPS"},
	"mbps":    {1e9, "MB/s"},
	"gib":     {1e12, "GiB"},
	"io-size": {1 << 20, "KiB (1 GiB) a request"},
}

func inlineNeed(s string) (Need, error) {
	n := Need{From: "--need " + s, Asked: Asked{Inline: s}}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Need{}, fmt.Errorf("--need %q: write key=value pairs (iops, mbps, io-size, gib, read), e.g. iops=16000,mbps=200", part)
		}
		if seen[k] {
			return Need{}, fmt.Errorf("--need %s: %s is given twice: give each figure once", s, k)
		}
		seen[k] = true
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
		if err == nil && math.IsInf(x, 0) { // "Inf" written out: not a figure
			err = strconv.ErrSyntax
		}
		if errors.Is(err, strconv.ErrRange) && k != "io-size" {
			x, err = math.Inf(1), nil // a number out of float64's range: refused below as too large
		}
		if err != nil || x < 0 || math.IsNaN(x) || math.IsInf(x, -1) {
			return Need{}, fmt.Errorf("--need %s=%s: not a non-negative figure (e.g. %s=%s)", k, v, k, figureOf(k))
		}
		if m, ok := needMax[k]; ok && x > m.max {
			return Need{}, fmt.Errorf("--need %s=%s: more than %s %s, beyond any storage: give the figure needed (e.g. %s=%s)", k, v, num(m.max), m.unit, k, figureOf(k))
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

// figureOf is a figure of each key, for a refusal.
func figureOf(k string) string {
	return map[string]string{"iops": "16000", "mbps": "200", "gib": "2048", "read": "90", "io-size": "8k"}[k]
}

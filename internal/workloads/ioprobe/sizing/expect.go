package sizing

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Expect is what a disk is advertised to deliver (io run --expect P30, or iops=5000,mbps=200).
type Expect struct {
	Name string
	IOPS float64 // 0: not stated
	MBps float64 // MiB/s; 0: not stated
}

// ParseExpect reads --expect: a disk of the catalogue by name, or iops=N,mbps=N.
func ParseExpect(s, catalog string) (Expect, error) {
	if !strings.Contains(s, "=") {
		if catalog == "" {
			return Expect{}, fmt.Errorf("--expect %s names a disk: give the --catalog that lists it (or write --expect iops=N,mbps=N)", s)
		}
		c, err := Load(catalog)
		if err != nil {
			return Expect{}, err
		}
		d, ok := c.Disk(s)
		if !ok {
			return Expect{}, fmt.Errorf("--expect %s: no such disk in %s (it has %s)", s, catalog, sortedNames(c))
		}
		return Expect{Name: d.Name, IOPS: d.IOPS, MBps: d.MBps}, nil
	}
	e := Expect{Name: s}
	for _, part := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x <= 0 {
			return Expect{}, fmt.Errorf("--expect %s=%s: a figure above 0", k, v)
		}
		switch k {
		case "iops":
			e.IOPS = x
		case "mbps":
			e.MBps = x
		default:
			return Expect{}, fmt.Errorf("--expect: unknown key %q (iops, mbps, or a disk of --catalog)", k)
		}
	}
	return e, nil
}

// Second is one second of a test: IOPS and MiB/s.
type Second struct{ IOPS, MBps float64 }

// Compare prints the measured figures against the advertised ones at the test's mean request size (KiB),
// and flags a flat top: most seconds within 3% under a cap (or up to 2% over it), the sign of a device held at
// its cap (throttling) rather than one running out of work.
func (e Expect) Compare(meanKB, iops, mbps float64, series []Second) []string {
	ai, am := AtIOSize(e.IOPS, e.MBps, meanKB)
	var out []string
	pct := func(got, adv float64, format string) string {
		if adv == 0 || math.IsInf(adv, 1) {
			return "not stated"
		}
		return fmt.Sprintf("%.0f%% of "+format+" advertised", 100*got/adv, adv)
	}
	out = append(out, fmt.Sprintf("expect %s at %.1f KB requests: %.0f IOPS (%s), %.1f MB/s (%s)", e.Name, meanKB, iops, pct(iops, ai, "%.0f"), mbps, pct(mbps, am, "%.1f")))
	flat := func(what string, cap float64, v func(Second) float64) {
		if cap <= 0 || math.IsInf(cap, 1) || len(series) < 2 {
			return
		}
		n := 0
		for _, s := range series {
			if x := v(s); x >= 0.97*cap && x <= 1.02*cap {
				n++
			}
		}
		if 2*n > len(series) {
			out = append(out, fmt.Sprintf("flat top at the %s cap (%.0f): %d of %d seconds within 3%% of it: the device is held at its cap (throttled)", what, cap, n, len(series)))
		}
	}
	// the MB/s cap binds when it gives fewer IOPS at this size than the IOPS cap
	if e.MBps > 0 && meanKB > 0 && (e.IOPS == 0 || e.MBps*1024/meanKB < e.IOPS) {
		flat("MB/s", e.MBps, func(s Second) float64 { return s.MBps })
	} else {
		flat("IOPS", e.IOPS, func(s Second) float64 { return s.IOPS })
	}
	return out
}

package monitor

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// week is a synthetic load whose periods are known: two weeks of 10-minute intervals on sda, Monday to Friday
// 11:00-13:00 at 5,000 IOPS (peak), 09:00-11:00 and 13:00-17:00 at 1,000, 07:00-09:00 and 17:00-22:00 at 300
// (both normal), every other hour (nights, weekends) at 10 (off).
func week(t *testing.T, loc *time.Location) []Sample {
	start := time.Date(2026, 11, 16, 0, 0, 0, 0, loc) // a Monday
	if start.Weekday() != time.Monday {
		t.Fatal(start.Weekday())
	}
	var out []Sample
	for i := 0; i < 14*24*6; i++ {
		from := start.Add(time.Duration(i) * 10 * time.Minute)
		h, wd := from.Hour(), from.Weekday()
		iops := 10
		if wd >= time.Monday && wd <= time.Friday {
			switch {
			case h >= 11 && h < 13:
				iops = 5000
			case h >= 9 && h < 17:
				iops = 1000
			case h >= 7 && h < 22:
				iops = 300
			}
		}
		ops := uint64(iops * 600)
		out = append(out, Sample{At: from.Add(10 * time.Minute), Seconds: 600, Devices: map[string]Delta{"sda": {Reads: ops, ReadBytes: ops * 8192}}})
	}
	return out
}

// The rule finds the periods the synthetic load was made of: peak the weekday lunch hours (the 10 hours of 168
// above the 90th percentile, 1,000 IOPS), off every hour at 10 IOPS (at or below the 25th percentile), normal
// the rest; each period's checklist holds only its own intervals.
func TestPeriodsFoundFromTheLoad(t *testing.T) {
	for _, loc := range []*time.Location{time.UTC, time.FixedZone("UTC+5", 5*3600)} {
		ss := week(t, loc)
		c := BuildFound("w", ss, nil, 1, loc)
		got := map[string]Period{}
		for _, p := range c.Periods {
			got[p.Name] = p
		}
		want := map[string]struct {
			spec      string
			intervals int
			iops      float64
		}{
			"peak":   {"Mon-Fri 11:00-13:00", 2 * 5 * 2 * 6, 5000},
			"normal": {"Mon-Fri 07:00-11:00,13:00-22:00", 2 * 5 * 13 * 6, 300}, // 7 hours at 300, 6 at 1,000
			"off":    {"Mon-Fri 00:00-07:00,22:00-24:00; Sat-Sun 00:00-24:00", 2 * (5*9 + 48) * 6, 10},
		}
		if len(c.Periods) != 3 {
			t.Fatalf("%v: %d periods: %+v", loc, len(c.Periods), c.Periods)
		}
		for name, w := range want {
			p := got[name]
			if p.Spec != w.spec || p.Intervals != w.intervals {
				t.Errorf("%v %s: %q with %d intervals, want %q with %d", loc, name, p.Spec, p.Intervals, w.spec, w.intervals)
			}
			r, _ := p.Row(KeyIOPS)
			if r.Stat == nil || r.P50 != w.iops {
				t.Errorf("%v %s: IOPS %+v, want p50 %g", loc, name, r.Stat, w.iops)
			}
		}
		if !strings.Contains(c.PeriodsNote, "above the 90th percentile of the hourly means (1000 IOPS), off-hours at or below the 25th (10.0 IOPS)") {
			t.Errorf("note: %s", c.PeriodsNote)
		}
		var tab bytes.Buffer
		c.WriteTable(&tab)
		if !strings.Contains(tab.String(), "peak (Mon-Fri 11:00-13:00): 120 intervals") || !strings.Contains(tab.String(), "periods found from the load") {
			t.Errorf("table:\n%s", tab.String())
		}
	}
}

// A flat load is one period, normal; a recording shorter than a day of distinct hours is one period of
// everything, and says why.
func TestPeriodsFlatAndShort(t *testing.T) {
	ss := week(t, time.UTC)
	for i := range ss {
		ss[i].Devices = map[string]Delta{"sda": {Reads: 600}}
	}
	c := BuildFound("flat", ss, nil, 1, time.UTC)
	if len(c.Periods) != 1 || c.Periods[0].Name != "normal" || c.Periods[0].Intervals != len(ss) || !strings.Contains(c.PeriodsNote, "the same mean IOPS") {
		t.Errorf("flat: %+v %s", c.Periods, c.PeriodsNote)
	}
	short := BuildFound("short", ss[:6*23], nil, 1, time.UTC)
	if len(short.Periods) != 1 || short.Periods[0].Name != "all" || !strings.Contains(short.PeriodsNote, "covers 23 hour(s) of the week, fewer than 24") {
		t.Errorf("short: %+v %s", short.Periods, short.PeriodsNote)
	}
	var h [168]bool
	h[0], h[1], h[23], h[24*6+23] = true, true, true, true
	if s := HoursSpec(h); s != "Mon 00:00-02:00,23:00-24:00; Sun 23:00-24:00" {
		t.Errorf("HoursSpec: %q", s)
	}
}

package monitor

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Finding the periods from the load itself (monitor checklist without --periods).
//
// The rule: every interval counts in the hour of the week its start falls in (168 hours, Monday 00:00 to Sunday
// 24:00, in the checklist's time zone); each hour's load is the mean IOPS (reads + writes a second, the
// checklist's devices summed) of its intervals, over every week recorded. Over the hours that have intervals:
//
//	peak       the hours whose mean is above the 90th percentile of the hourly means (at most a tenth of them)
//	off-hours  the hours whose mean is at or below the 25th percentile (at least a quarter; every idle hour)
//	normal     the rest
//
// Percentiles are nearest-rank, as in the checklist. A load whose hourly means are all equal has one period,
// normal. A recording that covers fewer than MinFoundHours distinct hours of the week is too short to tell
// periods apart: it has one period of every interval (the checklist says why).

// MinFoundHours is the fewest hours of the week a recording must cover for its periods to be found.
const MinFoundHours = 24

// HourLoad sums a recording's IOPS per hour of the week.
type HourLoad struct {
	devices []string
	loc     *time.Location
	sum     [168]float64
	n       [168]int
}

// NewHourLoad starts the sums; devices as the checklist's (none: every recorded device).
func NewHourLoad(devices []string, loc *time.Location) *HourLoad {
	if loc == nil {
		loc = time.Local
	}
	return &HourLoad{devices: devices, loc: loc}
}

// hourOfWeek is 0 for Monday 00:00-01:00, 167 for Sunday 23:00-24:00.
func hourOfWeek(t time.Time) int { return (int(t.Weekday())+6)%7*24 + t.Hour() }

// Add counts one interval.
func (h *HourLoad) Add(s Sample) {
	if s.Seconds <= 0 {
		return
	}
	var ops uint64
	if len(h.devices) == 0 {
		for _, d := range s.Devices {
			ops += d.Reads + d.Writes
		}
	} else {
		for _, name := range h.devices {
			d := s.Devices[name]
			ops += d.Reads + d.Writes
		}
	}
	i := hourOfWeek(s.At.Add(-dur(s.Seconds)).In(h.loc))
	h.sum[i] += float64(ops) / s.Seconds
	h.n[i]++
}

// Mean is an hour's mean IOPS and whether it has intervals (hour 0 is Monday 00:00).
func (h *HourLoad) Mean(hour int) (float64, bool) {
	if h.n[hour] == 0 {
		return 0, false
	}
	return h.sum[hour] / float64(h.n[hour]), true
}

// Found is the outcome of finding periods: the periods (none when the recording is too short) and the rule's
// figures, said in Note.
type Found struct {
	Periods []PeriodSpec
	Note    string
}

// Periods applies the rule (see the package's periods.go) to the hours summed.
func (h *HourLoad) Periods() Found {
	var means []float64
	for i := range h.n {
		if m, ok := h.Mean(i); ok {
			means = append(means, m)
		}
	}
	if len(means) < MinFoundHours {
		return Found{Note: fmt.Sprintf("periods not found: the recording covers %d hour(s) of the week, fewer than %d; one period of every interval (give --periods to name them)", len(means), MinFoundHours)}
	}
	sorted := append([]float64(nil), means...)
	sort.Float64s(sorted)
	q25, q90 := Percentile(sorted, 25), Percentile(sorted, 90)
	var peak, off, normal [168]bool
	for i := range h.n {
		m, ok := h.Mean(i)
		switch {
		case !ok:
		case sorted[0] == sorted[len(sorted)-1]:
			normal[i] = true
		case m > q90:
			peak[i] = true
		case m <= q25:
			off[i] = true
		default:
			normal[i] = true
		}
	}
	note := fmt.Sprintf("periods found from the load: each hour of the week's mean IOPS over %d hours recorded; peak above the 90th percentile of the hourly means (%s IOPS), off-hours at or below the 25th (%s IOPS), normal between",
		len(means), fig(q90), fig(q25))
	if sorted[0] == sorted[len(sorted)-1] {
		note = fmt.Sprintf("periods found from the load: every hour of the week recorded (%d) has the same mean IOPS (%s): one period, normal", len(means), fig(q90))
	}
	var out []PeriodSpec
	for _, p := range []struct {
		name  string
		hours [168]bool
	}{{"normal", normal}, {"peak", peak}, {"off", off}} {
		spec := HoursSpec(p.hours)
		if spec == "" {
			continue
		}
		hours := p.hours
		out = append(out, PeriodSpec{Name: p.name, Spec: spec, hours: &hours})
	}
	return Found{Periods: out, Note: note}
}

var weekDays = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}

// HoursSpec writes a set of hours of the week as --periods would: days with the same hours together, e.g.
// "Mon-Fri 07:00-11:00,13:00-22:00; Sat-Sun 00:00-24:00"; empty for no hour.
func HoursSpec(h [168]bool) string {
	dayText := func(d int) string {
		var ranges []string
		for s := 0; s < 24; {
			if !h[d*24+s] {
				s++
				continue
			}
			e := s
			for e < 24 && h[d*24+e] {
				e++
			}
			ranges = append(ranges, fmt.Sprintf("%02d:00-%02d:00", s, e))
			s = e
		}
		return strings.Join(ranges, ",")
	}
	var parts []string
	for d := 0; d < 7; {
		t := dayText(d)
		e := d + 1
		for e < 7 && dayText(e) == t {
			e++
		}
		if t != "" {
			days := weekDays[d]
			if e-1 > d {
				days += "-" + weekDays[e-1]
			}
			parts = append(parts, days+" "+t)
		}
		d = e
	}
	return strings.Join(parts, "; ")
}

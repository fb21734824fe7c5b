package monitor

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	gojson "github.com/goccy/go-json"

	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/store"
)

// The HTML report of a recording (dbdyno monitor report): its time series (IOPS, MB/s, latency, queue depth,
// CPU, TPS, and the random share where traced) with the checklist's periods shaded, then the checklist's table
// per period. The series are bucketed as they are read (each bucket's lowest and highest interval, as the
// report's charts thin a line), so a month of 10 s intervals costs the page and the memory no more than a day.

// reportBuckets is how many stretches of time a recording's series are cut into for its charts.
const reportBuckets = 600

// bucketed is one line of a chart, holding each bucket's lowest and highest point.
type bucketed struct {
	name   string
	lo, hi []point
	has    []bool
}

type point struct{ x, y float64 }

func newBucketed(name string) *bucketed {
	return &bucketed{name: name, lo: make([]point, reportBuckets), hi: make([]point, reportBuckets), has: make([]bool, reportBuckets)}
}

func (l *bucketed) add(i int, x, y float64) {
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return
	}
	if !l.has[i] {
		l.lo[i], l.hi[i], l.has[i] = point{x, y}, point{x, y}, true
		return
	}
	if y < l.lo[i].y {
		l.lo[i] = point{x, y}
	}
	if y > l.hi[i].y {
		l.hi[i] = point{x, y}
	}
}

func (l *bucketed) series() (report.Series, bool) {
	s := report.Series{Name: l.name}
	for i, ok := range l.has {
		if !ok {
			continue
		}
		a, b := l.lo[i], l.hi[i]
		if b.x < a.x {
			a, b = b, a
		}
		s.X, s.Y = append(s.X, a.x), append(s.Y, a.y)
		if b != a {
			s.X, s.Y = append(s.X, b.x), append(s.Y, b.y)
		}
	}
	return s, len(s.X) > 0
}

// periodFills are the shades of the periods, by name where the name is one the rule gives, else in order.
var periodFills = map[string]string{"peak": "rgba(214,39,40,0.16)", "normal": "rgba(31,119,180,0.10)", "off": "rgba(127,127,127,0.18)"}
var otherFills = []string{"rgba(44,160,44,0.15)", "rgba(255,127,14,0.16)", "rgba(148,103,189,0.16)", "rgba(23,190,207,0.16)"}

func fillOf(name string, i int) string {
	if f, ok := periodFills[name]; ok {
		return f
	}
	return otherFills[i%len(otherFills)]
}

// WriteReport writes the HTML report of a stored recording: its charts with the periods shaded (the periods
// given, or found from its load) and its checklist.
func WriteReport(ctx context.Context, st *store.Store, w io.Writer, name string, periods []PeriodSpec, devices []string, growth float64, loc *time.Location) error {
	if loc == nil {
		loc = time.Local
	}
	note := ""
	if len(periods) == 0 {
		periods, note = FoundPeriods(ctx, st, name, devices, loc)
	}
	cl, err := ChecklistOf(ctx, st, name, periods, devices, growth, loc)
	if err != nil {
		return err
	}
	cl.PeriodsNote = note
	// the charts' x axis: from the first interval's start, in seconds, minutes, hours or days
	from, to := cl.From.In(loc), cl.To.In(loc)
	span := to.Sub(from)
	unit, unitName := time.Hour, "hours"
	switch {
	case span <= 5*time.Minute: // a 50 s recording in seconds, not at 0.2 and 0.4 minutes
		unit, unitName = time.Second, "seconds"
	case span <= 3*time.Hour:
		unit, unitName = time.Minute, "minutes"
	case span > 4*24*time.Hour:
		unit, unitName = 24*time.Hour, "days"
	}
	xOf := func(t time.Time) float64 { return float64(t.Sub(from)) / float64(unit) }
	bucketOf := func(t time.Time) int {
		if span <= 0 {
			return 0
		}
		return min(reportBuckets-1, max(0, int(float64(t.Sub(from))/float64(span)*reportBuckets)))
	}
	lines := map[string]*bucketed{}
	line := func(key, name string) *bucketed {
		if l, ok := lines[key]; ok {
			return l
		}
		lines[key] = newBucketed(name)
		return lines[key]
	}
	for _, k := range [][2]string{{"r", "reads/s"}, {"w", "writes/s"}, {"rmb", "read MiB/s"}, {"wmb", "write MiB/s"}, {"lat", "latency (ms)"},
		{"qd", "queue depth"}, {"cpu", "CPU busy %"}, {"tps", "transactions/s"}, {"rand", "% random"}} {
		line(k[0], k[1])
	}
	want := map[string]bool{}
	for _, d := range cl.Devices {
		want[d] = true
	}
	_, err = load(ctx, st, name, true, func(s Sample) {
		if s.Seconds <= 0 {
			return
		}
		mid := s.At.Add(-dur(s.Seconds / 2))
		i, x := bucketOf(mid), xOf(mid)
		var d Delta
		var rnd, seq uint64
		for n, v := range s.Devices {
			if !want[n] {
				continue
			}
			d.Reads, d.Writes, d.ReadBytes, d.WriteBytes = d.Reads+v.Reads, d.Writes+v.Writes, d.ReadBytes+v.ReadBytes, d.WriteBytes+v.WriteBytes
			d.ReadMs, d.WriteMs, d.WeightedMs = d.ReadMs+v.ReadMs, d.WriteMs+v.WriteMs, d.WeightedMs+v.WeightedMs
			if t, ok := s.Traced[n]; ok {
				rnd, seq = rnd+t.Random, seq+t.Sequential
			}
		}
		lines["r"].add(i, x, float64(d.Reads)/s.Seconds)
		lines["w"].add(i, x, float64(d.Writes)/s.Seconds)
		lines["rmb"].add(i, x, float64(d.ReadBytes)/s.Seconds/(1<<20))
		lines["wmb"].add(i, x, float64(d.WriteBytes)/s.Seconds/(1<<20))
		if ops := d.Reads + d.Writes; ops > 0 {
			lines["lat"].add(i, x, float64(d.ReadMs+d.WriteMs)/float64(ops))
		}
		lines["qd"].add(i, x, float64(d.WeightedMs)/(s.Seconds*1000))
		lines["cpu"].add(i, x, s.CPU)
		if s.TPS != nil {
			lines["tps"].add(i, x, *s.TPS)
		}
		if rnd+seq > 0 {
			lines["rand"].add(i, x, 100*float64(rnd)/float64(rnd+seq))
		}
	})
	if err != nil {
		return err
	}
	// the periods' stretches of the axis, found minute by minute
	var bands []report.Band
	for pi, p := range periods {
		in, start := false, from
		for t := from.Truncate(time.Minute); ; t = t.Add(time.Minute) {
			end := !t.Before(to)
			c := !end && p.Contains(t)
			if c && !in {
				in, start = true, t
			}
			if in && (!c || end) {
				bands = append(bands, report.Band{From: xOf(start), To: xOf(t), Fill: fillOf(p.Name, pi), Label: p.Name + " (" + p.Spec + ")"})
				in = false
			}
			if end {
				break
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<p>Recording <b>%s</b>: %s to %s (%s), devices %s.</p>\n", report.Esc(name), from.Format("Mon 2006-01-02 15:04 MST"),
		to.Format("Mon 2006-01-02 15:04 MST"), span.Round(time.Second), report.Esc(strings.Join(cl.Devices, " + ")))
	if cl.PeriodsNote != "" {
		fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", report.Esc(cl.PeriodsNote))
	}
	b.WriteString("<p class=\"periods\">Shaded periods: ")
	for pi, p := range periods {
		fmt.Fprintf(&b, "<span style=\"display:inline-block;width:14px;height:10px;border:1px solid #999;background:%s\"></span> %s (%s)&nbsp;&nbsp; ",
			fillOf(p.Name, pi), report.Esc(p.Name), report.Esc(p.Spec))
	}
	if len(periods) == 0 {
		b.WriteString("none (one period of every interval)")
	}
	b.WriteString("</p>\n<h2 id=\"series\">Time series</h2>\n")
	xLabel := fmt.Sprintf("%s from %s", unitName, from.Format("Mon 2006-01-02 15:04 MST"))
	for _, c := range []struct {
		title, y string
		keys     []string
	}{
		{"IOPS", "operations/s", []string{"r", "w"}},
		{"Throughput", "MiB/s", []string{"rmb", "wmb"}},
		{"Latency (mean per interval)", "ms", []string{"lat"}},
		{"Queue depth", "requests", []string{"qd"}},
		{"CPU", "%", []string{"cpu"}},
		{"Transactions a second", "1/s", []string{"tps"}},
		{"Random share of issued requests (block layer trace)", "%", []string{"rand"}},
	} {
		var ss []report.Series
		for _, k := range c.keys {
			if s, ok := lines[k].series(); ok {
				ss = append(ss, s)
			}
		}
		if len(ss) == 0 {
			fmt.Fprintf(&b, "<p class=\"note\">%s: not recorded.</p>\n", report.Esc(c.title))
			continue
		}
		b.WriteString(report.LineChartBands(c.title+" of "+name, xLabel, c.y, ss, bands))
		b.WriteString("\n")
	}
	b.WriteString("<h2 id=\"checklist\">Requirements checklist</h2>\n")
	if cl.Growth != 1 {
		fmt.Fprintf(&b, "<p class=\"note\">Rows marked * are multiplied by the growth %g.</p>\n", cl.Growth)
	}
	for _, p := range cl.Periods {
		fmt.Fprintf(&b, "<h3>%s (%s): %d intervals, %s</h3>\n<div class=\"wide\"><table><tr><th class=\"l\">requirement</th><th>unit</th><th>p50</th><th>p90</th><th>p99</th><th>min</th><th>avg</th><th>max</th></tr>\n",
			report.Esc(p.Name), report.Esc(p.Spec), p.Intervals, time.Duration(p.Seconds*float64(time.Second)).Round(time.Second))
		for _, r := range p.Rows {
			title := r.Title
			if r.Scaled {
				title += " *"
			}
			fmt.Fprintf(&b, "<tr><td class=\"l\">%s</td><td>%s</td>", report.Esc(title), report.Esc(r.Unit))
			if r.Stat == nil {
				fmt.Fprintf(&b, "<td class=\"l\" colspan=\"6\">%s</td></tr>\n", report.Esc(r.NotMeasured))
				continue
			}
			for _, v := range []float64{r.P50, r.P90, r.P99, r.Min, r.Avg, r.Max} {
				fmt.Fprintf(&b, "<td>%s</td>", fig(v))
			}
			b.WriteString("</tr>\n")
			if r.Lossy != "" {
				fmt.Fprintf(&b, "<tr><td class=\"l\" colspan=\"8\">%s</td></tr>\n", report.Esc("! "+r.Lossy))
			}
		}
		b.WriteString("</table></div>\n")
	}
	return report.Page(w, "dbdyno monitor: "+name, b.String())
}

// FoundPeriods finds a stored recording's periods from its load (see periods.go).
func FoundPeriods(ctx context.Context, st *store.Store, name string, devices []string, loc *time.Location) ([]PeriodSpec, string) {
	h := NewHourLoad(devices, loc)
	// the first pass needs each interval's time, length and operations alone: decoding only those (the rest
	// of each document skipped) halves its cost (a month of 10 s intervals: docs/storage-planning.md)
	type ops struct {
		Reads  uint64 `json:"r"`
		Writes uint64 `json:"w"`
	}
	var in struct {
		At      time.Time      `json:"at"`
		Seconds float64        `json:"s"`
		Devices map[string]ops `json:"dev"`
	}
	s := Sample{Devices: map[string]Delta{}}
	n := 0
	err := st.Samples(ctx, name, func(doc []byte) error {
		clear(in.Devices)
		in.Seconds = 0
		if err := gojson.Unmarshal(doc, &in); err != nil {
			return fmt.Errorf("recording %s: interval %d: %v", name, n+1, err)
		}
		n++
		clear(s.Devices)
		for d, o := range in.Devices {
			s.Devices[d] = Delta{Reads: o.Reads, Writes: o.Writes}
		}
		s.At, s.Seconds = in.At, in.Seconds
		h.Add(s)
		return nil
	})
	if err != nil {
		return nil, err.Error()
	}
	f := h.Periods()
	return f.Periods, f.Note
}

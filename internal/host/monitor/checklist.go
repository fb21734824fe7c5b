package monitor

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Stat is one checklist row's figures over a period's intervals. Percentiles are nearest-rank: the p-th is the
// smallest value with at least p% of the intervals at or below it.
type Stat struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Min float64 `json:"min"`
	Avg float64 `json:"avg"`
	Max float64 `json:"max"`
}

// Row is one requirement of the checklist.
type Row struct {
	Key   string `json:"key"`
	Title string `json:"title"`
	Unit  string `json:"unit"`
	*Stat `json:",omitempty"`
	// NotMeasured says why the row has no figures (never guessed).
	NotMeasured string `json:"not_measured,omitempty"`
	// Scaled: the figures are multiplied by the checklist's growth.
	Scaled bool `json:"scaled,omitempty"`
	// Lossy marks a share from a trace that lost events (its buffer overran) in some of the period's
	// intervals: the figures are those of the requests traced, a sample, and the text says how many were lost.
	Lossy string `json:"lossy,omitempty"`
}

// Period is the checklist of one period.
type Period struct {
	Name      string  `json:"name"`
	Spec      string  `json:"spec"`
	Intervals int     `json:"intervals"`
	Seconds   float64 `json:"seconds"`
	Rows      []Row   `json:"rows"`
}

// Checklist is the study's requirements checklist, per period.
type Checklist struct {
	Name    string    `json:"name"`
	Devices []string  `json:"devices"`
	From    time.Time `json:"from"`
	To      time.Time `json:"to"`
	Growth  float64   `json:"growth"`
	// PeriodsNote says how the periods were found from the load (no --periods), or why they were not.
	PeriodsNote string   `json:"periods_note,omitempty"`
	Periods     []Period `json:"periods"`
}

// Row finds a row by key.
func (p Period) Row(key string) (Row, bool) {
	for _, r := range p.Rows {
		if r.Key == key {
			return r, true
		}
	}
	return Row{}, false
}

// Value is the row's figure at a percentile ("p50", "p90", "p99"; also "min", "avg", "max").
func (r Row) Value(pct string) (float64, error) {
	if r.Stat == nil {
		return 0, fmt.Errorf("%s: %s", r.Title, r.NotMeasured)
	}
	switch strings.ToLower(pct) {
	case "p50":
		return r.P50, nil
	case "p90":
		return r.P90, nil
	case "p99":
		return r.P99, nil
	case "min":
		return r.Min, nil
	case "avg":
		return r.Avg, nil
	case "max":
		return r.Max, nil
	}
	return 0, fmt.Errorf("percentile %q: use p50, p90 or p99 (or min, avg, max)", pct)
}

// Keys of the rows, in the study's order.
const (
	KeyTPS        = "tps"
	KeyIOPS       = "iops"
	KeyReadPct    = "read_pct"
	KeyWritePct   = "write_pct"
	KeyRandomPct  = "random_pct"
	KeySeqPct     = "sequential_pct"
	KeyIOSize     = "io_size_kb"
	KeyMBps       = "mbps"
	KeyLatency    = "latency_ms"
	KeyQueueDepth = "queue_depth"
	KeyCPU        = "cpu_pct"
	KeyMemory     = "memory_gib"
)

// notRandom is why the random/sequential share is not in the checklist of a recording made without the trace
// and without a reason recorded (before the monitor traced).
const notRandom = "it needs the sectors of each issued request (the block layer's tracefs events, root only), which this recording does not have"

// Build computes the checklist from samples (see Builder).
func Build(name string, samples []Sample, periods []PeriodSpec, devices []string, growth float64, loc *time.Location) *Checklist {
	b := NewBuilder(periods, devices, growth, loc)
	for _, s := range samples {
		b.Add(s)
	}
	return b.Checklist(name)
}

// BuildFound computes the checklist with the periods found from the samples' load (see periods.go).
func BuildFound(name string, samples []Sample, devices []string, growth float64, loc *time.Location) *Checklist {
	h := NewHourLoad(devices, loc)
	for _, s := range samples {
		h.Add(s)
	}
	f := h.Periods()
	c := Build(name, samples, f.Periods, devices, growth, loc)
	c.PeriodsNote = f.Note
	return c
}

// Builder computes the checklist one sample at a time (a month of 10 s intervals is never held): for each
// period, each interval whose start falls in it, the selected devices summed (every recorded device when
// devices is empty). growth multiplies the load rows (TPS, IOPS, throughput, queue depth, CPU, memory), not
// shares, sizes or latencies.
type Builder struct {
	periods  []PeriodSpec
	devices  []string
	growth   float64
	loc      *time.Location
	acc      []series
	out      []Period
	seen     map[string]bool
	from, to time.Time
	noTrace  string // why the recording does not trace, as it said
	traced   bool   // some interval was traced
}

// NewBuilder starts a checklist; no periods is one period of every interval ("all").
func NewBuilder(periods []PeriodSpec, devices []string, growth float64, loc *time.Location) *Builder {
	if growth <= 0 {
		growth = 1
	}
	if len(periods) == 0 {
		periods = []PeriodSpec{{Name: "all", Spec: "every interval", everything: true}}
	}
	if loc == nil {
		loc = time.Local
	}
	b := &Builder{periods: periods, devices: devices, growth: growth, loc: loc, acc: make([]series, len(periods)), seen: map[string]bool{}}
	for _, p := range periods {
		b.out = append(b.out, Period{Name: p.Name, Spec: p.Spec})
	}
	return b
}

// Add counts one interval.
func (b *Builder) Add(s Sample) {
	if s.Seconds <= 0 {
		return
	}
	start := s.At.Add(-dur(s.Seconds))
	if b.from.IsZero() || start.Before(b.from) {
		b.from = start
	}
	if s.At.After(b.to) {
		b.to = s.At
	}
	devices := b.devices
	if len(devices) == 0 {
		for d := range s.Devices {
			devices = append(devices, d)
		}
	}
	for _, d := range devices {
		if _, ok := s.Devices[d]; ok {
			b.seen[d] = true
		}
	}
	if s.NoTrace != "" {
		b.noTrace = s.NoTrace
	}
	if len(s.Traced) > 0 {
		b.traced = true
	}
	for i, p := range b.periods {
		if !p.Contains(start.In(b.loc)) {
			continue
		}
		b.out[i].Intervals++
		b.out[i].Seconds += s.Seconds
		b.acc[i].add(s, devices)
	}
}

// Seen says whether the samples added had the device.
func (b *Builder) Seen(device string) bool { return b.seen[device] }

// Checklist is the checklist of the samples added.
func (b *Builder) Checklist(name string) *Checklist {
	c := &Checklist{Name: name, Growth: b.growth, From: b.from, To: b.to, Devices: b.devices}
	if len(c.Devices) == 0 {
		for d := range b.seen {
			c.Devices = append(c.Devices, d)
		}
	}
	sort.Strings(c.Devices)
	for i := range b.out {
		p := b.out[i]
		why := notRandom
		switch {
		case b.traced:
			why = "no traced interval with IO in this period"
		case b.noTrace != "":
			why = b.noTrace
		}
		p.Rows = b.acc[i].rows(b.growth, p.Intervals, why)
		c.Periods = append(c.Periods, p)
	}
	return c
}

func dur(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// series holds one period's per-interval values, row by row, and the trace's losses.
type series struct {
	v     map[string][]float64
	lost  uint64 // trace events lost in the period's intervals
	lossy int    // the intervals that lost some
}

func (a *series) put(k string, x float64) {
	if a.v == nil {
		a.v = map[string][]float64{}
	}
	a.v[k] = append(a.v[k], x)
}

func (a *series) add(s Sample, devices []string) {
	var d Delta
	var rnd, seq uint64
	for _, name := range devices {
		t := s.Traced[name]
		rnd, seq = rnd+t.Random, seq+t.Sequential
		x := s.Devices[name]
		d.Reads += x.Reads
		d.Writes += x.Writes
		d.ReadBytes += x.ReadBytes
		d.WriteBytes += x.WriteBytes
		d.ReadMs += x.ReadMs
		d.WriteMs += x.WriteMs
		d.WeightedMs += x.WeightedMs
	}
	ops := float64(d.Reads + d.Writes)
	a.put(KeyIOPS, ops/s.Seconds)
	a.put(KeyMBps, float64(d.ReadBytes+d.WriteBytes)/s.Seconds/(1<<20))
	a.put(KeyQueueDepth, float64(d.WeightedMs)/(s.Seconds*1000))
	if ops > 0 { // shares, sizes and latencies of intervals without IO are not zero: they are not there
		a.put(KeyReadPct, 100*float64(d.Reads)/ops)
		a.put(KeyWritePct, 100*float64(d.Writes)/ops)
		a.put(KeyIOSize, float64(d.ReadBytes+d.WriteBytes)/ops/1024)
		a.put(KeyLatency, float64(d.ReadMs+d.WriteMs)/ops)
	}
	if s.TPS != nil {
		a.put(KeyTPS, *s.TPS)
	}
	if rnd+seq > 0 { // the share of the requests traced in the interval
		a.put(KeyRandomPct, 100*float64(rnd)/float64(rnd+seq))
		a.put(KeySeqPct, 100*float64(seq)/float64(rnd+seq))
	}
	if s.TraceLost > 0 {
		a.lost += s.TraceLost
		a.lossy++
	}
	a.put(KeyCPU, s.CPU)
	a.put(KeyMemory, float64(s.MemUsed)/(1<<30))
}

var rowDefs = []struct {
	key, title, unit string
	scaled           bool
}{
	{KeyTPS, "transactions per second", "1/s", true},
	{KeyIOPS, "IOPS (reads + writes)", "1/s", true},
	{KeyReadPct, "% read operations", "%", false},
	{KeyWritePct, "% write operations", "%", false},
	{KeyRandomPct, "% random operations", "%", false},
	{KeySeqPct, "% sequential operations", "%", false},
	{KeyIOSize, "IO request size", "KiB", false},
	{KeyMBps, "throughput", "MiB/s", true},
	{KeyLatency, "latency", "ms", false},
	{KeyQueueDepth, "queue depth", "", true},
	{KeyCPU, "CPU", "%", true},
	{KeyMemory, "memory", "GiB", true},
}

func (a *series) rows(growth float64, intervals int, noTrace string) []Row {
	var out []Row
	for _, d := range rowDefs {
		r := Row{Key: d.key, Title: d.title, Unit: d.unit}
		v := a.v[d.key]
		switch {
		case intervals == 0:
			r.NotMeasured = "not measured: no interval in this period"
		case d.key == KeyTPS && len(v) == 0:
			r.NotMeasured = "not measured: the recording has no database (dbdyno monitor --target)"
		case (d.key == KeyRandomPct || d.key == KeySeqPct) && len(v) == 0:
			r.NotMeasured = "not measured: " + noTrace
		case len(v) == 0:
			r.NotMeasured = "not measured: no interval with IO in this period"
		default:
			f := 1.0
			if d.scaled && growth != 1 {
				f, r.Scaled = growth, true
			}
			st := summarise(v)
			st.P50, st.P90, st.P99, st.Min, st.Avg, st.Max = st.P50*f, st.P90*f, st.P99*f, st.Min*f, st.Avg*f, st.Max*f
			r.Stat = &st
			if (d.key == KeyRandomPct || d.key == KeySeqPct) && a.lost > 0 {
				r.Lossy = fmt.Sprintf("lossy trace: %d events lost in %d of %d intervals (the trace's buffer overran): the share is of the requests traced, a sample", a.lost, a.lossy, intervals)
			}
		}
		out = append(out, r)
	}
	return out
}

// Percentile is the nearest-rank p-th percentile of sorted values.
func Percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func summarise(v []float64) Stat {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	return Stat{P50: Percentile(s, 50), P90: Percentile(s, 90), P99: Percentile(s, 99), Min: s[0], Avg: sum / float64(len(s)), Max: s[len(s)-1]}
}

// PeriodSpec is a named weekly period: days of the week and a time of day.
type PeriodSpec struct {
	Name       string
	Spec       string
	Days       [7]bool // by time.Weekday
	From, To   int     // minutes after midnight; To may be 1440; From > To wraps midnight
	everything bool
	hours      *[168]bool // a period found from the load: its hours of the week (0 is Monday 00:00)
}

// Contains says whether a moment (in the periods' time zone) falls in the period.
func (p PeriodSpec) Contains(t time.Time) bool {
	if p.everything {
		return true
	}
	if p.hours != nil {
		return p.hours[hourOfWeek(t)]
	}
	if !p.Days[t.Weekday()] {
		return false
	}
	m := t.Hour()*60 + t.Minute()
	if p.From <= p.To {
		return m >= p.From && m < p.To
	}
	return m >= p.From || m < p.To
}

var dayNames = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// ParsePeriods reads --periods: "normal=Mon-Fri 09:00-17:00,peak=Mon-Fri 12:00-13:00,off=Sat-Sun 00:00-24:00";
// days are a day, a range of days (Fri-Mon wraps) or "daily"; the time of day is HH:MM-HH:MM (22:00-06:00
// wraps midnight); a period without days is every day.
func ParsePeriods(s string) ([]PeriodSpec, error) {
	var out []PeriodSpec
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, spec, ok := strings.Cut(part, "=")
		name, spec = strings.TrimSpace(name), strings.TrimSpace(spec)
		if !ok || name == "" || spec == "" {
			return nil, fmt.Errorf("--periods %q: write name=days HH:MM-HH:MM, e.g. normal=Mon-Fri 09:00-17:00", part)
		}
		p := PeriodSpec{Name: name, Spec: spec}
		f := strings.Fields(spec)
		times := f[len(f)-1]
		days := "daily"
		if len(f) == 2 {
			days = f[0]
		} else if len(f) != 1 {
			return nil, fmt.Errorf("--periods %s: %q: write days HH:MM-HH:MM, e.g. Mon-Fri 09:00-17:00", name, spec)
		}
		if err := p.days(days); err != nil {
			return nil, fmt.Errorf("--periods %s: %v", name, err)
		}
		a, b, ok := strings.Cut(times, "-")
		var err error
		if !ok {
			return nil, fmt.Errorf("--periods %s: %q is not a time of day range (HH:MM-HH:MM)", name, times)
		}
		if p.From, err = clock(a); err != nil {
			return nil, fmt.Errorf("--periods %s: %v", name, err)
		}
		if p.To, err = clock(b); err != nil {
			return nil, fmt.Errorf("--periods %s: %v", name, err)
		}
		if p.From == p.To {
			return nil, fmt.Errorf("--periods %s: %s is empty (for the whole day write 00:00-24:00)", name, times)
		}
		for _, q := range out {
			if q.Name == name {
				return nil, fmt.Errorf("--periods: %s is given twice", name)
			}
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--periods is empty: write name=days HH:MM-HH:MM, e.g. normal=Mon-Fri 09:00-17:00")
	}
	return out, nil
}

func day(s string) (int, error) {
	for i, d := range dayNames {
		if strings.EqualFold(s, d) || len(s) > 3 && strings.HasPrefix(strings.ToLower(s), d) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%q is not a day (Mon, Tue, ... Sun)", s)
}

func (p *PeriodSpec) days(s string) error {
	if strings.EqualFold(s, "daily") || s == "*" {
		for i := range p.Days {
			p.Days[i] = true
		}
		return nil
	}
	a, b, isRange := strings.Cut(s, "-")
	from, err := day(a)
	if err != nil {
		return err
	}
	to := from
	if isRange {
		if to, err = day(b); err != nil {
			return err
		}
	}
	for i := from; ; i = (i + 1) % 7 {
		p.Days[i] = true
		if i == to {
			break
		}
	}
	return nil
}

func clock(s string) (int, error) {
	h, m, ok := strings.Cut(s, ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || hh < 0 || mm < 0 || mm > 59 || hh*60+mm > 1440 {
		return 0, fmt.Errorf("%q is not a time of day (HH:MM, 00:00 to 24:00)", s)
	}
	return hh*60 + mm, nil
}

// WriteTable prints the checklist, one block per period.
func (c *Checklist) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "checklist of %s: %s to %s, devices %s", c.Name, c.From.Format(time.RFC3339), c.To.Format(time.RFC3339), strings.Join(c.Devices, "+"))
	if c.Growth != 1 {
		fmt.Fprintf(w, ", load rows x%g for growth", c.Growth)
	}
	fmt.Fprintln(w)
	if c.PeriodsNote != "" {
		fmt.Fprintln(w, c.PeriodsNote)
	}
	for _, p := range c.Periods {
		fmt.Fprintf(w, "\n%s (%s): %d intervals, %s\n", p.Name, p.Spec, p.Intervals, time.Duration(p.Seconds*float64(time.Second)).Round(time.Second))
		fmt.Fprintf(w, "  %-26s %5s %10s %10s %10s %10s %10s %10s\n", "requirement", "unit", "p50", "p90", "p99", "min", "avg", "max")
		for _, r := range p.Rows {
			title := r.Title
			if r.Scaled {
				title += " *"
			}
			if r.Stat == nil {
				fmt.Fprintf(w, "  %-26s %5s %s\n", title, r.Unit, r.NotMeasured)
				continue
			}
			if r.Lossy != "" {
				title += " !"
			}
			fmt.Fprintf(w, "  %-26s %5s %10s %10s %10s %10s %10s %10s\n", title, r.Unit, fig(r.P50), fig(r.P90), fig(r.P99), fig(r.Min), fig(r.Avg), fig(r.Max))
			if r.Lossy != "" {
				fmt.Fprintf(w, "    ! %s\n", r.Lossy)
			}
		}
	}
	if c.Growth != 1 {
		fmt.Fprintf(w, "\n* multiplied by the growth %g\n", c.Growth)
	}
}

func fig(x float64) string {
	switch a := math.Abs(x); {
	case a >= 1000:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(x, 'f', 1, 64)
	default:
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
}

// WriteJSON prints the checklist as JSON (what io size --need reads).
func (c *Checklist) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(c)
}

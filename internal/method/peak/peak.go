// Package peak finds a user-driven workload's knee (--find-peak): the load is raised geometrically from the
// first point until throughput stops growing (by less than --min-gain, or within run-to-run noise) or the SLA
// breaks, then bisected between the last point before that and the first at or past it down to --resolution.
// The method runs each point (its repeats are one configuration of the study's group); this package decides
// the points, the knee and the limiting factor from the results, and knows no workload.
package peak

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Flags are --find-peak's options, shared by every user-driven workload's run command.
type Flags struct {
	FindPeak   bool          `flag:"find-peak" plan:"-" help:"find the knee: raise the load from --vus (or --rate) by doubling until throughput grows by less than --min-gain or the --sla breaks, then bisect to --resolution; every point is a stored run of one group"`
	By         string        `flag:"by" default:"users" plan:"-" help:"with --find-peak or --steps: raise users (closed loop) or rate (the open-loop --rate)"`
	MinGain    units.Percent `flag:"min-gain" default:"3%" plan:"-" help:"with --find-peak: a step that raises throughput by less than this (or within run-to-run noise) has reached the plateau"`
	SLA        string        `flag:"sla" plan:"-" help:"with --find-peak: latency limits every point must meet, e.g. p95<50ms or new_order.p90<5s (several joined by commas; no transaction: each transaction)"`
	Resolution float64       `flag:"resolution" default:"0" plan:"-" help:"with --find-peak: bisect until the knee is known to this many users (or transactions per second); 0: 1 user, or a tenth of the last good rate"`
}

// Limit is one SLA term: a transaction's (every transaction's when Tx is "") percentile below a bound.
type Limit struct {
	Tx    string
	Stat  string // p50 p90 p95 p99 max mean
	Bound time.Duration
	Text  string
}

// ParseSLA reads --sla: terms like p95<50ms or new_order.p90<5s joined by commas.
func ParseSLA(s string) ([]Limit, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []Limit
	for _, term := range strings.Split(s, ",") {
		term = strings.TrimSpace(term)
		lhs, rhs, ok := strings.Cut(term, "<")
		if !ok {
			return nil, fmt.Errorf("--sla %q: a term is STAT<LIMIT or TRANSACTION.STAT<LIMIT, e.g. p95<50ms (no '<' in %q)", s, term)
		}
		rhs = strings.TrimPrefix(rhs, "=")
		l := Limit{Text: term}
		lhs = strings.TrimSpace(lhs)
		if i := strings.LastIndex(lhs, "."); i >= 0 {
			l.Tx, lhs = lhs[:i], lhs[i+1:]
			if l.Tx == "" {
				return nil, fmt.Errorf("--sla %q: %q names no transaction before the '.'", s, term)
			}
		}
		switch lhs {
		case "p50", "p90", "p95", "p99", "max", "mean":
			l.Stat = lhs
		default:
			return nil, fmt.Errorf("--sla %q: %q is not a latency statistic: use p50, p90, p95, p99, max or mean", s, lhs)
		}
		d, err := time.ParseDuration(strings.TrimSpace(rhs))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("--sla %q: %q is not a positive duration: give e.g. 50ms or 5s", s, strings.TrimSpace(rhs))
		}
		l.Bound = d
		out = append(out, l)
	}
	return out, nil
}

// CheckNames refuses an SLA term naming a transaction the workload does not have, before any run measures (a
// misspelt name was refused only after a whole first run).
func CheckNames(sla []Limit, names []string) error {
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
	}
	for _, l := range sla {
		if l.Tx != "" && !have[l.Tx] {
			sorted := append([]string(nil), names...)
			sort.Strings(sorted)
			return fmt.Errorf("--sla %s names transaction %q; this workload's are %s", l.Text, l.Tx, strings.Join(sorted, ", "))
		}
	}
	return nil
}

func statOf(l result.Latency, stat string) float64 {
	switch stat {
	case "p50":
		return float64(l.P50)
	case "p90":
		return float64(l.P90)
	case "p95":
		return float64(l.P95)
	case "p99":
		return float64(l.P99)
	case "max":
		return float64(l.Max)
	}
	return l.Mean
}

// Check is the SLA against one run: "" when it holds, else the first broken term with the figure. A term
// naming a transaction the run does not have is an error.
func Check(sla []Limit, r *result.Result) (string, error) {
	m := r.Measurement
	if m == nil {
		return "", nil
	}
	var names []string
	for n := range m.Transactions {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, l := range sla {
		txs := names
		if l.Tx != "" {
			if _, ok := m.Transactions[l.Tx]; !ok {
				return "", fmt.Errorf("--sla %s names transaction %q; this workload's are %s", l.Text, l.Tx, strings.Join(names, ", "))
			}
			txs = []string{l.Tx}
		}
		for _, tx := range txs {
			st := m.Transactions[tx]
			if st.Count == 0 {
				continue
			}
			v := time.Duration(statOf(st.Latency, l.Stat) * float64(time.Microsecond))
			if v >= l.Bound {
				return fmt.Sprintf("%s %s %s over %s", tx, l.Stat, v.Round(time.Microsecond*100), l.Bound), nil
			}
		}
	}
	return "", nil
}

// Throughput is a run's rate: its committed units of work per second (the measurement's), else its headline.
func Throughput(r *result.Result) float64 {
	if r.Measurement != nil && r.Measurement.PerMinute > 0 {
		return r.Measurement.PerMinute / 60
	}
	if h, ok := r.Headline(); ok {
		return h.Value
	}
	return 0
}

// P95 is a run's p95 latency in milliseconds (Measurement.P95Millis), NaN when it has none.
func P95(r *result.Result) float64 {
	if r == nil || r.Measurement == nil {
		return math.NaN()
	}
	if v, ok := r.Measurement.P95Millis(); ok {
		return v
	}
	return math.NaN()
}

// Point is one load's runs (its repeats) and what they say.
type Point struct {
	Load       float64
	Runs       []*result.Result
	Throughput float64 // the median over the runs
	Broken     string  // why the point is past the limit (the SLA broken, the run failed); "" when not
	Median     *result.Result
}

// Search is one knee search. Next gives the next load to run; Observe takes its runs.
type Search struct {
	By         string // users or rate
	MinGain    float64
	SLA        []Limit
	Resolution float64
	Max        float64 // the highest load the search may ask for

	Points []*Point
	phase  int // 0 raising, 1 bisecting, 2 done
	mode   string
	lo, hi float64 // bisecting: lo is below the knee (or meets the SLA), hi at or past it
	next   float64
	plate  float64 // the plateau's throughput
	Knee   *Point
	Why    string // why the search stopped raising: "plateau", "sla", "behind" (an open loop fell behind), "max"
	Note   string // what the stopping rule saw ("throughput grew 1.2% from 8 to 16 users, within noise")
}

// New starts a search at load start.
func New(by string, start, minGain, resolution, max float64, sla []Limit) *Search {
	return &Search{By: by, MinGain: minGain, SLA: sla, Resolution: resolution, Max: max, next: start}
}

// Next is the load to run next; ok is false when the search is done.
func (s *Search) Next() (float64, bool) {
	if s.phase == 2 {
		return 0, false
	}
	return s.next, true
}

func (s *Search) round(x float64) float64 {
	if s.By == "users" {
		return math.Round(x)
	}
	return math.Round(x*100) / 100
}

func (s *Search) at(load float64) *Point {
	for _, p := range s.Points {
		if p.Load == load {
			return p
		}
	}
	return nil
}

// Observe takes the runs of the load Next gave. An SLA naming a transaction the runs lack is an error.
func (s *Search) Observe(load float64, runs []*result.Result) error {
	p := &Point{Load: load, Runs: runs}
	var tps []float64
	for _, r := range runs {
		tps = append(tps, Throughput(r))
		if r.Status != result.StatusOK && p.Broken == "" {
			p.Broken = "the run " + r.Status + ": " + r.Error
		}
		if p.Broken == "" {
			why, err := Check(s.SLA, r)
			if err != nil {
				return err
			}
			if why != "" {
				p.Broken = "SLA broken: " + why
			}
		}
	}
	if len(runs) > 0 {
		p.Throughput = compare.Median(tps)
		p.Median = runs[compare.MedianIndex(runs)]
	}
	if len(runs) == 0 && p.Broken == "" {
		p.Broken = "no run finished"
	}
	s.Points = append(s.Points, p)
	s.plate = math.Max(s.plate, p.Throughput)
	switch s.phase {
	case 0:
		s.raise(p)
	case 1:
		s.bisect(p)
	}
	return nil
}

// raise decides after a point of the raising phase.
func (s *Search) raise(p *Point) {
	n := len(s.Points)
	var prev *Point
	if n > 1 {
		prev = s.Points[n-2]
	}
	if p.Broken != "" {
		s.Why = "sla"
		if prev == nil {
			s.Knee, s.Note = nil, fmt.Sprintf("the first point (%s) is already past the limit: %s", s.Name(p.Load), p.Broken)
			s.phase = 2
			return
		}
		s.Note = fmt.Sprintf("%s: %s", s.Name(p.Load), p.Broken)
		s.lo, s.hi, s.mode = prev.Load, p.Load, "sla"
		s.startBisect()
		return
	}
	if s.behind(p) {
		// an open loop that completes less than it is offered has passed what the target sustains
		s.Why = "behind"
		s.Note = fmt.Sprintf("at %s only %.4g/s completed: the target falls behind the offered rate", s.Name(p.Load), p.Throughput)
		if prev == nil {
			s.Knee, s.phase = nil, 2
			s.Note += " already at the first rate"
			return
		}
		s.lo, s.hi, s.mode = prev.Load, p.Load, "behind"
		s.startBisect()
		return
	}
	if prev != nil {
		gain := p.Throughput/prev.Throughput - 1
		within, known := s.withinNoise(prev, p)
		if gain < s.MinGain || (known && within) {
			s.Why = "plateau"
			s.Note = fmt.Sprintf("throughput grew %.1f%% from %s to %s", 100*gain, s.Name(prev.Load), s.Name(p.Load))
			if gain < s.MinGain {
				s.Note += fmt.Sprintf(", less than %.3g%%", 100*s.MinGain)
			} else {
				s.Note += ", within run-to-run noise"
			}
			// prev already gives (nearly) all p gives: the knee is between the point before prev and prev
			if n < 3 {
				s.Knee, s.phase = prev, 2
				s.Note += fmt.Sprintf("; already on the plateau at the first point (%s)", s.Name(prev.Load))
				return
			}
			s.lo, s.hi, s.mode = s.Points[n-3].Load, prev.Load, "plateau"
			s.startBisect()
			return
		}
	}
	nx := s.round(p.Load * 2)
	if nx > s.Max {
		nx = s.Max
	}
	if nx <= p.Load {
		s.Why, s.Knee, s.phase = "max", p, 2
		s.Note = fmt.Sprintf("throughput still grew at the highest load the search may ask for (%s)", s.Name(p.Load))
		return
	}
	s.next = nx
}

func (s *Search) withinNoise(a, b *Point) (bool, bool) {
	return compare.Overlap(pointNoise(a), pointNoise(b), a.Throughput, b.Throughput)
}

// pointNoise is a point's throughput noise: the spread of its repeats, else its run's bootstrap band.
func pointNoise(p *Point) compare.Noise {
	if len(p.Runs) > 1 {
		var ts []float64
		for _, r := range p.Runs {
			ts = append(ts, Throughput(r))
		}
		return compare.RepeatsNoise(ts)
	}
	if len(p.Runs) == 1 {
		if lo, hi, ok := compare.BootstrapBand(p.Runs[0]); ok {
			return compare.Noise{Lo: p.Throughput * lo, Hi: p.Throughput * hi, How: "bootstrap", Known: true}
		}
	}
	return compare.Noise{}
}

func (s *Search) resolution() float64 {
	if s.Resolution > 0 {
		return s.Resolution
	}
	if s.By == "users" {
		return 1
	}
	return math.Max(s.lo/10, 0.01)
}

func (s *Search) startBisect() {
	s.phase = 1
	s.step()
}

// step asks for the middle of lo and hi, or ends the search when they are within the resolution.
func (s *Search) step() {
	mid := s.round((s.lo + s.hi) / 2)
	if s.hi-s.lo <= s.resolution() || mid <= s.lo || mid >= s.hi {
		s.finish()
		return
	}
	s.next = mid
}

// behind: an open-loop point whose completed rate falls short of the offered one by more than --min-gain.
func (s *Search) behind(p *Point) bool {
	return s.By == "rate" && p.Broken == "" && p.Throughput < p.Load*(1-s.MinGain)
}

func (s *Search) bisect(p *Point) {
	past := p.Broken != "" || s.behind(p)
	if s.mode == "plateau" && !past {
		past = p.Throughput >= s.plate*(1-s.MinGain)
	}
	if past {
		s.hi = p.Load
	} else {
		s.lo = p.Load
	}
	s.step()
}

// finish names the knee: under an SLA the highest load that met it, on a plateau the lowest load on it.
func (s *Search) finish() {
	s.phase = 2
	if s.mode == "sla" || s.mode == "behind" {
		s.Knee = s.at(s.lo)
	} else {
		s.Knee = s.at(s.hi)
	}
}

// Name words a load: "8 users", "250/s".
func (s *Search) Name(load float64) string {
	if s.By == "users" {
		if load == 1 {
			return "1 user"
		}
		return strconv.FormatFloat(load, 'f', -1, 64) + " users"
	}
	return strconv.FormatFloat(load, 'f', -1, 64) + "/s"
}

// Limiting is the limiting factor seen at and past the knee: the points at or above the knee's load, their
// errors, the SLA's latency, the driver's CPU, the database host's CPU (from its agent).
func (s *Search) Limiting() string {
	if s.Knee == nil && len(s.Points) > 0 {
		return s.Points[0].Broken
	}
	if s.Knee == nil {
		return ""
	}
	var errs int64
	var clientCPU, serverCPU float64
	broken := ""
	for _, p := range s.Points {
		if p.Load < s.Knee.Load {
			continue
		}
		if p.Broken != "" && broken == "" {
			broken = p.Broken
		}
		for _, r := range p.Runs {
			m := r.Measurement
			if m == nil {
				continue
			}
			errs += m.Errors
			if c := cpuShare(r); c > clientCPU {
				clientCPU = c
			}
			if r.ServerSystem != nil {
				if st, ok := r.ServerSystem.Summary["cpu_busy_pct"]; ok && st.Mean > serverCPU {
					serverCPU = st.Mean
				}
			}
		}
	}
	var out []string
	switch {
	case broken != "" && strings.HasPrefix(broken, "SLA"):
		out = append(out, "latency ("+strings.TrimPrefix(broken, "SLA broken: ")+")")
	case broken != "":
		out = append(out, "errors ("+broken+")")
	}
	if errs > 0 && broken == "" {
		out = append(out, fmt.Sprintf("errors (%d at and past the knee)", errs))
	}
	if clientCPU >= 80 {
		out = append(out, fmt.Sprintf("client CPU (the driver used %.0f%% of its CPUs)", clientCPU))
	}
	if serverCPU >= 80 {
		out = append(out, fmt.Sprintf("server CPU (%.0f%% busy, from the agent)", serverCPU))
	}
	if len(out) == 0 && s.Why == "behind" {
		out = append(out, "the target's capacity: it fell behind the offered rate past the knee")
	}
	if len(out) == 0 {
		what := "throughput stopped growing with no resource dbdyno sees saturated (client CPU, errors"
		if serverCPU > 0 {
			what += ", server CPU"
		} else {
			what += "; no agent on the database host for its CPU"
		}
		return what + "): locks, I/O or the workload's own limit"
	}
	return strings.Join(out, "; ")
}

// cpuShare is the driver's CPU over the measured window in per cent of the CPUs it may use.
func cpuShare(r *result.Result) float64 {
	m := r.Measurement
	if m.MeasuredSecs <= 0 {
		return 0
	}
	procs := 1.0
	if p, ok := r.Options["driver_gomaxprocs"].(float64); ok && p > 0 {
		procs = p
	} else if p, ok := r.Options["driver_gomaxprocs"].(int); ok && p > 0 {
		procs = float64(p)
	}
	return 100 * (m.ClientCPU.UserSeconds + m.ClientCPU.SystemSeconds) / m.MeasuredSecs / procs
}

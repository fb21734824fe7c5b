package compare

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// A Study is configurations measured like for like: the same points (a swept parameter's values, or the
// different pieces of work of a plan's steps), each configuration's runs at each point. Its table has one row
// per point and one column per configuration; each cell is the metric's median over the cell's repeats and
// its change against the baseline configuration at the same point, judged against both cells' noise. A point
// is never set against another point.
type Study struct {
	Configs  []StudyConfig
	Baseline int // index of the configuration the others are compared with
	Points   []Point
	// Sweep is the swept parameter when every point is one work at another value of it ("streams"), "" else.
	Sweep string
}

// StudyConfig is one configuration of a study: its name (the user's label for it), its alias and its runs.
type StudyConfig struct {
	Name  string
	Alias string
	Runs  []*result.Result
}

// Point is one row of a study: a piece of work at one sweep value, and each configuration's runs there (nil
// where a configuration has none).
type Point struct {
	Key   string
	Label string // what the row is: "1" under the sweep's heading, or "write: 10 chunks of 100 MB" for mixed work
	Work  string
	Sweep string
	Value float64
	Cells [][]*result.Result
}

// pointKey is what tells a run's point: its work and its sweep value (a multi-target run's targets and
// aggregate are one point).
func pointKey(r *result.Result) (key, work, sweep string, value float64) {
	work = result.WorkOf(r)
	if g := r.Group; g != nil && g.Sweep != "" {
		sweep, value = g.Sweep, g.Value
	}
	return work + "\x00" + sweep + "=" + strconv.FormatFloat(value, 'g', -1, 64), work, sweep, value
}

// NewStudy lays configurations out point by point: the points in the order the baseline's runs came (the
// values of one sweep ascending), then any the others add.
func NewStudy(configs []StudyConfig, baseline int) (*Study, error) {
	if baseline < 0 || baseline >= len(configs) {
		return nil, fmt.Errorf("the baseline is not one of the %d configurations", len(configs))
	}
	s := &Study{Configs: configs, Baseline: baseline}
	idx := map[string]int{}
	order := append([]int{baseline}, others(len(configs), baseline)...)
	for _, ci := range order {
		for _, r := range configs[ci].Runs {
			key, work, sweep, value := pointKey(r)
			i, ok := idx[key]
			if !ok {
				i = len(s.Points)
				idx[key] = i
				s.Points = append(s.Points, Point{Key: key, Work: work, Sweep: sweep, Value: value, Cells: make([][]*result.Result, len(configs))})
			}
			s.Points[i].Cells[ci] = append(s.Points[i].Cells[ci], r)
		}
	}
	// the values of one work's sweep in ascending order, where that work first came
	first := map[string]int{}
	for i, p := range s.Points {
		if _, ok := first[p.Work]; !ok {
			first[p.Work] = i
		}
	}
	sort.SliceStable(s.Points, func(i, j int) bool {
		a, b := s.Points[i], s.Points[j]
		if a.Work != b.Work {
			return first[a.Work] < first[b.Work]
		}
		return a.Value < b.Value
	})
	works, sweeps := map[string]bool{}, map[string]bool{}
	workloads := map[string]bool{}
	for _, p := range s.Points {
		works[p.Work], sweeps[p.Sweep] = true, true
		workloads[strings.SplitN(p.Work, ":", 2)[0]] = true
	}
	if len(works) == 1 && len(sweeps) == 1 && s.Points[0].Sweep != "" {
		s.Sweep = s.Points[0].Sweep
	}
	for i := range s.Points {
		p := &s.Points[i]
		switch {
		case s.Sweep != "":
			p.Label = strconv.FormatFloat(p.Value, 'g', -1, 64)
		case len(works) == 1 && p.Sweep == "":
			p.Label = "all"
		default:
			w := p.Work
			if len(workloads) == 1 {
				w = strings.TrimSpace(strings.SplitN(w, ":", 2)[len(strings.SplitN(w, ":", 2))-1])
			}
			if p.Sweep != "" {
				w += fmt.Sprintf(", %s=%g", p.Sweep, p.Value)
			}
			p.Label = w
		}
	}
	return s, nil
}

func others(n, skip int) []int {
	var out []int
	for i := 0; i < n; i++ {
		if i != skip {
			out = append(out, i)
		}
	}
	return out
}

// StudyTable is one metric of a study, point by point: the table a study publishes.
type StudyTable struct {
	Metric string // "" when each row shows its own headline (points of different work)
	Unit   string
	Desc   Metric
	Rows   []StudyRow
	// Beside are the metrics shown beside each cell, unjudged (a host's CPU % beside its OPM).
	Beside []string
	// BesideLabels are the beside metrics' names with their units: "database host CPU busy (%)".
	BesideLabels []string
	// Median says the cells are medians of repeats (some cell has more than one run).
	Median bool
	// Runs is the number of runs per cell when every cell has the same, 0 when they differ.
	Runs int
}

// StudyRow is one point's cells: each configuration's median, its noise, its runs, and its change against the
// baseline's cell judged (the baseline's own Judgement is empty).
type StudyRow struct {
	Label  string
	Point  *Point
	Desc   Metric // the row's metric (its own headline when the table has no one metric)
	Values []float64
	Noise  []Noise
	Runs   []int
	Judged []Judgement
	Beside [][]float64 // per beside metric, per configuration (NaN where missing)
}

// Label is the row's metric with its unit when the table's rows are of different metrics.
func (r StudyRow) MetricLabel() string {
	return Row{Metric: r.Desc.Name, Unit: r.Desc.Unit}.Label()
}

// Table is the study's table of one metric ("" for each point's headline), with the beside metrics.
func (s *Study) Table(metric string, beside []string) StudyTable {
	t := StudyTable{Metric: metric, Beside: beside, Runs: -1}
	for pi := range s.Points {
		p := &s.Points[pi]
		row := StudyRow{Label: p.Label, Point: p}
		name := metric
		if name == "" {
			name = headlineOf(p.Cells[s.Baseline])
			for _, c := range p.Cells {
				if name == "" {
					name = headlineOf(c)
				}
			}
		}
		sums := make([]Summary, len(s.Configs))
		for ci, c := range p.Cells {
			sums[ci] = Summarise(s.Configs[ci].Name, c)
			if d, ok := sums[ci].Desc[name]; ok && row.Desc.Name == "" {
				row.Desc = d
			}
		}
		if row.Desc.Name == "" {
			continue // no configuration measured it here
		}
		for ci := range s.Configs {
			st, ok := sums[ci].Metrics[name]
			v := math.NaN()
			if ok {
				v = st.Median
			}
			row.Values = append(row.Values, v)
			row.Noise = append(row.Noise, sums[ci].Noise[name])
			row.Runs = append(row.Runs, sums[ci].Runs)
			if sums[ci].Runs > 1 {
				t.Median = true
			}
			switch {
			case t.Runs == -1 && sums[ci].Runs > 0:
				t.Runs = sums[ci].Runs
			case sums[ci].Runs > 0 && t.Runs != sums[ci].Runs:
				t.Runs = 0
			}
		}
		b := s.Baseline
		for ci := range s.Configs {
			j := Judgement{Change: math.NaN(), Verdict: NotComparable}
			if ci != b && !math.IsNaN(row.Values[ci]) && !math.IsNaN(row.Values[b]) {
				j = JudgeNoise(row.Values[b], row.Values[ci], row.Noise[b], row.Noise[ci], row.Desc.Better)
			}
			row.Judged = append(row.Judged, j)
		}
		for bi, bm := range beside {
			if len(t.BesideLabels) == bi {
				label := bm
				for ci := range s.Configs {
					if d, ok := sums[ci].Desc[bm]; ok && d.Unit != "" {
						label = bm + " (" + d.Unit + ")"
						break
					}
				}
				t.BesideLabels = append(t.BesideLabels, label)
			}
			vals := make([]float64, len(s.Configs))
			for ci := range s.Configs {
				vals[ci] = math.NaN()
				if st, ok := sums[ci].Metrics[bm]; ok {
					vals[ci] = st.Median
				}
			}
			row.Beside = append(row.Beside, vals)
		}
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) > 0 && metric != "" {
		t.Desc, t.Unit = t.Rows[0].Desc, t.Rows[0].Desc.Unit
	}
	if t.Runs < 0 {
		t.Runs = 0
	}
	return t
}

// headlineOf is the headline metric's name of runs (a multi-target run's aggregate's).
func headlineOf(runs []*result.Result) string {
	for _, r := range runs {
		if r.Group != nil && r.Group.Aggregate {
			h, _ := r.Headline()
			return h.Name
		}
	}
	for _, r := range runs {
		if h, ok := r.Headline(); ok {
			return h.Name
		}
	}
	return ""
}

// Metrics are the metrics a study's tables can show: every metric of the baseline's runs, in their order.
func (s *Study) Metrics() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range s.Configs[s.Baseline].Runs {
		for _, m := range Metrics(r) {
			if !seen[m.Name] {
				seen[m.Name] = true
				out = append(out, m.Name)
			}
		}
	}
	return out
}

// Homogeneous says every point shows the same headline metric: one table per metric makes sense.
func (s *Study) Homogeneous() bool {
	first := ""
	for i, p := range s.Points {
		h := headlineOf(p.Cells[s.Baseline])
		if i == 0 {
			first = h
		} else if h != first {
			return false
		}
	}
	return true
}

// Check is compare's rule applied point by point: the runs of each point must be comparable (Check), so that
// no cell is set against a cell of other work.
func (s *Study) Check(o Options) error {
	for _, p := range s.Points {
		var sets [][]*result.Result
		for _, c := range p.Cells {
			if len(c) > 0 {
				sets = append(sets, c)
			}
		}
		if err := Check(sets, o); err != nil {
			return err
		}
	}
	return nil
}

// Formula is how the table's change is computed, in the study's words, said once under the table: for a time
// a fixed piece of work took, the time ratio with the first row's figures as the example.
func (t StudyTable) Formula(s *Study) string {
	b := s.Configs[s.Baseline].Name
	var example string
	for _, r := range t.Rows {
		for ci := range s.Configs {
			if ci != s.Baseline && !math.IsNaN(r.Values[ci]) && !math.IsNaN(r.Values[s.Baseline]) && r.Values[ci] > 0 && example == "" {
				if a, b := r.Values[s.Baseline], r.Values[ci]; r.Desc.Elapsed && a >= b {
					example = fmt.Sprintf(" (%s / %s - 1 = %s)", Format(a), Format(b), strings.TrimSuffix(Ratio(a, b, r.Desc), " faster"))
				} else if r.Desc.Elapsed {
					example = fmt.Sprintf(" (%s / %s - 1 = %s slower)", Format(b), Format(a), strings.TrimSuffix(Ratio(a, b, r.Desc), " slower"))
				} else {
					example = fmt.Sprintf(" (%s / %s - 1 = %+.2f%%)", Format(r.Values[ci]), Format(r.Values[s.Baseline]), Change(r.Values[s.Baseline], r.Values[ci]))
				}
			}
		}
	}
	if t.allElapsed() {
		return fmt.Sprintf("%% faster is the time ratio: %s's time / the configuration's time - 1; %% slower the other way round%s.", b, example)
	}
	return fmt.Sprintf("The change is the configuration's figure against %s's at the same point: its figure / %s's - 1%s.", b, b, example)
}

func (t StudyTable) allElapsed() bool {
	for _, r := range t.Rows {
		if !r.Desc.Elapsed {
			return false
		}
	}
	return len(t.Rows) > 0
}

// Verdicts says how a change becomes better or worse, once under the table.
const Verdicts = "A change is better or worse only where the two cells' 95% noise intervals do not overlap: the spread of repeats, else one run's bootstrap over 5 or more measured intervals, or a percentile's interval from its sample count."

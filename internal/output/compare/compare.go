// Package compare states the differences between runs the way performance reports do ("B is 32.14% faster
// than A"), for times (less is better) and rates (more is better) alike, using the median of repeated runs,
// and normalised per physical core of the database host and per price where the metric asks for it. It
// knows no workload: every figure comes from the metrics a result carries, with their descriptors.
package compare

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Direction says which way is better.
type Direction = result.Better

const (
	HigherIsBetter = result.Higher // rates
	LowerIsBetter  = result.Lower  // times and latencies
)

// Metric is one comparable figure of a run.
type Metric = result.Metric

// Metrics lists a result's comparable figures, in the order the result gives them.
func Metrics(r *result.Result) []Metric {
	var out []Metric
	for _, m := range r.Metrics {
		if !math.IsNaN(m.Value) && !math.IsInf(m.Value, 0) {
			out = append(out, m)
		}
	}
	return out
}

// Faster states how much better b is than a: for rates b/a - 1, for times a/b - 1, as a percentage. A positive
// value means b is better; a negative one means a is better by the opposite ratio (so "74 s vs 56 s" is
// +32.14%: b is 32.14% faster; "56 s vs 74 s" is -32.14%: a is 32.14% faster).
func Faster(a, b float64, d Direction) float64 {
	if a <= 0 || b <= 0 {
		return math.NaN()
	}
	r := b / a
	if d == LowerIsBetter {
		r = a / b
	}
	if r >= 1 {
		return (r - 1) * 100
	}
	return -(1/r - 1) * 100
}

// Sentence words a comparison: "B is 32.14% faster than A".
func Sentence(nameA, nameB string, pct float64, d Direction) string {
	if math.IsNaN(pct) {
		return "not comparable"
	}
	word := "faster"
	if d == HigherIsBetter {
		word = "higher"
	}
	if math.Abs(pct) < 0.005 {
		return "the same"
	}
	if pct > 0 {
		return fmt.Sprintf("%s is %.2f%% %s than %s", nameB, pct, word, nameA)
	}
	return fmt.Sprintf("%s is %.2f%% %s than %s", nameA, -pct, word, nameB)
}

// Median returns the median of values (the mean of the two middle ones for an even count).
func Median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// MedianIndex is the index of the run whose headline is the median (the lower middle for an even count).
func MedianIndex(runs []*result.Result) int {
	type iv struct {
		i int
		v float64
	}
	var vs []iv
	for i, r := range runs {
		if h, ok := r.Headline(); ok {
			vs = append(vs, iv{i, h.Value})
		}
	}
	if len(vs) == 0 {
		return 0
	}
	sort.Slice(vs, func(a, b int) bool { return vs[a].v < vs[b].v })
	return vs[(len(vs)-1)/2].i
}

// Summary is a configuration's figures: one run, or the median of its repeats with min and max.
type Summary struct {
	Name    string
	Runs    int
	Metrics map[string]Stat
	Order   []string
	Desc    map[string]Metric // each metric's descriptor (its value is the last run's)
	Cores   int               // physical cores of the database host, when known
	Price   float64           // the price_per_hour label, when given
}

// Stat is a metric's median, min and max over repeats.
type Stat struct{ Median, Min, Max float64 }

// Summarise folds the repeats of one configuration. The runs of a multi-target run are summarised by their
// aggregates when any are among them.
func Summarise(name string, runs []*result.Result) Summary {
	var aggs []*result.Result
	for _, r := range runs {
		if r.Group != nil && r.Group.Aggregate {
			aggs = append(aggs, r)
		}
	}
	if len(aggs) > 0 {
		runs = aggs
	}
	s := Summary{Name: name, Runs: len(runs), Metrics: map[string]Stat{}, Desc: map[string]Metric{}}
	vals := map[string][]float64{}
	for _, r := range runs {
		for _, m := range Metrics(r) {
			if _, ok := vals[m.Name]; !ok {
				s.Order = append(s.Order, m.Name)
			}
			vals[m.Name] = append(vals[m.Name], m.Value)
			s.Desc[m.Name] = m
		}
		if r.Environment != nil && r.Environment.DBHostCores > 0 {
			s.Cores = r.Environment.DBHostCores
		}
		if p, ok := num(r.Labels["price_per_hour"]); ok && p > 0 {
			s.Price = p
		}
	}
	for k, v := range vals {
		mn, mx := v[0], v[0]
		for _, x := range v {
			mn, mx = math.Min(mn, x), math.Max(mx, x)
		}
		s.Metrics[k] = Stat{Median(v), mn, mx}
	}
	return s
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// Row is one metric across configurations.
type Row struct {
	Metric string
	Unit   string
	Better Direction
	Values []float64 // per configuration (NaN where missing)
	Pct    []float64 // each configuration against the first
	Words  []string
}

// Table compares configurations metric by metric, each against the first, and adds per-core and per-price
// rows for the metrics that ask for them when every configuration knows its database cores or its price.
func Table(sums []Summary) []Row {
	if len(sums) == 0 {
		return nil
	}
	var order []string
	desc := map[string]Metric{}
	for _, s := range sums {
		for _, m := range s.Order {
			if _, ok := desc[m]; !ok {
				order = append(order, m)
			}
			desc[m] = s.Desc[m]
		}
	}
	var rows []Row
	mk := func(name, unit string, d Direction, val func(Summary) (float64, bool)) {
		r := Row{Metric: name, Unit: unit, Better: d}
		for _, s := range sums {
			v, ok := val(s)
			if !ok {
				v = math.NaN()
			}
			r.Values = append(r.Values, v)
		}
		for i := range sums {
			p := Faster(r.Values[0], r.Values[i], d)
			r.Pct = append(r.Pct, p)
			if i == 0 {
				r.Words = append(r.Words, "")
			} else {
				r.Words = append(r.Words, Sentence(sums[0].Name, sums[i].Name, p, d))
			}
		}
		rows = append(rows, r)
	}
	allCores, allPrice := true, true
	for _, s := range sums {
		allCores = allCores && s.Cores > 0
		allPrice = allPrice && s.Price > 0
	}
	for _, name := range order {
		d := desc[name]
		mk(name, d.Unit, d.Better, func(s Summary) (float64, bool) { st, ok := s.Metrics[name]; return st.Median, ok })
		if d.PerCore && allCores {
			mk(name+" per physical core", d.Unit, d.Better, func(s Summary) (float64, bool) {
				st, ok := s.Metrics[name]
				return st.Median / float64(s.Cores), ok
			})
		}
		if d.PerPrice && allPrice {
			mk(name+" per $/hour", d.Unit, d.Better, func(s Summary) (float64, bool) { st, ok := s.Metrics[name]; return st.Median / s.Price, ok })
		}
	}
	return rows
}

// Print writes the comparison as a text table: one column per configuration, then the difference in words.
func Print(w io.Writer, sums []Summary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "metric")
	for _, s := range sums {
		fmt.Fprintf(tw, "\t%s (%d run%s)", s.Name, s.Runs, plural(s.Runs))
	}
	fmt.Fprintln(tw, "\tdifference")
	for _, r := range Table(sums) {
		name := r.Metric
		if r.Unit != "" {
			name += " (" + r.Unit + ")"
		}
		fmt.Fprint(tw, name)
		for _, v := range r.Values {
			fmt.Fprintf(tw, "\t%s", Format(v))
		}
		fmt.Fprintf(tw, "\t%s\n", strings.Join(NonEmpty(r.Words), "; "))
	}
	return tw.Flush()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// NonEmpty drops empty strings.
func NonEmpty(v []string) []string {
	var out []string
	for _, s := range v {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Format prints a metric value with sensible precision.
func Format(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case math.Abs(v) >= 1000:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.4g", v)
}

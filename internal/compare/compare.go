// Package compare turns results into comparable metrics and states their differences the way performance
// reports do ("B is 32.14% faster than A"), for times (less is better) and rates (more is better) alike,
// using the median of repeated runs, and normalised per physical core and per price when those are known.
package compare

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dbdyno/dbdyno/internal/result"
)

// Direction says which way is better.
type Direction int

const (
	HigherIsBetter Direction = iota // rates: NOPM, TPM, QphH
	LowerIsBetter                   // times and latencies
)

// Metric is one comparable figure of a run.
type Metric struct {
	Name   string
	Unit   string
	Value  float64
	Better Direction
}

// Metrics lists a result's comparable figures, in a stable order.
func Metrics(r *result.Result) []Metric {
	var out []Metric
	add := func(name, unit string, v float64, d Direction) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, Metric{name, unit, v, d})
		}
	}
	if r.Measurement != nil && r.Measurement.MeasuredSecs > 0 {
		m := r.Measurement
		if v, ok := num(r.Figures["nopm"]); ok {
			add("NOPM", "new orders/min", v, HigherIsBetter)
		}
		add("TPM", "transactions/min", m.PerMinute, HigherIsBetter)
		for _, tx := range sortedKeys(m.Transactions) {
			if m.Transactions[tx].Count > 0 {
				add(tx+" p95 latency", "ms", float64(m.Transactions[tx].Latency.P95)/1000, LowerIsBetter)
			}
		}
		add("client CPU per transaction", "µs", m.ClientCPU.MicrosPerTx, LowerIsBetter)
	}
	if a := r.Analytic; a != nil {
		for _, t := range a.Tests {
			if t.Status != result.StatusOK || t.Kind == "warmup" {
				continue
			}
			label := fmt.Sprintf("%s test", t.Kind)
			if t.Kind == "streams" {
				label = fmt.Sprintf("%d stream(s)", t.Streams)
			}
			if t.Kind == "throughput" {
				label = fmt.Sprintf("throughput test (%d streams)", t.Streams)
			}
			add(label+": time to complete", "s", t.Seconds, LowerIsBetter)
			if t.GeomeanSeconds != nil {
				add(label+": geometric mean query time", "s", *t.GeomeanSeconds, LowerIsBetter)
			}
			if t.PowerAtSize != nil {
				add("Power@Size", "", *t.PowerAtSize, HigherIsBetter)
			}
			if t.ThroughputAtSize != nil {
				add("Throughput@Size", "", *t.ThroughputAtSize, HigherIsBetter)
			}
		}
		if a.QphH != nil {
			add("QphH@Size", "", *a.QphH, HigherIsBetter)
		}
	}
	return out
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

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for s := range m {
		k = append(k, s)
	}
	sort.Strings(k)
	return k
}

// Headline is a result's main figure: NOPM, QphH@Size, or the time to complete its last stream set.
func Headline(r *result.Result) (Metric, bool) {
	ms := Metrics(r)
	for _, want := range []string{"NOPM", "QphH@Size", "Power@Size", "Throughput@Size"} {
		for _, m := range ms {
			if m.Name == want {
				return m, true
			}
		}
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if strings.HasSuffix(ms[i].Name, "time to complete") {
			return ms[i], true
		}
	}
	return Metric{}, false
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
		if h, ok := Headline(r); ok {
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
	Dir     map[string]Direction
	Unit    map[string]string
	Cores   int     // physical cores of the machine, when recorded
	Price   float64 // the price_per_hour label, when given
}

// Stat is a metric's median, min and max over repeats.
type Stat struct{ Median, Min, Max float64 }

// Summarise folds the repeats of one configuration.
func Summarise(name string, runs []*result.Result) Summary {
	s := Summary{Name: name, Runs: len(runs), Metrics: map[string]Stat{}, Dir: map[string]Direction{}, Unit: map[string]string{}}
	vals := map[string][]float64{}
	for _, r := range runs {
		for _, m := range Metrics(r) {
			if _, ok := vals[m.Name]; !ok {
				s.Order = append(s.Order, m.Name)
			}
			vals[m.Name] = append(vals[m.Name], m.Value)
			s.Dir[m.Name], s.Unit[m.Name] = m.Better, m.Unit
		}
		if r.Environment != nil && r.Environment.Cores > 0 {
			s.Cores = r.Environment.Cores
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
// rows for the rates when every configuration knows its cores or price.
func Table(sums []Summary) []Row {
	if len(sums) == 0 {
		return nil
	}
	var order []string
	seen := map[string]bool{}
	for _, s := range sums {
		for _, m := range s.Order {
			if !seen[m] {
				seen[m] = true
				order = append(order, m)
			}
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
	for _, m := range order {
		name := m
		d := sums[0].Dir[m]
		for _, s := range sums {
			if dd, ok := s.Dir[m]; ok {
				d = dd
			}
		}
		unit := ""
		for _, s := range sums {
			if u, ok := s.Unit[m]; ok {
				unit = u
			}
		}
		mk(name, unit, d, func(s Summary) (float64, bool) { st, ok := s.Metrics[name]; return st.Median, ok })
		if d == HigherIsBetter && allCores {
			mk(name+" per physical core", unit, d, func(s Summary) (float64, bool) {
				st, ok := s.Metrics[name]
				return st.Median / float64(s.Cores), ok
			})
		}
		if d == HigherIsBetter && allPrice {
			mk(name+" per $/hour", unit, d, func(s Summary) (float64, bool) { st, ok := s.Metrics[name]; return st.Median / s.Price, ok })
		}
	}
	return rows
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

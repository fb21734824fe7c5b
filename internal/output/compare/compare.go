// Package compare states the differences between runs the way a reader checks them at a glance: each
// configuration gets a short alias (A, B, C ...) with a legend of its full description, and each figure against
// the first configuration's in the words of its direction ("NOPM is 32.14% higher", "p95 latency is 12.50%
// lower", better or worse), from the median of repeated runs, normalised per physical core of the database
// host and per price where the metric asks for it. It knows no workload: every figure comes from the metrics a
// result carries, with their descriptors (unit, which way is better).
package compare

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Direction says which way is better.
type Direction = result.Better

const (
	HigherIsBetter = result.Higher // rates
	LowerIsBetter  = result.Lower  // times, latencies, costs
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

// Change is b's relative difference from a, in per cent of a: positive when b is higher, negative when lower
// (56 against 74 is -24.32%), NaN when a is not positive or b is negative.
func Change(a, b float64) float64 {
	if !(a > 0) || b < 0 || math.IsNaN(b) {
		return math.NaN()
	}
	return (b - a) / a * 100
}

// Verdict is whether a change is better, worse or neither, by the metric's direction.
type Verdict int

const (
	Same Verdict = iota
	Better
	Worse
	NotComparable
	// NoiseUnknown is a change with no noise estimate on one side: neither better nor worse.
	NoiseUnknown
)

// Judge says whether a change (Change's per cent) is better or worse for a metric of direction d; changes
// under 0.005% are the same.
func Judge(pct float64, d Direction) Verdict {
	switch {
	case math.IsNaN(pct):
		return NotComparable
	case math.Abs(pct) < 0.005:
		return Same
	case (pct > 0) == (d == HigherIsBetter):
		return Better
	}
	return Worse
}

// Words says a change in the words of its direction: "12.58% higher", "24.32% lower", "the same", "not
// comparable". A cost or a latency that went down is "lower", never "faster".
func Words(pct float64) string {
	switch {
	case math.IsNaN(pct):
		return "not comparable"
	case math.Abs(pct) < 0.005:
		return "the same"
	case pct > 0:
		return fmt.Sprintf("%.2f%% higher", pct)
	}
	return fmt.Sprintf("%.2f%% lower", -pct)
}

// Ratio says b against a in the words of the metric: a time a fixed piece of work took (Elapsed) as the
// time ratio, "32.14% faster" for 56 s against 74 s (74 / 56 - 1), "12.00% slower"; any other figure as
// Words of its change ("9.78% higher").
func Ratio(a, b float64, m Metric) string {
	if !m.Elapsed || !(a > 0) || !(b > 0) {
		return Words(Change(a, b))
	}
	switch r := a/b - 1; {
	case math.Abs(r) < 0.00005:
		return "the same"
	case r > 0:
		return fmt.Sprintf("%.2f%% faster", r*100)
	}
	return fmt.Sprintf("%.2f%% slower", (b/a-1)*100)
}

// Judged is Words with the verdict: "12.58% higher (better)", "24.32% lower (worse)".
func Judged(pct float64, d Direction) string {
	w := Words(pct)
	switch Judge(pct, d) {
	case Better:
		w += " (better)"
	case Worse:
		w += " (worse)"
	}
	return w
}

// Sentence words one metric of a pair: "B's NOPM is 9.78% higher than A's (better)".
func Sentence(nameA, nameB, metric string, pct float64, d Direction) string {
	switch Judge(pct, d) {
	case NotComparable:
		return fmt.Sprintf("%s's %s cannot be compared with %s's", nameB, metric, nameA)
	case Same:
		return fmt.Sprintf("%s's %s is the same as %s's", nameB, metric, nameA)
	}
	return fmt.Sprintf("%s's %s is %s than %s's%s", nameB, metric, Words(pct), nameA, strings.TrimPrefix(Judged(pct, d), Words(pct)))
}

// Alias is the short name of the i-th configuration (0-based): A ... Z, then AA, AB ...
func Alias(i int) string {
	s := ""
	for i++; i > 0; i = (i - 1) / 26 {
		s = string(rune('A'+(i-1)%26)) + s
	}
	return s
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
	Alias   string // A, B, C ... (set by Summaries)
	Name    string
	Runs    int
	Metrics map[string]Stat
	Order   []string
	Desc    map[string]Metric // each metric's descriptor (its value is the last run's)
	Cores   int               // physical cores of the database host, when known
	Price   float64           // the price_per_hour label, when given
	// About describes the configuration beyond its name, for a legend: its runs, group and target.
	About string
	// Work is its workload and work (result.WorkOf).
	Work string
	// Noise is each metric's run-to-run noise (NoiseOf): the 95% interval a difference must leave to count.
	Noise map[string]Noise
	// Loop is how its runs were driven (Loop: "open loop at 200/s", "closed loop"); Open their open-loop
	// figures when every run ran open loop (nil otherwise).
	Loop string
	Open *OpenFigures
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
	if len(runs) > 0 {
		s.About, s.Work = About(runs, name), result.WorkOf(runs[0])
		s.Loop, s.Open = Loop(runs[0]), openFigures(runs)
	}
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
		if p, ok := Number(r.Labels["price_per_hour"]); ok && p > 0 {
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
	s.Noise = map[string]Noise{}
	for k := range vals {
		s.Noise[k] = NoiseOf(runs, k)
	}
	return s
}

// Summaries summarises configurations under the names Names gives them, aliased A, B, C ... in order.
func Summaries(sets [][]*result.Result) []Summary {
	var out []Summary
	for i, name := range Names(sets) {
		s := Summarise(name, sets[i])
		s.Alias = Alias(i)
		out = append(out, s)
	}
	return out
}

// About describes runs of one configuration for a legend: how many (the run's ID when one), their group, the
// engine's version and the target (its password redacted in the result), each only when name (the
// configuration's name, "" for none) does not already say it.
func About(runs []*result.Result, name string) string {
	r := runs[0]
	if name == "" {
		name = Name(r)
	}
	var parts []string
	if len(runs) == 1 {
		if !strings.Contains(name, "run "+r.RunID) {
			parts = append(parts, "run "+r.RunID)
		}
	} else {
		parts = append(parts, fmt.Sprintf("%d runs", len(runs)))
	}
	if g := r.Group; g != nil && g.ID != "" && !strings.Contains(name, "group "+g.ID) {
		parts = append(parts, "group "+g.ID)
	}
	if v := r.Target.ServerVersion; v != "" && v != result.Several && !strings.Contains(name, v) {
		parts = append(parts, v)
	}
	if g := r.Group; g != nil && g.Aggregate && g.Targets > 1 {
		parts = append(parts, fmt.Sprintf("the sum of %d targets at once", g.Targets))
	} else if u := r.Target.URL; u != "" {
		parts = append(parts, "target "+u)
	}
	if n := undigested(runs); n > 0 {
		if len(runs) == 1 {
			parts = append(parts, Unchecked)
		} else {
			parts = append(parts, fmt.Sprintf("%d of them %s", n, Unchecked))
		}
	}
	return strings.Join(parts, ", ")
}

// Unchecked says, in a legend, that a run's document carries no digest (it was written before results
// carried one): its figures are shown, but nothing tells whether they were changed since.
const Unchecked = "unverified: no digest (written before results carried one)"

// undigested counts the runs read from documents without a digest.
func undigested(runs []*result.Result) int {
	n := 0
	for _, r := range runs {
		if r.Undigested {
			n++
		}
	}
	return n
}

// Number is a label's value as a number (--label price_per_hour=1.008 records 1.008).
func Number(v any) (float64, bool) {
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
	Desc   Metric    // the metric's descriptor (its value is the first configuration's last run's)
	Values []float64 // per configuration (NaN where missing)
	Change []float64 // each configuration against the first, in per cent of it (Change; NaN for the first)
	// Judged is each configuration's change against the first, judged against both one's noise (JudgeNoise;
	// the first's is empty).
	Judged []Judgement
	// Noise is each configuration's noise of the figure.
	Noise []Noise
}

// Verdict is the i-th configuration's change against the first, judged against their noise: Same when it is
// within it, NoiseUnknown when there is no estimate.
func (r Row) Verdict(i int) Verdict { return r.Judged[i].Verdict }

// Words says the i-th configuration's change against the first with its verdict: "9.78% higher (better)",
// "3.10% lower (within noise: the spread of 3 repeats)", "11.43% lower (noise unknown: one run of 4
// intervals; --repeat 3)"; a time to complete as the time ratio ("32.14% faster (better)").
func (r Row) Words(i int) string {
	j := r.Judged[i]
	w := Ratio(r.Values[0], r.Values[i], r.Desc)
	if math.IsNaN(j.Change) {
		w = Words(j.Change)
	}
	switch {
	case j.Note != "":
		return w + " (" + j.Note + ")"
	case j.Verdict == Better:
		return w + " (better)"
	case j.Verdict == Worse:
		return w + " (worse)"
	}
	return w
}

// Label is the metric's name with its unit: "p95 latency (ms)".
func (r Row) Label() string {
	if r.Unit == "" {
		return r.Metric
	}
	return r.Metric + " (" + r.Unit + ")"
}

// Table compares configurations metric by metric, each against the first, and adds per-core and per-price
// rows for the metrics that ask for them when every configuration knows its database cores or its price. Only
// the metrics every configuration has are compared: Unshared names the others.
func Table(sums []Summary) []Row {
	if len(sums) == 0 {
		return nil
	}
	var rows []Row
	mk := func(name, unit string, desc Metric, val func(Summary) (Stat, bool), by func(Summary) float64) {
		r := Row{Metric: name, Unit: unit, Better: desc.Better, Desc: desc}
		base := strings.TrimSuffix(strings.TrimSuffix(name, " per physical core"), " per $/hour")
		for _, s := range sums {
			v, ok := val(s)
			if !ok {
				v = Stat{math.NaN(), math.NaN(), math.NaN()}
			}
			r.Values = append(r.Values, v.Median)
			r.Noise = append(r.Noise, s.Noise[base].Scaled(by(s)))
		}
		for i := range sums {
			c, j := math.NaN(), Judgement{Change: math.NaN(), Verdict: NotComparable}
			if i > 0 {
				c = Change(r.Values[0], r.Values[i])
				j = JudgeNoise(r.Values[0], r.Values[i], r.Noise[0], r.Noise[i], r.Better)
			}
			r.Change, r.Judged = append(r.Change, c), append(r.Judged, j)
		}
		rows = append(rows, r)
	}
	allCores, allPrice := true, true
	for _, s := range sums {
		allCores = allCores && s.Cores > 0
		allPrice = allPrice && s.Price > 0
	}
	one := func(Summary) float64 { return 1 }
	cores := func(s Summary) float64 { return float64(s.Cores) }
	price := func(s Summary) float64 { return s.Price }
	scaled := func(name string, by func(Summary) float64) func(Summary) (Stat, bool) {
		return func(s Summary) (Stat, bool) {
			st, ok := s.Metrics[name]
			f := by(s)
			return Stat{st.Median / f, st.Min / f, st.Max / f}, ok
		}
	}
	for _, name := range shared(sums) {
		d := sums[0].Desc[name]
		mk(name, d.Unit, d, scaled(name, one), one)
		if d.PerCore && allCores {
			mk(name+" per physical core", d.Unit, d, scaled(name, cores), cores)
		}
		if d.PerPrice && allPrice {
			mk(name+" per $/hour", d.Unit, d, scaled(name, price), price)
		}
	}
	return rows
}

// shared are the metrics every configuration has, in the first one's order.
func shared(sums []Summary) []string {
	var out []string
	for _, name := range sums[0].Order {
		all := true
		for _, s := range sums[1:] {
			_, ok := s.Metrics[name]
			all = all && ok
		}
		if all {
			out = append(out, name)
		}
	}
	return out
}

// Unshared words the metrics some configurations have and others lack, one entry per metric naming the
// aliases that have it ("Power@Size (A)"); nil when every configuration has the same metrics.
func Unshared(sums []Summary) []string {
	has := map[string][]string{}
	var order []string
	for _, s := range sums {
		for _, name := range s.Order {
			if _, ok := has[name]; !ok {
				order = append(order, name)
			}
			has[name] = append(has[name], s.Alias)
		}
	}
	var out []string
	for _, name := range order {
		if len(has[name]) < len(sums) {
			out = append(out, fmt.Sprintf("%s (%s)", name, strings.Join(has[name], ", ")))
		}
	}
	return out
}

// Print writes the comparison for a terminal or a ticket: the legend (what all names start with, once; each
// alias, the rest of its name, then its runs, group and target), a table of the figures with one column per configuration and one per difference from the
// first ("B vs A": "9.78% higher (better)"), then the metrics not every configuration has.
func Print(w io.Writer, sums []Summary) error {
	differentWork := false
	for _, s := range sums {
		differentWork = differentWork || s.Work != sums[0].Work
	}
	names := make([]string, len(sums))
	for i, s := range sums {
		names[i] = s.Name
	}
	common, rest := CommonStart(names)
	if common != "" {
		fmt.Fprintf(w, "all: %s\n", common)
	}
	for i, s := range sums {
		fmt.Fprintf(w, "%s  %s\n", s.Alias, rest[i])
		pad := strings.Repeat(" ", len(s.Alias)+2)
		if s.About != "" {
			fmt.Fprintf(w, "%s%s\n", pad, s.About)
		}
		if differentWork {
			fmt.Fprintf(w, "%s%s\n", pad, s.Work)
		}
	}
	fmt.Fprintln(w)
	rows := Table(sums)
	if len(rows) == 0 {
		fmt.Fprintln(w, "no metric is in every configuration:")
		for _, u := range Unshared(sums) {
			fmt.Fprintf(w, "  %s\n", u)
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	columnHeads(tw, "metric", sums)
	var notes Notes
	for _, r := range rows {
		fmt.Fprint(tw, r.Label())
		for i, v := range r.Values {
			fmt.Fprintf(tw, "\t%s", Format(v)+notes.Mark(r.Noise[i]))
		}
		for i := range r.Change[1:] {
			fmt.Fprintf(tw, "\t%s", notes.Cell(r, i+1))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	notes.Print(w)
	if u := Unshared(sums); len(u) > 0 {
		fmt.Fprintln(w, "\nnot compared (not in every configuration):")
		for _, x := range u {
			fmt.Fprintf(w, "  %s\n", x)
		}
	}
	return printLoops(w, sums)
}

// Format prints a metric value with sensible precision.
func Format(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case math.Abs(v) >= 1000:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 10 && v == math.Trunc(v):
		return fmt.Sprintf("%.0f", v) // a whole figure (a count, the study's 74 s) without a decimal that says nothing
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.4g", v)
}

// FormatAlike writes v to the decimals that give the smallest of set (v among them) three significant digits,
// so that a column of one metric reads at one precision (0.290 s, 0.664 s, 1.241 s; not 0.29, 0.6641, 1.241);
// whole from 100 up, as Format.
func FormatAlike(v float64, set []float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	least := math.Inf(1)
	for _, x := range set {
		if a := math.Abs(x); a > 0 && a < least && !math.IsNaN(a) {
			least = a
		}
	}
	if math.IsInf(least, 1) || least >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	d := min(6, max(0, 2-int(math.Floor(math.Log10(least)))))
	return strconv.FormatFloat(v, 'f', d, 64)
}

// columnHeads writes a table's heading: the first column's name, each configuration's alias, then each one's
// change from the first.
func columnHeads(tw io.Writer, first string, sums []Summary) {
	fmt.Fprint(tw, first)
	for _, s := range sums {
		fmt.Fprintf(tw, "\t%s", s.Alias)
	}
	for _, s := range sums[1:] {
		fmt.Fprintf(tw, "\t%s vs %s", s.Alias, sums[0].Alias)
	}
	fmt.Fprintln(tw)
}

package compare

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Run-to-run noise. A difference between two configurations counts only when their 95% intervals do not
// overlap: the interval a configuration's figure could have come out in by chance. Every figure's interval is
// found the same way, whatever the workload:
//
//   - repeated runs (2 or more): the t-interval of their mean, from their spread (the noise between runs, the
//     one that matters most);
//   - one run, a rate with its measured intervals (5 or more): a bootstrap interval of the median of its
//     per-interval rates, relative to that median;
//   - one run, a latency percentile with its histogram: the order statistics' interval for that percentile
//     from its sample count; a percentile too few samples reach (p99 of 50) has none and is marked;
//   - otherwise there is no estimate, and the change is neither better nor worse: it says so and how to get one.
//
// A bound ("at least 990 MB") is never compared as a measurement.

// MinIntervals is the fewest measured intervals (seconds, steps) a bootstrap interval is drawn from.
const MinIntervals = 5

// Repeats is the --repeat a comparison without a noise estimate suggests.
const Repeats = 3

// Noise is a configuration's figure's 95% interval (Lo to Hi) and how it was found. Known is false when there
// is none; then Why says what is missing ("one run of 4 intervals").
type Noise struct {
	Lo, Hi float64
	Known  bool
	How    string // "the spread of 3 repeats", "a bootstrap over 12 intervals", "p95's interval from 18000 samples"
	Why    string
	// Few marks a percentile from too few samples for an interval: its value is shown marked.
	Few bool
	// Bound is the value's bound ("at least"): never judged.
	Bound string
	// Context marks a condition of the run (the host's CPU busy): shown, never judged.
	Context bool
}

// Scaled is the noise of the figure divided by f (per core, per price).
func (n Noise) Scaled(f float64) Noise {
	if f > 0 {
		n.Lo, n.Hi = n.Lo/f, n.Hi/f
	}
	return n
}

// NoiseOf is the noise of one configuration's metric over its runs (their values, in order; value is the
// figure shown for it, their median).
func NoiseOf(runs []*result.Result, metric string) Noise {
	var vals []float64
	var desc result.Metric
	var of *result.Result
	for _, r := range runs {
		for _, m := range Metrics(r) {
			if m.Name == metric {
				vals, desc, of = append(vals, m.Value), m, r
				if m.Bound != "" {
					return Noise{Bound: m.Bound, Why: "a bound (" + m.Bound + "), not a measurement"}
				}
				if m.Context {
					return Noise{Context: true, Why: "a condition of the run, not judged"}
				}
			}
		}
	}
	switch {
	case len(vals) == 0:
		return Noise{Why: "not measured"}
	case len(vals) > 1:
		return repeatsNoise(vals)
	}
	v := vals[0]
	src := desc.Noise
	if src == "" && desc.Headline && of.Measurement != nil { // results written before metrics named their noise
		src = result.IntervalsNoise()
	}
	if src == "" {
		return Noise{Why: "one run"}
	}
	if h, p, ok := of.NoiseHistogram(src); ok {
		return percentileNoise(v, h.TotalCount(), p, func(q float64) float64 { return float64(h.ValueAtQuantile(q)) })
	}
	xs := of.NoiseSeries(src)
	if len(xs) == 0 {
		return Noise{Why: "one run"}
	}
	if len(xs) < MinIntervals {
		what := "intervals"
		if of.IO != nil {
			what = "seconds"
		} else if of.Probe != nil {
			what = "steps"
		}
		return Noise{Why: fmt.Sprintf("one run of %d %s", len(xs), what)}
	}
	lo, hi, ok := bootstrap(xs)
	if !ok {
		return Noise{Why: "one run without a rate"}
	}
	return Noise{Lo: v * lo, Hi: v * hi, Known: true, How: fmt.Sprintf("a bootstrap over its %d intervals", len(xs))}
}

// Overlap says whether b's figure is within a's noise (their intervals overlap), a figure without an estimate
// taken as its value alone; known is false when neither has one. (The knee search's rule; a comparison judges
// with JudgeNoise, which needs both.)
func Overlap(a, b Noise, va, vb float64) (within, known bool) {
	if !a.Known && !b.Known {
		return false, false
	}
	if !a.Known {
		a.Lo, a.Hi = va, va
	}
	if !b.Known {
		b.Lo, b.Hi = vb, vb
	}
	return a.Lo <= b.Hi && b.Lo <= a.Hi, true
}

// RepeatsNoise is the noise of repeated runs' values (2 or more): repeatsNoise.
func RepeatsNoise(vals []float64) Noise {
	if len(vals) < 2 {
		return Noise{Why: "one run"}
	}
	return repeatsNoise(vals)
}

// repeatsNoise is the 95% t-interval of the mean of repeated runs' values, widened to hold their median.
func repeatsNoise(vals []float64) Noise {
	n := float64(len(vals))
	mean := 0.0
	for _, v := range vals {
		mean += v
	}
	mean /= n
	ss := 0.0
	for _, v := range vals {
		ss += (v - mean) * (v - mean)
	}
	half := tQuantile975(len(vals)-1) * math.Sqrt(ss/(n-1)) / math.Sqrt(n)
	med := Median(vals)
	return Noise{Lo: math.Min(mean-half, med), Hi: math.Max(mean+half, med), Known: true, How: fmt.Sprintf("the spread of %d repeats", len(vals))}
}

// tQuantile975 is Student's t distribution's 97.5th percentile for df degrees of freedom.
func tQuantile975(df int) float64 {
	t := []float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
		2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	switch {
	case df < 1:
		return math.Inf(1)
	case df < len(t):
		return t[df]
	case df < 60:
		return 2.021
	case df < 120:
		return 2.000
	}
	return 1.960
}

// percentileNoise is the 95% interval of the p-th percentile (95 for p95) of n samples, from the order
// statistics: the samples of ranks n*q -+ 1.96*sqrt(n*q*(1-q)) (and one more above), read off the histogram
// (at) and scaled to the figure v. A percentile whose interval reaches past the samples (p99 of 50) has none.
func percentileNoise(v float64, n int64, p float64, at func(q float64) float64) Noise {
	q := p / 100
	name := fmt.Sprintf("p%g", p)
	fn := float64(n)
	d := 1.96 * math.Sqrt(fn*q*(1-q))
	lo, hi := math.Floor(fn*q-d), math.Ceil(fn*q+d)+1
	if lo < 1 || hi > fn {
		return Noise{Few: true, Why: "a percentile from too few samples for its interval", How: fmt.Sprintf("%s of %d samples", name, n)}
	}
	mid := at(p)
	if !(mid > 0) {
		return Noise{Why: fmt.Sprintf("%s of %d samples is 0", name, n)}
	}
	a, b := at(100*lo/fn), at(100*hi/fn)
	return Noise{Lo: math.Min(v, v*a/mid), Hi: math.Max(v, v*b/mid), Known: true, How: fmt.Sprintf("%s's interval from its %d samples", name, n)}
}

// bootstrap is the 95% bootstrap interval of the median of xs, as fractions of that median (0.95, 1.04); ok
// is false when the median is not positive.
func bootstrap(xs []float64) (lo, hi float64, ok bool) {
	med := Median(xs)
	if !(med > 0) {
		return 0, 0, false
	}
	// a fixed seed: the same result gives the same interval every time it is compared
	rng := rand.New(rand.NewPCG(uint64(len(xs)), 0x5eed))
	const draws = 2000
	meds := make([]float64, draws)
	s := make([]float64, len(xs))
	for d := range meds {
		for i := range s {
			s[i] = xs[rng.IntN(len(xs))]
		}
		meds[d] = Median(s)
	}
	sort.Float64s(meds)
	return meds[draws*25/1000] / med, meds[draws*975/1000-1] / med, true
}

// BootstrapBand is the 95% bootstrap interval of the median of a run's measured per-interval throughput, as
// fractions of that median (0.95, 1.04): how far the run's rate could have come out by chance. ok is false
// when the run has fewer than five measured intervals or no throughput.
func BootstrapBand(r *result.Result) (lo, hi float64, ok bool) {
	xs := r.NoiseSeries(result.IntervalsNoise())
	if len(xs) < MinIntervals {
		return 0, 0, false
	}
	return bootstrap(xs)
}

// Judgement is one figure of a configuration against the baseline's: its change (per cent of the baseline)
// and the verdict, which is Better or Worse only when the two 95% intervals do not overlap.
type Judgement struct {
	Change  float64
	Verdict Verdict
	// Note says why it is no verdict: "within noise: the spread of 3 repeats", "noise unknown: one run of 4
	// intervals; --repeat 3", "a bound (at least), not a measurement".
	Note string
}

// JudgeNoise judges b's figure against the baseline a's, each with its noise.
func JudgeNoise(va, vb float64, na, nb Noise, d Direction) Judgement {
	j := Judgement{Change: Change(va, vb)}
	raw := Judge(j.Change, d)
	switch {
	case na.Bound != "" || nb.Bound != "":
		j.Verdict, j.Note = NotComparable, "a bound, not a measurement: not compared"
		return j
	case na.Context || nb.Context:
		j.Verdict, j.Note = NotComparable, "a condition of the run (what it ran under), not judged"
		return j
	case raw == NotComparable:
		j.Verdict = NotComparable
		return j
	case raw == Same:
		j.Verdict = Same
		return j
	case !na.Known || !nb.Known:
		var why []string
		for _, n := range []Noise{na, nb} {
			if !n.Known && n.Why != "" && (len(why) == 0 || why[0] != n.Why) {
				why = append(why, n.Why)
			}
		}
		j.Verdict, j.Note = NoiseUnknown, "noise unknown: "+joinAnd(why)+fmt.Sprintf("; --repeat %d", Repeats)
		return j
	case na.Lo <= nb.Hi && nb.Lo <= na.Hi:
		how := []string{na.How}
		if nb.How != na.How {
			how = append(how, nb.How)
		}
		j.Verdict, j.Note = Same, "within noise: "+joinAnd(how)
		return j
	}
	j.Verdict = raw
	return j
}

func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return "no estimate"
	case 1:
		return s[0]
	}
	out := s[0]
	for _, x := range s[1 : len(s)-1] {
		out += ", " + x
	}
	return out + " and " + s[len(s)-1]
}

// Notes numbers the notes of a table's cells, each said once under the table: a cell shows its change and
// "better" or "worse" when it is judged, else the number of its note ("3.10% lower [1]", and under the table
// "[1] within noise: the spread of 3 repeats").
type Notes struct {
	text []string
	num  map[string]int
}

// Ref is the note's marker, " [n]" ("" for no note).
func (n *Notes) Ref(note string) string {
	if note == "" {
		return ""
	}
	if n.num == nil {
		n.num = map[string]int{}
	}
	i, ok := n.num[note]
	if !ok {
		n.text = append(n.text, note)
		i = len(n.text)
		n.num[note] = i
	}
	return fmt.Sprintf(" [%d]", i)
}

// Mark is a value's marker when its noise marks it: a percentile from too few samples, a bound.
func (n *Notes) Mark(x Noise) string {
	switch {
	case x.Bound != "":
		return n.Ref("a bound (" + x.Bound + "), not a measurement: never judged better or worse")
	case x.Few:
		return n.Ref("a percentile from too few samples for a 95% interval (p95 needs about 110 samples, p99 about 560)")
	}
	return ""
}

// Cell is the i-th configuration's change in row r: its words, with "(better)"/"(worse)" when judged or its
// note's marker.
func (n *Notes) Cell(r Row, i int) string {
	j := r.Judged[i]
	if math.IsNaN(j.Change) {
		return Words(j.Change) + n.Ref(j.Note)
	}
	w := Ratio(r.Values[0], r.Values[i], r.Desc)
	switch j.Verdict {
	case Better:
		return w + " (better)"
	case Worse:
		return w + " (worse)"
	}
	return w + n.Ref(j.Note)
}

// Print writes the notes, one a line ("[1] within noise: ..."), after a blank line; nothing without notes.
func (n *Notes) Print(w io.Writer) {
	if len(n.text) == 0 {
		return
	}
	fmt.Fprintln(w)
	for i, t := range n.text {
		fmt.Fprintf(w, "[%d] %s\n", i+1, t)
	}
}

// Len is the number of notes.
func (n *Notes) Len() int { return len(n.text) }

// List is the notes in their order.
func (n *Notes) List() []string { return append([]string(nil), n.text...) }

package report

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Charts are plain inline SVG: no script, no external font or stylesheet, so a report is one self-contained
// file that opens anywhere, offline. Each chart scales to the page's width (its viewBox; CSS caps it at its
// drawn width); its text is laid out from estimated widths so that titles wrap instead of being cut, legends
// wrap into rows, and bar labels that would collide stand on end, are shortened (the whole name in the bar's
// tooltip) or, when still too many, only every n-th is shown.

// Series is one line or one set of bars.
type Series struct {
	Name string
	X    []float64
	Y    []float64
}

var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

const (
	chartW   = 720
	chartWpx = "720"
	padL     = 70
	padR     = 20
	plotW    = chartW - padL - padR
	plotH    = 220
	// maxPoints is the most points a line keeps: more are thinned to each bucket's lowest and highest, so that a
	// long run's series costs the page no more than a short one's and its peaks stay.
	maxPoints = plotW / 4
)

// textWidth estimates the drawn width of s at a font size, wide enough for the common sans-serif faces.
func textWidth(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case strings.ContainsRune("iljtf.,:;'|!()[] ", r):
			w += 0.4
		case strings.ContainsRune("mwMW%@&", r):
			w += 1.05
		case r >= 'A' && r <= 'Z':
			w += 0.8
		case r >= '0' && r <= '9':
			w += 0.66
		case r < 128:
			w += 0.6
		default:
			w += 0.9
		}
	}
	if bold {
		w *= 1.1
	}
	return w * size
}

// wrap breaks text into at most maxLines lines no wider than width, the last shortened with "…" when the
// text does not fit; cut says it was.
func wrap(text string, width, size float64, bold bool, maxLines int) (lines []string, cut bool) {
	line := ""
	for _, w := range strings.Fields(text) {
		try := strings.TrimSpace(line + " " + w)
		if textWidth(try, size, bold) <= width || line == "" {
			line = try
			continue
		}
		lines = append(lines, line)
		line = w
	}
	if line != "" {
		lines = append(lines, line)
	}
	for i, l := range lines {
		if textWidth(l, size, bold) > width {
			lines[i], cut = shorten(l, width, size, bold), true
		}
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1], cut = shorten(lines[maxLines-1]+" …", width, size, bold), true
	}
	return lines, cut
}

// shorten cuts text to fit width, ending it with "…".
func shorten(text string, width, size float64, bold bool) string {
	if textWidth(text, size, bold) <= width {
		return text
	}
	r := []rune(text)
	for len(r) > 0 && textWidth(string(r)+"…", size, bold) > width {
		r = r[:len(r)-1]
	}
	return strings.TrimSpace(string(r)) + "…"
}

// shortenMiddle cuts text to fit width in its middle, keeping its start and its end (where names of a series
// usually differ: transaction_with_a_long_name_07 is "transacti…name_07").
func shortenMiddle(text string, width, size float64) string {
	if textWidth(text, size, false) <= width {
		return text
	}
	r := []rune(text)
	head, tail := len(r)/2, len(r)-len(r)/2
	for head+tail > 1 && textWidth(string(r[:head])+"…"+string(r[len(r)-tail:]), size, false) > width {
		if head*3 > tail*2 { // keep about 2 parts of the start for 3 of the end
			head--
		} else {
			tail--
		}
	}
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// chartStyle is the charts' part of the page's style sheet, said once for all of them.
const chartStyle = `svg.chart text{font-size:11px}svg.chart .t{font-size:14px;font-weight:bold}svg.chart .y{text-anchor:end}` +
	`svg.chart .xtick,svg.chart .xl{text-anchor:middle}svg.chart .xl{font-size:12px}svg.chart .s{font-size:10px}svg.chart text.e{text-anchor:end}` +
	`svg.chart .g{stroke:#ddd}svg.chart .a{stroke:#333;fill:none}svg.chart .series{fill:none;stroke-width:2}`

// chart is one chart's layout: its size and the plot's place in it.
type chart struct {
	b          *strings.Builder
	h          float64
	padT, padB float64
	title      []string
	cut        bool // the title did not fit in its lines: the whole of it is the chart's tooltip
	legend     [][]legendItem
}

type legendItem struct {
	x     float64
	name  string
	color string
}

// newChart lays out the title (wrapped, up to four lines) and the legend (wrapped into rows) above the plot, and
// leaves padB below it.
func newChart(b *strings.Builder, title string, names []string, padB float64) *chart {
	c := &chart{b: b, padB: padB}
	c.title, c.cut = wrap(title, chartW-20, 14, true, 4)
	y := 6 + 18*float64(len(c.title))
	if len(names) > 1 {
		x, row := float64(padL), []legendItem(nil)
		for i, n := range names {
			n = shorten(n, plotW-30, 11, false)
			w := 14 + textWidth(n, 11, false) + 14
			if x+w > chartW-padR && len(row) > 0 {
				c.legend, row, x = append(c.legend, row), nil, padL
			}
			row = append(row, legendItem{x, n, palette[i%len(palette)]})
			x += w
		}
		c.legend = append(c.legend, row)
		y += 16 * float64(len(c.legend))
	}
	c.padT = y + 12
	c.h = math.Ceil(c.padT + plotH + padB)
	return c
}

func (c *chart) bottom() float64 { return c.padT + plotH }

// frame draws the chart's box, title, legend, axes, the y axis' grid and ticks and the axis labels.
func (c *chart) frame(title, xLabel, yLabel string, yMax float64) {
	b := c.b
	c.head(title)
	step := yStep(yMax)
	n := int(math.Round(yMax / step))
	for i := 0; i <= n; i++ {
		y := c.bottom() - float64(i)*plotH/float64(n)
		fmt.Fprintf(b, `<path class="g" d="M%d %.0fh%d"/>`, padL, y, plotW)
		fmt.Fprintf(b, `<text class="y" x="%d" y="%.0f">%s</text>`, padL-6, y+4, fmtTick(step*float64(i), yMax))
	}
	fmt.Fprintf(b, `<path class="a" d="M%d %.0fV%.0fh%d"/>`, padL, c.padT, c.bottom(), plotW)
	if xLabel != "" {
		fmt.Fprintf(b, `<text class="xl" x="%d" y="%.0f">%s</text>`, padL+plotW/2, c.h-6, html.EscapeString(shorten(xLabel, plotW, 12, false)))
	}
	mid := c.padT + plotH/2
	fmt.Fprintf(b, `<text class="xl" x="14" y="%.0f" transform="rotate(-90 14 %.0f)">%s</text>`, mid, mid, html.EscapeString(shorten(yLabel, plotH, 12, false)))
}

// head opens the chart's svg and draws its title and legend.
func (c *chart) head(title string) {
	b := c.b
	fmt.Fprintf(b, `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %.0f" role="img" aria-label="%s">`, chartW, c.h, html.EscapeString(title))
	if c.cut {
		fmt.Fprintf(b, `<title>%s</title>`, html.EscapeString(title))
	}
	for i, l := range c.title {
		fmt.Fprintf(b, `<text class="t" x="10" y="%d">%s</text>`, 18+18*i, html.EscapeString(l))
	}
	y0 := 6 + 18*float64(len(c.title))
	for i, row := range c.legend {
		y := y0 + 16*float64(i)
		for _, it := range row {
			fmt.Fprintf(b, `<rect x="%.0f" y="%.0f" width="10" height="10" fill="%s"/><text x="%.0f" y="%.0f">%s</text>`,
				it.x, y+2, it.color, it.x+14, y+11, html.EscapeString(it.name))
		}
	}
}

// xTicks draws the x axis' tick labels at their places, leaving out those that would touch the one before.
func (c *chart) xTicks(at []float64, labels []string) {
	last := math.Inf(-1)
	for i, x := range at {
		w := textWidth(labels[i], 11, false)
		if x-w/2 < last+6 {
			continue
		}
		fmt.Fprintf(c.b, `<text class="xtick" x="%.1f" y="%.0f">%s</text>`, x, c.bottom()+18, html.EscapeString(labels[i]))
		last = x + w/2
	}
}

// niceMax is the top of a value axis over v: a whole number of round steps (yStep), 3 to 5 of them, so that
// every gridline reads as typed (0, 5k, 10k, 15k, 20k; never 6250, 12.5k, 18.8k).
func niceMax(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	exp := math.Pow(10, math.Floor(math.Log10(v/4)))
	for _, m := range []float64{1, 2, 5, 10, 20} {
		if st := m * exp; math.Ceil(v/st*(1-1e-9))*st >= v && math.Ceil(v/st*(1-1e-9)) <= 5 {
			return math.Ceil(v/st*(1-1e-9)) * st
		}
	}
	return 5 * 20 * exp
}

// yStep is the gridlines' step of an axis topped by niceMax: 1, 2 or 5 times a power of ten, 3 to 5 of them.
func yStep(top float64) float64 {
	exp := math.Pow(10, math.Floor(math.Log10(top/5)))
	for _, m := range []float64{1, 2, 5, 10, 20, 50} {
		st := m * exp
		if n := top / st; n <= 5+1e-9 && math.Abs(n-math.Round(n)) < 1e-6 {
			return st
		}
	}
	return top / 4
}

// niceStep is the round step (1, 2, 2.5 or 5 times a power of ten) nearest above v.
func niceStep(v float64) float64 {
	if !(v > 0) {
		return 1
	}
	exp := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*exp >= v*0.999 {
			return m * exp
		}
	}
	return 10 * exp
}

// fmtTick is a gridline's label on an axis topped by top, every label of the axis in one unit (0, 5k, 10k; not
// 5000, 10k).
func fmtTick(v, top float64) string {
	switch {
	case v == 0:
		return "0"
	case top >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + "M"
	case top >= 1e4:
		return strconv.FormatFloat(v/1e3, 'g', 3, 64) + "k"
	}
	return fmtNum(v)
}

func fmtNum(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'g', 3, 64) + "k"
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a == 0:
		return "0"
	}
	// three significant digits, never in exponent form: a run of milliseconds' axis reads 0.00005, not 5e-05
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// thin keeps at most maxPoints points of a series: each bucket's lowest and highest, in order.
func thin(s Series) Series {
	n := len(s.X)
	if n <= maxPoints {
		return s
	}
	buckets := maxPoints / 2
	out := Series{Name: s.Name}
	for k := 0; k < buckets; k++ {
		from, to := k*n/buckets, (k+1)*n/buckets
		lo, hi := from, from
		for i := from; i < to; i++ {
			if s.Y[i] < s.Y[lo] {
				lo = i
			}
			if s.Y[i] > s.Y[hi] {
				hi = i
			}
		}
		for _, i := range []int{min(lo, hi), max(lo, hi)} {
			if len(out.X) == 0 || out.X[len(out.X)-1] != s.X[i] {
				out.X, out.Y = append(out.X, s.X[i]), append(out.Y, s.Y[i])
			}
		}
	}
	return out
}

// LineChart draws series against a numeric x axis.
func LineChart(title, xLabel, yLabel string, series []Series) string {
	return lineChart(title, xLabel, yLabel, series, nil, nil)
}

// Mark is a vertical line across a chart at X, labelled (a knee).
type Mark struct {
	X     float64
	Label string
}

// LineChartMarked is LineChart with a vertical mark.
func LineChartMarked(title, xLabel, yLabel string, series []Series, m Mark) string {
	return lineChart(title, xLabel, yLabel, series, &m, nil)
}

// Band is a shaded stretch of a chart's x axis, behind its lines (a period of a recording); Label is its tooltip.
type Band struct {
	From, To float64
	Fill     string // a CSS colour
	Label    string
}

// LineChartBands is LineChart with shaded stretches of the x axis.
func LineChartBands(title, xLabel, yLabel string, series []Series, bands []Band) string {
	return lineChart(title, xLabel, yLabel, series, nil, bands)
}

func lineChart(title, xLabel, yLabel string, series []Series, mark *Mark, bands []Band) string {
	var b strings.Builder
	xMin, xMax, yMax := math.Inf(1), math.Inf(-1), 0.0
	var names []string
	for i, s := range series {
		series[i] = thin(s)
		names = append(names, s.Name)
		for j := range s.X {
			xMin, xMax, yMax = math.Min(xMin, s.X[j]), math.Max(xMax, s.X[j]), math.Max(yMax, s.Y[j])
		}
	}
	if math.IsInf(xMin, 1) {
		xMin, xMax = 0, 1
	}
	if xMax == xMin {
		xMax = xMin + 1
	}
	yMax = niceMax(yMax)
	c := newChart(&b, title, names, 50)
	c.frame(title, xLabel, yLabel, yMax)
	xAt := func(v float64) float64 { return padL + (v-xMin)/(xMax-xMin)*plotW }
	var at []float64
	var labels []string
	if whole := wholeTicks(series); whole != nil { // whole numbers (a sweep's points): a tick at each, none between
		for _, v := range whole {
			at, labels = append(at, xAt(v)), append(labels, fmt.Sprintf("%g", v))
		}
	} else { // round values, about five of them
		step := niceStep((xMax - xMin) / 5)
		for v := math.Ceil(xMin/step) * step; v <= xMax+step*1e-9; v += step {
			at, labels = append(at, xAt(v)), append(labels, fmtNum(v))
		}
	}
	c.xTicks(at, labels)
	for _, bd := range bands {
		from, to := math.Max(bd.From, xMin), math.Min(bd.To, xMax)
		if to <= from {
			continue
		}
		fmt.Fprintf(&b, `<rect class="band" x="%.1f" y="%.0f" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>`,
			xAt(from), c.padT, xAt(to)-xAt(from), plotH, html.EscapeString(bd.Fill), html.EscapeString(bd.Label))
	}
	if mark != nil && mark.X >= xMin && mark.X <= xMax {
		x := xAt(mark.X)
		fmt.Fprintf(&b, `<line class="mark" x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="#d62728" stroke-dasharray="4 3"/>`, x, c.padT, x, c.bottom())
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" font-size="11" fill="#d62728">%s</text>`, x+4, c.padT+12, html.EscapeString(mark.Label))
	}
	for i, s := range series {
		var pts []string
		for j := range s.X {
			pts = append(pts, fmt.Sprintf("%.0f,%.0f", xAt(s.X[j]), c.bottom()-s.Y[j]/yMax*plotH))
		}
		fmt.Fprintf(&b, `<polyline class="series" stroke="%s" points="%s"><title>%s</title></polyline>`,
			palette[i%len(palette)], strings.Join(pts, " "), html.EscapeString(s.Name))
		if len(s.X) <= 30 {
			for _, p := range pts {
				xy := strings.Split(p, ",")
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3" fill="%s"/>`, xy[0], xy[1], palette[i%len(palette)])
			}
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// BarChart draws grouped bars: one group per category, one bar per series.
func BarChart(title, yLabel string, categories []string, series []Series) string {
	return BarChartNamed(title, yLabel, categories, nil, series)
}

// BarChartNamed is BarChart whose categories are labelled short (an alias) and named in full in the bars'
// tooltips (full[i], when given).
func BarChartNamed(title, yLabel string, categories, full []string, series []Series) string {
	var b strings.Builder
	yMax := 0.0
	var names []string
	for _, s := range series {
		names = append(names, s.Name)
		for _, v := range s.Y {
			if !math.IsNaN(v) {
				yMax = math.Max(yMax, v)
			}
		}
	}
	yMax = niceMax(yMax)
	n := max(1, len(categories))
	gw := float64(plotW) / float64(n)
	// the labels: across when each fits its group, else standing on end (shortened to 110 units), every
	// step-th when even that is too tight
	const size = 10.0
	widest := 0.0
	for _, cat := range categories {
		widest = math.Max(widest, textWidth(cat, size, false))
	}
	across := widest <= gw-4
	step, padB := 1, 30.0
	labels := append([]string(nil), categories...)
	if !across {
		step = int(math.Ceil((size + 3) / gw))
		for i := range labels {
			labels[i] = shortenMiddle(labels[i], 110, size)
		}
		widest = 0
		for _, l := range labels {
			widest = math.Max(widest, textWidth(l, size, false))
		}
		padB = widest + 16
	}
	c := newChart(&b, title, names, padB)
	c.frame(title, "", yLabel, yMax)
	bw := gw * 0.8 / float64(max(1, len(series)))
	for si, s := range series {
		for ci, cat := range categories {
			if ci >= len(s.Y) || math.IsNaN(s.Y[ci]) {
				continue
			}
			h := s.Y[ci] / yMax * plotH
			x := padL + float64(ci)*gw + gw*0.1 + float64(si)*bw
			fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %s</title></rect>`,
				x, c.bottom()-h, math.Max(bw-1, 1), h, palette[si%len(palette)], html.EscapeString(s.Name), html.EscapeString(cat), fmtNum(s.Y[ci]))
		}
	}
	for ci, l := range labels {
		if ci%step != 0 {
			continue
		}
		whole := categories[ci]
		if full != nil && ci < len(full) {
			whole = full[ci]
		}
		x := padL + float64(ci)*gw + gw/2
		tip := ""
		if l != whole {
			tip = "<title>" + html.EscapeString(whole) + "</title>"
		}
		if across {
			fmt.Fprintf(&b, `<text class="xtick s" x="%.1f" y="%.0f">%s%s</text>`, x, c.bottom()+14, html.EscapeString(l), tip)
		} else {
			x += size * 0.35
			y := c.bottom() + 6
			fmt.Fprintf(&b, `<text class="xtick s e" x="%.1f" y="%.0f" transform="rotate(-90 %.1f %.0f)">%s%s</text>`, x, y, x, y, html.EscapeString(l), tip)
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// wholeTicks are the x values of series whose x values are all whole numbers and few (a sweep), else nil.
func wholeTicks(series []Series) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for _, s := range series {
		for _, x := range s.X {
			if x != math.Trunc(x) {
				return nil
			}
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	if len(out) == 0 || len(out) > 16 {
		return nil
	}
	sort.Float64s(out)
	return out
}

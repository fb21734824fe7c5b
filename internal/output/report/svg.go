package report

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strings"
)

// Charts are plain inline SVG: no script, no external font or stylesheet, so a report is one self-contained
// file that opens anywhere, offline.

// Series is one line or one set of bars.
type Series struct {
	Name string
	X    []float64
	Y    []float64
}

var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

const (
	chartW, chartH         = 720, 300
	padL, padR, padT, padB = 70, 20, 30, 50
	plotW, plotH           = chartW - padL - padR, chartH - padT - padB
)

func niceMax(v float64) float64 {
	if v <= 0 {
		return 1
	}
	exp := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*exp >= v {
			return m * exp
		}
	}
	return 10 * exp
}

func fmtNum(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.0fk", v/1e3)
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 1:
		return fmt.Sprintf("%.2g", v)
	case a == 0:
		return "0"
	}
	return fmt.Sprintf("%.2g", v)
}

func frame(b *strings.Builder, title, xLabel, yLabel string, xMin, xMax, yMax float64, xTicks []string, xAt []float64) {
	fmt.Fprintf(b, `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="%s">`,
		chartW, chartH, chartW, chartH, html.EscapeString(title))
	fmt.Fprintf(b, `<text x="%d" y="18" font-size="14" font-weight="bold">%s</text>`, padL, html.EscapeString(title))
	for i := 0; i <= 4; i++ {
		y := padT + plotH - float64(i)*plotH/4
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`, padL, y, padL+plotW, y)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" font-size="11" text-anchor="end">%s</text>`, padL-6, y+4, fmtNum(yMax*float64(i)/4))
	}
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`, padL, padT+plotH, padL+plotW, padT+plotH)
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`, padL, padT, padL, padT+plotH)
	switch {
	case xAt != nil: // whole numbers (a sweep's points): a tick at each, none between
		for _, v := range xAt {
			x := float64(padL) + (v-xMin)/(xMax-xMin)*plotW
			fmt.Fprintf(b, `<text x="%.1f" y="%d" font-size="11" text-anchor="middle">%g</text>`, x, padT+plotH+16, v)
		}
	case xTicks == nil:
		for i := 0; i <= 4; i++ {
			x := float64(padL) + float64(i)*plotW/4
			fmt.Fprintf(b, `<text x="%.1f" y="%d" font-size="11" text-anchor="middle">%s</text>`, x, padT+plotH+16, fmtNum(xMin+(xMax-xMin)*float64(i)/4))
		}
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="12" text-anchor="middle">%s</text>`, padL+plotW/2, chartH-8, html.EscapeString(xLabel))
	fmt.Fprintf(b, `<text x="14" y="%d" font-size="12" text-anchor="middle" transform="rotate(-90 14 %d)">%s</text>`, padT+plotH/2, padT+plotH/2, html.EscapeString(yLabel))
}

func legend(b *strings.Builder, names []string) {
	x := padL + 10
	for i, n := range names {
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" font-size="11">%s</text>`,
			x, padT+4, palette[i%len(palette)], x+14, padT+13, html.EscapeString(n))
		x += 24 + 7*len(n)
	}
}

// LineChart draws series against a numeric x axis.
func LineChart(title, xLabel, yLabel string, series []Series) string {
	var b strings.Builder
	xMin, xMax, yMax := math.Inf(1), math.Inf(-1), 0.0
	for _, s := range series {
		for i := range s.X {
			xMin, xMax, yMax = math.Min(xMin, s.X[i]), math.Max(xMax, s.X[i]), math.Max(yMax, s.Y[i])
		}
	}
	if math.IsInf(xMin, 1) {
		xMin, xMax = 0, 1
	}
	if xMax == xMin {
		xMax = xMin + 1
	}
	yMax = niceMax(yMax)
	frame(&b, title, xLabel, yLabel, xMin, xMax, yMax, nil, wholeTicks(series))
	var names []string
	for i, s := range series {
		names = append(names, s.Name)
		var pts []string
		for j := range s.X {
			x := float64(padL) + (s.X[j]-xMin)/(xMax-xMin)*plotW
			y := float64(padT+plotH) - s.Y[j]/yMax*plotH
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
		}
		fmt.Fprintf(&b, `<polyline class="series" fill="none" stroke="%s" stroke-width="2" points="%s"/>`, palette[i%len(palette)], strings.Join(pts, " "))
		if len(s.X) <= 30 {
			for _, p := range pts {
				xy := strings.Split(p, ",")
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3" fill="%s"/>`, xy[0], xy[1], palette[i%len(palette)])
			}
		}
	}
	if len(series) > 1 {
		legend(&b, names)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// BarChart draws grouped bars: one group per category, one bar per series.
func BarChart(title, yLabel string, categories []string, series []Series) string {
	var b strings.Builder
	yMax := 0.0
	for _, s := range series {
		for _, v := range s.Y {
			if !math.IsNaN(v) {
				yMax = math.Max(yMax, v)
			}
		}
	}
	yMax = niceMax(yMax)
	frame(&b, title, "", yLabel, 0, 1, yMax, categories, nil)
	n := max(1, len(categories))
	gw := float64(plotW) / float64(n)
	bw := gw * 0.8 / float64(max(1, len(series)))
	var names []string
	for si, s := range series {
		names = append(names, s.Name)
		for ci := range categories {
			if ci >= len(s.Y) || math.IsNaN(s.Y[ci]) {
				continue
			}
			h := s.Y[ci] / yMax * plotH
			x := float64(padL) + float64(ci)*gw + gw*0.1 + float64(si)*bw
			fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %s</title></rect>`,
				x, float64(padT+plotH)-h, math.Max(bw-1, 1), h, palette[si%len(palette)], html.EscapeString(s.Name), html.EscapeString(categories[ci]), fmtNum(s.Y[ci]))
		}
	}
	for ci, c := range categories {
		x := float64(padL) + float64(ci)*gw + gw/2
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="10" text-anchor="middle">%s</text>`, x, padT+plotH+14, html.EscapeString(c))
	}
	if len(series) > 1 {
		legend(&b, names)
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

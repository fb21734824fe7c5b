package report

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// HBars is a horizontal bar chart of a ranked list (the first row on top): a row per category, its label on the
// left, its series' values stacked from left to right, and a text after each bar (its total, written as the
// caller writes it). Long labels are shortened in their middle to the label column (the whole in the row's
// tooltip); the bars are scaled so that the longest bar and its text fit the chart.
type HBars struct {
	Title, XLabel string
	Categories    []string
	Series        []Series // stacked; Y by category, NaN or missing: nothing of that series in the row
	Ends          []string // the text after each row's bar ("" none)
	// Mark (>= 0) marks one row (the best of the list): a shaded box around it, its label and text in bold, and
	// MarkNote after its text ("cheapest"). -1: none.
	Mark     int
	MarkNote string
	// Format writes a value in the bars' tooltips (nil: as the axis does).
	Format func(float64) string
}

const (
	hbarRow   = 22.0 // a row's height
	hbarBar   = 14.0 // its bar's
	hbarLabel = 11.0 // the labels' and texts' font size
)

// HBarChart draws h as inline SVG.
func HBarChart(h HBars) string {
	var b strings.Builder
	format := h.Format
	if format == nil {
		format = fmtNum
	}
	var names []string
	for _, s := range h.Series {
		names = append(names, s.Name)
	}
	n := len(h.Categories)
	total := make([]float64, n)
	xMax := 0.0
	for i := range h.Categories {
		for _, s := range h.Series {
			if i < len(s.Y) && s.Y[i] > 0 && !math.IsInf(s.Y[i], 0) {
				total[i] += s.Y[i]
			}
		}
		xMax = math.Max(xMax, total[i])
	}
	step := niceStep(xMax / 5) // the axis ends at the first round step past the longest bar
	xMax = math.Max(step, math.Ceil(xMax/step*(1-1e-9))*step)
	end := func(i int) (string, bool) {
		t := ""
		if i < len(h.Ends) {
			t = h.Ends[i]
		}
		if i == h.Mark && h.MarkNote != "" {
			t = strings.TrimSpace(t + " (" + h.MarkNote + ")")
		}
		return shorten(t, 0.3*chartW, hbarLabel, i == h.Mark), i == h.Mark // a long text is cut, the bars keep their room
	}
	// the columns: labels (at most 40% of the width, less where the texts after the bars need it), bars, texts
	endW := 0.0
	for i := range h.Categories {
		t, bold := end(i)
		endW = math.Max(endW, textWidth(t, hbarLabel, bold))
	}
	endW += 10
	labelW := 0.0
	for i, c := range h.Categories {
		labelW = math.Max(labelW, textWidth(c, hbarLabel, i == h.Mark))
	}
	labelW = math.Min(labelW, math.Min(0.4*chartW, chartW-padR-20-endW-200))
	labelW = math.Max(labelW, 40)
	x0 := 10 + labelW + 8
	barW := chartW - padR - x0 - endW
	c := newChart(&b, h.Title, names, 0)
	c.h = math.Ceil(c.padT + hbarRow*float64(max(n, 1)) + 24 + 20)
	c.head(h.Title)
	bottom := c.padT + hbarRow*float64(max(n, 1))
	xAt := func(v float64) float64 { return x0 + v/xMax*barW }
	// the grid and the axis' ticks: round values, about five
	last := math.Inf(-1)
	for v := 0.0; v <= xMax+step*1e-9; v += step {
		x := xAt(v)
		fmt.Fprintf(&b, `<path class="g" d="M%.1f %.0fV%.0f"/>`, x, c.padT, bottom)
		l := fmtNum(v)
		if w := textWidth(l, hbarLabel, false); x-w/2 >= last+6 {
			fmt.Fprintf(&b, `<text class="xtick" x="%.1f" y="%.0f">%s</text>`, x, bottom+16, html.EscapeString(l))
			last = x + w/2
		}
	}
	fmt.Fprintf(&b, `<path class="a" d="M%.1f %.0fV%.0f"/>`, x0, c.padT, bottom)
	if h.XLabel != "" {
		fmt.Fprintf(&b, `<text class="xl" x="%.1f" y="%.0f">%s</text>`, x0+barW/2, c.h-6, html.EscapeString(shorten(h.XLabel, barW+endW, 12, false)))
	}
	for i, cat := range h.Categories {
		top := c.padT + hbarRow*float64(i)
		mid := top + hbarRow/2
		marked := i == h.Mark
		if marked {
			fmt.Fprintf(&b, `<rect class="mark" x="6" y="%.1f" width="%.1f" height="%.1f" fill="#fff4c2" stroke="#c99a00"/>`, top+1, float64(chartW-padR-6), hbarRow-2)
		}
		weight := ""
		if marked {
			weight = ` font-weight="bold"`
		}
		label := shortenMiddle(cat, labelW, hbarLabel)
		if marked && textWidth(label, hbarLabel, true) > labelW {
			label = shortenMiddle(cat, labelW/1.1, hbarLabel)
		}
		tip := ""
		if label != cat {
			tip = "<title>" + html.EscapeString(cat) + "</title>"
		}
		fmt.Fprintf(&b, `<text class="y" x="%.1f" y="%.1f"%s>%s%s</text>`, x0-8, mid+4, weight, html.EscapeString(label), tip)
		x := x0
		for si, s := range h.Series {
			if i >= len(s.Y) || !(s.Y[i] > 0) || math.IsInf(s.Y[i], 0) {
				continue
			}
			w := s.Y[i] / xMax * barW
			fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %s</title></rect>`,
				x, mid-hbarBar/2, w, hbarBar, palette[si%len(palette)], html.EscapeString(cat), html.EscapeString(s.Name), html.EscapeString(format(s.Y[i])))
			x += w
		}
		if t, bold := end(i); t != "" {
			weight := ""
			if bold {
				weight = ` font-weight="bold"`
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f"%s>%s</text>`, xAt(total[i])+5, mid+4, weight, html.EscapeString(t))
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

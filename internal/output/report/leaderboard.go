package report

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/leaderboard"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Ranked is one bar of a ranked chart.
type Ranked struct {
	Label string
	Value float64
	Group int // its colour among the chart's groups
}

// RankedBarChart draws one horizontal bar per entry, in the order given (best first), its label on the left
// (shortened to fit, the whole in its tooltip) and its value at the bar's end; groups name the colours.
func RankedBarChart(title, unit string, groups []string, rows []Ranked) string {
	var b strings.Builder
	const rowH, size, labelW = 18.0, 11.0, 290.0
	const x0 = 10 + labelW + 8    // where bars start
	const barW = chartW - x0 - 64 // room for the value after the longest bar
	c := newChart(&b, title, groups, 0)
	top := c.padT
	h := math.Ceil(top + rowH*float64(len(rows)) + 28)
	vMax := 0.0
	for _, r := range rows {
		vMax = math.Max(vMax, r.Value)
	}
	vMax = niceMax(vMax)
	fmt.Fprintf(&b, `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %.0f" role="img" aria-label="%s">`, chartW, h, html.EscapeString(title))
	if c.cut {
		fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(title))
	}
	for i, l := range c.title {
		fmt.Fprintf(&b, `<text class="t" x="10" y="%d">%s</text>`, 18+18*i, html.EscapeString(l))
	}
	y0 := 6 + 18*float64(len(c.title))
	for i, row := range c.legend {
		y := y0 + 16*float64(i)
		for _, it := range row {
			fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="10" height="10" fill="%s"/><text x="%.0f" y="%.0f">%s</text>`,
				it.x, y+2, it.color, it.x+14, y+11, html.EscapeString(it.name))
		}
	}
	step := yStep(vMax)
	n := int(math.Round(vMax / step))
	for i := 0; i <= n; i++ {
		x := x0 + float64(i)*barW/float64(n)
		fmt.Fprintf(&b, `<path class="g" d="M%.1f %.0fV%.0f"/>`, x, top, top+rowH*float64(len(rows)))
		fmt.Fprintf(&b, `<text class="xtick s" x="%.1f" y="%.0f">%s</text>`, x, top+rowH*float64(len(rows))+13, fmtTick(step*float64(i), vMax))
	}
	fmt.Fprintf(&b, `<text class="xl" x="%.0f" y="%.0f">%s</text>`, x0+barW/2, h-3, html.EscapeString(shorten(unit, barW, 12, false)))
	for i, r := range rows {
		y := top + rowH*float64(i)
		w := r.Value / vMax * barW
		label := shorten(r.Label, labelW, size, false)
		tip := ""
		if label != r.Label {
			tip = "<title>" + html.EscapeString(r.Label) + "</title>"
		}
		fmt.Fprintf(&b, `<text x="10" y="%.0f">%s%s</text>`, y+rowH-5, html.EscapeString(label), tip)
		fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %s</title></rect>`,
			x0, y+2, math.Max(w, 1), rowH-4, palette[r.Group%len(palette)], html.EscapeString(r.Label), fmtNum(r.Value))
		fmt.Fprintf(&b, `<text class="s" x="%.1f" y="%.0f">%s</text>`, x0+w+4, y+rowH-5, fmtNum(r.Value))
	}
	fmt.Fprintf(&b, `<path class="a" d="M%.1f %.0fV%.0f"/>`, x0, top, top+rowH*float64(len(rows)))
	b.WriteString(`</svg>`)
	return b.String()
}

// leaderboards draws a leaderboard for each workload among the runs that has published figures, or that has
// a license price per core: measured runs ranked beside them by headline per physical core (a table and a
// ranked bar chart), each with its license cost per core and for the box where a price is given.
func leaderboards(b *strings.Builder, runs []*result.Result, licensePerCore float64) []tocEntry {
	var toc []tocEntry
	seen := map[string]bool{}
	for _, r := range runs {
		if r.Published == nil && (licensePerCore == 0 || r.Workload != "" && !perCoreHeadline(r)) || seen[r.Workload] {
			continue
		}
		seen[r.Workload] = true
		lb, err := leaderboard.Build(runs, leaderboard.Options{Workload: r.Workload, LicensePerCore: licensePerCore})
		if err != nil {
			continue
		}
		id := "leaderboard-" + r.Workload
		if len(toc) == 0 {
			toc = append(toc, tocEntry{id, "Leaderboard", 0})
		} else {
			toc = append(toc, tocEntry{id, "Leaderboard of " + r.Workload, 0})
		}
		board(b, id, lb)
	}
	return toc
}

func board(b *strings.Builder, id string, lb *leaderboard.Board) {
	unit := lb.Metric + " per physical core"
	fmt.Fprintf(b, "<h2 id=\"%s\">Leaderboard: %s, %s</h2>\n", esc(id), esc(lb.Workload), esc(unit))
	b.WriteString("<p class=\"note\">Runs measured here ranked beside figures published elsewhere (imported with dbdyno results import), by the headline " +
		"per physical core of the database host; a repeated configuration by its median run. Published figures come from their sources, " +
		"measured ones from this tool: they were not measured alike.</p>\n")
	lic := false
	for _, r := range lb.Rows {
		lic = lic || r.LicenseTotal != nil
	}
	licHead := ""
	if lic {
		// the study's point: what the database's licenses cost per core and for the whole box beside the score
		licHead = "<th>license per core</th><th>license for the box</th>"
	}
	b.WriteString("<div class=\"wide\"><table class=\"leaderboard\"><tr><th style=\"min-width:2.2em\">#</th><th>per core</th><th>score</th><th class=\"l\">system</th><th class=\"l\">CPU</th>" +
		"<th>cores / sockets / threads per core</th><th>base / max MHz</th><th class=\"l\">engine</th><th>price per hour</th>" + licHead + "<th class=\"l\">from</th></tr>")
	var bars []Ranked
	for _, r := range lb.Rows {
		from, group := fmt.Sprintf("<a href=\"#run-%s\">measured</a>", esc(r.RunID)), 1
		if r.Published {
			from, group = "published: "+esc(r.Source), 0
		}
		licCells := ""
		if lic {
			licCells = "<td>" + esc(leaderboard.Money(r.LicensePerCore)) + "</td><td>" + esc(leaderboard.Money(r.LicenseTotal)) + "</td>"
		}
		fmt.Fprintf(b, "<tr><td>%d</td><td style=\"white-space:nowrap\">%s</td><td>%s</td><td class=\"l\">%s</td><td class=\"l\">%s</td><td>%d / %s / %s</td><td>%s / %s</td><td class=\"l\">%s</td><td>%s</td>%s<td class=\"l\">%s</td></tr>",
			r.Rank, perCore(r.ScorePerCore), esc(fmtNum(r.Score)), esc(leaderboard.Dash(r.System)), esc(leaderboard.Dash(r.CPUModel)), r.PhysicalCores, leaderboard.Count(r.Sockets),
			leaderboard.Count(r.ThreadsPerCore), leaderboard.MHz(r.BaseMHz), leaderboard.MHz(r.MaxMHz), esc(leaderboard.Dash(r.EngineText())), price(r.PricePerHour), licCells, from)
		label := fmt.Sprintf("%d. %s", r.Rank, leaderboard.Dash(r.System))
		if r.CPUModel != "" {
			label += fmt.Sprintf(" (%s, %d cores)", r.CPUModel, r.PhysicalCores)
		}
		bars = append(bars, Ranked{Label: label, Value: r.ScorePerCore, Group: group})
	}
	b.WriteString("</table></div>\n")
	for _, l := range lb.LeftOut {
		fmt.Fprintf(b, "<p class=\"note\">Left out: run %s: %s.</p>\n", esc(l.RunID), esc(l.Why))
	}
	b.WriteString(RankedBarChart(fmt.Sprintf("%s of %s, best first", unit, lb.Workload), unit, []string{"published", "measured"}, bars))
}

func price(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmtNum(*v)
}

// published says what a published figure is, in its run's section.
func published(b *strings.Builder, r *result.Result) {
	p := r.Published
	fmt.Fprintf(b, "<p>A published figure, not measured by dbdyno: %s, %s, %d cores in %d socket(s)", esc(p.System), esc(p.Host.Model), p.Host.PhysicalCores, p.Host.Sockets)
	if p.Engine != "" {
		fmt.Fprintf(b, ", %s", esc(p.Engine))
	}
	fmt.Fprintf(b, "; source: %s.</p>\n", esc(p.Source))
}

// cpuText is a processor fingerprint in one line: "AMD EPYC, 1 socket(s), 2 cores, 1 thread(s) per core, base
// 2445 MHz (this machine)".
func cpuText(h *result.CPU) string {
	s := fmt.Sprintf("%s, %d socket(s), %d cores, %s thread(s) per core", leaderboard.Dash(h.Model), h.Sockets, h.PhysicalCores, leaderboard.Count(h.ThreadsPerCore))
	if h.BaseMHz > 0 {
		s += ", base " + leaderboard.MHz(h.BaseMHz) + " MHz"
	}
	if h.MaxMHz > 0 {
		s += ", max " + leaderboard.MHz(h.MaxMHz) + " MHz"
	}
	if h.Source != "" {
		s += " (" + h.Source + ")"
	}
	return s
}

// perCore is a score per core as the leaderboard prints it: two decimals, none from 1,000 on.
func perCore(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// onlyMeasured are the configurations (and their runs) measured here: published figures rank in the
// leaderboard, they are not compared metric by metric (they did no work the report could compare).
func onlyMeasured(confs []Configuration) ([]Configuration, []*result.Result) {
	var out []Configuration
	var runs []*result.Result
	for _, c := range confs {
		if len(c.Runs) > 0 && c.Runs[0].Published != nil {
			continue
		}
		out = append(out, c)
		runs = append(runs, c.Runs...)
	}
	return out, runs
}

// perCoreHeadline says a run's headline is one a leaderboard ranks per physical core.
func perCoreHeadline(r *result.Result) bool {
	h, ok := r.Headline()
	return ok && h.PerCore
}

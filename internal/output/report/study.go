package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Options are a report's: its title, its runs and, when they form one, the study they are (its
// configurations named by the user's labels, compared point by point with the baseline).
type Options struct {
	Title string
	Runs  []*result.Result
	Study *compare.Study
	// Metrics are the study's tables (default: the headline); Beside the metrics shown beside each cell.
	Metrics, Beside []string
	// LicensePerCore is the database license's price per physical core for the leaderboards' license columns
	// (a run's license_per_core label wins for its row).
	LicensePerCore float64
}

// studySection is the study's tables, first in the report: each the swept parameter (or the pieces of work)
// against the configurations, every cell its median and its change from the baseline's at the same point,
// judged against both cells' noise, the table's formula and notes under it; then its charts, the
// configurations side by side on one axis per metric, named by their labels.
func studySection(b *strings.Builder, s *compare.Study, tables []compare.StudyTable) []tocEntry {
	toc := []tocEntry{{"study", "Study", 0}}
	fmt.Fprintf(b, "<h2 id=\"study\">Study</h2>\n<p class=\"note\">%d configurations, each alone through the same work; %s is the baseline. Each cell is the median of its runs; its change is against the baseline at the same point, green where better and red where worse only when the two cells' noise intervals do not overlap.</p>\n",
		len(s.Configs), esc(s.Configs[s.Baseline].Name))
	for ti, t := range tables {
		g := s.Layout(t)
		id := fmt.Sprintf("study-table-%d", ti+1)
		toc = append(toc, tocEntry{id, g.Caption, 1})
		fmt.Fprintf(b, "<h3 id=\"%s\">%s</h3>\n<div class=\"wide\"><table class=\"study\"><tr>", id, esc(g.Caption))
		for i, h := range g.Head {
			cls := ""
			if i == 0 || i == 1 && len(g.Rows) > 0 && len(s.Points) == 1 {
				cls = ` class="l"`
			}
			fmt.Fprintf(b, "<th%s>%s</th>", cls, esc(h))
		}
		b.WriteString("</tr>\n")
		for ri, r := range g.Rows {
			b.WriteString("<tr>")
			for ci, c := range r {
				cls := []string{}
				if ci == 0 {
					cls = append(cls, "l")
				}
				if c := verdictClass[g.Classes[ri][ci]]; c != "" {
					cls = append(cls, c)
				}
				attr := ""
				if len(cls) > 0 {
					attr = ` class="` + strings.Join(cls, " ") + `"`
				}
				fmt.Fprintf(b, "<td%s>%s</td>", attr, esc(c))
			}
			b.WriteString("</tr>\n")
		}
		b.WriteString("</table></div>\n")
		for _, n := range g.Notes {
			fmt.Fprintf(b, "<p class=\"note\">%s</p>\n", esc(n))
		}
		studyCharts(b, s, t)
	}
	// each workload's own view of its points (a study of several workloads: each its points)
	var order []string
	byWorkload := map[string][]compare.Point{}
	for _, p := range s.Points {
		w := ""
		for _, c := range p.Cells {
			if len(c) > 0 {
				w = c[0].Workload
				break
			}
		}
		if _, ok := byWorkload[w]; !ok {
			order = append(order, w)
		}
		byWorkload[w] = append(byWorkload[w], p)
	}
	for _, w := range order {
		if view, ok := studySections[w]; ok {
			sub := *s
			sub.Points = byWorkload[w]
			view(b, &sub)
		}
	}
	return toc
}

// studyCharts draws a table's figures: grouped bars per point (one bar per configuration) on one axis, and for
// a sweep a line per configuration against the swept value; a table of points of different metrics gets one
// chart per point, each on its own axis.
func studyCharts(b *strings.Builder, s *compare.Study, t compare.StudyTable) {
	names := make([]string, len(s.Configs))
	for i, c := range s.Configs {
		names[i] = c.Name
	}
	if t.Metric == "" { // each point its own metric: one chart per point
		for _, r := range t.Rows {
			var series []Series
			for ci := range s.Configs {
				series = append(series, Series{Name: names[ci], Y: []float64{r.Values[ci]}})
			}
			b.WriteString(BarChart(capital(r.Desc.Name)+": "+r.Label, unitOr(r.Desc), []string{r.Label}, series))
		}
		return
	}
	label := compare.Row{Metric: t.Metric, Unit: t.Unit}.Label()
	if len(t.Rows) == 1 {
		b.WriteString(BarChart(capital(label)+" by configuration", unitOr(t.Desc), names, []Series{{Name: t.Metric, Y: t.Rows[0].Values}}))
		return
	}
	cats := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		cats[i] = r.Label
		if s.Sweep != "" {
			cats[i] = s.Sweep + "=" + r.Label
		}
	}
	var bars []Series
	for ci := range s.Configs {
		sr := Series{Name: names[ci]}
		for _, r := range t.Rows {
			sr.Y = append(sr.Y, r.Values[ci])
		}
		bars = append(bars, sr)
	}
	b.WriteString(BarChart(capital(label)+" by configuration and point", unitOr(t.Desc), cats, bars))
	if s.Sweep == "" {
		return
	}
	var lines []Series
	for ci := range s.Configs {
		sr := Series{Name: names[ci]}
		for _, r := range t.Rows {
			if !math.IsNaN(r.Values[ci]) {
				sr.X, sr.Y = append(sr.X, r.Point.Value), append(sr.Y, r.Values[ci])
			}
		}
		lines = append(lines, sr)
	}
	b.WriteString(LineChart(capital(label)+" "+result.SweepTitle(s.Configs[s.Baseline].Runs[0].Workload, s.Sweep), s.Sweep, unitOr(t.Desc), lines))
}

func unitOr(m result.Metric) string {
	if m.Unit != "" {
		return m.Unit
	}
	return m.Name
}

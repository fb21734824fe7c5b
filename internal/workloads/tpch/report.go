package tpch

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// analytic renders the run's tests: a table of them, then each test's query times and stream completion
// times (the warm-up left out).
func analytic(b *strings.Builder, a *result.Analytic, of string) {
	fmt.Fprintf(b, "<p>Scale factor %g, seed %s, refresh functions %v. %s</p>\n", a.Scale, report.Esc(a.Seed), a.Refresh, report.Esc(a.Note))
	b.WriteString("<table class=\"tests\"><tr><th class=\"l\">test</th><th>streams</th><th class=\"l\">status</th><th>time to complete (s)</th><th>geomean (s)</th><th class=\"l\">metric</th></tr>")
	for _, t := range a.Tests {
		metric, g := t.MetricText()
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td>%d</td><td class=\"l\">%s</td><td>%.3f</td><td>%s</td><td class=\"l\">%s</td></tr>", t.Kind, t.Streams, t.Status, t.Seconds, g, metric)
	}
	b.WriteString("</table>\n")
	for _, t := range a.Tests {
		if t.Kind == "warmup" {
			continue
		}
		// per-query times: one series per stream, the queries in number order
		var qs []int
		seen := map[int]bool{}
		for _, s := range t.QueryStreams {
			for _, q := range s.Queries {
				if !seen[q.Query] {
					seen[q.Query] = true
					qs = append(qs, q.Query)
				}
			}
		}
		sort.Ints(qs)
		pos := map[int]int{}
		var cats []string
		for i, q := range qs {
			pos[q] = i
			cats = append(cats, fmt.Sprintf("Q%d", q))
		}
		var series []report.Series
		var sc []string
		var sv []float64
		for _, s := range t.QueryStreams {
			ser := report.Series{Name: fmt.Sprintf("stream %d", s.Stream), Y: make([]float64, len(qs))}
			for i := range ser.Y {
				ser.Y[i] = math.NaN()
			}
			for _, q := range s.Queries {
				ser.Y[pos[q.Query]] = q.Seconds
			}
			series = append(series, ser)
			sc, sv = append(sc, fmt.Sprintf("stream %d", s.Stream)), append(sv, s.Seconds)
		}
		b.WriteString(report.BarChart(fmt.Sprintf("%s test: query times", t.Kind)+of, "seconds", cats, series))
		b.WriteString(report.BarChart(fmt.Sprintf("%s test: stream completion times", t.Kind)+of, "seconds", sc, []report.Series{{Name: "completion", Y: sv}}))
	}
}

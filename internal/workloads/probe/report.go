package probe

import (
	"fmt"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// probeSection renders a capacity probe's steps: a table of them and the probe's chart (the read series in
// table order, the write series per chunk with its rolling average, the cpu step curve, the memory curve of
// both passes with the share cached).
func probeSection(b *strings.Builder, p *result.Probe, of string) {
	fmt.Fprintf(b, "<h3>%s probe</h3>\n", report.Esc(report.Capital(p.Kind)))
	for _, w := range p.Warnings {
		fmt.Fprintf(b, "<p class=\"bad\">%s</p>\n", report.Esc(w))
	}
	src := "the engine's statistics"
	if p.Counters == "process" {
		src = "the embedded engine's process IO (/proc/self/io)"
	}
	fmt.Fprintf(b, "<p>Counters from %s.</p>\n", src)
	b.WriteString("<table class=\"probe\"><tr><th class=\"l\">step</th><th>seconds</th><th>rows</th><th>MiB</th><th>" + report.Esc(p.Rate) +
		"</th><th>read from storage (MiB)</th><th>cached %</th><th>log / written (MiB)</th><th>engine CPU (s)</th></tr>")
	for _, st := range p.Steps {
		name := report.Esc(st.Name)
		if st.Exceeded {
			name += " <span class=\"bad\">(stopped at the limit)</span>"
		}
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td>%.3f</td><td>%d</td><td>%.1f</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>",
			name, st.Seconds, st.Rows, float64(st.Bytes)/mib, report.Value(st.Rate), counterMB(st, "read_bytes"), cachedPct(st),
			counterMB(st, "log_bytes", "written_bytes"), cpuSecs(st))
	}
	b.WriteString("</table>\n")
	if p.Plan != "" {
		fmt.Fprintf(b, "<details><summary>The join's plan</summary><pre>%s</pre></details>\n", report.Esc(p.Plan))
	}
	switch p.Kind {
	case "read":
		s := report.Series{Name: "MB/min"}
		for _, st := range p.Steps {
			s.X, s.Y = append(s.X, st.X), append(s.Y, st.Rate)
		}
		b.WriteString(report.LineChart("Read MB/min per table, in table order"+of, "table", "MB/min", []report.Series{s}))
	case "write":
		s, roll := report.Series{Name: "chunk"}, report.Series{Name: "rolling average"}
		var bytes, secs float64
		for _, st := range p.Steps {
			bytes, secs = bytes+float64(st.Bytes), secs+st.Seconds
			s.X, s.Y = append(s.X, st.X), append(s.Y, st.Rate)
			roll.X, roll.Y = append(roll.X, st.X), append(roll.Y, bytes/1e6/(secs/60))
		}
		b.WriteString(report.LineChart("Write MB/min per chunk"+of, "chunk", "MB/min", []report.Series{s, roll}))
	case "cpu":
		s := report.Series{Name: "seconds"}
		for _, st := range p.Steps {
			if !st.Exceeded {
				s.X, s.Y = append(s.X, st.X), append(s.Y, st.Seconds)
			}
		}
		b.WriteString(report.LineChart("Loop join time by rows N (N x N pairs)"+of, "N", "seconds", []report.Series{s}))
	case "memory":
		first, second := report.Series{Name: "first read"}, report.Series{Name: "second read"}
		cached := report.Series{Name: "cached % (second read)"}
		for _, st := range p.Steps {
			if st.Pass == 1 {
				first.X, first.Y = append(first.X, st.X), append(first.Y, st.Rate)
				continue
			}
			second.X, second.Y = append(second.X, st.X), append(second.Y, st.Rate)
			if st.Cached != nil {
				cached.X, cached.Y = append(cached.X, st.X), append(cached.Y, *st.Cached)
			}
		}
		b.WriteString(report.LineChart("Working set read MB/min by size"+of, "working set (MiB)", "MB/min", []report.Series{first, second}))
		if len(cached.X) > 0 {
			b.WriteString(report.LineChart("Share of the second read served from cache"+of, "working set (MiB)", "%", []report.Series{cached}))
		}
	}
}

func counterMB(st result.ProbeStep, keys ...string) string {
	for _, k := range keys {
		if v, ok := st.Counters[k]; ok {
			return fmt.Sprintf("%.1f", v/mib)
		}
	}
	return "-"
}

func cachedPct(st result.ProbeStep) string {
	if st.Cached == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f", *st.Cached)
}

func cpuSecs(st result.ProbeStep) string {
	if st.CPUSeconds == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", st.CPUSeconds)
}

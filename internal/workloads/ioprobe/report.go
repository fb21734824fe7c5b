package ioprobe

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// storage renders a storage probe's run: its files, warm-up, a table of its tests, IOPS and latency against
// queue depth where the tests step the depth, and each test's IOPS over time.
func storage(b *strings.Builder, x *result.IO, of string) {
	b.WriteString("<h3>Files</h3>\n<table class=\"io-files\"><tr><th class=\"l\">path</th><th>size</th><th class=\"l\">device</th><th class=\"l\">filesystem</th><th class=\"l\">laid out by this run</th><th class=\"l\">IO</th></tr>")
	for _, f := range x.Files {
		mode := "direct"
		if f.Buffered {
			mode = "<span class=\"bad\">buffered: direct IO refused, the page cache's figures</span>"
		}
		laid := "no (reused)"
		if f.LaidOut {
			laid = fmt.Sprintf("yes, %.1f s (untimed)", f.LayoutS)
		}
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td>%s</td><td class=\"l\">%s</td><td class=\"l\">%s</td><td class=\"l\">%s</td><td class=\"l\">%s</td></tr>",
			report.Esc(f.Path), result.FormatSize(f.SizeBytes), report.Esc(f.Device), report.Esc(f.Filesystem), laid, mode)
	}
	b.WriteString("</table>\n")
	if w := x.Warmup; w != nil {
		fmt.Fprintf(b, "<p>Warm-up before measuring: 1 MiB writes for %.0f s (%.0f MB/s), then reads for %.0f s (%.0f MB/s).</p>\n", w.WriteS, w.WriteMBs, w.ReadS, w.ReadMBs)
	}
	cdmReport(b, x)
	requirements(b, x.Requirements)
	// the tests' table is wide: its cells padded less, so that it fits a narrow page with the engine (io_uring)
	// kept whole
	b.WriteString("<style>table.io-tests td,table.io-tests th{padding:3px 4px}</style>\n")
	b.WriteString("<table class=\"io-tests\"><tr><th class=\"l\">test</th><th class=\"l\">engine</th><th>read IOPS</th><th>read MB/s</th><th>write IOPS</th><th>write MB/s</th>" +
		"<th>p50 (µs)</th><th>p99 (µs)</th><th>p99.9 (µs)</th><th>device util %</th><th>device queue</th><th>CPU per IO (µs)</th><th>in flight (Little) / kept</th><th class=\"l\">status</th></tr>")
	for i := range x.Tests {
		t := &x.Tests[i]
		row := []string{report.Esc(t.Name), report.Esc(t.IOEngine)}
		for _, d := range []*result.IODir{t.Read, t.Write} {
			if d == nil {
				row = append(row, "-", "-")
				continue
			}
			row = append(row, report.Value(d.IOPS), report.Value(d.MBs))
		}
		if l, ok := t.Latency(); ok {
			row = append(row, report.Value(l.P50), report.Value(l.P99), report.Value(l.P999))
		} else {
			row = append(row, "-", "-", "-")
		}
		if d := t.Disk; d != nil {
			row = append(row, fmt.Sprintf("%.0f", d.UtilPct), fmt.Sprintf("%.1f", d.AvgQueue))
		} else {
			row = append(row, "-", "-")
		}
		row = append(row, fmt.Sprintf("%.2f", t.CPU.PerIOUs))
		if l := t.Little; l != nil {
			row = append(row, fmt.Sprintf("%.1f / %d", l.ImpliedDepth, l.Depth))
		} else {
			row = append(row, "-")
		}
		st := report.Esc(t.Status)
		if t.Buffered {
			st += " (buffered)"
		}
		b.WriteString("<tr><td class=\"l\">" + row[0] + "</td><td class=\"l w\">" + row[1] + "</td><td>" + strings.Join(row[2:], "</td><td>") + "</td><td class=\"l\">" + st + "</td></tr>")
	}
	b.WriteString("</table>\n<p class=\"note\">Latency is completion latency of the read side (the write side for tests that only write). " +
		"In flight (Little's law) is IOPS x mean latency: near the depth kept, the figures agree with each other.</p>\n")
	byDepth(b, x.Tests, of)
	// every test's IOPS over time, as many to a chart as the charts have colours (before, a test of one interval
	// was left out: five of CrystalDiskMark's eight drawn)
	var series []report.Series
	for i := range x.Tests {
		t := &x.Tests[i]
		s := report.Series{Name: t.Name}
		for _, p := range t.Series {
			s.X, s.Y = append(s.X, p.T), append(s.Y, p.ReadIOPS+p.WriteIOPS)
		}
		if len(s.X) > 0 { // a test of one interval is its point (CrystalDiskMark's short passes)
			series = append(series, s)
		}
	}
	per := report.Colours()
	for from := 0; from < len(series); from += per {
		part, title := series[from:min(from+per, len(series))], "IOPS over time (each interval)"
		if len(series) > per {
			title = fmt.Sprintf("IOPS over time (each interval), tests %d to %d of %d", from+1, from+len(part), len(series))
		}
		b.WriteString(report.LineChart(title+of, "elapsed (s)", "IOPS", part))
	}
}

// byDepth charts IOPS and p99 latency against queue depth, one line per test kind (direction, block size,
// jobs), where a kind was run at two depths or more. A group of several jobs has no one depth (its iodepth is
// its first job's): it is left out.
func byDepth(b *strings.Builder, tests []result.IOTest, of string) {
	type pt struct{ depth, iops, p99 float64 }
	kinds := map[string][]pt{}
	var order []string
	for i := range tests {
		t := &tests[i]
		l, ok := t.Latency()
		if !ok || severalJobs(t) {
			continue
		}
		k := fmt.Sprintf("%s %s Q*T%d", t.RW, result.FormatSize(int64(t.BS)), t.NumJobs) // its depth the x axis
		if _, seen := kinds[k]; !seen {
			order = append(order, k)
		}
		kinds[k] = append(kinds[k], pt{float64(t.IODepth), t.IOPS(), l.P99})
	}
	var ios, lats []report.Series
	for _, k := range order {
		pts := kinds[k]
		if len(pts) < 2 {
			continue
		}
		sort.Slice(pts, func(i, j int) bool { return pts[i].depth < pts[j].depth })
		a, l := report.Series{Name: k}, report.Series{Name: k}
		for _, p := range pts {
			a.X, a.Y = append(a.X, p.depth), append(a.Y, p.iops)
			l.X, l.Y = append(l.X, p.depth), append(l.Y, p.p99)
		}
		ios, lats = append(ios, a), append(lats, l)
	}
	if len(ios) == 0 {
		return
	}
	b.WriteString(report.LineChart("IOPS versus queue depth"+of, "queue depth per job", "IOPS", ios))
	b.WriteString(report.LineChart("p99 latency versus queue depth"+of, "queue depth per job", "µs", lats))
}

// severalJobs says whether the test ran more than one job (a job file's group), not one job's clones.
func severalJobs(t *result.IOTest) bool {
	for _, j := range t.Jobs {
		if j.Job != t.Jobs[0].Job {
			return true
		}
	}
	return false
}

// requirements is a replayed checklist's verdicts (io run --profile), the loop's last table: each requirement
// against what the replay measured, met or not.
func requirements(b *strings.Builder, q *result.IORequirements) {
	if q == nil {
		return
	}
	verdict := "<b class=\"ok\">every requirement met</b>"
	if !q.Met() {
		verdict = "<b class=\"bad\">a requirement NOT MET</b>"
	}
	fmt.Fprintf(b, "<h3>Requirements</h3>\n<p>The checklist %s at %s replayed on this disk: %s.</p>\n", report.Esc(q.Profile), report.Esc(q.Percentile), verdict)
	b.WriteString("<table class=\"io-requirements\"><tr><th class=\"l\">requirement</th><th>needed</th><th>measured</th><th class=\"l\">verdict</th></tr>")
	for _, v := range q.Verdicts {
		cls, word := "ok", "met"
		if !v.Met {
			cls, word = "bad", "NOT MET"
		}
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td>%s</td><td>%s</td><td class=\"l %s\">%s</td></tr>", report.Esc(v.What), report.Esc(v.Needed), report.Esc(v.Measured), cls, word)
	}
	b.WriteString("</table>\n")
}

// cdmStudy sets CrystalDiskMark runs of a study's configurations side by side, as its users compare a disk
// before and after a change: one grid per configuration (a row per test, read and write MB/s), each cell of
// the others with its change against the baseline's, judged against both cells' noise.
func cdmStudy(b *strings.Builder, s *compare.Study) {
	for _, p := range s.Points {
		tabs := make([]*cdmTab, len(p.Cells))
		for ci, c := range p.Cells {
			if len(c) == 0 || c[0].IO == nil {
				return
			}
			if tabs[ci] = cdmTabOf(c[0].IO); tabs[ci] == nil {
				return
			}
		}
		base := s.Baseline
		var notes compare.Notes
		cell := func(ci int, t *result.IOTest) string {
			if t == nil || t.Read == nil && t.Write == nil {
				return "-"
			}
			v := report.Esc(cdmCell(t.MBs()))
			if ci == base {
				return v
			}
			bt := cdmTest(tabs[base], t)
			if bt == nil {
				return v
			}
			metric := cdmMetric(p.Cells[ci][0].IO, t)
			na, nb := compare.NoiseOf(p.Cells[base], cdmMetric(p.Cells[base][0].IO, bt)), compare.NoiseOf(p.Cells[ci], metric)
			j := compare.JudgeNoise(bt.MBs(), t.MBs(), na, nb, result.Higher)
			cls, word := "", compare.Words(j.Change)
			switch j.Verdict {
			case compare.Better:
				cls, word = "ok", word+" (better)"
			case compare.Worse:
				cls, word = "bad", word+" (worse)"
			default:
				word += notes.Ref(j.Note)
			}
			return fmt.Sprintf("%s<br><small class=\"%s\">%s</small>", v, cls, report.Esc(word))
		}
		fmt.Fprintf(b, "<h3>CrystalDiskMark, configuration by configuration</h3>\n<div style=\"display:flex;flex-wrap:wrap;gap:24px\">")
		for ci, tb := range tabs {
			role := ""
			if ci == base {
				role = " (baseline)"
			}
			fmt.Fprintf(b, "<table class=\"io-cdm-study\"><tr><th class=\"l\">%s%s</th><th>Read [MB/s]</th><th>Write [MB/s]</th></tr>", report.Esc(s.Configs[ci].Name), role)
			for _, row := range tb.rows {
				fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td>%s</td><td>%s</td></tr>", report.Esc(row), cell(ci, tb.read[row]), cell(ci, tb.write[row]))
			}
			b.WriteString("</table>")
		}
		b.WriteString("</div>\n<p class=\"note\">MB/s = 10^6 bytes/s, each the best of its passes as CrystalDiskMark keeps it; a change is the figure against the baseline's in the same cell, better or worse only where their noise intervals (each test's per-second series) do not overlap.</p>\n")
		for i, n := range notes.List() {
			fmt.Fprintf(b, "<p class=\"note\">[%d] %s</p>\n", i+1, report.Esc(n))
		}
	}
}

// cdmTest is the baseline's test in the same cell as t (its row and direction).
func cdmTest(tb *cdmTab, t *result.IOTest) *result.IOTest {
	if t.RW == "read" || t.RW == "randread" {
		return tb.read[t.CDM.Row]
	}
	return tb.write[t.CDM.Row]
}

// cdmMetric is the name of a test's MB/s metric in its run (metrics name each test when a run has several).
func cdmMetric(x *result.IO, t *result.IOTest) string {
	if len(x.Tests) > 1 {
		return t.Name + ": " + mMBs.Name
	}
	return mMBs.Name
}

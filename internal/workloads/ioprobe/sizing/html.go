package sizing

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/dbdyno/dbdyno/internal/host/monitor"
	"github.com/dbdyno/dbdyno/internal/output/report"
)

// The plan as an HTML page (io size --html FILE), for a design document: what was asked (each requirement and
// where it came from), the candidates cheapest first (a table and a chart of their monthly cost, the cheapest
// marked), the requirements no candidate meets, and the catalogue. It is written with the report's page and
// chart helpers, in the look of the runs' and the monitor's reports, and its figures are the text table's
// (Candidate.row, the one source of both).

// limitWords names a binding limit in words.
var limitWords = map[string]string{
	"disk IOPS":           "the disks' IOPS caps",
	"disk MB/s":           "the disks' MB/s caps",
	"VM IOPS cap":         "the VM's uncached IOPS cap",
	"VM MB/s cap":         "the VM's uncached MB/s cap",
	"VM cache IOPS cap":   "the VM's host cache IOPS cap",
	"VM cache MB/s cap":   "the VM's host cache MB/s cap",
	"capacity":            "the disks' capacity",
	"MB/s cap not stated": "no MB/s cap stated in the catalogue: throughput not known",
}

// LimitWords is a binding limit ("VM MB/s cap") in words ("the VM's uncached MB/s cap").
func LimitWords(limit string) string {
	if w, ok := limitWords[limit]; ok {
		return w
	}
	return limit
}

// asked is one requirement of the page's first table.
type asked struct {
	what, figure, source string
}

// asked lists the need's requirements with where each came from.
func (n Need) asked() []asked {
	a := n.Asked
	inline := func(key string) string {
		for _, part := range strings.Split(a.Inline, ",") {
			if k, _, ok := strings.Cut(strings.TrimSpace(part), "="); ok && k == key {
				return "--need " + strings.TrimSpace(part)
			}
		}
		return ""
	}
	checklist := "checklist"
	if a.Name != "" {
		checklist += " of recording " + a.Name
	}
	if a.File != "" {
		checklist += " (" + a.File + ")"
	}
	of := func(key string, stat string) string {
		period := a.Of[key]
		if period == "" {
			return ""
		}
		s := checklist + ": " + stat
		switch {
		case a.Period != "":
			s += " of period " + period
		case a.Periods > 1:
			s += fmt.Sprintf(" of period %s, the largest of the %d periods'", period, a.Periods)
		default:
			s += " of period " + period
		}
		if a.Scaled[key] && a.Growth != 1 {
			s += fmt.Sprintf(", growth x%g applied", a.Growth)
		}
		return s
	}
	source := func(key, inlineKey string) string {
		if a.Inline != "" {
			if s := inline(inlineKey); s != "" {
				return s
			}
			return "not in --need"
		}
		if a.File != "" {
			if s := of(key, percentileWords(a.Percentile)); s != "" {
				return s
			}
			return "not in the checklist"
		}
		if n.From != "" {
			return n.From
		}
		return "-"
	}
	figure := func(x float64, none string) string {
		if x <= 0 {
			return none
		}
		return num(x)
	}
	out := []asked{
		{"IOPS (reads and writes a second)", figure(n.IOPS, "no requirement"), source(monitor.KeyIOPS, "iops")},
		{"throughput (MB/s)", figure(n.MBps, "no requirement"), source(monitor.KeyMBps, "mbps")},
		{"IO request size (KB): each cap is converted at it", figure(n.IOSizeKB, "not known: each cap taken as it stands"), source(monitor.KeyIOSize, "io-size")},
		{"capacity (GiB)", figure(n.GiB, "no requirement"), source("", "gib")},
	}
	if a.File != "" && n.GiB <= 0 {
		out[3].source = "a checklist states no capacity (an inline --need gib=N does)"
	}
	if n.ReadPct > 0 || n.CacheHit > 0 {
		src := source(monitor.KeyReadPct, "read")
		if a.File != "" && a.Of[monitor.KeyReadPct] != "" {
			src = of(monitor.KeyReadPct, "the average")
		}
		out = append(out, asked{"read share (% of operations)", figure(n.ReadPct, "not known"), src})
	}
	if n.CacheHit > 0 {
		out = append(out, asked{"reads served by a VM's ReadOnly host cache (% of the reads)", num(100 * n.CacheHit),
			fmt.Sprintf("--cache-hit %s: they count against the VM's cache caps, not the disks'", hitPct(n.CacheHit))})
	} else {
		out = append(out, asked{"reads served by a VM's ReadOnly host cache (% of the reads)", "none counted", "--cache-hit 0% (the default): every read counts against the disks' caps"})
	}
	return out
}

func percentileWords(p string) string {
	switch strings.ToLower(p) {
	case "p50":
		return "p50 (the median)"
	case "p90":
		return "p90 (90th percentile)"
	case "p99":
		return "p99 (99th percentile)"
	}
	return p
}

// Title is the page's title: the need in a line.
func (p *Plan) Title() string { return "Storage plan: " + needString(p.Need) }

// WriteHTML writes the plan as one self-contained HTML page; top limits the candidates listed (0: all), as the
// text table's.
func (p *Plan) WriteHTML(w io.Writer, top int) error {
	var b strings.Builder
	esc := report.Esc
	// the page's tables: names and figures do not break inside a word (a table scrolls in its box instead, on a
	// narrow page); what was asked
	b.WriteString("<style>table.plan td{overflow-wrap:normal}#plan td,#plan th{padding:3px 5px}table.plan .n{white-space:nowrap}</style>\n")
	b.WriteString("<h2 id=\"asked\">What was asked</h2>\n<div class=\"wide\"><table class=\"plan\" id=\"need\"><tr><th class=\"l\">requirement</th><th>figure</th><th class=\"l\">from</th></tr>\n")
	for _, a := range p.Need.asked() {
		fmt.Fprintf(&b, "<tr><td class=\"l\">%s</td><td>%s</td><td class=\"l\">%s</td></tr>\n", esc(report.Capital(a.what)), esc(a.figure), esc(a.source))
	}
	b.WriteString("</table></div>\n")
	// the candidates
	list := p.Candidates
	if top > 0 && len(list) > top {
		list = list[:top]
	}
	b.WriteString("<h2 id=\"candidates\">Candidates, cheapest first</h2>\n")
	if len(list) == 0 {
		b.WriteString("<p>No VM and disks of the catalogue meet every requirement: see below.</p>\n")
	} else {
		p.candidatesHTML(&b, list)
	}
	for _, n := range p.Notes { // a mixes' search cut short
		fmt.Fprintf(&b, "<p class=\"note\">%s.</p>\n", esc(report.Capital(n)))
	}
	// what no candidate meets
	b.WriteString("<h2 id=\"unmet\">Requirements no candidate meets</h2>\n")
	if u := p.Unmet; u != nil {
		b.WriteString("<ul>\n")
		for _, l := range u.Lines {
			fmt.Fprintf(&b, "<li class=\"bad\">%s</li>\n", esc(report.Capital(l)))
		}
		b.WriteString("</ul>\n")
		if u.Cache != "" {
			fmt.Fprintf(&b, "<p>Host read caching: %s.</p>\n", esc(u.Cache))
		}
	} else {
		b.WriteString("<p class=\"ok\">None: every candidate listed meets each requirement.</p>\n")
	}
	// the catalogue
	b.WriteString("<h2 id=\"catalogue\">Catalogue</h2>\n")
	fmt.Fprintf(&b, "<p>%s: %d VM sizes, %d disks. Caps are as the catalogue advertises them; prices are per month.", esc(p.Catalog.File), len(p.Catalog.VMs), len(p.Catalog.Disks))
	if p.Need.CacheHit > 0 {
		fmt.Fprintf(&b, " &quot;cached&quot;: a ReadOnly host cache serves %s of the %.0f%% reads, within the VM's cache caps.</p>\n", hitPct(p.Need.CacheHit), p.Need.ReadPct)
	} else {
		b.WriteString(" Reads served by a host cache are not counted (--cache-hit counts them).</p>\n")
	}
	return report.Page(w, p.Title(), b.String())
}

// candidatesHTML is the candidates' table, the cheapest line and the chart of their monthly cost.
func (p *Plan) candidatesHTML(b *strings.Builder, list []Candidate) {
	esc := report.Esc
	needs := func(x float64) string {
		if x <= 0 {
			return "none"
		}
		return num(x)
	}
	// a figure's cell: on one line ("not stated", "not priced" may wrap)
	figure := func(s string) string {
		if s != "" && (s[0] == '$' || s[0] >= '0' && s[0] <= '9') {
			return "<td class=\"n\">" + esc(s) + "</td>"
		}
		return "<td>" + esc(s) + "</td>"
	}
	cheapest := p.Candidates[0].Priced
	fmt.Fprintf(b, "<p class=\"note\">Each candidate meets every requirement: the figures are what it delivers at the request size with every cap applied; the binding limit is the cap with the least headroom over its requirement.</p>\n")
	b.WriteString("<div class=\"wide\"><table class=\"plan\" id=\"plan\"><tr><th>#</th><th class=\"l\">VM size and disks</th><th>IOPS</th><th>throughput (MB/s)</th><th>capacity (GiB)</th><th class=\"l\">binding limit</th><th>total ($ a month)</th><th>VM + disks ($ a month)</th></tr>\n")
	fmt.Fprintf(b, "<tr><th></th><th class=\"l\">needed</th><th>%s</th><th>%s</th><th>%s</th><th></th><th></th><th></th></tr>\n",
		esc(needs(p.Need.IOPS)), esc(needs(p.Need.MBps)), esc(needs(p.Need.GiB)))
	for i, c := range list {
		r := c.row()
		mark, rank := "", fmt.Sprint(i+1)
		if i == 0 && cheapest {
			mark, rank = ` class="cheapest" style="background:#fff4c2;font-weight:bold"`, "1<br>cheapest"
		}
		disks := c.Disks()
		if c.Cached {
			disks += ", the VM's ReadOnly host cache serving " + num(c.CacheIOPS) + " IOPS"
		}
		split := "not priced"
		if c.Priced {
			split = r.VMCost + " + " + r.DiskCost
		}
		fmt.Fprintf(b, "<tr%s><td class=\"n\">%s</td><td class=\"l\"><span class=\"n\">%s</span><br>%s</td>%s%s%s<td class=\"l\">%s</td>%s<td>%s</td></tr>\n",
			mark, rank, esc(c.VM.Name), esc(disks), figure(r.IOPS), figure(r.MBps), figure(r.GiB), esc(LimitWords(r.Limit)), figure(r.Cost), esc(split))
	}
	b.WriteString("</table></div>\n")
	if n := len(p.Candidates) - len(list); n > 0 {
		fmt.Fprintf(b, "<p class=\"note\">%d more candidates: --top 0 lists them all.</p>\n", n)
	}
	if c := p.Candidates[0]; cheapest {
		fmt.Fprintf(b, "<p>Cheapest: <b>%s</b>, <b>%s a month</b> (VM %s + %s %s).</p>\n", esc(c.String()), esc(c.Cost.String()), esc(c.VM.Price.String()), esc(c.Disks()), esc(c.DiskCost().String()))
		if len(c.Mix) > 0 {
			b.WriteString("<p class=\"note\">Placed: each disk a volume of its own, the files placed so that each carries IO within its caps and data within its size (a stripe of unequal disks is held to its smallest member x its count).</p>\n")
		}
	} else {
		b.WriteString("<p>No candidate is priced: add price_month to the catalogue's VMs and disks to choose the cheapest.</p>\n")
	}
	// the chart: each candidate's monthly cost, VM and disks stacked
	h := report.HBars{Title: "Monthly cost of each candidate, cheapest first (VM + disks)", XLabel: "$ a month", Mark: -1, MarkNote: "cheapest",
		Series: []report.Series{{Name: "VM"}, {Name: "disks"}},
		Format: func(v float64) string { return Money(math.Round(v * 10000)).String() }}
	if cheapest {
		h.Mark = 0
	}
	for _, c := range list {
		vm, disks := math.NaN(), math.NaN()
		if c.Priced {
			vm, disks = float64(c.VM.Price)/10000, float64(c.DiskCost())/10000
		}
		h.Categories = append(h.Categories, c.String())
		h.Series[0].Y, h.Series[1].Y = append(h.Series[0].Y, vm), append(h.Series[1].Y, disks)
		h.Ends = append(h.Ends, c.row().Cost)
	}
	b.WriteString(report.HBarChart(h))
	b.WriteString("\n")
}

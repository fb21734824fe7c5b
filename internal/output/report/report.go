// Package report writes a self-contained HTML report of one or more results: a summary table, comparisons,
// scaling for sweeps, then each run: its metrics, throughput over time, latency percentiles, query and stream
// times, system metrics and the environment fingerprint, always in that order. It knows no workload: figures
// come from the metrics results carry, a run's own part from the section its workload registered
// (RegisterSection), drawn with the building blocks here (Measurement, LineChart, BarChart). Charts are inline
// SVG; the page loads nothing from anywhere.
package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Configuration is a set of runs to be summarised together (the repeats of one setting).
type Configuration struct {
	Alias string // A, B, C ...: how tables, sentences and charts name it
	Name  string // what it is (compare.Names): the legend gives it once, with About
	About string // its runs, group and target (compare.About)
	Runs  []*result.Result
}

// Group splits runs into configurations: the repeats of a group (and sweep value and target) form one. Each
// gets an alias (A, B, C ...) and a name no other configuration has (compare.Names).
func Group(runs []*result.Result) []Configuration {
	var out []Configuration
	idx := map[string]int{}
	for _, r := range runs {
		key := r.Configuration()
		if i, ok := idx[key]; ok {
			out[i].Runs = append(out[i].Runs, r)
			continue
		}
		idx[key] = len(out)
		out = append(out, Configuration{Runs: []*result.Result{r}})
	}
	sets := make([][]*result.Result, len(out))
	for i, c := range out {
		sets[i] = c.Runs
	}
	for i, n := range compare.Names(sets) {
		out[i].Alias, out[i].Name, out[i].About = compare.Alias(i), n, compare.About(out[i].Runs, n)
	}
	return out
}

const style = `body{font-family:system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:24px auto;padding:0 16px;color:#222;max-width:1100px}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}h3{font-size:15px}
table{border-collapse:collapse;margin:8px 0 16px 0;font-size:13px;max-width:100%}th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}td{overflow-wrap:anywhere}td.w{overflow-wrap:normal}
th{background:#f3f3f3}td.l,th.l{text-align:left}.note{color:#666;font-size:12px}.ok{color:#1a7f37}.bad{color:#cf222e}
.wide{overflow-x:auto;max-width:100%}nav ol{margin:4px 0;padding-left:22px}nav li{margin:2px 0}nav .runs a{margin-right:6px}
p.pair{margin:4px 0;max-width:90ch}small.ok,small.bad{margin-left:4px}
svg.chart{display:block;width:100%;max-width:` + chartWpx + `px;height:auto;margin:8px 0 20px 0;background:#fff;border:1px solid #eee}` + chartStyle

// Write renders the report: a linked table of contents, the configurations' legend (each alias and its full
// description, once), the runs, the comparisons (a table by alias and one sentence per pair), the sweeps'
// scaling, then each run.
func Write(w io.Writer, title string, runs []*result.Result) error {
	return WriteWith(w, Options{Title: title, Runs: runs})
}

// WriteWith is Write with its options: a study's report opens with its tables (studySection), its legend
// names the study's configurations, and it leaves out the comparisons and scaling the tables replace.
func WriteWith(w io.Writer, o Options) error {
	title, runs := o.Title, o.Runs
	confs := onlyMeasuredConfs(Group(runs))
	alias := map[*result.Result]string{}
	for i := range confs {
		confs[i].Alias = compare.Alias(i) // lettered again without the warm-ups
	}
	shortAliases(confs)
	for i := range confs {
		for _, r := range confs[i].Runs {
			alias[r] = confs[i].Alias
		}
	}
	for _, r := range runs {
		if r.IsWarmup() && alias[r] == "" {
			alias[r] = "warm-up"
		}
	}
	legendConfs := confs
	var tables []compare.StudyTable
	if s := o.Study; s != nil {
		var err error
		if tables, err = s.Tables(o.Metrics, o.Beside); err != nil {
			return err
		}
		legendConfs = nil
		for _, c := range s.Configs {
			legendConfs = append(legendConfs, Configuration{Alias: c.Alias, Name: c.Name, About: compare.About(c.Runs, c.Name), Runs: c.Runs})
		}
		shortAliases(legendConfs)
		for _, c := range legendConfs {
			for _, r := range c.Runs {
				if !r.IsWarmup() {
					alias[r] = strings.TrimSpace(c.Alias + " " + r.Group.Point())
				}
			}
		}
	}
	var body strings.Builder
	var toc []tocEntry
	toc = append(toc, tocEntry{"configurations", "Configurations", 0})
	legend(&body, legendConfs)
	if o.Study != nil {
		toc = append(toc, studySection(&body, o.Study, tables)...)
	}
	toc = append(toc, tocEntry{"runs", "Runs", 0})
	summaryTable(&body, runs, alias)
	toc = append(toc, leaderboards(&body, runs, o.LicensePerCore)...)
	if o.Study == nil {
		measured, measuredRuns := onlyMeasured(confs)
		toc = append(toc, comparisons(&body, measured)...)
		toc = append(toc, scaling(&body, measuredRuns, confs)...)
	}
	// each configuration's median run is drawn in full, and every run that did not end ok; the other repeats
	// show their figures and link to it
	median := map[*result.Result]*result.Result{}
	for _, c := range confs {
		m := c.Runs[compare.MedianIndex(c.Runs)]
		for _, r := range c.Runs {
			if r.Status == result.StatusOK {
				median[r] = m
			}
		}
	}
	envs := map[string]string{}
	for _, r := range runs {
		runSection(&body, r, alias[r], median[r], envs)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><meta name=\"generator\" content=\"dbdyno report\"><title>%s</title><style>%s</style></head><body>\n", esc(title), style)
	fmt.Fprintf(&b, "<h1>%s</h1>\n<p class=\"note\">dbdyno report, %d run(s) in %d configuration(s), written %s. Figures from TPC-derived workloads are not comparable with audited TPC results.</p>\n",
		esc(title), len(runs), len(legendConfs), time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	contents(&b, toc, legendConfs)
	b.WriteString(body.String())
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func esc(s string) string { return html.EscapeString(s) }

// onlyMeasuredConfs leaves out the warm-up runs' configurations: their runs are listed as warm-ups, never a
// configuration (a report of nothing else keeps them).
func onlyMeasuredConfs(confs []Configuration) []Configuration {
	var out []Configuration
	for _, c := range confs {
		if !c.Runs[0].IsWarmup() {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return confs
	}
	return out
}

// tocEntry is a heading the table of contents links to; level 1 is under the last level 0.
type tocEntry struct {
	id, text string
	level    int
}

// contents is the table of contents: the report's sections, then each configuration's runs as links.
func contents(b *strings.Builder, toc []tocEntry, confs []Configuration) {
	b.WriteString("<nav id=\"contents\"><b>Contents</b><ol>")
	open := false
	for i, e := range toc {
		if e.level == 1 && !open {
			b.WriteString("<ol>")
			open = true
		}
		if e.level == 0 && open {
			b.WriteString("</ol></li>")
			open = false
		} else if i > 0 && e.level == 0 {
			b.WriteString("</li>")
		}
		fmt.Fprintf(b, "<li><a href=\"#%s\">%s</a>", esc(e.id), esc(e.text))
		if e.level == 1 {
			b.WriteString("</li>")
		}
	}
	if open {
		b.WriteString("</ol>")
	}
	if len(toc) > 0 {
		b.WriteString("</li>")
	}
	b.WriteString("<li>Each run<ol>")
	for _, c := range confs {
		fmt.Fprintf(b, "<li class=\"runs\">%s:", esc(c.Alias))
		for _, r := range c.Runs {
			fmt.Fprintf(b, " <a href=\"#run-%s\">%s</a>", esc(r.RunID), esc(r.RunID))
		}
		b.WriteString("</li>")
	}
	b.WriteString("</ol></li></ol></nav>\n")
}

// legend names each configuration once: its alias, what it is, its runs and group; what all configurations
// share (the start of their names, their target) is said once above it.
func legend(b *strings.Builder, confs []Configuration) {
	names := make([]string, len(confs))
	for i, c := range confs {
		names[i] = c.Name
	}
	common, rest := compare.CommonStart(names)
	target := confs[0].Runs[0].Target.URL
	for _, c := range confs {
		for _, r := range c.Runs {
			if r.Target.URL != target {
				target = ""
			}
		}
	}
	named := len(confs) > 1 && confs[0].Alias != compare.Alias(0)
	if named {
		b.WriteString("<h2 id=\"configurations\">Configurations</h2>\n<p class=\"note\">Tables, sentences and charts name each configuration by what tells it apart from the others.</p>\n")
	} else {
		b.WriteString("<h2 id=\"configurations\">Configurations</h2>\n<p class=\"note\">Tables, sentences and charts name each configuration by its letter.</p>\n")
	}
	var all []string
	if common != "" {
		all = append(all, esc(common))
	}
	if target != "" {
		all = append(all, "target "+esc(target))
	}
	if len(all) > 0 && len(confs) > 1 {
		fmt.Fprintf(b, "<p>All configurations: %s.</p>\n", strings.Join(all, ", "))
	} else {
		rest, target = names, ""
	}
	if named { // the configuration's own part is its name in the page: no letter to give
		b.WriteString("<div class=\"wide\"><table id=\"legend\"><tr><th class=\"l\">configuration</th><th class=\"l\">workload</th><th class=\"l\">runs and group</th></tr>\n")
		for i, c := range confs {
			about := c.About
			if target != "" {
				about = strings.TrimSuffix(about, ", target "+target)
			}
			fmt.Fprintf(b, "<tr><td class=\"l\"><b>%s</b></td><td class=\"l\">%s</td><td class=\"l\">%s</td></tr>\n", esc(rest[i]), esc(c.Runs[0].Workload), esc(about))
		}
		b.WriteString("</table></div>\n")
		return
	}
	b.WriteString("<div class=\"wide\"><table id=\"legend\"><tr><th class=\"l\">alias</th><th class=\"l\">configuration</th><th class=\"l\">workload</th><th class=\"l\">runs and group</th></tr>\n")
	for i, c := range confs {
		about := c.About
		if target != "" {
			about = strings.TrimSuffix(about, ", target "+target)
		}
		fmt.Fprintf(b, "<tr><td class=\"l\"><b>%s</b></td><td class=\"l\">%s</td><td class=\"l\">%s</td><td class=\"l\">%s</td></tr>\n", esc(c.Alias), esc(rest[i]), esc(c.Runs[0].Workload), esc(about))
	}
	b.WriteString("</table></div>\n")
}

// shortAlias is the longest name a configuration goes by in tables and charts; a longer one keeps its letter.
const shortAlias = 24

// shortAliases names each configuration in tables and charts by what tells it apart from the others (its
// labels, its test: "tier=S1", "randread 8k Q32T2") where that is short and tells every one apart, rather than
// by a letter to look up in the legend; otherwise each keeps its letter.
func shortAliases(confs []Configuration) {
	if len(confs) < 2 {
		return
	}
	names := make([]string, len(confs))
	for i, c := range confs {
		names[i] = c.Name
	}
	_, rest := compare.CommonStart(names)
	seen := map[string]bool{}
	for _, r := range rest {
		if r == "" || seen[r] || len([]rune(r)) > shortAlias || len(r) <= 2 && strings.ToUpper(r) == r ||
			strings.Contains(r, "group g") || strings.Contains(r, "run r") || strings.Contains(r, "#") || strings.HasSuffix(r, " runs") {
			// empty, the same twice, too long, a letter of its own ("B" named "B" would read as another's), or
			// told apart only by IDs, which say less than a letter
			return
		}
		seen[r] = true
	}
	for i := range confs {
		confs[i].Alias = rest[i]
	}
}

// summaryTable lists the runs, each by its configuration's alias; the headline's name is the column's when
// every run has the same.
func summaryTable(b *strings.Builder, runs []*result.Result, alias map[*result.Result]string) {
	head, same := "", true
	for i, r := range runs {
		h, _ := r.Headline()
		label := compare.Row{Metric: h.Name, Unit: h.Unit}.Label()
		if i == 0 {
			head = label
		}
		same = same && label == head
	}
	if !same || head == "" {
		head = "headline"
	}
	fmt.Fprintf(b, "<h2 id=\"runs\">Runs</h2>\n<div class=\"wide\"><table id=\"summary\"><tr><th class=\"l\">run</th><th class=\"l\">configuration</th><th class=\"l\">status</th><th class=\"l\">started</th><th class=\"l\">repeat</th><th>%s</th></tr>\n", esc(head))
	for _, r := range runs {
		h, ok := r.Headline()
		hl := "-"
		if ok {
			hl = fmtVal(h.Value)
			if !same {
				hl = h.Name + " " + hl
			}
		}
		cls := "ok"
		if r.Status != result.StatusOK {
			cls = "bad"
		}
		rep := ""
		if g := r.Group; g != nil && g.Repeats > 0 {
			rep = fmt.Sprintf("%d/%d", g.Repeat, g.Repeats)
			if g.Median && g.Repeats > 1 {
				rep += " (median)"
			}
		}
		status, started := esc(r.Status), r.StartedAt.Format("2006-01-02 15:04:05")
		if p := r.Published; p != nil { // not a run: a figure someone published, imported when it says
			cls, status, started = "", "published", "- (imported "+r.StartedAt.Format("2006-01-02")+")"
		}
		fmt.Fprintf(b, "<tr><td class=\"l\"><a href=\"#run-%s\">%s</a></td><td class=\"l\">%s</td><td class=\"l %s\">%s</td><td class=\"l\">%s</td><td class=\"l\">%s</td><td>%s</td></tr>\n",
			esc(r.RunID), esc(r.RunID), esc(alias[r]), cls, status, esc(started), esc(rep), esc(hl))
	}
	b.WriteString("</table></div>\n")
}

func fmtVal(v float64) string { return compare.Format(v) }

// comparisons compares the configurations that can be compared (compare.Check's rule): those that ended ok,
// grouped by workload, work and headline metric, each group against its first; what is left out says why.
func comparisons(b *strings.Builder, confs []Configuration) []tocEntry {
	buckets := map[string][]Configuration{}
	var order []string
	var left []string
	for _, c := range confs {
		if err := compare.Check([][]*result.Result{c.Runs}, compare.Options{}); err != nil {
			left = append(left, fmt.Sprintf("%s: %v", c.Alias, err))
			continue
		}
		h, _ := c.Runs[len(c.Runs)-1].Headline() // an aggregate comes after its targets
		// a point of a sweep is compared only with the same point of other configurations
		k := result.WorkOf(c.Runs[0]) + "\x00" + h.Name + "\x00" + c.Runs[0].Group.Point()
		if _, ok := buckets[k]; !ok {
			order = append(order, k)
		}
		buckets[k] = append(buckets[k], c)
	}
	var toc []tocEntry
	var alone []string
	for _, k := range order {
		if len(buckets[k]) < 2 {
			alone = append(alone, buckets[k][0].Alias)
			continue
		}
		if len(toc) == 0 {
			toc = append(toc, tocEntry{"comparison", "Comparison", 0})
			b.WriteString("<h2 id=\"comparison\">Comparison</h2>\n<p class=\"note\">Each configuration against the first of its work (median of repeated runs); the change from the first is in per cent of its figure, green where better, red where worse.</p>\n")
		}
		parts := strings.Split(k, "\x00")
		work := parts[0]
		if parts[2] != "" {
			work += ", " + parts[2]
		}
		id := fmt.Sprintf("comparison-%d", len(toc))
		toc = append(toc, tocEntry{id, work, 1})
		fmt.Fprintf(b, "<h3 id=\"%s\">%s</h3>\n", id, esc(work))
		comparison(b, buckets[k], len(toc) == 2)
	}
	if len(confs) > 1 && (len(left) > 0 || len(alone) > 0) {
		if len(toc) == 0 {
			toc = append(toc, tocEntry{"comparison", "Comparison", 0})
			b.WriteString("<h2 id=\"comparison\">Comparison</h2>\n")
		}
		if len(alone) > 0 {
			fmt.Fprintf(b, "<p class=\"note\">Not compared with any other configuration (each did other work or measured another headline): %s.</p>\n", esc(strings.Join(alone, ", ")))
		}
		if len(left) > 0 {
			fmt.Fprintf(b, "<p class=\"note\">Not compared: %s.</p>\n", esc(strings.Join(left, "; ")))
		}
	}
	return toc
}

var verdictClass = map[compare.Verdict]string{compare.Better: "ok", compare.Worse: "bad"}

// comparison is one group's table (metric, then each configuration's figure with its change from the first),
// one sentence per pair, and the headline's chart by alias.
func comparison(b *strings.Builder, confs []Configuration, first bool) {
	var sums []compare.Summary
	for _, c := range confs {
		s := compare.Summarise(c.Name, c.Runs)
		s.Alias = c.Alias
		sums = append(sums, s)
	}
	id := ""
	if first {
		id = ` id="comparison-table"`
	}
	fmt.Fprintf(b, "<div class=\"wide\"><table class=\"comparison\"%s><tr><th class=\"l\">metric</th>", id)
	for _, s := range sums {
		fmt.Fprintf(b, "<th>%s (%d run%s)</th>", esc(s.Alias), s.Runs, map[bool]string{true: "s", false: ""}[s.Runs != 1])
	}
	b.WriteString("</tr>\n")
	rows := compare.Table(sums)
	for _, row := range rows {
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td>", esc(row.Label()))
		for i, v := range row.Values {
			fmt.Fprintf(b, "<td>%s", fmtVal(v))
			if i > 0 && !math.IsNaN(row.Change[i]) {
				fmt.Fprintf(b, "<small class=\"%s\">%+.1f%%</small>", verdictClass[row.Verdict(i)], row.Change[i])
			}
			b.WriteString("</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table></div>\n")
	for i, s := range sums[1:] {
		var parts []string
		for _, row := range rows {
			v := row.Verdict(i + 1)
			text := row.Metric + " " + row.Words(i+1)
			if c := verdictClass[v]; c != "" {
				parts = append(parts, fmt.Sprintf("<span class=\"%s\">%s</span>", c, esc(text)))
			} else {
				parts = append(parts, esc(text))
			}
		}
		fmt.Fprintf(b, "<p class=\"pair\">Against <b>%s</b>, <b>%s</b> has %s.</p>\n", esc(sums[0].Alias), esc(s.Alias), strings.Join(parts, ", "))
	}
	if u := compare.Unshared(sums); len(u) > 0 {
		fmt.Fprintf(b, "<p class=\"note\">Not in every configuration: %s.</p>\n", esc(strings.Join(u, "; ")))
	}
	// headline chart, by alias, the full name in each bar's tooltip
	var cats []string
	var vals []float64
	var metric, unit string
	for i, c := range confs {
		if h, ok := c.Runs[0].Headline(); ok && (metric == "" || h.Name == metric) {
			metric, unit = h.Name, h.Unit
			cats = append(cats, c.Alias)
			vals = append(vals, sums[i].Metrics[h.Name].Median)
		}
	}
	if len(cats) > 1 {
		yl := metric
		if unit != "" {
			yl = unit
		}
		b.WriteString(BarChart(capital(metric)+" by configuration (median)", yl, cats, []Series{{Name: metric, Y: vals}}))
	}
}

// scaling charts the headline metric against a swept setting (median over repeats), one section per sweep in
// the order the runs came.
func scaling(b *strings.Builder, runs []*result.Result, confs []Configuration) []tocEntry {
	// a sweep is named by what its runs are (their label, engine or target), never by its group ID alone
	sweepName := map[string]string{}
	for _, c := range confs {
		if g := c.Runs[0].Group; g != nil && sweepName[g.ID] == "" {
			sweepName[g.ID] = strings.TrimSpace(strings.TrimSuffix(c.Name, " "+g.Point()))
		}
	}
	type key struct{ group, sweep string }
	pts := map[key]map[float64][]float64{}
	names := map[key]string{}
	title := map[key]string{}
	// the p99 latencies the runs carry, charted beside the headline: the price of the scaling
	lat := map[key]map[string]map[float64][]float64{}
	latOrder := map[key][]string{}
	latUnit := map[key]string{}
	knees := map[key]*result.Knee{}
	p95 := map[key]map[float64][]float64{} // a knee search's p95 (ms) by load
	var order []key
	for _, r := range runs {
		g := r.Group
		if g == nil || g.Sweep == "" || (g.Targets > 1 && !g.Aggregate) {
			continue
		}
		h, ok := r.Headline()
		if !ok {
			continue
		}
		k := key{g.ID, g.Sweep}
		if pts[k] == nil {
			pts[k] = map[float64][]float64{}
			order = append(order, k)
			title[k] = result.SweepTitle(r.Workload, g.Sweep)
		}
		pts[k][g.Value] = append(pts[k][g.Value], h.Value)
		names[k] = h.Name
		if g.Knee != nil {
			knees[k] = g.Knee
			if m := r.Measurement; m != nil {
				if v, ok := m.P95Millis(); ok {
					if p95[k] == nil {
						p95[k] = map[float64][]float64{}
					}
					p95[k][g.Value] = append(p95[k][g.Value], v)
				}
			}
		}
		for _, mt := range r.Metrics {
			if strings.HasSuffix(mt.Name, "p99 latency") {
				if lat[k] == nil {
					lat[k] = map[string]map[float64][]float64{}
				}
				if lat[k][mt.Name] == nil {
					lat[k][mt.Name] = map[float64][]float64{}
					latOrder[k] = append(latOrder[k], mt.Name)
				}
				lat[k][mt.Name][g.Value] = append(lat[k][mt.Name][g.Value], mt.Value)
				latUnit[k] = mt.Unit
			}
		}
	}
	var toc []tocEntry
	for i, k := range order {
		m := pts[k]
		var xs []float64
		for x := range m {
			xs = append(xs, x)
		}
		sort.Float64s(xs)
		s := Series{Name: names[k]}
		id := fmt.Sprintf("scaling-%d", i+1)
		// with several sweeps, each is named by what ran (its label, engine or target), never by its group ID alone
		who := ""
		if len(order) > 1 {
			if who = sweepName[k.group]; who == "" {
				who = "group " + k.group
			}
			who = " (" + who + ")"
		}
		head := fmt.Sprintf("Scaling: %s by %s%s", names[k], k.sweep, who)
		toc = append(toc, tocEntry{id, head, 0})
		fmt.Fprintf(b, "<h2 id=\"%s\">%s</h2>\n<p class=\"note\">Group %s.</p>\n<table class=\"scaling\"><tr><th>%s</th><th>%s (median)</th><th>runs</th><th>vs first</th></tr>\n", id, esc(head), esc(k.group), esc(k.sweep), esc(names[k]))
		first := 0.0
		for i, x := range xs {
			med := compare.Median(m[x])
			if i == 0 {
				first = med
			}
			s.X, s.Y = append(s.X, x), append(s.Y, med)
			fmt.Fprintf(b, "<tr><td>%g</td><td>%s</td><td>%d</td><td>%s</td></tr>\n", x, fmtVal(med), len(m[x]), fmtVal(med/first)+"x")
		}
		b.WriteString("</table>\n")
		kn := knees[k]
		if kn == nil {
			b.WriteString(LineChart(capital(names[k])+" "+title[k]+who, k.sweep, names[k], []Series{s}))
		} else {
			kneeSection(b, k.sweep, names[k], title[k], s, kn, p95[k], xs)
		}
		var ls []Series
		for _, name := range latOrder[k] {
			if name == names[k] {
				continue
			}
			l := Series{Name: name}
			for _, x := range xs {
				if v, ok := lat[k][name][x]; ok {
					l.X, l.Y = append(l.X, x), append(l.Y, compare.Median(v))
				}
			}
			ls = append(ls, l)
		}
		if len(ls) > 0 {
			b.WriteString(LineChart("p99 latency "+title[k]+who, k.sweep, latUnit[k], ls))
		}
	}
	return toc
}

// kneeSection is a knee search's (--find-peak) charts: throughput and p95 latency against the load, the knee
// marked, and what the search found.
func kneeSection(b *strings.Builder, sweep, name, title string, s Series, kn *result.Knee, p95 map[float64][]float64, xs []float64) {
	mark := Mark{X: kn.Value, Label: fmt.Sprintf("knee at %g", kn.Value)}
	if kn.Found {
		fmt.Fprintf(b, "<p>Knee search: the knee is at <b>%s=%g</b> (%s/s).", esc(sweep), kn.Value, fmtVal(kn.Throughput))
	} else {
		b.WriteString("<p>Knee search: no knee found.")
	}
	if kn.SLA != "" {
		fmt.Fprintf(b, " SLA %s.", esc(kn.SLA))
	}
	if kn.Note != "" {
		fmt.Fprintf(b, " %s.", esc(capital(kn.Note)))
	}
	if kn.Limit != "" {
		fmt.Fprintf(b, " Limited by %s.", esc(kn.Limit))
	}
	b.WriteString("</p>\n")
	if !kn.Found {
		b.WriteString(LineChart(capital(name)+" "+title, sweep, name, []Series{s}))
		return
	}
	b.WriteString(LineChartMarked(capital(name)+" "+title, sweep, name, []Series{s}, mark))
	l := Series{Name: "p95 latency"}
	for _, x := range xs {
		if v, ok := p95[x]; ok {
			l.X, l.Y = append(l.X, x), append(l.Y, compare.Median(v))
		}
	}
	if len(l.X) > 0 {
		b.WriteString(LineChartMarked("p95 latency "+title, sweep, "ms", []Series{l}, mark))
	}
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// runSection is one run: its status, metrics, its workload's section, its system metrics and its environment
// (once for runs of one environment: the others link to it); a repeat that is not its configuration's median
// shows its status and metrics and links to the median. Its charts' titles name it by its configuration's
// alias and its run ID.
func runSection(b *strings.Builder, r *result.Result, alias string, median *result.Result, envs map[string]string) {
	fmt.Fprintf(b, "<h2 id=\"run-%s\">Run %s (%s, %s)</h2>\n", esc(r.RunID), esc(r.RunID), esc(alias), esc(r.Workload))
	fmt.Fprintf(b, "<p>Status <b class=\"%s\">%s</b>, %s to %s; configuration <a href=\"#configurations\">%s</a>.</p>\n", map[bool]string{true: "ok", false: "bad"}[r.Status == result.StatusOK],
		esc(r.Status), r.StartedAt.Format(time.RFC3339), r.EndedAt.Format(time.RFC3339), esc(alias))
	if r.Target.URL == "" {
		b.WriteString("<p>Target none (no database).</p>\n")
	}
	if r.Error != "" {
		fmt.Fprintf(b, "<p class=\"bad\">%s</p>\n", esc(r.Error))
	}
	metrics(b, r)
	if r.Published != nil {
		published(b, r)
		return
	}
	if len(r.Parts) > 0 {
		parts(b, r)
	}
	if len(r.Steps) > 0 {
		steps(b, r, " ("+alias+", run "+r.RunID+")")
	}
	if median != nil && median != r {
		fmt.Fprintf(b, "<p class=\"note\">A repeat of %s: its charts are those of the configuration's median run, <a href=\"#run-%s\">%s</a>.</p>\n", esc(alias), esc(median.RunID), esc(median.RunID))
		return
	}
	of := " (" + alias + ", run " + r.RunID + ")"
	workloadSection(r.Workload)(b, r, of)
	if s := r.System; s != nil && len(s.Samples) > 0 {
		system(b, s, of)
	}
	if s := r.ServerSystem; s != nil {
		serverSystem(b, r, of)
	}
	if w := r.Waits; w != nil {
		waits(b, w, of)
	}
	if c := r.DBCounters; c != nil && len(c.Series) > 0 {
		counters(b, c)
	}
	if e := r.Environment; e != nil {
		var t strings.Builder
		environment(&t, e, r.Labels)
		if first, ok := envs[t.String()]; ok {
			fmt.Fprintf(b, "<h3>Environment</h3><p class=\"note\">The same as <a href=\"#env-%s\">run %s's</a>.</p>\n", esc(first), esc(first))
		} else {
			envs[t.String()] = r.RunID
			fmt.Fprintf(b, "<h3 id=\"env-%s\">Environment</h3>", esc(r.RunID))
			b.WriteString(t.String())
		}
	}
}

// metrics lists the run's metrics with their units, the headline first in bold.
func metrics(b *strings.Builder, r *result.Result) {
	if len(r.Metrics) == 0 {
		return
	}
	b.WriteString("<table class=\"metrics\"><tr><th class=\"l\">metric</th><th>value</th><th class=\"l\">unit</th></tr>")
	for _, m := range r.Metrics {
		v := fmtVal(m.Value)
		if m.Headline {
			v = "<b>" + v + "</b>"
		}
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td>%s</td><td class=\"l\">%s</td></tr>", esc(m.Name), v, esc(m.Unit))
	}
	b.WriteString("</table>\n")
}

// parts names the targets an aggregate adds up.
func parts(b *strings.Builder, r *result.Result) {
	b.WriteString("<table class=\"parts\"><tr><th class=\"l\">target</th><th class=\"l\">run</th><th class=\"l\">status</th><th>headline</th></tr>")
	for _, p := range r.Parts {
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td class=\"l\"><a href=\"#run-%s\">%s</a></td><td class=\"l\">%s</td><td>%s</td></tr>",
			esc(p.Target), esc(p.RunID), esc(p.RunID), esc(p.Status), fmtVal(p.Headline))
	}
	b.WriteString("</table>\n")
}

// steps is a stepped run's loads (--steps): each step's throughput and p95 latency in a table, the step whose
// figures are the run's marked, and both against the load.
func steps(b *strings.Builder, r *result.Result, of string) {
	by := r.Steps[0].By
	fmt.Fprintf(b, "<h3>Steps</h3><p class=\"note\">A stepped load on one database: each step its own measured window, its ramp-up left out (by users: one loop of users, each step adding to those running or stopping its surplus; the CPU busy %% is the mean over the step's window); the run's figures are its best step's (in bold).</p>\n")
	server := false
	for _, s := range r.Steps {
		server = server || s.ServerSystem != nil
	}
	dbHost := ""
	if server {
		dbHost = "<th>database host CPU busy (%)</th>"
	}
	fmt.Fprintf(b, "<table class=\"steps\"><tr><th>%s</th><th class=\"l\">status</th><th>measured (s)</th><th>throughput (/s)</th><th>p95 (ms)</th><th>CPU busy (%%)</th>%s<th>errors</th><th class=\"l\">headline</th></tr>", esc(by), dbHost)
	tp, p95 := Series{Name: "throughput"}, Series{Name: "p95 latency"}
	for _, s := range r.Steps {
		head := "-"
		for _, m := range s.Metrics {
			if m.Headline {
				head = m.Name + " " + fmtVal(m.Value) + " " + m.Unit
			}
		}
		cpu := "<td>" + stepBusy(s.System, s.CPUBusyPct) + "</td>"
		if server {
			cpu += "<td>" + stepBusy(s.ServerSystem, s.ServerCPUBusyPct) + "</td>"
		}
		row := fmt.Sprintf("<td>%g</td><td class=\"l\">%s</td><td>%s</td><td>%s</td><td>%s</td>%s<td>%d</td><td class=\"l\">%s</td>",
			s.Load, esc(s.Status), fmtVal(s.MeasuredS), fmtVal(s.ThroughputPerS), fmtVal(s.P95Ms), cpu, s.Errors, esc(strings.TrimSpace(head)))
		tr := "<tr>"
		if s.Headline {
			tr = "<tr style=\"font-weight:bold\">"
		}
		b.WriteString(tr + row + "</tr>")
		tp.X, tp.Y = append(tp.X, s.Load), append(tp.Y, s.ThroughputPerS)
		if s.P95Ms > 0 {
			p95.X, p95.Y = append(p95.X, s.Load), append(p95.Y, s.P95Ms)
		}
	}
	b.WriteString("</table>\n")
	if len(r.Steps) > 1 {
		b.WriteString(LineChart("Throughput by step"+of, by, "per second", []Series{tp}))
		if len(p95.X) > 0 {
			b.WriteString(LineChart("p95 latency by step"+of, by, "ms", []Series{p95}))
		}
	}
}

// stepBusy is a step's CPU busy % over its window, "-" without samples in it.
func stepBusy(m *result.SystemMetrics, pct float64) string {
	if m == nil || len(m.Samples) == 0 {
		return "-"
	}
	return fmtVal(pct)
}

func ms(us int64) float64 { return float64(us) / 1000 }

// serverSystem is the database host's own figures, from its dbdyno agent: the measured window, the gaps, a
// line on which side was saturated, then the same charts as the client's.
func serverSystem(b *strings.Builder, r *result.Result, of string) {
	s := r.ServerSystem
	fmt.Fprintf(b, "<h3>Database host metrics</h3><p class=\"note\">From the dbdyno agent at %s; the summary covers the measured window, %.1f s to %.1f s of the series (before it: ramp-up).</p>\n",
		esc(s.Source), s.MeasureFromS, s.MeasureToS)
	for _, g := range s.Gaps {
		fmt.Fprintf(b, "<p class=\"bad\">No samples from %.1f s to %.1f s: the agent was away.</p>\n", g.FromS, g.ToS)
	}
	b.WriteString("<p>" + esc(saturation(r)) + "</p>\n")
	if m := r.Measurement; m != nil && len(m.Intervals) > 0 {
		// throughput and the host's CPU on one time axis: seconds of the measured window
		peak := 0.0
		for _, iv := range m.Intervals {
			peak = math.Max(peak, iv.PerMinute)
		}
		tp, cpu := Series{Name: "throughput (% of its peak)"}, Series{Name: "database host CPU busy (%)"}
		for _, iv := range m.Intervals {
			if peak > 0 {
				tp.X, tp.Y = append(tp.X, iv.ElapsedSeconds), append(tp.Y, iv.PerMinute/peak*100)
			}
		}
		disk := Series{Name: "database host disk IOPS (% of its peak)"}
		diskPeak := 0.0
		for _, x := range s.Samples {
			if t := x.T - s.MeasureFromS; t >= 0 && t <= s.MeasureToS-s.MeasureFromS+s.IntervalS {
				cpu.X, cpu.Y = append(cpu.X, t), append(cpu.Y, x.CPUBusy)
				iops := 0.0
				for _, d := range x.Disks {
					iops += d.IOPS
				}
				disk.X, disk.Y = append(disk.X, t), append(disk.Y, iops)
				diskPeak = math.Max(diskPeak, iops)
			}
		}
		lines := []Series{tp, cpu}
		if diskPeak > 0 {
			for i := range disk.Y {
				disk.Y[i] = disk.Y[i] / diskPeak * 100
			}
			lines = append(lines, disk)
		}
		b.WriteString(LineChart("Throughput and the database host's CPU and disk"+of, "measured (s)", "percent", lines))
	}
	system(b, s, " of the database host"+of)
}

// waits shows what the database's active sessions waited on: the top events and their average active
// sessions over time.
func waits(b *strings.Builder, w *result.Waits, of string) {
	fmt.Fprintf(b, "<h3>Wait events</h3><p class=\"note\">Active sessions sampled every %.0f ms (%d samples, %d observations); CPU: active, waiting on nothing.</p>\n",
		w.IntervalMs, w.Samples, w.Observations)
	if w.Note != "" {
		fmt.Fprintf(b, "<p class=\"bad\">%s</p>\n", esc(w.Note))
	}
	if len(w.Top) == 0 {
		return
	}
	b.WriteString("<table class=\"waits\"><tr><th class=\"l\">event</th><th class=\"l\">class</th><th>share %</th><th>dbdyno's sessions %</th><th>average active</th></tr>")
	for _, x := range w.Top {
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td class=\"l\">%s</td><td>%.1f</td><td>%.0f</td><td>%.2f</td></tr>", esc(x.Event), esc(x.Class), x.Share*100, x.OwnShare*100, x.AvgActive)
	}
	b.WriteString("</table>\n")
	var series []Series
	for i, x := range w.Top {
		if i == 5 {
			break
		}
		s := Series{Name: x.Event}
		for _, p := range w.Series {
			s.X, s.Y = append(s.X, p.T), append(s.Y, p.Active[x.Event])
		}
		series = append(series, s)
	}
	b.WriteString(LineChart("Wait events over time (average active sessions)"+of, "elapsed (s)", "sessions", series))
}

// counters tabulates the database's counters per second over the run's intervals.
func counters(b *strings.Builder, c *result.DBCounters) {
	names := map[string]bool{}
	for _, p := range c.Series {
		for k := range p.Rates {
			names[k] = true
		}
	}
	var keys []string
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(b, "<h3>Database counters per second</h3><p class=\"note\">Read every %.1f s from the %s.</p>\n<table class=\"counters\"><tr><th class=\"l\">counter</th><th>mean</th><th>max</th></tr>", c.IntervalS, esc(c.Source))
	for _, k := range keys {
		sum, mx, n := 0.0, math.Inf(-1), 0
		for _, p := range c.Series {
			if v, ok := p.Rates[k]; ok {
				sum, mx, n = sum+v, math.Max(mx, v), n+1
			}
		}
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td>%s</td><td>%s</td></tr>", esc(k), fmtVal(sum/float64(n)), fmtVal(mx))
	}
	b.WriteString("</table>\n")
}

// saturation says which side ran out of CPU (p90 busy above 90%), from the client's and the database host's
// figures.
func saturation(r *result.Result) string {
	p90 := func(s *result.SystemMetrics) float64 {
		if s == nil {
			return -1
		}
		return s.Summary["cpu_busy_pct"].P90
	}
	db, cl := p90(r.ServerSystem), p90(r.System)
	switch {
	case db > 90 && cl > 90:
		return fmt.Sprintf("Both the database host (CPU p90 %.0f%%) and the client (%.0f%%) were saturated.", db, cl)
	case db > 90:
		return fmt.Sprintf("The database host was saturated: CPU p90 %.0f%% (client %.0f%%).", db, cl)
	case cl > 90:
		return fmt.Sprintf("The client was saturated: CPU p90 %.0f%% (database host %.0f%%); the database may do more with a bigger client.", cl, db)
	}
	return fmt.Sprintf("Neither side was saturated: database host CPU p90 %.0f%%, client %.0f%%.", db, cl)
}

func system(b *strings.Builder, s *result.SystemMetrics, of string) {
	fmt.Fprintf(b, "<h3>System metrics</h3><p class=\"note\">Sampled every %g s; scope: %s.</p>\n", s.IntervalS, esc(s.Scope))
	var busy, user, sys, iow Series
	busy.Name, user.Name, sys.Name, iow.Name = "busy", "user", "system", "I/O wait"
	var memS Series
	memS.Name = "memory used (GB)"
	diskNames := map[string]bool{}
	for _, x := range s.Samples {
		busy.X, busy.Y = append(busy.X, x.T), append(busy.Y, x.CPUBusy)
		user.X, user.Y = append(user.X, x.T), append(user.Y, x.CPUUser)
		sys.X, sys.Y = append(sys.X, x.T), append(sys.Y, x.CPUSystem)
		iow.X, iow.Y = append(iow.X, x.T), append(iow.Y, x.CPUIowait)
		memS.X, memS.Y = append(memS.X, x.T), append(memS.Y, float64(x.MemUsed)/1e9)
		for d := range x.Disks {
			diskNames[d] = true
		}
	}
	b.WriteString(LineChart("CPU (%)"+of, "elapsed (s)", "percent", []Series{busy, user, sys, iow}))
	b.WriteString(LineChart("Memory used"+of, "elapsed (s)", "GB", []Series{memS}))
	var disks []Series
	for d := range diskNames {
		ser := Series{Name: d}
		for _, x := range s.Samples {
			ser.X, ser.Y = append(ser.X, x.T), append(ser.Y, x.Disks[d].IOPS)
		}
		disks = append(disks, ser)
	}
	sort.Slice(disks, func(i, j int) bool { return disks[i].Name < disks[j].Name })
	if len(disks) > 0 {
		b.WriteString(LineChart("Disk IOPS"+of, "elapsed (s)", "IOPS", disks))
	}
	keys := make([]string, 0, len(s.Summary))
	for k := range s.Summary {
		if !strings.HasPrefix(k, "core") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	b.WriteString("<table class=\"system\"><tr><th class=\"l\">series</th><th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr>")
	for _, k := range keys {
		st := s.Summary[k]
		name, div := SeriesName(k)
		fmt.Fprintf(b, "<tr><td class=\"l\" title=\"%s\">%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>", esc(k), esc(name),
			fmtVal(st.Mean/div), fmtVal(st.P50/div), fmtVal(st.P90/div), fmtVal(st.P99/div), fmtVal(st.Max/div))
	}
	b.WriteString("</table>\n")
}

func environment(b *strings.Builder, e *result.Environment, labels map[string]any) {
	b.WriteString("<div class=\"wide\"><table class=\"environment\">")
	row := func(k, v string) {
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td class=\"l\">%s</td></tr>", esc(k), esc(v))
	}
	row("host", e.Host)
	row("OS", strings.TrimSpace(e.OS+" "+e.Platform))
	row("kernel", e.Kernel)
	if e.Virtualization != "" {
		row("virtualization", e.Virtualization)
	}
	row("CPU", e.CPUModel)
	row("sockets / cores / threads", fmt.Sprintf("%d / %d / %d", e.Sockets, e.Cores, e.Threads))
	row("NUMA nodes", fmt.Sprint(e.NUMANodes))
	if h := e.DBHost; h != nil {
		row("database host CPU", cpuText(h))
	}
	row("memory", fmt.Sprintf("%.1f GiB", float64(e.MemoryBytes)/(1<<30)))
	row("engine", e.EngineVersion)
	row("database on this machine", fmt.Sprint(e.DatabaseLocal))
	if s := e.Storage; s != nil {
		row("database file", s.Path)
		row("filesystem / device", fmt.Sprintf("%s on %s (%s)", s.Filesystem, s.Device, s.Mount))
	}
	keys := make([]string, 0, len(e.Settings))
	for k := range e.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		row("setting "+k, e.Settings[k])
	}
	lk := make([]string, 0, len(labels))
	for k := range labels {
		lk = append(lk, k)
	}
	sort.Strings(lk)
	for _, k := range lk {
		row("label "+k, fmt.Sprint(labels[k]))
	}
	b.WriteString("</table></div>\n")
}

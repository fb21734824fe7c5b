package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Section renders a workload's own part of a run, between the run's metrics and its system metrics: what its
// result's sections hold (the measurement, the analytic tests, the storage tests, the probe's steps). of names
// the run in chart titles (" (name, run ID)"), so that no two charts of a report share a title.
type Section func(b *strings.Builder, r *result.Result, of string)

var sections = map[string]Section{}

// RegisterSection sets a workload's section; each workload package calls it from init, next to its Register.
func RegisterSection(workload string, s Section) {
	if _, dup := sections[workload]; dup {
		panic("report section of " + workload + " registered twice")
	}
	sections[workload] = s
}

// workloadSection is the workload's section; a workload that registered none (one this build does not know)
// shows its measurement, the part every timed run holds.
func workloadSection(workload string) Section {
	if s, ok := sections[workload]; ok {
		return s
	}
	return MeasurementSection
}

// MeasurementSection is the section of a workload whose runs are timed runs of virtual users: their
// measurement, when the result holds one.
func MeasurementSection(b *strings.Builder, r *result.Result, of string) {
	Sides(b, r)
	if m := r.Measurement; m != nil {
		Measurement(b, m, of)
	}
}

// Sides renders the parts of a run whose kinds of users each ran alone before all of them together
// (result.Sides): each part's users, status and window, then each side's headline figure alone, together and
// the share of it kept (the figures FIGURE_alone, FIGURE and FIGURE_kept_pct). Nothing for a run without sides.
func Sides(b *strings.Builder, r *result.Result) {
	if len(r.Sides) == 0 {
		return
	}
	b.WriteString("<table class=\"sides\"><tr><th class=\"l\">part</th><th>users</th><th>status</th><th>measured (s)</th></tr>")
	for _, s := range r.Sides {
		secs := 0.0
		if s.Measurement != nil {
			secs = s.Measurement.MeasuredSecs
		}
		fmt.Fprintf(b, "<tr><td class=\"l\">%s alone</td><td>%d</td><td>%s</td><td>%.1f</td></tr>", esc(s.Name), s.Users, esc(s.Status), secs)
	}
	if r.Measurement != nil && hasAlone(r.Figures) {
		fmt.Fprintf(b, "<tr><td class=\"l\">all together</td><td>%d</td><td>%s</td><td>%.1f</td></tr>", r.Measurement.VUs, esc(r.Status), r.Measurement.MeasuredSecs)
	}
	b.WriteString("</table>")
	var names []string
	for k := range r.Figures {
		if f, ok := strings.CutSuffix(k, "_alone"); ok {
			names = append(names, f)
		}
	}
	if len(names) == 0 {
		return
	}
	sort.Strings(names)
	b.WriteString("<table class=\"kept\"><tr><th class=\"l\">figure</th><th>alone</th><th>together</th><th>kept (%)</th></tr>")
	for _, f := range names {
		alone, _ := r.Figures[f+"_alone"].(float64)
		together, _ := r.Figures[f].(float64)
		kept, _ := r.Figures[f+"_kept_pct"].(float64)
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td>%s</td><td>%s</td><td>%.1f</td></tr>", esc(f), fmtVal(alone), fmtVal(together), kept)
	}
	b.WriteString("</table>")
}

// hasAlone says the figures hold a side's figure alone (the run together happened).
func hasAlone(fig map[string]any) bool {
	for k := range fig {
		if strings.HasSuffix(k, "_alone") {
			return true
		}
	}
	return false
}

// Esc escapes text for the page.
func Esc(s string) string { return esc(s) }

// Value formats a figure as the report's tables show it.
func Value(v float64) string { return fmtVal(v) }

// Capital is the text with its first letter in upper case.
func Capital(s string) string { return capital(s) }

// Colours is how many series one chart tells apart.
func Colours() int { return len(palette) }

// Measurement renders a timed run's client-counted figures: a table of them, throughput over time (all
// transactions and the key one), and each transaction's latency percentiles as a table and a chart.
func Measurement(b *strings.Builder, m *result.Measurement, of string) {
	fmt.Fprintf(b, "<table><tr><th class=\"l\">figure</th><th>value</th></tr>")
	fmt.Fprintf(b, "<tr><td class=\"l\">virtual users</td><td>%d</td></tr><tr><td class=\"l\">measured (s)</td><td>%.1f</td></tr><tr><td class=\"l\">errors / retries / reconnects</td><td>%d / %d / %d</td></tr><tr><td class=\"l\">disconnected (s, all virtual users)</td><td>%.1f</td></tr><tr><td class=\"l\">client CPU per transaction (µs)</td><td>%.1f</td></tr>",
		m.VUs, m.MeasuredSecs, m.Errors, m.Retries, m.Reconnects, m.DisconnectedSecs, m.ClientCPU.MicrosPerTx)
	openLoop(b, m)
	perUser(b, m, of)
	b.WriteString(throughputChart(m, of))
	names := make([]string, 0, len(m.Transactions))
	for n := range m.Transactions {
		names = append(names, n)
	}
	sort.Strings(names)
	var p50, p95, p99 Series
	p50.Name, p95.Name, p99.Name = "p50", "p95", "p99"
	b.WriteString("<table class=\"latency\"><tr><th class=\"l\">transaction</th><th>count</th><th>rollbacks</th><th>errors</th><th>min</th><th>average</th><th>p50</th><th>p90</th><th>p95</th><th>p99</th><th>max (ms)</th></tr>")
	for _, n := range names {
		t := m.Transactions[n]
		l := t.Latency
		fmt.Fprintf(b, "<tr><td class=\"l\">%s</td><td>%d</td><td>%d</td><td>%d</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td></tr>",
			esc(n), t.Count, t.Rollbacks, t.Errors, ms(l.Min), l.Mean/1000, ms(l.P50), ms(l.P90), ms(l.P95), ms(l.P99), ms(l.Max))
		p50.Y, p95.Y, p99.Y = append(p50.Y, ms(l.P50)), append(p95.Y, ms(l.P95)), append(p99.Y, ms(l.P99))
	}
	b.WriteString("</table>\n")
	b.WriteString(BarChart("Latency percentiles per transaction"+of, "ms", names, []Series{p50, p95, p99}))
}

// openLoop ends the measurement's figure table: an open loop's rate and schedule lag, a latency limit's late and
// skipped work (pgbench -R and --latency-limit).
func openLoop(b *strings.Builder, m *result.Measurement) {
	if o := m.OpenLoop; o != nil && o.RatePerS > 0 {
		fmt.Fprintf(b, "<tr><td class=\"l\">open-loop rate (/s, Poisson arrivals) / started</td><td>%s / %d</td></tr><tr><td class=\"l\">schedule lag mean / max (ms)</td><td>%.3f / %.3f</td></tr>",
			fmtVal(o.RatePerS), o.Started, o.LagMeanUS/1000, ms(o.LagMaxUS))
	}
	if o := m.OpenLoop; o != nil && o.LatencyLimitUS > 0 {
		fmt.Fprintf(b, "<tr><td class=\"l\">over the %.3f ms latency limit: late / completed, skipped</td><td>%d / %d, %d</td></tr>",
			ms(o.LatencyLimitUS), o.Late, o.Completed, o.Skipped)
	}
	b.WriteString("</table>\n")
}

// perUser shows how evenly the virtual users were served: a bar of each one's throughput, when there are
// several (and not so many that the bars are unreadable).
func perUser(b *strings.Builder, m *result.Measurement, of string) {
	u := m.Users
	if u == nil || len(u.PerMinute) < 2 || len(u.PerMinute) > 64 {
		return
	}
	names := make([]string, len(u.PerMinute))
	for i := range names {
		names[i] = fmt.Sprint(i + 1)
	}
	ys, unit := u.PerMinute, "per minute"
	if m.PerSecond {
		ys, unit = make([]float64, len(u.PerMinute)), "per second"
		for i, v := range u.PerMinute {
			ys[i] = v / 60
		}
	}
	b.WriteString(BarChart(fmt.Sprintf("Throughput of each virtual user, 1 to %d (transactions %s)", len(names), unit)+of,
		"transactions "+unit, names, []Series{{Name: "transactions " + unit, Y: ys}}))
}

// StudySection renders a workload's own view of a study, after its tables: the layout its users know for
// comparing configurations (CrystalDiskMark's grids side by side). It writes nothing for a study it has no
// view of.
type StudySection func(b *strings.Builder, s *compare.Study)

var studySections = map[string]StudySection{}

// RegisterStudySection sets a workload's study view; the workload package calls it from init.
func RegisterStudySection(workload string, s StudySection) {
	if _, dup := studySections[workload]; dup {
		panic("study section of " + workload + " registered twice")
	}
	studySections[workload] = s
}

// throughputChart draws the run's throughput in each interval, in the unit its workload reads its rates in
// (per minute; per second for tpsE and pgbench's tps): all transactions and the key one over the measured
// window, the ramp-up's intervals apart and shaded (not measured: a ramp-up's first interval is often far
// above or below what follows).
func throughputChart(m *result.Measurement, of string) string {
	per, unit := 60.0, "per minute"
	if m.PerSecond {
		per, unit = 1, "per second"
	}
	anyMeasured := false
	for _, iv := range m.Intervals {
		anyMeasured = anyMeasured || iv.Measured
	}
	var all, key, ramp Series
	all.Name, key.Name, ramp.Name = "all transactions", m.KeyLabel, "ramp-up (not measured)"
	prev, rampEnd := 0.0, math.NaN()
	for _, iv := range m.Intervals {
		span := math.Max(iv.ElapsedSeconds-prev, 1e-9)
		prev = iv.ElapsedSeconds
		rate := iv.PerMinute * per / 60
		if anyMeasured && !iv.Measured { // results before intervals were marked count every one as measured
			ramp.X, ramp.Y = append(ramp.X, iv.ElapsedSeconds), append(ramp.Y, rate)
			rampEnd = iv.ElapsedSeconds
			continue
		}
		all.X, all.Y = append(all.X, iv.ElapsedSeconds), append(all.Y, rate)
		if no, ok := iv.Transactions[m.KeyTx]; ok && m.KeyTx != "" {
			key.X, key.Y = append(key.X, iv.ElapsedSeconds), append(key.Y, float64(no.Count)/span*per)
		}
	}
	series := []Series{all}
	if len(key.X) > 0 {
		series = append(series, key)
	}
	var bands []Band
	if len(ramp.X) > 0 {
		series = append(series, ramp)
		to := rampEnd // to halfway to the first measured point: the ramp-up's points inside the shade
		if len(all.X) > 0 {
			to = (rampEnd + all.X[0]) / 2
		}
		bands = append(bands, Band{From: 0, To: to, Fill: "#eeeeee", Label: "ramp-up: not measured"})
	}
	return LineChartBands("Throughput over time ("+unit+", each interval)"+of, "elapsed (s)", unit, series, bands)
}

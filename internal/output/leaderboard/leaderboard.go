// Package leaderboard ranks the results of one workload by their headline figure per physical core of the
// database host: measured runs beside figures published elsewhere (imported from CSV, see Parse), with each
// system's processor fingerprint and, given a license price per core, what the database's licenses for the
// whole box cost. It names no workload: the figure is the results' headline metric, whatever it is.
package leaderboard

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Options shape a leaderboard.
type Options struct {
	Workload string
	// LicensePerCore is the database license's price per physical core (0: no license columns unless runs
	// carry a license_per_core label, which wins for their row).
	LicensePerCore float64
}

// Row is one ranked system.
type Row struct {
	Rank           int      `json:"rank"`
	Score          float64  `json:"score"`
	ScorePerCore   float64  `json:"score_per_core"`
	System         string   `json:"system"`
	CPUModel       string   `json:"cpu_model"`
	PhysicalCores  int      `json:"physical_cores"`
	Sockets        int      `json:"sockets,omitempty"`
	ThreadsPerCore int      `json:"threads_per_core,omitempty"`
	BaseMHz        float64  `json:"base_mhz,omitempty"`
	MaxMHz         float64  `json:"max_mhz,omitempty"`
	Engine         string   `json:"engine"`
	EngineVersion  string   `json:"engine_version,omitempty"`
	LicensePerCore *float64 `json:"license_per_core,omitempty"`
	LicenseTotal   *float64 `json:"license_total,omitempty"`
	PricePerHour   *float64 `json:"price_per_hour,omitempty"`
	Published      bool     `json:"published"`
	Source         string   `json:"source"` // a published figure's source, a measured run's ID
	RunID          string   `json:"run_id"`
}

// LeftOut is a run the leaderboard could not rank, and why.
type LeftOut struct {
	RunID string `json:"run_id"`
	Why   string `json:"why"`
}

// Board is the ranking.
type Board struct {
	Workload       string    `json:"workload"`
	Metric         string    `json:"metric"`
	Unit           string    `json:"unit,omitempty"`
	LicensePerCore float64   `json:"license_per_core,omitempty"`
	Rows           []Row     `json:"rows"`
	LeftOut        []LeftOut `json:"left_out,omitempty"`
}

// Workloads are the workloads among runs that have a headline figure, in the order first seen.
func Workloads(runs []*result.Result) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range runs {
		if _, ok := r.Headline(); ok && !seen[r.Workload] {
			seen[r.Workload] = true
			out = append(out, r.Workload)
		}
	}
	return out
}

// Build ranks the runs of o.Workload (the only workload with a headline among runs when o.Workload is empty)
// by headline per physical core, best first. Each configuration counts once: a run repeated counts by its
// median, a multi-target run by its aggregate; runs that did not end ok are left out silently, runs whose
// database host's cores are unknown are left out with the reason.
func Build(runs []*result.Result, o Options) (*Board, error) {
	if o.Workload == "" {
		ws := Workloads(runs)
		switch len(ws) {
		case 0:
			return nil, fmt.Errorf("leaderboard: no run with a headline figure to rank")
		case 1:
			o.Workload = ws[0]
		default:
			return nil, fmt.Errorf("leaderboard: runs of %s: name one with --workload", strings.Join(ws, ", "))
		}
	}
	b := &Board{Workload: o.Workload, LicensePerCore: o.LicensePerCore, Rows: []Row{}}
	// the figure ranked is the workload's own headline (a measured run's), else the published figures' first
	for _, r := range runs {
		if h, ok := r.Headline(); ok && r.Workload == o.Workload && r.Status == result.StatusOK && (b.Metric == "" || r.Published == nil) {
			b.Metric, b.Unit = h.Name, h.Unit
			if h.Better != result.Higher {
				return nil, fmt.Errorf("leaderboard: %s's headline %s is better lower: only a rate divides by cores", o.Workload, h.Name)
			}
			if r.Published == nil {
				break
			}
		}
	}
	if b.Metric == "" {
		return nil, fmt.Errorf("leaderboard: no run of %s ended ok with a headline figure", o.Workload)
	}
	for _, r := range runs {
		if r.Workload != o.Workload || r.Status != result.StatusOK || !counts(r) {
			continue
		}
		h, ok := r.Headline()
		if !ok {
			b.LeftOut = append(b.LeftOut, LeftOut{r.RunID, "it has no headline figure"})
			continue
		}
		if h.Name != b.Metric {
			b.LeftOut = append(b.LeftOut, LeftOut{r.RunID, fmt.Sprintf("its headline is %s, not %s", h.Name, b.Metric)})
			continue
		}
		row, why := rowOf(r, h, o)
		if why != "" {
			b.LeftOut = append(b.LeftOut, LeftOut{r.RunID, why})
			continue
		}
		b.Rows = append(b.Rows, row)
	}
	sort.SliceStable(b.Rows, func(i, j int) bool {
		x, y := b.Rows[i], b.Rows[j]
		if x.ScorePerCore != y.ScorePerCore {
			return x.ScorePerCore > y.ScorePerCore
		}
		if x.Score != y.Score {
			return x.Score > y.Score
		}
		return x.RunID < y.RunID
	})
	for i := range b.Rows {
		b.Rows[i].Rank = i + 1
	}
	return b, nil
}

// counts says whether a run stands for its configuration: the median of its repeats, the aggregate of its
// targets (never one target of several).
func counts(r *result.Result) bool {
	g := r.Group
	if g == nil {
		return true
	}
	if g.Targets > 1 && !g.Aggregate {
		return false
	}
	return g.Repeats <= 1 || g.Median
}

// rowOf is a run's row, or why it has none.
func rowOf(r *result.Result, h result.Metric, o Options) (Row, string) {
	row := Row{Score: h.Value, RunID: r.RunID, Source: r.RunID}
	cpu := r.DBHostCPU()
	if cpu != nil {
		row.CPUModel, row.Sockets, row.ThreadsPerCore, row.BaseMHz, row.MaxMHz = cpu.Model, cpu.Sockets, cpu.ThreadsPerCore, cpu.BaseMHz, cpu.MaxMHz
		row.System = cpu.Host
	}
	if p := r.Published; p != nil {
		row.Published, row.System, row.Source, row.Engine = true, p.System, p.Source, p.Engine
		row.PhysicalCores = p.Host.PhysicalCores
	} else {
		row.Engine, row.EngineVersion = r.Target.Engine, r.Target.ServerVersion
		if e := r.Environment; e != nil {
			row.PhysicalCores = e.DBHostCores
		}
		if row.System == "" {
			row.System = r.Target.URL
			if u, err := url.Parse(r.Target.URL); err == nil && u.Host != "" {
				row.System = u.Hostname()
			}
		}
	}
	if s, ok := r.Labels["system"].(string); ok && s != "" {
		row.System = s
	}
	if row.PhysicalCores <= 0 {
		return row, "its database host's physical cores are unknown (run it with --agent, or --label db_cores=N)"
	}
	row.ScorePerCore = h.Value / float64(row.PhysicalCores)
	lic := o.LicensePerCore
	if v, ok := r.Labels["license_per_core"].(float64); ok && v > 0 {
		lic = v
	}
	if lic > 0 {
		total := lic * float64(row.PhysicalCores)
		row.LicensePerCore, row.LicenseTotal = &lic, &total
	}
	if v, ok := r.Labels["price_per_hour"].(float64); ok && v > 0 {
		row.PricePerHour = &v
	}
	return row, ""
}

// JSON writes the board as one JSON document.
func (b *Board) JSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}

// Print writes the board as a table, then the runs left out.
func (b *Board) Print(w io.Writer) error {
	fmt.Fprintf(w, "%s: %s per physical core of the database host", b.Workload, b.Metric)
	if b.Unit != "" {
		fmt.Fprintf(w, " (%s)", b.Unit)
	}
	fmt.Fprintf(w, ", best first; %d system(s)\n", len(b.Rows))
	lic, price := false, false
	for _, r := range b.Rows {
		lic, price = lic || r.LicenseTotal != nil, price || r.PricePerHour != nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "rank\tscore/core\tscore\t system\t cpu\tcores\tsockets\tthr/core\tbase MHz\tmax MHz\t engine\t"
	if lic {
		head += "license/core\tlicense total\t"
	}
	if price {
		head += "price/h\t"
	}
	fmt.Fprintln(tw, head+" from")
	for _, r := range b.Rows {
		from := "measured, run " + r.RunID
		if r.Published {
			from = "published: " + r.Source
		}
		line := fmt.Sprintf("%d\t%.2f\t%s\t %s\t %s\t%d\t%s\t%s\t%s\t%s\t %s\t", r.Rank, r.ScorePerCore, num(r.Score), Dash(r.System),
			Dash(r.CPUModel), r.PhysicalCores, Count(r.Sockets), Count(r.ThreadsPerCore), MHz(r.BaseMHz), MHz(r.MaxMHz), Dash(r.EngineText()))
		if lic {
			line += money(r.LicensePerCore) + "\t" + money(r.LicenseTotal) + "\t"
		}
		if price {
			line += fmtPrice(r.PricePerHour) + "\t"
		}
		fmt.Fprintln(tw, line+" "+from)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range b.LeftOut {
		fmt.Fprintf(w, "left out: run %s: %s\n", l.RunID, l.Why)
	}
	return nil
}

// Text is a row's figure as the table prints it.
func num(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.4g", v)
}

// Dash is a cell's text, "-" when it has none.
func Dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

// Count is a count's cell, "-" when not known.
func Count(n int) string {
	if n <= 0 {
		return "-"
	}
	return fmt.Sprint(n)
}

// MHz is a clock's cell, "-" when not known.
func MHz(v float64) string {
	if v <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", v)
}

// Money is an amount as the leaderboard prints it ("-" for none): 247,392 / 6,872.50.
func Money(v *float64) string { return money(v) }

func money(v *float64) string {
	if v == nil {
		return "-"
	}
	return thousands(*v)
}

// thousands writes an amount with thousands separators and cents only when it has them: 247,392 / 6,872.50.
func thousands(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	whole, cents, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 && whole[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if cents != "00" {
		b.WriteString("." + cents)
	}
	return b.String()
}

func fmtPrice(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.4g", *v)
}

// EngineText is the row's engine in a few words: a published figure's as given, a measured run's engine and the
// version number its server reports ("postgres 17.2").
func (r Row) EngineText() string {
	if r.Published || r.EngineVersion == "" {
		return r.Engine
	}
	for _, w := range strings.Fields(r.EngineVersion) {
		if strings.ContainsAny(w[:1], "0123456789") {
			if i := strings.IndexAny(w, "-(+,"); i > 0 {
				w = w[:i]
			}
			return r.Engine + " " + w
		}
	}
	return r.Engine
}

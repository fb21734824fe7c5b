package compare

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Formats a study's tables are written in: text for a terminal, md (Markdown) for a ticket or a design
// document, csv (one row per cell, the swept parameter and each label as columns) for a spreadsheet.
const (
	FormatText = "text"
	FormatMD   = "md"
	FormatCSV  = "csv"
)

// CheckFormat refuses a format compare cannot write.
func CheckFormat(f string) error {
	switch f {
	case FormatText, FormatMD, FormatCSV:
		return nil
	}
	return fmt.Errorf("--format %q is not known: use text, md or csv", f)
}

// Grid is a study table laid out: its caption, heading, rows of cells, and the notes said once under it.
type Grid struct {
	Caption string
	Head    []string
	Rows    [][]string
	// Classes are each cell's verdict (Better, Worse, or Same for none), for a page to colour.
	Classes [][]Verdict
	Notes   []string
}

// Layout lays a table out: one row per point and one column per configuration with each other's change
// against the baseline; a study of one point turns it round, one row per configuration.
func (s *Study) Layout(t StudyTable) Grid {
	var g Grid
	var notes Notes
	base := s.Configs[s.Baseline].Name
	what := "each point's headline"
	if t.Metric != "" {
		what = Row{Metric: t.Metric, Unit: t.Unit}.Label()
	}
	per := "one run per cell"
	switch {
	case t.Runs > 1:
		per = fmt.Sprintf("median of %d runs per cell", t.Runs)
	case t.Median:
		per = "median of each cell's runs"
	}
	mixed := t.Metric == ""
	change := func(r StudyRow, ci int) (string, Verdict) {
		j := r.Judged[ci]
		if math.IsNaN(j.Change) {
			if math.IsNaN(r.Values[ci]) {
				return "-", Same
			}
			return "-" + notes.Ref(j.Note), Same
		}
		w := Ratio(r.Values[s.Baseline], r.Values[ci], r.Desc)
		switch j.Verdict {
		case Better:
			return w + " (better)", Better
		case Worse:
			return w + " (worse)", Worse
		}
		return w + notes.Ref(j.Note), Same
	}
	value := func(r StudyRow, ci int) string {
		if math.IsNaN(r.Values[ci]) {
			return "-"
		}
		v := Format(r.Values[ci]) + notes.Mark(r.Noise[ci])
		for bi := range t.Beside {
			if x := r.Beside[bi][ci]; !math.IsNaN(x) {
				v += " (" + Format(x) + ")"
			}
		}
		return v
	}
	besideNote := ""
	if len(t.BesideLabels) > 0 {
		besideNote = "; in brackets: " + strings.Join(t.BesideLabels, ", ")
	}
	if len(t.Rows) == 1 && !mixed || len(s.Points) == 1 {
		besideNote = "" // a column of its own
		// one point: a row per configuration
		r := t.Rows[0]
		g.Caption = fmt.Sprintf("%s, %s; each configuration against %s%s", capitalise(what), per, base, besideNote)
		g.Head = []string{"configuration", r.MetricLabel(), "vs " + base}
		g.Head = append(g.Head, t.BesideLabels...)
		for ci, c := range s.Configs {
			v := "-"
			if !math.IsNaN(r.Values[ci]) {
				v = Format(r.Values[ci]) + notes.Mark(r.Noise[ci])
			}
			ch, cls := "baseline", Same
			if ci != s.Baseline {
				ch, cls = change(r, ci)
			}
			cells := []string{c.Name, v, ch}
			classes := []Verdict{Same, Same, cls}
			for bi := range t.Beside {
				cells, classes = append(cells, Format(r.Beside[bi][ci])), append(classes, Same)
			}
			g.Rows, g.Classes = append(g.Rows, cells), append(g.Classes, classes)
		}
	} else {
		at := "at the same point"
		if s.Sweep != "" {
			at = "at the same " + s.Sweep
		}
		g.Caption = fmt.Sprintf("%s, %s; each configuration against %s %s%s", capitalise(what), per, base, at, besideNote)
		first := "point"
		if s.Sweep != "" {
			first = s.Sweep
		}
		g.Head = []string{first}
		if mixed {
			g.Head = append(g.Head, "metric")
		}
		for _, c := range s.Configs {
			g.Head = append(g.Head, c.Name)
		}
		for ci, c := range s.Configs {
			if ci != s.Baseline {
				g.Head = append(g.Head, c.Name+" vs "+base)
			}
		}
		for _, r := range t.Rows {
			cells := []string{r.Label}
			if mixed {
				cells = append(cells, r.MetricLabel())
			}
			classes := make([]Verdict, len(cells))
			for ci := range s.Configs {
				cells, classes = append(cells, value(r, ci)), append(classes, Same)
			}
			for ci := range s.Configs {
				if ci != s.Baseline {
					ch, cls := change(r, ci)
					cells, classes = append(cells, ch), append(classes, cls)
				}
			}
			g.Rows, g.Classes = append(g.Rows, cells), append(g.Classes, classes)
		}
	}
	g.Notes = append([]string{t.Formula(s), Verdicts}, numbered(notes.List())...)
	return g
}

func numbered(notes []string) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = fmt.Sprintf("[%d] %s", i+1, n)
	}
	return out
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Tables are the study's tables: for points of one metric, one table per metric asked (the headline when
// none is); for points of different work, one table of each point's headline.
func (s *Study) Tables(metrics, beside []string) ([]StudyTable, error) {
	if len(metrics) == 0 {
		if s.Homogeneous() {
			metrics = []string{headlineOf(s.Points[0].Cells[s.Baseline])}
		} else {
			metrics = []string{""}
		}
	}
	known := map[string]bool{}
	for _, m := range s.Metrics() {
		known[m] = true
	}
	for _, m := range append(append([]string{}, metrics...), beside...) {
		if m != "" && !known[m] {
			return nil, fmt.Errorf("--metric %q is not a metric of these runs: use one of %s", m, strings.Join(s.Metrics(), ", "))
		}
	}
	var out []StudyTable
	for _, m := range metrics {
		out = append(out, s.Table(m, beside))
	}
	return out, nil
}

// Print writes the study: its configurations (each name with its runs), then each table in the format asked.
func (s *Study) Print(w io.Writer, tables []StudyTable, format string) error {
	switch format {
	case FormatCSV:
		return s.printCSV(w, tables)
	case FormatMD:
		for i, t := range tables {
			if i > 0 {
				fmt.Fprintln(w)
			}
			g := s.Layout(t)
			fmt.Fprintf(w, "**%s**\n\n", g.Caption)
			fmt.Fprintf(w, "| %s |\n|", strings.Join(MDCells(g.Head), " | "))
			for i := range g.Head {
				if i == 0 {
					fmt.Fprint(w, " --- |")
				} else {
					fmt.Fprint(w, " ---: |")
				}
			}
			fmt.Fprintln(w)
			for _, r := range g.Rows {
				fmt.Fprintf(w, "| %s |\n", strings.Join(MDCells(r), " | "))
			}
			fmt.Fprintln(w)
			for _, n := range g.Notes {
				fmt.Fprintf(w, "%s  \n", mdEscape(n))
			}
		}
		return nil
	}
	fmt.Fprintf(w, "study: %d configurations at %d point(s)%s\n", len(s.Configs), len(s.Points), map[bool]string{true: ", " + s.Sweep + " swept", false: ""}[s.Sweep != ""])
	for i, c := range s.Configs {
		role := ""
		if i == s.Baseline {
			role = " (baseline)"
		}
		fmt.Fprintf(w, "  %s%s: %s\n", c.Name, role, About(c.Runs, c.Name))
	}
	for _, t := range tables {
		g := s.Layout(t)
		fmt.Fprintf(w, "\n%s\n", g.Caption)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(g.Head, "\t"))
		for _, r := range g.Rows {
			fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
		for _, n := range g.Notes {
			fmt.Fprintln(w, n)
		}
	}
	return nil
}

// MDCells are cells escaped for a Markdown table (a | in a label would end its cell).
func MDCells(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = mdEscape(c)
	}
	return out
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`).Replace(s)
}

// printCSV writes every cell of the tables as a row: the metric, the point (the swept parameter's value under
// its own name), the configuration and each of its labels, its runs, median, change against the baseline and
// the verdict with its note.
func (s *Study) printCSV(w io.Writer, tables []StudyTable) error {
	keys := map[string]bool{}
	for _, c := range s.Configs {
		for _, r := range c.Runs {
			for k := range r.Labels {
				// the configuration label is the configuration column; a step's key is the plan's bookkeeping
				if k != "plan_step" && k != ConfigurationLabel {
					keys[k] = true
				}
			}
		}
	}
	var labels []string
	for k := range keys {
		labels = append(labels, k)
	}
	sort.Strings(labels)
	point := "point"
	if s.Sweep != "" {
		point = s.Sweep
	}
	cw := csv.NewWriter(w)
	head := append([]string{"metric", "unit", point, "configuration"}, labels...)
	head = append(head, "baseline", "runs", "value", "change_pct", "change", "verdict", "note")
	cw.Write(head)
	for _, t := range tables {
		for _, r := range t.Rows {
			for ci, c := range s.Configs {
				if math.IsNaN(r.Values[ci]) {
					continue
				}
				rec := []string{r.Desc.Name, r.Desc.Unit, r.Label, c.Name}
				var lab map[string]any
				if len(c.Runs) > 0 {
					lab = c.Runs[0].Labels
				}
				for _, k := range labels {
					v := ""
					if x, ok := lab[k]; ok {
						v = fmt.Sprint(x)
					}
					rec = append(rec, v)
				}
				j := r.Judged[ci]
				pct, words, verdict := "", "", "baseline"
				if ci != s.Baseline {
					verdict = VerdictWord(j.Verdict)
					if !math.IsNaN(j.Change) {
						pct = fmt.Sprintf("%.2f", j.Change)
						words = Ratio(r.Values[s.Baseline], r.Values[ci], r.Desc)
					}
					if j.Verdict == Same && j.Note != "" {
						verdict = "within noise"
					}
				}
				note := j.Note
				if n := r.Noise[ci]; n.Few {
					note = strings.TrimPrefix(note+"; "+n.Why+" ("+n.How+")", "; ")
				} else if n.Bound != "" {
					note = strings.TrimPrefix(note+"; "+n.Why, "; ")
				}
				rec = append(rec, s.Configs[s.Baseline].Name, fmt.Sprint(r.Runs[ci]), fmt.Sprint(r.Values[ci]), pct, words, verdict, note)
				cw.Write(rec)
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// VerdictWord names a verdict in one word or two: better, worse, the same, noise unknown, not compared.
func VerdictWord(v Verdict) string {
	switch v {
	case Better:
		return "better"
	case Worse:
		return "worse"
	case NoiseUnknown:
		return "noise unknown"
	case NotComparable:
		return "not compared"
	}
	return "the same"
}

// ConfigsOf splits runs into a study's configurations by a label's value (by: "configuration", a plan's),
// in the order they first came; a run without the label is refused, naming it.
func ConfigsOf(runs []*result.Result, by string) ([]StudyConfig, error) {
	var out []StudyConfig
	idx := map[string]int{}
	for _, r := range runs {
		if g := r.Group; g != nil && g.Targets > 1 && !g.Aggregate {
			continue // one target's part of a run of several at once: the study compares their aggregate
		}
		v, ok := r.Labels[by]
		if !ok {
			return nil, fmt.Errorf("run %s has no %s label: name the configurations to compare (GROUP GROUP ...), or give --by LABEL", r.RunID, by)
		}
		name := fmt.Sprint(v)
		i, ok := idx[name]
		if !ok {
			i = len(out)
			idx[name] = i
			out = append(out, StudyConfig{Name: name, Alias: Alias(i)})
		}
		out[i].Runs = append(out[i].Runs, r)
	}
	return out, nil
}

// BaselineIndex finds the configuration --baseline names: its name, its alias or its number from 1; "" is the
// first.
func BaselineIndex(configs []StudyConfig, name string) (int, error) {
	if name == "" {
		return 0, nil
	}
	var names []string
	for i, c := range configs {
		if c.Name == name || c.Alias == name || fmt.Sprint(i+1) == name {
			return i, nil
		}
		names = append(names, c.Name)
	}
	return 0, fmt.Errorf("--baseline %q is not one of the configurations: use one of %s", name, strings.Join(names, ", "))
}

package results

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dbdyno/dbdyno/internal/lib/outfile"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/report"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// OpenStore opens a results store that must exist (a file; a server's store is made when missing).
func OpenStore(ctx context.Context, path string) (*store.Store, error) {
	if !store.Exists(path) {
		return nil, fmt.Errorf("no results store at %s: run a benchmark first, or point --store at one", path)
	}
	return store.Open(ctx, path)
}

// openIfThere opens the store when it exists (compare and report also take result files).
func openIfThere(ctx context.Context, path string) (*store.Store, error) {
	if !store.Exists(path) {
		return nil, nil
	}
	return store.Open(ctx, path)
}

// storeName is a --store value as it is printed: a file's absolute path, a server's URL without its password.
func StoreName(loc string) string {
	if store.IsURL(loc) {
		return store.Display(loc)
	}
	return AbsPath(loc)
}

// Resolve turns references (run IDs or prefixes, store numbers, group IDs, result files) into runs; none means
// every stored run that matches the filter, and then a run whose stored document cannot be read is named on
// warn and left out rather than failing the rest.
func Resolve(ctx context.Context, st *store.Store, refs []string, f store.Filter, warn io.Writer) ([]*result.Result, error) {
	var runs []*result.Result
	all := len(refs) == 0
	if all {
		if st == nil {
			return nil, fmt.Errorf("name the runs (run IDs, group IDs or result files)")
		}
		entries, err := st.List(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			refs = append(refs, e.RunID)
		}
		if len(refs) == 0 {
			return nil, fmt.Errorf("the results store has no matching runs")
		}
	}
	for _, ref := range refs {
		ref, point, _ := strings.Cut(ref, "@")
		var rs []*result.Result
		if strings.HasSuffix(ref, ".json") {
			r, err := result.Read(ref)
			if err != nil {
				return nil, err
			}
			rs = []*result.Result{r}
		} else {
			if st == nil {
				return nil, fmt.Errorf("%q is not a result file and there is no results store to look it up in", ref)
			}
			var err error
			rs, err = st.Get(ctx, ref)
			var broken *store.BrokenError
			if errors.As(err, &broken) && all {
				fmt.Fprintf(warn, "dbdyno: left out: %v\n", err)
			} else if err != nil {
				return nil, err
			}
		}
		if point != "" {
			var at []*result.Result
			for _, r := range rs {
				if r.Group.Point() == point {
					at = append(at, r)
				}
			}
			if len(at) == 0 {
				return nil, fmt.Errorf("%s has no runs at %s: its points are %s", ref, point, strings.Join(points(rs), ", "))
			}
			rs = at
		}
		runs = append(runs, rs...)
	}
	return runs, nil
}

// points lists the sweep points of runs, in the order they came.
func points(runs []*result.Result) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range runs {
		if p := r.Group.Point(); p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// List prints one line per stored run.
func List(ctx context.Context, w io.Writer, storePath string, f store.Filter) error {
	st, err := OpenStore(ctx, storePath)
	if err != nil {
		return err
	}
	defer st.Close()
	entries, err := st.List(ctx, f)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\trun\tworkload\tengine\tstatus\tstarted\tgroup\tlabels\theadline")
	for _, e := range entries {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Seq, e.RunID, e.Workload, e.Engine, e.Status, e.StartedAt, e.GroupID, e.Labels, e.Headline)
	}
	return tw.Flush()
}

// Show prints the result documents a reference names.
func Show(ctx context.Context, w io.Writer, storePath, ref string) error {
	st, err := OpenStore(ctx, storePath)
	if err != nil {
		return err
	}
	defer st.Close()
	rs, err := st.Get(ctx, ref)
	if err != nil {
		return err
	}
	for _, r := range rs {
		b, err := r.Marshal()
		if err != nil {
			return err
		}
		w.Write(b)
	}
	return nil
}

// Export writes runs (all that match the filter, or those named) as CSV, one row per run and metric, as a
// Markdown table, one row per run and a column per metric, or as a JSON array of results, to out ("" for w).
// CSV and Markdown have a column for each swept setting (its value where the run was a point of that sweep)
// and for each label, so that a spreadsheet or a ticket takes a study's runs as they are.
func Export(ctx context.Context, w, warn io.Writer, storePath string, refs []string, f store.Filter, format, out string) (int, error) {
	kinds := map[string]Kind{"csv": ExportCSV, "json": ExportJSON, "md": ExportMD}
	kind, ok := kinds[format]
	if !ok {
		return 0, fmt.Errorf("--format %q is not known: use csv, md or json", format)
	}
	if err := CheckOutput("-o", out, kind, storePath); err != nil {
		return 0, err
	}
	st, err := OpenStore(ctx, storePath)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	runs, err := Resolve(ctx, st, refs, f, warn)
	if err != nil {
		return 0, err
	}
	var b bytes.Buffer
	switch format {
	case "json":
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		err = enc.Encode(runs)
	case "md":
		exportMD(&b, runs)
	default:
		err = exportCSV(&b, runs)
	}
	if err != nil {
		return 0, err
	}
	if out == "" {
		_, err = w.Write(b.Bytes())
		return len(runs), err
	}
	return len(runs), outfile.WriteAtomic(out, b.Bytes())
}

// exportColumns are the swept settings and the label keys of runs, each once: sweeps in the order met, labels
// with the configuration first and the others by name. A label named as a sweep is headed "label NAME".
func exportColumns(runs []*result.Result) (sweeps, labels, labelHeads []string) {
	seen := map[string]bool{}
	for _, r := range runs {
		if g := r.Group; g != nil && g.Sweep != "" && !seen[g.Sweep] {
			seen[g.Sweep] = true
			sweeps = append(sweeps, g.Sweep)
		}
	}
	keys := map[string]bool{}
	for _, r := range runs {
		for k := range r.Labels {
			keys[k] = true
		}
	}
	for k := range keys {
		labels = append(labels, k)
	}
	sort.Slice(labels, func(i, j int) bool {
		a, b := labels[i] == compare.ConfigurationLabel, labels[j] == compare.ConfigurationLabel
		if a != b {
			return a
		}
		return labels[i] < labels[j]
	})
	for _, k := range labels {
		if seen[k] {
			k = "label " + k
		}
		labelHeads = append(labelHeads, k)
	}
	return sweeps, labels, labelHeads
}

// exportCells are a run's values in exportColumns' columns.
func exportCells(r *result.Result, sweeps, labels []string) []string {
	var out []string
	for _, s := range sweeps {
		v := ""
		if g := r.Group; g != nil && g.Sweep == s {
			v = strconv.FormatFloat(g.Value, 'f', -1, 64)
		}
		out = append(out, v)
	}
	for _, k := range labels {
		v := ""
		if x, ok := r.Labels[k]; ok {
			v = fmt.Sprint(x)
		}
		out = append(out, v)
	}
	return out
}

func exportCSV(b *bytes.Buffer, runs []*result.Result) error {
	sweeps, labels, heads := exportColumns(runs)
	cw := csv.NewWriter(b)
	head := []string{"run_id", "workload", "engine", "server_version", "status", "started_at", "group", "repeat", "median", "warmup"}
	head = append(append(append(head, sweeps...), heads...), "metric", "unit", "value")
	cw.Write(head)
	for _, r := range runs {
		group, repeat, median := "", "", ""
		if g := r.Group; g != nil {
			group, repeat, median = g.ID, fmt.Sprint(g.Repeat), fmt.Sprint(g.Median)
		}
		row := []string{r.RunID, r.Workload, r.Target.Engine, r.Target.ServerVersion, r.Status, r.StartedAt.Format("2006-01-02T15:04:05Z"),
			group, repeat, median, fmt.Sprint(r.IsWarmup())}
		row = append(row, exportCells(r, sweeps, labels)...)
		for _, m := range compare.Metrics(r) {
			cw.Write(append(slices.Clone(row), m.Name, m.Unit, strconv.FormatFloat(m.Value, 'f', -1, 64)))
		}
	}
	cw.Flush()
	return cw.Error()
}

// exportMD is the runs as one Markdown table: a row per run (its ID, workload, status, repeat, sweep values and
// labels) and a column per metric, "name (unit)", in the order the runs first have them; "-" where a run has
// no such metric.
func exportMD(b *bytes.Buffer, runs []*result.Result) {
	sweeps, labels, heads := exportColumns(runs)
	var metrics []string
	units := map[string]string{}
	for _, r := range runs {
		for _, m := range compare.Metrics(r) {
			if _, ok := units[m.Name]; !ok {
				units[m.Name] = m.Unit
				metrics = append(metrics, m.Name)
			}
		}
	}
	head := []string{"run", "workload", "status", "repeat"}
	head = append(append(head, sweeps...), heads...)
	for _, m := range metrics {
		if u := units[m]; u != "" {
			m += " (" + u + ")"
		}
		head = append(head, m)
	}
	fmt.Fprintf(b, "| %s |\n|", strings.Join(compare.MDCells(head), " | "))
	for i := range head {
		if i < 4+len(sweeps)+len(labels) && i != 3 {
			b.WriteString(" --- |")
		} else {
			b.WriteString(" ---: |")
		}
	}
	b.WriteString("\n")
	for _, r := range runs {
		repeat, status := "", r.Status
		if g := r.Group; g != nil && g.Repeats > 0 {
			repeat = fmt.Sprintf("%d/%d", g.Repeat, g.Repeats)
		}
		if r.IsWarmup() {
			status += " (warm-up)"
		}
		row := append([]string{r.RunID, r.Workload, status, repeat}, exportCells(r, sweeps, labels)...)
		vals := map[string]float64{}
		for _, m := range compare.Metrics(r) {
			vals[m.Name] = m.Value
		}
		for _, m := range metrics {
			if v, ok := vals[m]; ok {
				row = append(row, compare.Format(v))
			} else {
				row = append(row, "-")
			}
		}
		fmt.Fprintf(b, "| %s |\n", strings.Join(compare.MDCells(row), " | "))
	}
}

// Compare prints the runs each reference names (their medians) side by side, each against the first. It
// refuses runs whose database had changed since its build (result.Unchanged): CompareChanged takes them.
func Compare(ctx context.Context, w io.Writer, storePath string, refs []string) error {
	return CompareWith(ctx, w, storePath, refs, CompareOptions{})
}

// CompareOptions are compare's choices.
type CompareOptions struct {
	// IncludeFailed compares runs that failed or were aborted too, each named above the comparison; without
	// it such a run is refused.
	IncludeFailed bool
	// AllowChanged compares runs whose database had changed since its build (their database_changes);
	// without it such a run is refused.
	AllowChanged bool
	// AllowDifferentWork compares configurations that did different work or measured different metrics (what
	// they share); without it they are refused (compare.Check).
	AllowDifferentWork bool
	// Baseline names the configuration the others are compared with (its name, alias or number); "" is the
	// first.
	Baseline string
	// Metrics are the metrics of a study's tables (one table each; default the headline); Beside are shown
	// beside each cell, unjudged.
	Metrics, Beside []string
	// Format is text, md or csv (compare.FormatText ...); "" is text.
	Format string
	// Labels pick the stored runs of a study when no runs are named (plan=NAME); By is the label whose values
	// are its configurations (default compare.ConfigurationLabel, which a plan's configurations set).
	Labels []string
	By     string
}

// CompareChanged is Compare, taking runs whose database had changed since its build when allowChanged is set.
func CompareChanged(ctx context.Context, w io.Writer, storePath string, refs []string, allowChanged bool) error {
	return CompareWith(ctx, w, storePath, refs, CompareOptions{AllowChanged: allowChanged})
}

// CompareWith is Compare with its options. Each reference is a configuration; one that is a whole sweep (a
// group of several points), or runs picked by label and split into configurations by a label, make a study:
// its table, point by point, each configuration against the baseline at the same point.
func CompareWith(ctx context.Context, w io.Writer, storePath string, refs []string, o CompareOptions) error {
	if o.Format == "" {
		o.Format = compare.FormatText
	}
	if err := compare.CheckFormat(o.Format); err != nil {
		return err
	}
	st, err := openIfThere(ctx, storePath)
	if err != nil {
		return err
	}
	if st != nil {
		defer st.Close()
	}
	var configs []compare.StudyConfig
	sweep := false
	if len(refs) == 0 {
		if len(o.Labels) == 0 {
			return fmt.Errorf("name the runs to compare (run IDs, group IDs or result files), or pick a study's runs with --label plan=NAME")
		}
		runs, err := Resolve(ctx, st, nil, store.Filter{Labels: o.Labels}, nil)
		if err != nil {
			return err
		}
		by := o.By
		if by == "" {
			by = compare.ConfigurationLabel
		}
		if configs, err = compare.ConfigsOf(measuredRuns(runs), by); err != nil {
			return err
		}
		if len(configs) < 2 {
			return fmt.Errorf("the runs labelled %s are one configuration (%s=%s): a comparison needs two, e.g. a plan with configurations", strings.Join(o.Labels, ", "), by, configs[0].Name)
		}
		sweep = true
	} else {
		if len(refs) < 2 {
			return fmt.Errorf("name two or more configurations to compare")
		}
		var sets [][]*result.Result
		for _, ref := range refs {
			runs, err := Resolve(ctx, st, []string{ref}, store.Filter{}, nil)
			if err != nil {
				return err
			}
			runs = measuredRuns(runs)
			if len(runs) == 0 {
				return fmt.Errorf("%s holds no measured run (only warm-ups)", ref)
			}
			sweep = sweep || len(points(runs)) > 1
			sets = append(sets, runs)
		}
		names := compare.StudyNames(sets)
		if !sweep {
			names = compare.Names(sets)
		}
		for i, set := range sets {
			configs = append(configs, compare.StudyConfig{Name: names[i], Alias: compare.Alias(i), Runs: set})
		}
	}
	b, err := compare.BaselineIndex(configs, o.Baseline)
	if err != nil {
		return err
	}
	var all []*result.Result
	for _, c := range configs {
		all = append(all, c.Runs...)
	}
	if !o.AllowChanged {
		if err := result.Unchanged(all); err != nil {
			return err
		}
	}
	if sweep || o.Format != compare.FormatText || b != 0 || len(o.Metrics) > 0 || len(o.Beside) > 0 {
		s, err := compare.NewStudy(configs, b)
		if err != nil {
			return err
		}
		if err := s.Check(compare.Options{IncludeFailed: o.IncludeFailed, AllowDifferentWork: o.AllowDifferentWork}); err != nil {
			return err
		}
		warnFailed(w, all, o.Format)
		metrics := o.Metrics
		if len(metrics) == 0 && !sweep && o.Format != compare.FormatText {
			metrics = s.Metrics() // one point: every metric, as the text comparison shows them
		}
		beside := o.Beside
		if len(beside) == 0 && hostCPUBeside(s) { // a throughput beside what it cost the host, as report shows it
			beside = []string{result.HostCPUMetric}
		}
		tables, err := s.Tables(metrics, beside)
		if err != nil {
			return err
		}
		return s.Print(w, tables, o.Format)
	}
	var sets [][]*result.Result
	for _, c := range configs {
		sets = append(sets, c.Runs)
	}
	if err := compare.Check(sets, compare.Options{IncludeFailed: o.IncludeFailed, AllowDifferentWork: o.AllowDifferentWork}); err != nil {
		return err
	}
	warnFailed(w, all, o.Format)
	return compare.Print(w, compare.Summaries(sets))
}

// warnFailed names, above a comparison, each run that did not end ok (a CSV has no room for it).
func warnFailed(w io.Writer, runs []*result.Result, format string) {
	if format == compare.FormatCSV {
		return
	}
	for _, r := range runs {
		if r.Status != result.StatusOK {
			fmt.Fprintf(w, "WARNING: run %s ended %s (%s): its figures are what it did until then\n", r.RunID, r.Status, r.Error)
		}
	}
}

// measuredRuns leaves out warm-up runs: recorded, never a configuration of their own.
func measuredRuns(runs []*result.Result) []*result.Result {
	var out []*result.Result
	for _, r := range runs {
		if !r.IsWarmup() {
			out = append(out, r)
		}
	}
	return out
}

// Report writes the HTML report of the runs named (or of the stored runs matching the filter) to out.
func Report(ctx context.Context, warn io.Writer, storePath string, refs []string, f store.Filter, title, out string) (int, error) {
	return ReportWith(ctx, warn, storePath, refs, f, ReportOptions{Title: title, Out: out})
}

// ReportOptions are report's choices beyond its runs.
type ReportOptions struct {
	Title, Out string
	// Baseline, Metrics, Beside and By are a study's, as compare takes them (CompareOptions).
	Baseline        string
	Metrics, Beside []string
	By              string
	// LicensePerCore prices the leaderboards' license columns (leaderboard --license-per-core).
	LicensePerCore float64
}

// ReportWith is Report with its options. Runs that form a study (two or more references, each a
// configuration; or runs whose configuration label, a plan's, takes two or more values) are reported as one:
// its tables first, point by point against the baseline.
func ReportWith(ctx context.Context, warn io.Writer, storePath string, refs []string, f store.Filter, o ReportOptions) (int, error) {
	if o.Out == "" {
		return 0, fmt.Errorf("-o FILE.html is required")
	}
	if err := CheckOutput("-o", o.Out, ReportHTML, append(resultFiles(refs), storePath)...); err != nil {
		return 0, err
	}
	st, err := openIfThere(ctx, storePath)
	if err != nil {
		return 0, err
	}
	if st != nil {
		defer st.Close()
	}
	runs, err := Resolve(ctx, st, refs, f, warn)
	if err != nil {
		return 0, err
	}
	study, err := studyOf(ctx, st, refs, runs, o)
	if err != nil {
		return 0, err
	}
	if study != nil && len(o.Beside) == 0 && hostCPUBeside(study) {
		// the studies put a throughput beside the database host's CPU (the web store's OPM and % core utilisation)
		o.Beside = []string{result.HostCPUMetric}
	}
	if o.LicensePerCore == 0 {
		if o.LicensePerCore, err = licenseLabel(runs); err != nil {
			return 0, err
		}
	}
	var b strings.Builder
	if err := report.WriteWith(&b, report.Options{Title: o.Title, Runs: runs, Study: study, Metrics: o.Metrics, Beside: o.Beside, LicensePerCore: o.LicensePerCore}); err != nil {
		return 0, err
	}
	return len(runs), outfile.WriteAtomic(o.Out, []byte(b.String()))
}

// studyOf is the study the report's runs form, nil when they form none: each reference a configuration (two
// or more), else the values of the configuration label (--by). Runs that cannot be compared point by point
// (other workloads, failed runs) make no study unless a baseline or metric was asked for one.
func studyOf(ctx context.Context, st *store.Store, refs []string, runs []*result.Result, o ReportOptions) (*compare.Study, error) {
	asked := o.Baseline != "" || len(o.Metrics) > 0 || len(o.Beside) > 0 || o.By != ""
	var configs []compare.StudyConfig
	if len(refs) >= 2 {
		var sets [][]*result.Result
		for _, ref := range refs {
			rs, err := Resolve(ctx, st, []string{ref}, store.Filter{}, nil)
			if err != nil {
				return nil, err
			}
			if rs = measuredRuns(rs); len(rs) > 0 {
				sets = append(sets, rs)
			}
		}
		names := compare.StudyNames(sets)
		for i, set := range sets {
			configs = append(configs, compare.StudyConfig{Name: names[i], Alias: compare.Alias(i), Runs: set})
		}
	} else {
		by := o.By
		if by == "" {
			by = compare.ConfigurationLabel
		}
		var err error
		if configs, err = compare.ConfigsOf(measuredRuns(runs), by); err != nil {
			if asked {
				return nil, err
			}
			return nil, nil
		}
	}
	if len(configs) < 2 {
		if asked {
			return nil, fmt.Errorf("the runs are one configuration: a study needs two (name them, or label them configuration=NAME)")
		}
		return nil, nil
	}
	b, err := compare.BaselineIndex(configs, o.Baseline)
	if err != nil {
		return nil, err
	}
	s, err := compare.NewStudy(configs, b)
	if err != nil {
		return nil, err
	}
	if err := s.Check(compare.Options{}); err != nil {
		if asked {
			return nil, err
		}
		return nil, nil
	}
	return s, nil
}

// PrintSQL prints every statement a workload (or, without one, only the engine) runs on an engine, file by
// file, as it runs them.
func PrintSQL(w io.Writer, workloadName, engineName string) error {
	var names []string
	for _, e := range engine.All() {
		names = append(names, e.Name)
	}
	if engineName == "" {
		return fmt.Errorf("--engine is required: one of %s", strings.Join(names, ", "))
	}
	e, ok := engine.Lookup(engineName)
	if !ok {
		return fmt.Errorf("unknown engine %q: use one of %s", engineName, strings.Join(names, ", "))
	}
	var files []*sqlfile.File
	if workloadName != "" {
		m, ok := workload.Lookup(workloadName)
		if !ok {
			return fmt.Errorf("unknown workload %q: use one of %s", workloadName, strings.Join(workload.Names(), ", "))
		}
		if m.SQL == nil {
			return fmt.Errorf("workload %s runs no SQL", m.Name)
		}
		if m.Supports != nil {
			if err := m.Supports(e); err != nil {
				return err
			}
		}
		var err error
		if files, err = m.SQL(e); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "-- dbdyno sql: workload %s, engine %s (%s)\n\n", orNone(workloadName), e.Name, e.Title)
	sqlfile.Print(w, files)
	fmt.Fprintf(w, "-- %s's own statements (internal/engine/sql)\n\n", e.Title)
	sqlfile.Print(w, e.Files())
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// resultFiles are the result files among references.
func resultFiles(refs []string) []string {
	var out []string
	for _, r := range refs {
		if strings.HasSuffix(r, ".json") {
			out = append(out, r)
		}
	}
	return out
}

// LicenseLabel is the label that prices a run's database license per physical core (a plan's labels:
// license_per_core: 6872), which report's leaderboards take where --license-per-core is not given.
const LicenseLabel = "license_per_core"

// licenseLabel is the license price per core the runs' license_per_core labels give (0 when none has one); runs
// that price it differently are refused, naming both prices.
func licenseLabel(runs []*result.Result) (float64, error) {
	price, from := 0.0, ""
	for _, r := range runs {
		v, ok := r.Labels[LicenseLabel]
		if !ok {
			continue
		}
		p, ok := compare.Number(v)
		if !ok || p < 0 {
			return 0, fmt.Errorf("run %s: label %s=%v is not a price: give the license's price per physical core, e.g. %s=6872", r.RunID, LicenseLabel, v, LicenseLabel)
		}
		if from != "" && p != price {
			return 0, fmt.Errorf("runs %s and %s price the license differently (%s=%g and %g): give --license-per-core", from, r.RunID, LicenseLabel, price, p)
		}
		price, from = p, r.RunID
	}
	return price, nil
}

// hostCPUBeside says a study's tables show the database host's CPU beside each cell: its headline is a
// throughput and every run carries the host's CPU.
func hostCPUBeside(s *compare.Study) bool {
	for _, c := range s.Configs {
		for _, r := range c.Runs {
			h, ok := r.Headline()
			if !ok || h.Better != result.Higher {
				return false
			}
			has := false
			for _, m := range r.Metrics {
				has = has || m.Name == result.HostCPUMetric
			}
			if !has {
				return false
			}
		}
	}
	return true
}

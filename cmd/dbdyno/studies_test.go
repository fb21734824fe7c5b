package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dbdyno/dbdyno/internal/method/plan"
	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/browser"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// studiesDir holds the five seed studies as plans (examples/studies).
const studiesDir = "../../examples/studies"

// studyRun is one study's plan run end to end at a tiny size: its store, its report and its first table.
type studyRun struct {
	name, store, report string
	rows                []studyCell // compare --format csv's rows of the first table
	sweep               string      // the swept parameter's column, "" for points of several kinds
	runs                []*result.Result
}

// studyCell is one cell of a study's table, as compare --format csv writes it.
type studyCell struct {
	metric, point, config string
	runs                  int
	value, change         float64 // change NaN for the baseline
	verdict, note         string
}

// runStudy runs a study's plan with its variables set (tiny sizes; every target and file in dir, or on the
// server given), then reads its table from compare --format csv, its runs from results export and writes its
// report.
func runStudy(t *testing.T, file, dir string, vars map[string]string) *studyRun {
	t.Helper()
	p, err := plan.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	st := filepath.Join(dir, "results.db")
	args := []string{"plan", "run", file, "--store", st}
	for k, def := range p.Variables {
		v, ok := vars[k]
		if !ok && strings.Contains(def, "://") { // an embedded default target: a file in dir
			scheme, path, _ := strings.Cut(def, "://")
			v, ok = scheme+"://"+filepath.Join(dir, filepath.Base(path)), true
		}
		if ok {
			args = append(args, "--var", k+"="+v)
		}
	}
	r := cli(context.Background(), args...)
	if r.code != 0 {
		t.Fatalf("plan run %s: exit %d\n%s\n%s", filepath.Base(file), r.code, tail(r.stdout, 40), r.stderr)
	}
	if !strings.Contains(r.stdout, "plan "+p.Name+" done") {
		t.Fatalf("plan run %s did not say it is done:\n%s", file, tail(r.stdout, 20))
	}
	s := &studyRun{name: p.Name, store: st, report: filepath.Join(dir, p.Name+".html")}
	// its runs, as stored
	out := filepath.Join(dir, "runs.json")
	if r := cli(context.Background(), "results", "export", "--label", "plan="+p.Name, "--format", "json", "--store", st, "-o", out); r.code != 0 {
		t.Fatalf("results export: %s", r.stderr)
	}
	b, _ := os.ReadFile(out)
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	for _, m := range raw {
		res, err := result.Parse(m)
		if err != nil {
			t.Fatal(err)
		}
		s.runs = append(s.runs, res)
	}
	if r := cli(context.Background(), "report", "--label", "plan="+p.Name, "--store", st, "-o", s.report); r.code != 0 {
		t.Fatalf("report: %s", r.stderr)
	}
	return s
}

// table reads the study's first table from compare --format csv (every cell a row).
func (s *studyRun) table(t *testing.T) {
	t.Helper()
	r := cli(context.Background(), "compare", "--label", "plan="+s.name, "--store", s.store, "--format", "csv")
	if r.code != 0 {
		t.Fatalf("compare: %s", r.stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(recs) < 3 {
		t.Fatalf("compare --format csv: %v\n%s", err, r.stdout)
	}
	head := recs[0]
	col := map[string]int{}
	for i, h := range head {
		if _, dup := col[h]; !dup {
			col[h] = i
		}
	}
	if head[3] != "configuration" || col["value"] == 0 || col["change_pct"] == 0 {
		t.Fatalf("compare csv heading %v", head)
	}
	if head[2] != "point" {
		s.sweep = head[2]
	}
	for _, rec := range recs[1:] {
		c := studyCell{metric: rec[0], point: rec[2], config: rec[3], verdict: rec[col["verdict"]], note: rec[col["note"]], change: math.NaN()}
		c.runs, _ = strconv.Atoi(rec[col["runs"]])
		if c.value, err = strconv.ParseFloat(rec[col["value"]], 64); err != nil {
			t.Fatalf("value of %v: %v", rec, err)
		}
		if p := rec[col["change_pct"]]; p != "" {
			c.change, _ = strconv.ParseFloat(p, 64)
		}
		s.rows = append(s.rows, c)
	}
}

// checkCells recomputes every cell of the first table from the stored runs: the median of the metric over
// the configuration's measured runs at that point (never a warm-up, never one target's part of a run of
// several), its change against the baseline's (the time ratio for a time to complete), and finds each in the
// report's first table, in the row of its point (or of its configuration where the study has one point).
func (s *studyRun) checkCells(t *testing.T, configs []string) {
	t.Helper()
	s.table(t)
	page, err := os.ReadFile(s.report)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(page), `<table class="study">`)
	if i < 0 {
		t.Fatalf("%s: the report has no study table", s.name)
	}
	first := string(page[i:])
	first = first[:strings.Index(first, "</table>")]
	trs := strings.Split(first, "<tr>")
	points := map[string]bool{}
	seen := map[string]bool{}
	base := map[string]float64{}
	for _, c := range s.rows {
		points[c.point] = true
		seen[c.config] = true
	}
	for _, c := range configs {
		if !seen[c] {
			t.Errorf("%s: configuration %s is not in the table (%v)", s.name, c, seen)
		}
	}
	for _, c := range s.rows {
		var vals []float64
		for _, r := range s.runs {
			if r.IsWarmup() || r.Labels["configuration"] != c.config || r.Group != nil && r.Group.Targets > 1 && !r.Group.Aggregate {
				continue
			}
			if s.sweep != "" && (r.Group == nil || strconv.FormatFloat(r.Group.Value, 'f', -1, 64) != c.point) {
				continue
			}
			for _, m := range r.Metrics {
				if m.Name == c.metric {
					vals = append(vals, m.Value)
				}
			}
		}
		sort.Float64s(vals)
		if len(vals) != c.runs || len(vals) == 0 {
			t.Errorf("%s: %s at %s: %d stored runs have %s, the table says %d", s.name, c.config, c.point, len(vals), c.metric, c.runs)
			continue
		}
		med := vals[len(vals)/2]
		if len(vals)%2 == 0 {
			med = (vals[len(vals)/2-1] + vals[len(vals)/2]) / 2
		}
		if math.Abs(med-c.value) > 1e-9*math.Abs(med) {
			t.Errorf("%s: %s at %s: the cell is %g, the median of its runs %g", s.name, c.config, c.point, c.value, med)
		}
		key := c.metric + "\x00" + c.point
		if math.IsNaN(c.change) {
			base[key] = c.value
		} else if b, ok := base[key]; ok {
			if want := (c.value/b - 1) * 100; math.Abs(want-c.change) > 0.0051 {
				t.Errorf("%s: %s at %s: change %.2f%%, its figures give %.2f%%", s.name, c.config, c.point, c.change, want)
			}
		}
		if c.verdict == "better" || c.verdict == "worse" {
			if c.note != "" {
				t.Errorf("%s: %s at %s: %s with a note %q", s.name, c.config, c.point, c.verdict, c.note)
			}
		}
		// the report's first table shows it, in its row
		rowOf := "<td class=\"l\">" + esc(c.point) + "</td>"
		if len(points) == 1 {
			rowOf = "<td class=\"l\">" + esc(c.config) + "</td>"
		}
		found := false
		for _, tr := range trs {
			if strings.HasPrefix(tr, rowOf) && strings.Contains(tr, "<td>"+compare.Format(c.value)) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: the report's first table has no cell %s in the row %s:\n%s", s.name, compare.Format(c.value), rowOf, first)
		}
	}
}

// esc is html.EscapeString as the report writes cells.
func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// layout opens the report in headless Chromium at a laptop's and a narrow window's width: nothing overflows,
// overlaps or leaves its chart.
func (s *studyRun) layout(t *testing.T, dir string) {
	t.Helper()
	ctx := browser.Open(t, dir, 5*time.Minute) // the guard is against a hung browser, not a speed limit
	for _, width := range []int64{1280, 800} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate("file://"+s.report)); err != nil {
			t.Fatal(err)
		}
		problems, err := browser.Problems(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("%s at %d px: %s", s.name, width, p)
		}
	}
}

func tail(s string, n int) string {
	l := strings.Split(s, "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// studyEngines are the embedded default (the plan's own) and PostgreSQL, where the tests' servers run (always
// in CI): each study's targets as side databases there.
func studyEngines(t *testing.T) []string {
	out := []string{"embedded"}
	if os.Getenv(testsrv.PostgresEnv) != "" || os.Getenv("CI") == "true" {
		out = append(out, "postgres")
	}
	return out
}

// pgVars points a study's target variables at side databases of the test's PostgreSQL.
func pgVars(t *testing.T, study string, names ...string) map[string]string {
	pg := testsrv.URL(t, testsrv.PostgresEnv)
	out := map[string]string{}
	for _, n := range names {
		out[n] = testsrv.Beside(t, pg, "dbdyno_"+study+"_"+n)
	}
	return out
}

func withVars(a map[string]string, kv ...string) map[string]string {
	if a == nil {
		a = map[string]string{}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		a[kv[i]] = kv[i+1]
	}
	return a
}

// Study 000: query-set streams 1..2 on two systems, each after a cold start and a warm-up stream, three
// repeats; its table streams x systems with the time ratio, stated once under it.
func TestStudy000StreamsOnTwoSystems(t *testing.T) {
	t.Parallel()
	for _, eng := range studyEngines(t) {
		t.Run(eng, func(t *testing.T) {
			dir := t.TempDir()
			var vars map[string]string
			if eng == "postgres" {
				vars = pgVars(t, "study000", "es_v3", "eds_v4")
			}
			s := runStudy(t, filepath.Join(studiesDir, "000-streams-two-systems.yaml"), dir, withVars(vars, "streams", "1..2", "repeat", "3"))
			s.checkCells(t, []string{"Es_v3", "Eds_v4"})
			if s.sweep != "streams" || len(s.rows) != 4 {
				t.Fatalf("the table is %d cells swept by %q, want streams 1..2 x two systems", len(s.rows), s.sweep)
			}
			page, _ := os.ReadFile(s.report)
			for _, want := range []string{"<th class=\"l\">streams</th><th>Es_v3</th><th>Eds_v4</th><th>Eds_v4 vs Es_v3</th>", "% faster is the time ratio"} {
				if !strings.Contains(string(page), want) {
					t.Errorf("the report lacks %q", want)
				}
			}
			warm, cold := 0, 0
			for _, r := range s.runs {
				if r.IsWarmup() {
					warm++
				} else if r.ColdStart != nil && r.ColdStart.WarmedUp {
					cold++
				}
			}
			if warm != 12 || cold != 12 {
				t.Errorf("%d warm-up runs and %d measured runs after a cold start and a warm-up, want 12 and 12", warm, cold)
			}
			if eng == "embedded" {
				s.layout(t, dir)
			}
		})
	}
}

// Study 001: the five probes on two tiers, each tier alone; its table tiers x probes, the memory probe's bound
// never judged.
func TestStudy001TiersByFiveProbes(t *testing.T) {
	t.Parallel()
	for _, eng := range studyEngines(t) {
		t.Run(eng, func(t *testing.T) {
			dir := t.TempDir()
			var vars map[string]string
			if eng == "postgres" {
				vars = pgVars(t, "study001", "s0", "s2")
			}
			s := runStudy(t, filepath.Join(studiesDir, "001-tiers-five-probes.yaml"), dir, vars)
			s.checkCells(t, []string{"S0", "S2"})
			kinds := map[string]bool{}
			for _, c := range s.rows {
				kinds[strings.SplitN(c.point, ":", 2)[0]] = true
				if strings.HasPrefix(c.point, "memory") && (c.verdict == "better" || c.verdict == "worse") {
					t.Errorf("the memory probe's bound judged %s", c.verdict)
				}
			}
			if len(kinds) != 5 || len(s.rows) != 10 {
				t.Errorf("the table has %d cells of %v, want the five probes x two tiers", len(s.rows), kinds)
			}
			if eng == "embedded" {
				s.layout(t, dir)
			}
		})
	}
}

// Study 002: aggregate OPM of 4 x 2, 2 x 4 and 1 x 8 (instances x virtual users) with the database host's CPU
// beside each.
func TestStudy002OPMBySizeAndInstances(t *testing.T) {
	t.Parallel()
	for _, eng := range studyEngines(t) {
		t.Run(eng, func(t *testing.T) {
			dir := t.TempDir()
			var vars map[string]string
			if eng == "postgres" {
				vars = pgVars(t, "study002", "vm1", "vm2", "vm3", "vm4")
			}
			s := runStudy(t, filepath.Join(studiesDir, "002-opm-by-size-and-instances.yaml"), dir, withVars(vars, "repeat", "2"))
			s.checkCells(t, []string{"4 x 2", "2 x 4", "1 x 8"})
			page, _ := os.ReadFile(s.report)
			if !strings.Contains(string(page), "<th>database host CPU busy (%)</th>") {
				t.Error("the report's table has no column of the host's CPU beside the OPM")
			}
			for _, r := range s.runs {
				if g := r.Group; g != nil && g.Aggregate && r.Labels["configuration"] == "4 x 2" && g.Targets != 4 {
					t.Errorf("4 x 2's run %s is the sum of %d targets", r.RunID, g.Targets)
				}
			}
			if eng == "embedded" {
				s.layout(t, dir)
			}
		})
	}
}

// Study 003: the loop on this machine: a recording, its checklist written to a file, the priced candidates
// and the replay's verdicts, stored in the result and in the report.
func TestStudy003MonitorChecklistSizeReplay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// the application: writes the recording sees
	var stop atomic.Bool
	defer stop.Store(true)
	go func() {
		f, err := os.Create(filepath.Join(dir, "app.data"))
		if err != nil {
			return
		}
		defer f.Close()
		buf := make([]byte, 64<<10)
		for i := 0; !stop.Load(); i++ {
			f.WriteAt(buf, int64(i%256)*int64(len(buf)))
			f.Sync()
			time.Sleep(20 * time.Millisecond)
		}
	}()
	check := filepath.Join(dir, "checklist.json")
	// the study's catalogue and one VM and disk no recording can outgrow: the machine running this test is
	// shared with others, whose IO the recording sees too, so the sizing step always has a candidate
	cat, err := os.ReadFile("../../examples/catalogs/azure-2015.yaml")
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(dir, "catalog.yaml")
	huge := "\n  - {name: Test_Unbounded, cores: 64, max_data_disks: 64, disk_tiers: [premium, standard], price_month: 99999}\n"
	if err := os.WriteFile(abs, append(cat, huge...), 0o644); err != nil {
		t.Fatal(err)
	}
	s := runStudy(t, filepath.Join(studiesDir, "003-monitor-checklist-size-replay.yaml"), dir,
		withVars(nil, "record", "8s", "interval", "1s", "checklist", check, "catalog", abs, "disk", dir, "runtime", "2", "recording", "app-"+filepath.Base(dir)))
	if b, err := os.ReadFile(check); err != nil || !strings.Contains(string(b), `"growth"`) {
		t.Fatalf("the checklist file: %v", err)
	}
	var replay *result.Result
	for _, r := range s.runs {
		if r.Workload == "io" {
			replay = r
		}
	}
	if replay == nil || replay.IO == nil || replay.IO.Requirements == nil || len(replay.IO.Requirements.Verdicts) < 4 {
		t.Fatalf("the replay's verdicts are not in its result: %+v", replay)
	}
	page, _ := os.ReadFile(s.report)
	if !strings.Contains(string(page), "<h3>Requirements</h3>") || !regexp.MustCompile(`<td class="l (ok|bad)">(met|NOT MET)</td>`).MatchString(string(page)) {
		t.Error("the report has no requirements table with verdicts")
	}
	s.layout(t, dir)
}

// Study 004: TPC-E per core with the license it costs, then CrystalDiskMark before and after: the report's
// leaderboard prices the license per core and for the box, and the two grids stand side by side.
func TestStudy004TPCEPerCoreAndCrystalDiskMark(t *testing.T) {
	t.Parallel()
	for _, eng := range studyEngines(t) {
		t.Run(eng, func(t *testing.T) {
			dir := t.TempDir()
			var vars map[string]string
			if eng == "postgres" {
				vars = pgVars(t, "study004", "target")
			}
			s := runStudy(t, filepath.Join(studiesDir, "004-tpce-per-core-and-cdm.yaml"), dir, withVars(vars, "disk", dir))
			s.checkCells(t, []string{"default driver", "vendor driver"})
			page, _ := os.ReadFile(s.report)
			cores := 0
			for _, r := range s.runs {
				if r.Workload == "tpce" && r.Environment != nil {
					cores = r.Environment.Cores
				}
			}
			box := fmt.Sprintf("<td>6,872</td><td>%s</td>", money(6872*cores))
			for _, want := range []string{"<th>license per core</th><th>license for the box</th>", box} {
				if !strings.Contains(string(page), want) {
					t.Errorf("the report's leaderboard lacks %q", want)
				}
			}
			if n := strings.Count(string(page), `<table class="io-cdm-study">`); n != 2 {
				t.Errorf("%d CrystalDiskMark grids, want the two side by side", n)
			}
			if eng == "embedded" {
				s.layout(t, dir)
			}
		})
	}
}

// money is a whole number of dollars with thousands separators, as the leaderboard prints it.
func money(v int) string {
	s := strconv.Itoa(v)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

package method_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/compare"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/results"
	"github.com/dbdyno/dbdyno/internal/store"
	"github.com/dbdyno/dbdyno/internal/testkit/browser"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// Four parallel tests at once, not two: they wait on servers and timed windows more than they compute.
func TestMain(m *testing.M) {
	clitest.AtLeastParallel(4)
	clitest.Main(m)
}

// TestRepeatsSweepStoreCompareReport runs a VU sweep with repeats on SQLite and follows the results through
// the store, export, compare and the HTML report.
func TestRepeatsSweepStoreCompareReport(t *testing.T) {
	t.Parallel() // on files (or a server) of its own: its timed windows overlap the other parallel tests'
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "t.db")
	st := filepath.Join(dir, "results.db")
	clitest.TPCCBuiltAt(t, url)
	file := filepath.Join(dir, "r.json")
	r := clitest.Must(t, "tpcc", "run", "--target", url, "--vus", "1,2", "--repeat", "3", "--rampup", "0s", "--duration", "1s",
		"--interval", "500ms", "--label", "system=box-a", "--label", "price_per_hour=1.5", "--store", st, "--result", file)
	if !strings.Contains(r.Stdout, "vus=1 NOPM median") || !strings.Contains(r.Stdout, "vus=2 NOPM median") || !strings.Contains(r.Stdout, "(6 runs) is stored in") {
		t.Fatalf("method output:\n%s", r.Stdout)
	}
	var runs []*result.Result
	for i := 1; i <= 6; i++ {
		p := file
		if i > 1 {
			p = filepath.Join(dir, "r."+string(rune('0'+i))+".json")
		}
		res, _ := clitest.ReadResult(t, p)
		runs = append(runs, res)
	}
	medians := map[float64]int{}
	for _, res := range runs {
		g := res.Group
		if g == nil || g.Repeats != 3 || g.Sweep != "vus" || res.Labels["system"] != "box-a" || res.Labels["price_per_hour"] != 1.5 {
			t.Fatalf("group/labels %+v %v", g, res.Labels)
		}
		if g.Median {
			medians[g.Value]++
		}
		if res.Environment == nil || res.Environment.Cores < 1 || res.Environment.Threads < 1 || res.Environment.CPUModel == "" || !res.Environment.DatabaseLocal {
			t.Fatalf("environment %+v", res.Environment)
		}
		if res.Environment.Storage == nil || res.Environment.Storage.Mount == "" || res.Environment.Settings["journal_mode"] != "wal" {
			t.Fatalf("storage/settings %+v %v", res.Environment.Storage, res.Environment.Settings)
		}
		if res.System == nil || len(res.System.Samples) < 1 || res.System.Summary["cpu_busy_pct"].Max <= 0 {
			t.Fatalf("system metrics %+v", res.System)
		}
	}
	if medians[1] != 1 || medians[2] != 1 {
		t.Fatalf("one median per configuration, got %v", medians)
	}
	// the median run's NOPM is the middle of its three
	for _, v := range []float64{1, 2} {
		var vals []float64
		var med float64
		for _, res := range runs {
			if res.Group.Value == v {
				vals = append(vals, res.Figures["nopm"].(float64))
				if res.Group.Median {
					med = res.Figures["nopm"].(float64)
				}
			}
		}
		below := 0
		for _, x := range vals {
			if x < med {
				below++
			}
		}
		if below != 1 {
			t.Fatalf("vus=%g: median %v of %v", v, med, vals)
		}
	}

	ctx := context.Background()
	var list, show, cmp bytes.Buffer
	if err := results.List(ctx, &list, st, store.Filter{}); err != nil || strings.Count(list.String(), "tpcc") != 6 {
		t.Fatalf("results list: %v\n%s", err, list.String())
	}
	if err := results.Show(ctx, &show, st, runs[0].RunID); err != nil {
		t.Fatal(err)
	}
	if _, err := result.Parse(show.Bytes()); err != nil {
		t.Fatalf("results show does not give a valid result: %v", err)
	}
	csvFile := filepath.Join(dir, "e.csv")
	if _, err := results.Export(ctx, nil, os.Stderr, st, nil, store.Filter{}, "csv", csvFile); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(csvFile)
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	// the swept setting and each label a column of its own, the value of each run's row under it
	if err != nil || len(recs) < 1+6*3 || strings.Join(recs[0][9:], ",") != "warmup,vus,price_per_hour,system,metric,unit,value" {
		t.Fatalf("export: %v, %d records, heading %v", err, len(recs), recs[0])
	}
	for _, rec := range recs[1:] {
		if rec[9] != "false" || (rec[10] != "1" && rec[10] != "2") || rec[11] != "1.5" || rec[12] != "box-a" {
			t.Fatalf("export row %v", rec)
		}
	}
	var md bytes.Buffer
	if _, err := results.Export(ctx, &md, os.Stderr, st, nil, store.Filter{}, "md", ""); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(md.String()), "\n")
	if len(lines) != 2+6 || !strings.HasPrefix(lines[0], "| run | workload | status | repeat | vus | price\\_per\\_hour | system | NOPM (new orders/min) |") ||
		!strings.HasPrefix(lines[1], "| --- | --- | --- | ---: | --- | --- | --- | ---: |") || !regexp.MustCompile(`^\| r\S+ \| tpcc \| ok \| [123]/3 \| [12] \| 1\.5 \| box-a \| \d+ \|`).MatchString(lines[2]) {
		t.Fatalf("markdown export:\n%s", md.String())
	}
	if err := results.Compare(ctx, &cmp, st, []string{runs[0].RunID, runs[3].RunID}); err != nil {
		t.Fatal(err)
	}
	// two single runs of 3 measured intervals each: no noise estimate, so neither better nor worse, and it says so
	nopm := ""
	for _, l := range strings.Split(cmp.String(), "\n") {
		if strings.HasPrefix(l, "NOPM (") {
			nopm = l
		}
	}
	if nopm == "" || strings.Contains(nopm, "(better)") || strings.Contains(nopm, "(worse)") ||
		!regexp.MustCompile(`noise unknown: one run of [1-4] intervals`).MatchString(cmp.String()) || !strings.Contains(cmp.String(), "per $/hour") {
		t.Fatalf("compare:\n%s", cmp.String())
	}
	// a sweep's group is a configuration across points: a study, each point against the other's same point
	g := runs[0].Group.ID
	cmp.Reset()
	if err := results.Compare(ctx, &cmp, st, []string{g, runs[0].RunID}); err != nil || !strings.Contains(cmp.String(), "study: 2 configurations at 2 point(s), vus swept") {
		t.Fatalf("compare of a whole sweep: %v\n%s", err, cmp.String())
	}
	cmp.Reset()
	if err := results.Compare(ctx, &cmp, st, []string{g + "@vus=3", g + "@vus=1"}); err == nil || !strings.Contains(err.Error(), "has no runs at vus=3: its points are vus=1, vus=2") {
		t.Fatalf("compare of a point the sweep lacks: %v", err)
	}
	if err := results.Compare(ctx, &cmp, st, []string{g + "@vus=1", g + "@vus=2"}); err != nil ||
		!strings.Contains(cmp.String(), "all: box-a\nA  vus=1\n   3 runs, group ") || !strings.Contains(cmp.String(), "B  vus=2\n   3 runs, group ") {
		t.Fatalf("compare of two points: %v\n%s", err, cmp.String())
	}
	html := filepath.Join(dir, "report.html")
	if _, err := results.Report(ctx, os.Stderr, st, nil, store.Filter{}, "dbdyno report", html); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(html)
	page := string(b)
	for _, want := range []string{"<svg", "Throughput over time", "Latency percentiles", "Scaling: NOPM by vus", "id=\"comparison\"", "id=\"contents\"", "id=\"legend\"",
		"CPU (%)", "Environment", "box-a"} {
		if !strings.Contains(page, want) {
			t.Fatalf("report lacks %q", want)
		}
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "http://") && !strings.Contains(page, "xmlns=\"http://www.w3.org/2000/svg\"") {
		t.Fatal("the report must load nothing")
	}
	renderInChromium(t, html)
}

// renderInChromium opens the report in headless Chromium: the page must load and its charts must be in the
// rendered DOM, and a screenshot must come out.
func renderInChromium(t *testing.T, html string) {
	t.Helper()
	bin := browser.Path(t)
	profile := t.TempDir()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--user-data-dir=" + profile}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// the DOM and the screenshot side by side: two browsers, each with a profile of its own
	shot := filepath.Join(t.TempDir(), "report.png")
	shotArgs := append(slices.Clone(args[:len(args)-1]), "--user-data-dir="+t.TempDir(), "--screenshot="+shot, "--window-size=1200,3000", "file://"+html)
	shotDone := make(chan error, 1)
	go func() {
		out, err := exec.CommandContext(ctx, bin, shotArgs...).CombinedOutput()
		if err != nil {
			err = fmt.Errorf("%v\n%s", err, out)
		}
		shotDone <- err
	}()
	dom, err := exec.CommandContext(ctx, bin, append(args, "--dump-dom", "file://"+html)...).Output()
	shotErr := <-shotDone
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	if n := strings.Count(string(dom), "<svg"); n < 5 || !strings.Contains(string(dom), "<polyline") || !strings.Contains(string(dom), "<rect class=\"bar\"") {
		t.Fatalf("rendered page has %d charts", n)
	}
	if shotErr != nil {
		t.Fatalf("chromium --screenshot: %v", shotErr)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 20000 {
		t.Fatalf("screenshot missing or blank: %v", err)
	}
}

func TestWarmupRunIsNotMeasured(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "w.db")
	st := filepath.Join(dir, "results.db")
	clitest.TPCCBuiltAt(t, url)
	r := clitest.Must(t, "tpcc", "run", "--target", url, "--warmup", "1s", "--rampup", "0s", "--duration", "1s", "--store", st)
	if !strings.Contains(r.Stdout, "warm-up run: 1s") || strings.Count(r.Stdout, "measured: NOPM") != 2 || !strings.Contains(r.Stdout, "the warm-up run is stored too") {
		t.Fatalf("warm-up output:\n%s", r.Stdout)
	}
	// one measured run: its figure, not a "median" of one
	if !strings.Contains(r.Stdout, "(one run: ") || strings.Contains(r.Stdout, "median") {
		t.Fatalf("a single run is summarised as a median:\n%s", r.Stdout)
	}
	var l bytes.Buffer
	if err := results.List(context.Background(), &l, st, store.Filter{Label: "phase=warmup"}); err != nil ||
		strings.Count(l.String(), "tpcc") != 1 || !strings.Contains(l.String(), "-warmup") {
		t.Fatalf("the warm-up run is recorded in a group of its own: %v\n%s", err, l.String())
	}
}

func TestSeveralTargetsAtOnce(t *testing.T) {
	t.Parallel() // on files (or a server) of its own: its timed windows overlap the other parallel tests'
	dir := t.TempDir()
	a, b := "sqlite://"+filepath.Join(dir, "a.db"), "sqlite://"+filepath.Join(dir, "b.db")
	clitest.TPCCBuiltAt(t, a)
	clitest.TPCCBuiltAt(t, b)
	file := filepath.Join(dir, "r.json")
	r := clitest.Must(t, "tpcc", "run", "--target", a, "--target", b, "--vus", "1", "--rampup", "0s", "--duration", "2s", "--result", file)
	if !strings.Contains(r.Stdout, "[target 1]") || !strings.Contains(r.Stdout, "[target 2]") || !strings.Contains(r.Stdout, "aggregate of 2 targets: NOPM") {
		t.Fatalf("multi-target output:\n%s", r.Stdout)
	}
	r1, _ := clitest.ReadResult(t, file)
	r2, _ := clitest.ReadResult(t, filepath.Join(dir, "r.2.json"))
	if r1.Group.Targets != 2 || r2.Group.Targets != 2 || r1.Group.Target == r2.Group.Target || r1.Group.ID != r2.Group.ID {
		t.Fatalf("groups %+v %+v", r1.Group, r2.Group)
	}
	// the two runs overlapped in time
	if !(r1.Measurement.MeasureStart.Before(r2.Measurement.MeasureEnd) && r2.Measurement.MeasureStart.Before(r1.Measurement.MeasureEnd)) {
		t.Fatal("the targets did not run at the same time")
	}
	// the aggregate is a run of its own: the NOPM of both, the parts named, stored, compared and reported
	agg, _ := clitest.ReadResult(t, filepath.Join(dir, "r.3.json"))
	h1, _ := r1.Headline()
	h2, _ := r2.Headline()
	h, ok := agg.Headline()
	if g := agg.Group; g == nil || !g.Aggregate || g.Targets != 2 || g.Target != 0 || g.ID != r1.Group.ID {
		t.Fatalf("aggregate group %+v", agg.Group)
	}
	if !ok || h.Name != "NOPM" || h.Value != h1.Value+h2.Value || len(agg.Parts) != 2 || agg.Parts[0].RunID != r1.RunID || agg.Parts[1].RunID != r2.RunID {
		t.Fatalf("aggregate NOPM %v of %v + %v, parts %+v", h.Value, h1.Value, h2.Value, agg.Parts)
	}
	if agg.Target.Engine != "sqlite" || agg.Environment.DBHostCores != r1.Environment.DBHostCores || agg.Environment.DBHost == nil ||
		*agg.Environment.DBHost != *r1.Environment.DBHost { // both databases run here: the aggregate's database host is this machine
		t.Fatalf("aggregate target %+v, %d database cores", agg.Target, agg.Environment.DBHostCores)
	}
	ctx := context.Background()
	var list, cmp bytes.Buffer
	if err := results.List(ctx, &list, store.DefaultPath, store.Filter{Group: r1.Group.ID}); err != nil || strings.Count(list.String(), "tpcc") != 3 {
		t.Fatalf("stored: %v\n%s", err, list.String())
	}
	if err := results.Compare(ctx, &cmp, store.DefaultPath, []string{r1.RunID, r1.Group.ID}); err != nil ||
		!strings.Contains(cmp.String(), "aggregate of 2 targets") || !strings.Contains(cmp.String(), compare.Format(h.Value)) {
		t.Fatalf("a group of targets compares by its aggregate: %v\n%s", err, cmp.String())
	}
	html := filepath.Join(dir, "r.html")
	if _, err := results.Report(ctx, os.Stderr, store.DefaultPath, []string{r1.Group.ID}, store.Filter{}, "t", html); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(html)
	if !strings.Contains(string(page), "aggregate of 2 targets") || !strings.Contains(string(page), "class=\"parts\"") {
		t.Fatal("the report lacks the aggregate and its parts")
	}
}

func TestStoreRefusesANewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, _ := sql.Open("sqlite", path)
	db.Exec("UPDATE store_meta SET v = '9' WHERE k = 'schema_version'")
	db.Close()
	var out bytes.Buffer
	if err := results.List(context.Background(), &out, path, store.Filter{}); err == nil || !strings.Contains(err.Error(), "store schema version 9 is not supported") {
		t.Fatalf("newer store: %v", err)
	}
	if err := results.List(context.Background(), &out, filepath.Join(t.TempDir(), "none.db"), store.Filter{}); err == nil || !strings.Contains(err.Error(), "no results store") {
		t.Fatalf("missing store: %v", err)
	}
	if r := clitest.Run(context.Background(), "tpcc", "run", "--label", "nokey"); r.Code == 0 || !strings.Contains(r.Stderr, "use key=value") {
		t.Fatalf("bad label: %d %s", r.Code, r.Stderr)
	}
}

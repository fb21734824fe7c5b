package main

import (
	"context"
	"database/sql"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/result"
	"github.com/dbdyno/dbdyno/internal/store"
)

// TestRepeatsSweepStoreCompareReport runs a VU sweep with repeats on SQLite and follows the results through
// the store, export, compare and the HTML report.
func TestRepeatsSweepStoreCompareReport(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "t.db")
	st := filepath.Join(dir, "results.db")
	mustCLI(t, "tpcc", "build", "--target", url)
	file := filepath.Join(dir, "r.json")
	r := mustCLI(t, "tpcc", "run", "--target", url, "--vus", "1,2", "--repeat", "3", "--rampup", "0s", "--duration", "2s",
		"--interval", "1s", "--label", "system=box-a", "--label", "price_per_hour=1.5", "--store", st, "--result", file)
	if !strings.Contains(r.stdout, "vus=1 NOPM median") || !strings.Contains(r.stdout, "vus=2 NOPM median") || !strings.Contains(r.stdout, "6 run(s) recorded") {
		t.Fatalf("method output:\n%s", r.stdout)
	}
	var runs []*result.Result
	for i := 1; i <= 6; i++ {
		p := file
		if i > 1 {
			p = filepath.Join(dir, "r."+string(rune('0'+i))+".json")
		}
		res, _ := readResult(t, p)
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

	list := mustCLI(t, "results", "list", "--store", st)
	if strings.Count(list.stdout, "tpcc") != 6 {
		t.Fatalf("results list:\n%s", list.stdout)
	}
	show := mustCLI(t, "results", "show", runs[0].RunID, "--store", st)
	if _, err := result.Parse([]byte(show.stdout)); err != nil {
		t.Fatalf("results show does not give a valid result: %v", err)
	}
	csvFile := filepath.Join(dir, "e.csv")
	mustCLI(t, "results", "export", "--store", st, "--format", "csv", "-o", csvFile)
	f, _ := os.Open(csvFile)
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) < 1+6*3 || recs[0][10] != "metric" {
		t.Fatalf("export: %v, %d records", err, len(recs))
	}
	cmp := mustCLI(t, "compare", runs[0].RunID, runs[3].RunID, "--store", st)
	if !strings.Contains(cmp.stdout, "NOPM") || !strings.Contains(cmp.stdout, "higher than") || !strings.Contains(cmp.stdout, "per $/hour") {
		t.Fatalf("compare:\n%s", cmp.stdout)
	}
	html := filepath.Join(dir, "report.html")
	mustCLI(t, "report", "--store", st, "-o", html)
	b, _ := os.ReadFile(html)
	page := string(b)
	for _, want := range []string{"<svg", "Throughput over time", "Latency percentiles", "Scaling: NOPM by vus", "id=\"comparison\"",
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
	bin := ""
	for _, b := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(b); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed: .ci/run installs it")
		}
		t.Skip("chromium not installed")
	}
	profile := t.TempDir()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--user-data-dir=" + profile}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dom, err := exec.CommandContext(ctx, bin, append(args, "--dump-dom", "file://"+html)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	if n := strings.Count(string(dom), "<svg"); n < 5 || !strings.Contains(string(dom), "<polyline") || !strings.Contains(string(dom), "<rect class=\"bar\"") {
		t.Fatalf("rendered page has %d charts", n)
	}
	shot := filepath.Join(t.TempDir(), "report.png")
	if out, err := exec.CommandContext(ctx, bin, append(args, "--screenshot="+shot, "--window-size=1200,3000", "file://"+html)...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 20000 {
		t.Fatalf("screenshot missing or blank: %v", err)
	}
}

func TestWarmupRunIsNotMeasured(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite://" + filepath.Join(dir, "w.db")
	st := filepath.Join(dir, "results.db")
	mustCLI(t, "tpcc", "build", "--target", url)
	r := mustCLI(t, "tpcc", "run", "--target", url, "--warmup", "1s", "--rampup", "0s", "--duration", "1s", "--store", st)
	if !strings.Contains(r.stdout, "warm-up run: 1s") || strings.Count(r.stdout, "measured: NOPM") != 2 || !strings.Contains(r.stdout, "2 run(s) recorded") {
		t.Fatalf("warm-up output:\n%s", r.stdout)
	}
	l := mustCLI(t, "results", "list", "--store", st, "--label", "phase=warmup")
	if strings.Count(l.stdout, "tpcc") != 1 || !strings.Contains(l.stdout, "-warmup") {
		t.Fatalf("the warm-up run is recorded in a group of its own:\n%s", l.stdout)
	}
}

func TestSeveralTargetsAtOnce(t *testing.T) {
	dir := t.TempDir()
	a, b := "sqlite://"+filepath.Join(dir, "a.db"), "sqlite://"+filepath.Join(dir, "b.db")
	mustCLI(t, "tpcc", "build", "--target", a)
	mustCLI(t, "tpcc", "build", "--target", b)
	file := filepath.Join(dir, "r.json")
	r := mustCLI(t, "tpcc", "run", "--target", a, "--target", b, "--vus", "1", "--rampup", "0s", "--duration", "2s", "--result", file)
	if !strings.Contains(r.stdout, "[target 1]") || !strings.Contains(r.stdout, "[target 2]") || !strings.Contains(r.stdout, "aggregate of 2 targets: NOPM") {
		t.Fatalf("multi-target output:\n%s", r.stdout)
	}
	r1, _ := readResult(t, file)
	r2, _ := readResult(t, filepath.Join(dir, "r.2.json"))
	if r1.Group.Targets != 2 || r2.Group.Targets != 2 || r1.Group.Target == r2.Group.Target || r1.Group.ID != r2.Group.ID {
		t.Fatalf("groups %+v %+v", r1.Group, r2.Group)
	}
	// the two runs overlapped in time
	if !(r1.Measurement.MeasureStart.Before(r2.Measurement.MeasureEnd) && r2.Measurement.MeasureStart.Before(r1.Measurement.MeasureEnd)) {
		t.Fatal("the targets did not run at the same time")
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
	r := cli(context.Background(), "results", "list", "--store", path)
	if r.code == 0 || !strings.Contains(r.stderr, "store schema version 9 is not supported") {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if r := cli(context.Background(), "results", "list", "--store", filepath.Join(t.TempDir(), "none.db")); r.code == 0 || !strings.Contains(r.stderr, "no results store") {
		t.Fatalf("missing store: %d %s", r.code, r.stderr)
	}
	if r := cli(context.Background(), "tpcc", "run", "--label", "nokey"); r.code == 0 || !strings.Contains(r.stderr, "use key=value") {
		t.Fatalf("bad label: %d %s", r.code, r.stderr)
	}
}

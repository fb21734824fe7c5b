package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The planning workflow on the command line: a bounded recording, appended to, its checklist as JSON, and io
// size reading it; bad input is one line.
func TestMonitorChecklistSize(t *testing.T) {
	if _, err := os.Stat("/proc/diskstats"); err != nil {
		t.Skip("no /proc/diskstats:", err)
	}
	ctx := context.Background()
	dir := t.TempDir()
	st := filepath.Join(dir, "r.db")
	for i := 0; i < 2; i++ {
		r := cli(ctx, "monitor", "--name", "app", "--interval", "200ms", "--duration", "400ms", "--store", st)
		if r.code != 0 || !strings.Contains(r.stdout, "monitor app: 2 intervals recorded") {
			t.Fatalf("monitor: %d %q %q", r.code, r.stdout, r.stderr)
		}
	}
	r := cli(ctx, "monitor", "list", "--store", st)
	if !strings.Contains(r.stdout, "app") || !strings.Contains(r.stdout, " 4 intervals") {
		t.Errorf("list: %q", r.stdout)
	}
	r = cli(ctx, "monitor", "checklist", "app", "--store", st, "--growth", "1.5")
	if r.code != 0 || !strings.Contains(r.stdout, "all (every interval): 4 intervals") || !strings.Contains(r.stdout, "% random operations") {
		t.Errorf("checklist: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = cli(ctx, "monitor", "checklist", "app", "--store", st, "--output-format", "json", "--periods", "any=daily 00:00-24:00")
	if r.code != 0 {
		t.Fatalf("checklist json: %q", r.stderr)
	}
	html := filepath.Join(dir, "app.html")
	rr := cli(ctx, "monitor", "report", "app", "--store", st, "-o", html)
	if page, err := os.ReadFile(html); rr.code != 0 || err != nil || !strings.Contains(string(page), `<svg class="chart"`) || !strings.Contains(string(page), "Requirements checklist") {
		t.Errorf("monitor report: %d %q %q (%v)", rr.code, rr.stdout, rr.stderr, err)
	}
	need := filepath.Join(dir, "need.json")
	if err := os.WriteFile(need, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	catalog := filepath.Join("..", "..", "examples", "catalogs/azure-2015.yaml")
	r = cli(ctx, "io", "size", "--need", need, "--catalog", catalog, "--percentile", "p90")
	// the recording is of this machine's disks, whatever else runs on them (other tests' IO in parallel): a
	// load beyond every VM in the catalogue is refused in one line naming the most there is
	beyond := r.code != 0 && strings.Contains(r.stderr, "no VM and disks in") && strings.Contains(r.stderr, "the most is") && strings.Count(strings.TrimSpace(r.stderr), "\n") == 0
	// and a load only the catalogue's unpriced VMs meet (a busy machine's) is sized, saying none is priced
	priced := strings.Contains(r.stdout, "cheapest: ") || strings.Contains(r.stdout, "no candidate is priced: add price_month")
	if !beyond && (r.code != 0 || !strings.Contains(r.stdout, "need.json p90") || !priced) {
		t.Errorf("io size: %d %q %q", r.code, r.stdout, r.stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"monitor", "checklist", "nothing", "--store", st}, "no recording nothing in the results store (it has app)"},
		{[]string{"monitor", "checklist", "app", "--store", st, "--periods", "normal=Funday 09:00-17:00"}, `--periods normal: "Funday" is not a day`},
		{[]string{"monitor", "--store", st, "--duration", "1s"}, "dbdyno monitor needs --name"},
		{[]string{"monitor", "report", "app", "--store", st}, "dbdyno monitor report needs -o FILE.html"},
		{[]string{"monitor", "report", "app", "--store", st, "-o", st}, "is also an input of this command"}, // the store is never replaced by the page
		{[]string{"monitor", "report", "app", "--store", st, "-o", need}, "is not a dbdyno HTML report"},    // nor a file dbdyno did not write as one
		{[]string{"monitor", "--name", "x", "--store", st, "--device", "nosuchdisk"}, "--device nosuchdisk: no such device"},
		{[]string{"monitor", "--name", "x", "--store", st, "--agent", "http://127.0.0.1:1"}, "agent http://127.0.0.1:1: unreachable"},
		{[]string{"monitor", "--name", "x", "--store", st, "--agent", "http://u:p@127.0.0.1:1"}, "put no credentials in the URL"},
		{[]string{"monitor", "--name", "x", "--store", st, "--agent-token-file", "/nonexistent"}, "--agent-token-file and --agent-ca are for --agent URL"},
		{[]string{"io", "size", "--need", "iops=16000", "--catalog", filepath.Join(dir, "none.yaml")}, "catalogue: open"},
		{[]string{"io", "size", "--need", "iops=900000", "--catalog", catalog}, "meet 900,000 IOPS: the most is 80,000"},
	} {
		r := cli(ctx, c.args...)
		if r.code == 0 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 1 {
			t.Errorf("%v: %d %q, want one line with %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

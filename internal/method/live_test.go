package method_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// scrape reads url's exposition with the Prometheus client library's own parser.
func scrape(t *testing.T, url, token string) (map[string]*dto.MetricFamily, int) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		return nil, 0
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		io.Copy(io.Discard, resp.Body)
		return nil, resp.StatusCode
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Errorf("the exposition does not parse: %v", err)
	}
	return fams, resp.StatusCode
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

var liveLine = regexp.MustCompile(`live figures: (http://\S+/metrics)`)

// scrapeOn runs a command with --metrics-addr and scrapes it once, at the first line of its output that when
// takes (on the run's own goroutine: the run waits for the scrape); nil when no line did.
func scrapeOn(t *testing.T, when func(line string) bool, args ...string) (map[string]*dto.MetricFamily, clitest.Result) {
	t.Helper()
	var url string
	var got map[string]*dto.MetricFamily
	var mu sync.Mutex
	out := clitest.RunWatching(context.Background(), func(line string) {
		mu.Lock()
		defer mu.Unlock()
		if m := liveLine.FindStringSubmatch(line); m != nil {
			url = m[1]
		}
		if got == nil && url != "" && when(line) {
			got, _ = scrape(t, url, "")
		}
	}, append(args, "--metrics-addr", "127.0.0.1:0", "--store", "")...)
	return got, out
}

// phaseOf is the phase a scrape found the run in.
func phaseOf(fams map[string]*dto.MetricFamily) string {
	for _, m := range fams["dbdyno_phase"].GetMetric() {
		if m.GetGauge().GetValue() == 1 {
			return label(m, "phase")
		}
	}
	return ""
}

// A run with --metrics-addr serves its live figures while it runs: scraped mid-run with the client library's
// parser, the units of work by outcome, their latency histogram, the users and the phase are there, labelled
// with the run's ID (the result's), workload and target (without the password) and the run's labels; after the
// command the address is closed. Without a token a non-loopback address is refused, and with one a scrape
// without it is turned away.
func TestLiveMetricsDuringARun(t *testing.T) {
	dir := t.TempDir()
	u := "sqlite://" + filepath.Join(dir, "p.db")
	res := filepath.Join(dir, "r.json")
	var mu sync.Mutex
	var url string
	var mid map[string]*dto.MetricFamily
	out := clitest.RunWatching(context.Background(), func(line string) {
		mu.Lock()
		defer mu.Unlock()
		if m := liveLine.FindStringSubmatch(line); m != nil {
			url = m[1]
		}
		if mid == nil && url != "" && strings.Contains(line, " measure ") {
			mid, _ = scrape(t, url, "")
		}
	}, "ping", "--target", u, "--vus", "2", "--rampup", "1s", "--duration", "3s", "--interval", "500ms",
		"--metrics-addr", "127.0.0.1:0", "--label", "tier=S1", "--store", "", "--result", res)
	if out.Code != 0 {
		t.Fatalf("exit %d: %s %s", out.Code, out.Stdout, out.Stderr)
	}
	r, err := result.Read(res)
	if err != nil {
		t.Fatal(err)
	}
	if mid == nil {
		t.Fatalf("nothing scraped during the run (url %q):\n%s", url, out.Stdout)
	}
	units := mid["dbdyno_units_total"]
	if units == nil || len(units.GetMetric()) == 0 {
		t.Fatalf("no dbdyno_units_total: %v", mid)
	}
	var committed float64
	for _, m := range units.GetMetric() {
		if label(m, "transaction") == "ping" && label(m, "outcome") == "committed" {
			committed += m.GetCounter().GetValue()
		}
		if label(m, "run_id") != r.RunID || label(m, "workload") != "ping" || !strings.HasPrefix(label(m, "target"), "sqlite://") {
			t.Errorf("labels %v, want run %s of ping on the target", m.GetLabel(), r.RunID)
		}
	}
	if committed <= 0 {
		t.Errorf("no committed ping counted mid-run")
	}
	if h := mid["dbdyno_unit_latency_seconds"]; h == nil || h.GetMetric()[0].GetHistogram().GetSampleCount() == 0 || len(h.GetMetric()[0].GetHistogram().GetBucket()) < 10 {
		t.Errorf("latency histogram: %v", h)
	}
	if g := mid["dbdyno_virtual_users"]; g == nil || g.GetMetric()[0].GetGauge().GetValue() != 2 {
		t.Errorf("virtual users: %v", g)
	}
	if phase := phaseOf(mid); phase != "measure" {
		t.Errorf("phase %q mid-run, want measure", phase)
	}
	if info := mid["dbdyno_run_info"]; info == nil || label(info.GetMetric()[0], "labels") != "tier=S1" {
		t.Errorf("run info: %v", info)
	}
	if _, code := scrape(t, url, ""); code != 0 {
		t.Errorf("the address still answers after the command: %d", code)
	}

	// not loopback: refused without a token, in one line; with one, a scrape must send it
	bad := clitest.Run(context.Background(), "ping", "--target", u, "--duration", "1s", "--metrics-addr", "0.0.0.0:0", "--store", "")
	if bad.Code == 0 || !strings.Contains(bad.Stderr, "is not a loopback address: give a token") || strings.Count(strings.TrimSpace(bad.Stderr), "\n") > 0 {
		t.Errorf("a non-loopback address without a token: exit %d, %q", bad.Code, bad.Stderr)
	}
	tok := filepath.Join(dir, "token")
	os.WriteFile(tok, []byte("s3cret-token-0123456789abcdef\n"), 0o600)
	var denied, allowed int
	var once sync.Once
	out = clitest.RunWatching(context.Background(), func(line string) {
		if m := liveLine.FindStringSubmatch(line); m != nil {
			url = m[1]
		}
		if url != "" && strings.Contains(line, " measure ") {
			once.Do(func() {
				_, denied = scrape(t, url, "")
				_, allowed = scrape(t, url, "s3cret-token-0123456789abcdef")
			})
		}
	}, "ping", "--target", u, "--duration", "2s", "--interval", "500ms", "--metrics-addr", "127.0.0.1:0", "--metrics-token-file", tok, "--store", "")
	if out.Code != 0 || denied != http.StatusUnauthorized || allowed != 200 {
		t.Errorf("with a token: exit %d, without it %d, with it %d: %s", out.Code, denied, allowed, out.Stderr)
	}
	if strings.Contains(out.Stdout+out.Stderr, "s3cret-token-0123456789abcdef") {
		t.Errorf("the token is printed")
	}
}

// A TPC-H run serves its queries live too: each query's end is a unit of work named Q1..Q22, with its stream
// count as the users and the test's kind as the phase.
func TestLiveMetricsOfATPCHRun(t *testing.T) {
	dir := t.TempDir()
	u := "duckdb://" + filepath.Join(dir, "h.duckdb")
	clitest.Must(t, "tpch", "build", "--target", u, "--scale", "0.01")
	mid, out := scrapeOn(t, func(line string) bool { return strings.Contains(line, "(22/22)") }, // the stream's last query
		"tpch", "run", "--target", u, "--streams", "1", "--no-warmup")
	if out.Code != 0 || mid == nil {
		t.Fatalf("exit %d, scraped %v: %s", out.Code, mid != nil, out.Stderr)
	}
	queries := map[string]bool{}
	for _, m := range mid["dbdyno_units_total"].GetMetric() {
		if label(m, "outcome") == "committed" && label(m, "workload") == "tpch" {
			queries[label(m, "transaction")] = true
		}
	}
	if len(queries) < 21 || !queries["Q1"] || !queries["Q22"] {
		t.Errorf("queries counted live: %v", queries)
	}
	if phase := phaseOf(mid); phase != "streams" {
		t.Errorf("phase %q, want streams", phase)
	}
}

// The storage probe serves its IO live: each measured IO's completion a unit named read or write with its
// latency, the test's name as the phase, its clones as the users.
func TestLiveMetricsOfAnIORun(t *testing.T) {
	dir := t.TempDir()
	mid, out := scrapeOn(t, func(line string) bool { return strings.Contains(line, " IOPS ") && strings.Contains(line, "read") },
		"io", "run", "--filename", filepath.Join(dir, "f"), "--size", "4m", "--rw", "randread", "--bs", "4k", "--iodepth", "2",
		"--numjobs", "2", "--runtime", "3")
	if out.Code != 0 || mid == nil {
		t.Fatalf("exit %d, scraped %v: %s %s", out.Code, mid != nil, out.Stdout, out.Stderr)
	}
	var reads float64
	for _, m := range mid["dbdyno_units_total"].GetMetric() {
		if label(m, "transaction") == "read" && label(m, "workload") == "io" {
			reads += m.GetCounter().GetValue()
		}
	}
	if reads <= 0 {
		t.Errorf("no reads counted live: %v", mid["dbdyno_units_total"])
	}
	if h := mid["dbdyno_unit_latency_seconds"]; h == nil || h.GetMetric()[0].GetHistogram().GetSampleCount() == 0 {
		t.Errorf("no IO latency histogram: %v", h)
	}
	if phase := phaseOf(mid); phase != "randread 4k Q2T2" {
		t.Errorf("phase %q, want the test's name", phase)
	}
	if g := mid["dbdyno_virtual_users"]; g == nil || g.GetMetric()[0].GetGauge().GetValue() != 2 {
		t.Errorf("clones as users: %v", g)
	}
}

// A stepped probe serves its steps live: each step a unit named for the probe (read), the probe's kind as the
// phase.
func TestLiveMetricsOfAProbe(t *testing.T) {
	u := "sqlite://" + filepath.Join(t.TempDir(), "p.db")
	mid, out := scrapeOn(t, func(line string) bool { return strings.HasPrefix(line, "table 2/2") },
		"probe", "read", "--target", u, "--table-size", "1m", "--tables", "2")
	if out.Code != 0 || mid == nil {
		t.Fatalf("exit %d, scraped %v: %s %s", out.Code, mid != nil, out.Stdout, out.Stderr)
	}
	var steps float64
	for _, m := range mid["dbdyno_units_total"].GetMetric() {
		if label(m, "transaction") == "read" && label(m, "outcome") == "committed" {
			steps += m.GetCounter().GetValue()
		}
	}
	if phase := phaseOf(mid); steps != 2 || phase != "read" {
		t.Errorf("steps %v, phase %q; want 2 and read", steps, phase)
	}
}

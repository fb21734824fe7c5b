package method_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// freePort is a loopback port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// A real Prometheus (Debian's package, started here on loopback) scrapes a run's --metrics-addr every second
// and answers PromQL for its rate of committed units of work, its virtual users, and (native histograms on) its
// latency as a native histogram. .ci/run installs it; in CI a missing one fails the test.
func TestPrometheusScrapesARun(t *testing.T) {
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("prometheus is not installed: .ci/run installs Debian's package")
		}
		t.Skip("no prometheus binary (apt-get install prometheus)")
	}
	dir := t.TempDir()
	mport, wport := freePort(t), freePort(t)
	cfg := filepath.Join(dir, "prometheus.yml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: dbdyno\n    static_configs:\n      - targets: ['127.0.0.1:%d']\n", mport)), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address=127.0.0.1:"+strconv.Itoa(wport), "--enable-feature=native-histograms")
	logf, _ := os.Create(filepath.Join(dir, "prometheus.log")) // read it when the test fails
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); cmd.Wait() }() // stopped, then waited for
	api := fmt.Sprintf("http://127.0.0.1:%d", wport)
	c := &http.Client{Timeout: 5 * time.Second}
	ready := false
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(200 * time.Millisecond) { // against a hang
		if r, err := c.Get(api + "/-/ready"); err == nil {
			r.Body.Close()
			if ready = r.StatusCode == 200; ready {
				break
			}
		}
	}
	if !ready {
		t.Fatalf("prometheus did not become ready (its log: %s)", filepath.Join(dir, "prometheus.log"))
	}
	// the run's address among Prometheus's targets first: its discovery hands targets over every 5 s, and a run
	// begun before that was scraped once, at its end
	known := false
	for end := time.Now().Add(2 * time.Minute); !known && time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if r, err := c.Get(api + "/api/v1/targets"); err == nil {
			var tg struct {
				Data struct {
					ActiveTargets []struct{ ScrapeURL string }
				}
			}
			json.NewDecoder(r.Body).Decode(&tg)
			r.Body.Close()
			known = len(tg.Data.ActiveTargets) > 0
		}
	}
	if !known {
		t.Fatal("prometheus did not take the run's address as a target")
	}
	u := "sqlite://" + filepath.Join(dir, "p.db")
	clitest.Must(t, "ping", "--target", u, "--vus", "2", "--rampup", "0s", "--duration", "6s", "--metrics-addr", "127.0.0.1:"+strconv.Itoa(mport), "--store", "")
	query := func(q string) float64 {
		t.Helper()
		var out struct {
			Status string
			Data   struct {
				Result []struct {
					Value [2]any
				}
			}
		}
		// the samples are kept after the run: the last minute's hold the run
		for end := time.Now().Add(time.Minute); ; time.Sleep(500 * time.Millisecond) {
			r, err := c.Get(api + "/api/v1/query?query=" + url.QueryEscape(q))
			if err == nil {
				json.NewDecoder(r.Body).Decode(&out)
				r.Body.Close()
				if out.Status == "success" && len(out.Data.Result) == 1 {
					v, _ := strconv.ParseFloat(fmt.Sprint(out.Data.Result[0].Value[1]), 64)
					return v
				}
			}
			if time.Now().After(end) {
				t.Fatalf("%s: %v %+v", q, err, out)
			}
		}
	}
	if v := query(`sum(max_over_time(rate(dbdyno_units_total{workload="ping",outcome="committed"}[3s])[1m:1s]))`); !(v > 0) {
		t.Errorf("the rate of committed pings: %v", v)
	}
	if v := query(`max(max_over_time(dbdyno_virtual_users{workload="ping"}[1m]))`); v != 2 {
		t.Errorf("virtual users: %v", v)
	}
	// the latency as a native histogram (histogram_count answers nothing for classic buckets): its rate of
	// observations is the counters' rate of pings, over the same samples (within 10%: Prometheus extrapolates a
	// native histogram's rate to the window's edges its own way)
	n := query(`sum(histogram_count(rate(dbdyno_unit_latency_seconds{workload="ping"}[1m])))`)
	if c := query(`sum(rate(dbdyno_units_total{workload="ping"}[1m]))`); !(n > 0) || math.Abs(n-c) > c/10 {
		t.Errorf("the native latency histogram counts %v pings a second, the counters %v", n, c)
	}
	if q := query(`max(histogram_quantile(0.95, rate(dbdyno_unit_latency_seconds{workload="ping"}[1m])))`); !(q > 0) {
		t.Errorf("the native histogram's p95: %v", q)
	}
}

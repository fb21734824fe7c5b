package ping_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

func TestMain(m *testing.M) { clitest.Main(m) }

// The round trip of the cheapest statement on every engine: latencies that hold together, a rate, a series per
// second, and p50 latency as the headline.
func TestPingOnEveryEngine(t *testing.T) {
	engines := []clitest.Engine{{Name: "duckdb", URL: "duckdb://" + filepath.Join(t.TempDir(), "p.duckdb")}}
	oltp := clitest.OLTPEngines(t)
	for i := range oltp { // the slowest server (last) first: the parallel subtests start in this order
		engines = append(engines, oltp[len(oltp)-1-i])
	}
	for _, e := range engines {
		t.Run(e.Name, func(t *testing.T) {
			// each engine its own file or server: one waits on its server while another works. DuckDB's runs before
			// the others start: a command's check that it left no DuckDB handle behind (clitest) sees every handle
			// open in the process, a concurrent command's too
			if e.Name != "duckdb" {
				t.Parallel()
			}
			file := filepath.Join(t.TempDir(), "p.json")
			r := clitest.Must(t, "ping", "--target", e.URL, "--vus", "2", "--rampup", "0s", "--duration", "2s", "--interval", "1s", "--result", file)
			res, raw := clitest.ReadResult(t, file)
			clitest.NoPassword(t, e.URL, r.Stdout, raw)
			m := map[string]float64{}
			for _, x := range res.Metrics {
				m[x.Name] = x.Value
			}
			if h, ok := res.Headline(); !ok || h.Name != "p50 latency" || h.Unit != "µs" {
				t.Fatalf("headline %+v", h)
			}
			if m["p50 latency"] < 1 || m["p99 latency"] < m["p50 latency"] || m["max latency"] < m["p99 latency"] || m["round trips per second"] <= 0 {
				t.Fatalf("metrics %v", m)
			}
			// one unit per quantity: the progress lines state the rate per second and latencies in µs, as the summary
			// and the metrics do
			if !strings.Contains(r.Stdout, " calls/s ") || !strings.Contains(r.Stdout, "(p50/p95/p99 µs)") || strings.Contains(r.Stdout, " ms)") ||
				!strings.Contains(r.Stdout, " per second; latency p50 ") {
				t.Fatalf("units drift between progress and summary:\n%s", r.Stdout)
			}
			meas := res.Measurement
			if meas.Errors != 0 || meas.Transactions["ping"].Count == 0 || len(meas.Intervals) < 2 || res.Target.Engine != e.Name {
				t.Fatalf("errors %d, %d pings, %d intervals, engine %s", meas.Errors, meas.Transactions["ping"].Count, len(meas.Intervals), res.Target.Engine)
			}
		})
	}
}

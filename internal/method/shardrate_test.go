package method_test

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// intendedStarts are the intended starts (seconds since the epoch) of a run's logged transactions, in order.
func intendedStarts(t *testing.T, path string) []float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var at []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 7 {
			t.Fatalf("%s: latency log line %q has %d fields, want 7", path, sc.Text(), len(fs))
		}
		s, err1 := strconv.ParseInt(fs[5], 10, 64)
		us, err2 := strconv.ParseInt(fs[6], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: latency log line %q: no start", path, sc.Text())
		}
		at = append(at, float64(s)+float64(us)/1e6)
	}
	sort.Float64s(at)
	return at
}

// scheduledRate is the rate of the schedule the intended starts were drawn from, estimated from the starts
// themselves ((n-1) arrivals over their span), with its standard error (rate/sqrt(n-1) for a Poisson process):
// it says what the run scheduled, however fast the machine ran the work.
func scheduledRate(t *testing.T, at []float64) (rate, se float64) {
	t.Helper()
	if len(at) < 50 {
		t.Fatalf("%d transactions logged: too few to estimate the schedule's rate", len(at))
	}
	n := float64(len(at) - 1)
	rate = n / (at[len(at)-1] - at[0])
	return rate, rate / math.Sqrt(n)
}

// With --shard I/N, --rate is the whole run's on every sharded virtual-user workload: each shard schedules
// rate/N (before, only the mixed probe split it, in its own code; a webstore or tpcc shard scheduled the whole
// rate, so N shards ran N times it). The shards' scheduled rates, estimated from their logged intended starts
// (not from what the machine got done), add up to the whole rate within bounds from their counts, and each
// result records its share and the whole.
func TestShardsShareTheRate(t *testing.T) {
	dir := t.TempDir()
	const whole, shards = 400.0, 2
	ws := "sqlite://" + filepath.Join(dir, "w.db")
	clitest.Must(t, "webstore", "build", "--target", ws, "--customers", "2000", "--products", "1000", "--orders-per-month", "100", "--reviews-per-product", "2")
	mixed := "sqlite://" + filepath.Join(dir, "m.db")
	for _, w := range []struct {
		name string
		args []string
	}{
		{"webstore", []string{"webstore", "run", "--target", ws, "--no-reset"}},
		{"probe mixed", []string{"probe", "mixed", "--target", mixed, "--rows", "2000"}},
	} {
		var sum, variance float64
		for i := 1; i <= shards; i++ {
			log, res := filepath.Join(dir, w.args[0]+strconv.Itoa(i)+".log"), filepath.Join(dir, w.args[0]+strconv.Itoa(i)+".json")
			clitest.Must(t, append(w.args, "--vus", "2", "--rampup", "0s", "--transactions", "400", "--interval", "1s", "--rate", strconv.Itoa(int(whole)),
				"--shard", strconv.Itoa(i)+"/"+strconv.Itoa(shards), "--seed", strconv.Itoa(i), "--log-latency", log, "--store", "", "--result", res)...)
			r, _ := clitest.ReadResult(t, res)
			ol := r.Measurement.OpenLoop
			if ol == nil || ol.RatePerS != whole/shards || ol.WholeRatePerS != whole {
				t.Fatalf("%s shard %d/%d: open loop %+v, want rate_per_s %g of whole_rate_per_s %g", w.name, i, shards, ol, whole/shards, whole)
			}
			if rate, _ := r.Options["rate"].(float64); rate != whole {
				t.Fatalf("%s shard %d/%d: options' rate %v, want the whole run's %g", w.name, i, shards, r.Options["rate"], whole)
			}
			rate, se := scheduledRate(t, intendedStarts(t, log))
			sum += rate
			variance += se * se
			t.Logf("%s shard %d/%d scheduled %.1f/s (± %.1f)", w.name, i, shards, rate, se)
		}
		if bound := 5 * math.Sqrt(variance); math.Abs(sum-whole) > bound {
			t.Errorf("%s: the %d shards scheduled %.1f/s together, want the whole --rate %g (± %.1f)", w.name, shards, sum, whole, bound)
		}
	}
}

package method_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
)

// measuredUnits is a result's count of measured units of work, whatever their outcome.
func measuredUnits(m *result.Measurement) int64 { return m.Committed + m.Rollbacks + m.Errors }

// --transactions ends a user-driven run's window after exactly that many transactions of all users together,
// records the count instead of a duration and takes its rates from the real window; --log-latency has one line
// per measured transaction. Both live in the runner, so the mixed probe has them too. Bad combinations and
// paths are refused in one line before any work.
func TestTransactionsAndLatencyLog(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	url := "sqlite://" + db
	clitest.TPCCBuiltAt(t, url)
	res, log := filepath.Join(dir, "r.json"), filepath.Join(dir, "lat.log")
	r := clitest.Must(t, "tpcc", "run", "--target", url, "--vus", "4", "--rampup", "1s", "--transactions", "200", "--interval", "500ms",
		"--store", "", "--result", res, "--log-latency", log)
	if !regexp.MustCompile(`s \d+/200 tx ETA \S+ measure client TPM`).MatchString(r.Stdout) {
		t.Fatalf("progress lines lack the count done and the ETA:\n%s", r.Stdout)
	}
	got, err := result.Read(res)
	if err != nil {
		t.Fatal(err)
	}
	m := got.Measurement
	if measuredUnits(m) != 200 || got.Options["transactions"] != float64(200) || got.Options["duration_s"] != nil || m.PlannedSeconds != 0 {
		t.Fatalf("measured %d transactions, options %v, planned %.0fs: want exactly 200, recorded as planned", measuredUnits(m), got.Options, m.PlannedSeconds)
	}
	if want := float64(m.Committed) / m.MeasuredSecs * 60; m.MeasuredSecs <= 0 || m.PerMinute < want*0.999 || m.PerMinute > want*1.001 {
		t.Fatalf("TPM %.1f over %.2fs, want %.1f from the real window", m.PerMinute, m.MeasuredSecs, want)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if int64(len(lines)) != measuredUnits(m) || !regexp.MustCompile(`^[0-3] \d+ \d+ (new_order|payment|order_status|delivery|stock_level) (ok|rollback|error) \d{10} \d+$`).MatchString(lines[0]) {
		t.Fatalf("latency log: %d lines for %d transactions, first %q", len(lines), measuredUnits(m), lines[0])
	}

	// a second run may replace its own log; the mixed probe counts its operations the same way
	mixed := "sqlite://" + filepath.Join(dir, "m.db")
	clitest.Must(t, "probe", "mixed", "--target", mixed, "--rows", "2000", "--vus", "2", "--transactions", "150", "--store", "", "--result", res, "--log-latency", log)
	if got, err = result.Read(res); err != nil || measuredUnits(got.Measurement) != 150 {
		t.Fatalf("mixed probe: %v, %+v", err, got.Measurement)
	}
	if b, _ := os.ReadFile(log); strings.Count(string(b), "\n") != 150 {
		t.Fatalf("mixed probe's latency log has %d lines, want 150", strings.Count(string(b), "\n"))
	}

	other := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(other, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--transactions", "10", "--duration", "5s"}, "both end the measured window"},
		{[]string{"--transactions", "-1"}, "--transactions must be at least 0"},
		{[]string{"--log-latency", dir}, "is a directory"},
		{[]string{"--log-latency", db}, "is also an input"},
		{[]string{"--log-latency", res}, "is also an input"},
		{[]string{"--log-latency", other}, "is not a dbdyno latency log"},
		{[]string{"--log-latency", log, "--repeat", "2"}, "makes 2 runs"},
		{[]string{"--log-latency", log, "--vus", "1,2"}, "makes 2 runs"},
	} {
		args := append([]string{"tpcc", "run", "--target", url, "--rampup", "0s", "--duration", "1s", "--store", "", "--result", res}, c.args...)
		if c.args[0] == "--transactions" {
			args = append([]string{"tpcc", "run", "--target", url, "--rampup", "0s", "--store", ""}, c.args...)
		}
		r := clitest.Run(context.Background(), args...)
		if r.Code == 0 || !strings.Contains(r.Stderr, c.want) || strings.Count(strings.TrimSpace(r.Stderr), "\n") > 0 || strings.Contains(r.Stdout, "running ") {
			t.Fatalf("%v: exit %d, want one line with %q before any work:\nstdout %s\nstderr %s", c.args, r.Code, c.want, r.Stdout, r.Stderr)
		}
	}
	if b, _ := os.ReadFile(other); string(b) != "my notes\n" {
		t.Fatalf("a file that is not a latency log was replaced: %q", b)
	}
}

package runner

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"text/tabwriter"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Profile starts the hidden --cpuprofile when it names a file; stop ends it.
func Profile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// PrintTable writes the measured window's per-transaction counts, latency average and percentiles (ms), in names' order
// under the heading kind ("transaction", "step").
func PrintTable(w io.Writer, m *result.Measurement, kind string, names []string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tcount\trollbacks\terrors\tretries\tmin\tavg\tp50\tp90\tp95\tp99\tmax (ms)\t\n", kind)
	for _, n := range names {
		s := m.Transactions[n]
		l := s.Latency
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n", n, s.Count, s.Rollbacks, s.Errors, s.Retries,
			msf(l.Min), l.Mean/1000, msf(l.P50), msf(l.P90), msf(l.P95), msf(l.P99), msf(l.Max))
	}
	tw.Flush()
}

func msf(us int64) float64 { return float64(us) / 1000 }

// PrintChecks writes consistency checks one a line; an error says how many failed.
func PrintChecks(w io.Writer, checks []result.Check) error {
	failed := 0
	for _, c := range checks {
		state := "PASS"
		if !c.Passed {
			state = "FAIL"
			failed++
		}
		fmt.Fprintf(w, "consistency %s  %s %s\n", state, c.Name, c.Detail)
	}
	if failed > 0 {
		return fmt.Errorf("%d consistency condition(s) failed", failed)
	}
	return nil
}

// PrintOpenLoop writes an open-loop run's figures (pgbench's "schedule lag", "skipped", "late"); nothing for a
// closed loop without a latency limit.
func PrintOpenLoop(w io.Writer, m *result.Measurement) {
	o := m.OpenLoop
	if o == nil {
		return
	}
	if o.RatePerS > 0 {
		share := ""
		if o.WholeRatePerS > 0 {
			share = fmt.Sprintf(" (this shard's share of %g/s)", o.WholeRatePerS)
		}
		fmt.Fprintf(w, "open loop: %g/s%s on a Poisson schedule, %d started; schedule lag mean %.3f ms, max %.3f ms (latency counts from the intended start)\n",
			o.RatePerS, share, o.Started, o.LagMeanUS/1000, msf(o.LagMaxUS))
	}
	if o.LatencyLimitUS > 0 {
		fmt.Fprintf(w, "latency limit %.3f ms: %d late of %d completed (%.3f%%)", msf(o.LatencyLimitUS), o.Late, o.Completed, pct(o.Late, o.Completed))
		if o.RatePerS > 0 {
			fmt.Fprintf(w, ", %d skipped behind schedule (%.3f%% of %d scheduled)", o.Skipped, pct(o.Skipped, o.Skipped+o.Started), o.Skipped+o.Started)
		}
		fmt.Fprintln(w)
	}
}

func pct(n, of int64) float64 {
	if of <= 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

// PrintUsers writes each virtual user's measured window (--per-user): who was starved.
func PrintUsers(w io.Writer, m *result.Measurement) {
	u := m.Users
	if u == nil {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "user\ttransactions\tper min\terrors\tp50\tp95 (ms)\t\n")
	for i := range u.Transactions {
		fmt.Fprintf(tw, "%d\t%d\t%.1f\t%d\t%.2f\t%.2f\t\n", i, u.Transactions[i], u.PerMinute[i], u.Errors[i], msf(u.P50[i]), msf(u.P95[i]))
	}
	tw.Flush()
}

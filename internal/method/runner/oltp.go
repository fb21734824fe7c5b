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

// PrintTable writes the measured window's per-transaction counts and latency percentiles (ms), in names' order
// under the heading kind ("transaction", "step").
func PrintTable(w io.Writer, m *result.Measurement, kind string, names []string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tcount\trollbacks\terrors\tretries\tmin\tp50\tp90\tp95\tp99\tmax (ms)\t\n", kind)
	for _, n := range names {
		s := m.Transactions[n]
		l := s.Latency
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t\n", n, s.Count, s.Rollbacks, s.Errors, s.Retries,
			msf(l.Min), msf(l.P50), msf(l.P90), msf(l.P95), msf(l.P99), msf(l.Max))
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

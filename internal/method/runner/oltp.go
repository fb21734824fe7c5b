package runner

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"text/tabwriter"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Flags are the run flags every virtual-user workload shares (its own come after them): users, warm-up,
// ramp-up, duration, interval, mode (modeHelp words it), seed, reconnect timeout and a hidden CPU profile.
func Flags(modeHelp string) []workload.Flag {
	return []workload.Flag{
		{Name: "vus", Kind: workload.Counts, Default: "1", Help: "virtual users (one connection each); a list 1,2,4,8 or a range 1..8 sweeps them"},
		{Name: "warmup", Kind: workload.Duration, Default: "0s", Help: "a warm-up run of this length before the measured runs (recorded, not measured)"},
		{Name: "rampup", Kind: workload.Duration, Default: "10s", Help: "time before measuring starts"},
		{Name: "duration", Kind: workload.Duration, Default: "60s", Help: "measured time"},
		{Name: "interval", Kind: workload.Duration, Default: "10s", Help: "progress line interval"},
		{Name: "mode", Kind: workload.String, Help: modeHelp},
		{Name: "check", Kind: workload.Bool, Help: "run the consistency checks after the run"},
		{Name: "seed", Kind: workload.Uint, Help: "seed of every random choice (default: from the clock; always recorded)"},
		{Name: "reconnect-timeout", Kind: workload.Duration, Default: "30s", Help: "a lost connection that is not back within this time fails the run"},
		{Name: "cpuprofile", Kind: workload.String, Hidden: true, NoPlan: true, Help: "write a Go CPU profile of the driver to this file"},
	}
}

// CheckFlags checks the shared flags' values (Flags) and draws the seed from the clock when none was given.
func CheckFlags(v *workload.Values) (*workload.Values, error) {
	if v.Duration("duration") <= 0 {
		return nil, fmt.Errorf("--duration must be positive (got %s)", v.Duration("duration"))
	}
	if v.Duration("rampup") < 0 || v.Duration("warmup") < 0 {
		return nil, fmt.Errorf("--rampup and --warmup cannot be negative")
	}
	if w := v.Duration("warmup"); w > 0 && w < time.Second {
		return nil, fmt.Errorf("--warmup %s is too short: give at least 1s, or 0 for none", w)
	}
	for _, f := range []string{"interval", "reconnect-timeout"} {
		if d := v.Duration(f); d <= 0 {
			return nil, fmt.Errorf("--%s must be positive (got %s)", f, d)
		}
	}
	switch m := v.String("mode"); m {
	case "", "sql", "procedures":
	default:
		return nil, fmt.Errorf("--mode %q is not known: use sql or procedures", m)
	}
	if !v.Changed("seed") {
		v = v.Set("seed", uint64(time.Now().UnixNano()))
	}
	return v, nil
}

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

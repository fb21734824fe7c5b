package method

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/dbdyno/dbdyno/internal/method/peak"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// userDriven: a measured command whose load is virtual users (runner.Timing's --vus) takes --find-peak.
func userDriven(c *workload.Command) bool { return workload.Declares[runner.Timing](c.Flags) }

// maxRate is the highest open-loop rate a knee search asks for.
const maxRate = 1e7

// knee is a knee search and the flag whose value it sets.
type knee struct {
	*peak.Search
	flag  workload.Flag
	start int
}

// Start is the first load.
func (k *knee) Start() int { return k.start }

// newSearch reads --find-peak's options: nil when it is off (its other options are then refused as unused).
func newSearch(v *workload.Values, swept string) (*knee, workload.Flag, error) {
	o, ok, err := workload.Group[peak.Flags](v)
	if err != nil || !ok {
		return nil, workload.Flag{}, err
	}
	if !o.FindPeak {
		if v.Given(o, &o.By) && !stepsGiven(v) { // --by is a stepped load's too
			return nil, workload.Flag{}, fmt.Errorf("--by is an option of the knee search and of a stepped load: add --find-peak or --steps, or leave it out")
		}
		for _, f := range []any{&o.MinGain, &o.SLA, &o.Resolution} {
			if v.Given(o, f) {
				return nil, workload.Flag{}, fmt.Errorf("--%s is an option of the knee search: add --find-peak, or leave it out", v.FlagOf(o, f).Name)
			}
		}
		return nil, workload.Flag{}, nil
	}
	if swept != "" {
		return nil, workload.Flag{}, fmt.Errorf("--find-peak chooses the loads itself: give --%s one starting value, not a list", swept)
	}
	sla, err := peak.ParseSLA(o.SLA)
	if err != nil {
		return nil, workload.Flag{}, err
	}
	if o.Resolution < 0 {
		return nil, workload.Flag{}, fmt.Errorf("--resolution cannot be negative (got %g)", o.Resolution)
	}
	t, _, err := workload.Group[runner.Timing](v)
	if err != nil {
		return nil, workload.Flag{}, err
	}
	u, users, err := workload.Group[runner.Users](v)
	if err != nil {
		return nil, workload.Flag{}, err
	}
	k := &knee{}
	var max float64
	switch o.By {
	case "users":
		k.flag = v.FlagOf(t, &t.VUs)
		k.start, max = t.VUs, workload.MaxCount
		if k.start < 1 {
			k.start = 1
		}
	case "rate":
		if !users {
			return nil, workload.Flag{}, fmt.Errorf("--by rate raises the open-loop --rate, and this command has none: use --by users")
		}
		r := u.Rate
		if r < 1 || r != math.Round(r) {
			return nil, workload.Flag{}, fmt.Errorf("--find-peak --by rate starts from --rate and doubles it: give a whole rate of at least 1 to begin with, e.g. --rate 100 (got %g)", r)
		}
		k.flag, k.start, max = v.FlagOf(u, &u.Rate), int(r), maxRate
	default:
		return nil, workload.Flag{}, fmt.Errorf("--by %q is not known: use users or rate", o.By)
	}
	if o.Resolution > 0 && o.Resolution != math.Round(o.Resolution) {
		return nil, workload.Flag{}, fmt.Errorf("--resolution %g: %s are whole numbers, give a whole resolution", o.Resolution, map[bool]string{true: "users", false: "rates"}[o.By == "users"])
	}
	k.Search = peak.New(o.By, float64(k.start), o.MinGain.Fraction(), o.Resolution, max, sla)
	return k, k.flag, nil
}

// setLoad is the values of one point of the search.
func setLoad(v *workload.Values, f workload.Flag, load int) *workload.Values {
	switch f.Kind {
	case workload.Counts:
		return v.Set(f.Name, []int{load})
	case workload.Float: // --rate
		return v.Set(f.Name, float64(load))
	}
	return v.Set(f.Name, load)
}

// findPeak runs the search: each load's repeats (run returns their results), until the search is done.
func findPeak(ctx context.Context, out io.Writer, k *knee, repeats int, run func(load, rep int) []*result.Result) error {
	for ctx.Err() == nil {
		load, ok := k.Next()
		if !ok {
			break
		}
		var runs []*result.Result
		for rep := 1; rep <= repeats && ctx.Err() == nil; rep++ {
			fmt.Fprintf(out, "\n== find-peak: %s=%d, run %d of %d\n", k.flag.Name, int(load), rep, repeats)
			runs = append(runs, run(int(load), rep)...)
		}
		if ctx.Err() != nil {
			break
		}
		if len(runs) == 0 {
			return fmt.Errorf("find-peak: no run at %s finished; the search stops", k.Name(load))
		}
		if err := k.Observe(load, runs); err != nil {
			return err
		}
		p := k.Points[len(k.Points)-1]
		line := fmt.Sprintf("find-peak: %s: %.4g/s", k.Name(load), p.Throughput)
		if p95 := peak.P95(p.Median); !math.IsNaN(p95) {
			line += fmt.Sprintf(", p95 %.4g ms", p95)
		}
		if p.Broken != "" {
			line += " (" + p.Broken + ")"
		}
		fmt.Fprintln(out, line)
	}
	if ctx.Err() != nil {
		return nil // the method says the command was aborted
	}
	fmt.Fprintln(out)
	if k.Note != "" {
		fmt.Fprintf(out, "find-peak: %s\n", k.Note)
	}
	if k.Knee == nil {
		fmt.Fprintln(out, "find-peak: no knee found")
		return nil
	}
	fmt.Fprintf(out, "find-peak: the knee is %s: %.4g/s", k.Name(k.Knee.Load), k.Knee.Throughput)
	if p95 := peak.P95(k.Knee.Median); !math.IsNaN(p95) {
		fmt.Fprintf(out, ", p95 %.4g ms", p95)
	}
	fmt.Fprintf(out, " (%d points)\nfind-peak: limited by %s\n", len(k.Points), k.Limiting())
	return nil
}

// Mark records the search in every run of its group: how the load was raised and the knee found.
func (k *knee) Mark(runs []*result.Result, group string) {
	kn := &result.Knee{By: k.flag.Name, SLA: "", Note: k.Note, Limit: k.Limiting(), Found: k.Knee != nil}
	for _, l := range k.SLA {
		if kn.SLA != "" {
			kn.SLA += ","
		}
		kn.SLA += l.Text
	}
	if k.Knee != nil {
		kn.Value, kn.Throughput = k.Knee.Load, k.Knee.Throughput
	}
	for _, r := range runs {
		if r.Group != nil && r.Group.ID == group {
			r.Group.Knee = kn
		}
	}
}

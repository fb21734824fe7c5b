package ioprobe

import (
	"fmt"
	"io"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
	"github.com/dbdyno/dbdyno/internal/workloads/ioprobe/sizing"
)

// ProfileFlags replay a requirements checklist on a candidate disk (io run --profile).
type ProfileFlags struct {
	Profile           string `flag:"profile" help:"a requirements checklist (dbdyno monitor checklist NAME --output-format json) replayed as one job: its read share, request sizes (bssplit), queue depth and IOPS at --profile-percentile as the rate; each requirement is reported met or not"`
	ProfilePercentile string `flag:"profile-percentile" default:"p99" help:"the checklist's percentile the job replays: p50, p90 or p99"`
	ProfilePeriod     string `flag:"profile-period" help:"the checklist's period replayed (default: the one with the most IOPS at the percentile)"`
	Expect            string `flag:"expect" help:"what the device is advertised to deliver, a disk of --catalog (P30) or iops=N,mbps=N: each test's figures against it at its request size, and a flat top at a cap (throttling) in the per-second series flagged"`
	Catalog           string `flag:"catalog" help:"the catalogue --expect's disk name is looked up in (YAML, as io size's)"`
}

// check refuses what cannot be honoured before anything runs.
func (o *ProfileFlags) check(jobFile bool) error {
	if o.Profile != "" && jobFile {
		return fmt.Errorf("--profile is one job: leave out --job")
	}
	if o.Catalog != "" && o.Expect == "" {
		return fmt.Errorf("--catalog is read for --expect's disk: give --expect too (or leave --catalog out)")
	}
	if o.Expect != "" {
		if _, err := sizing.ParseExpect(o.Expect, o.Catalog); err != nil {
			return err
		}
	}
	return nil
}

// finish prints the profile's verdicts (one test), keeping them in the result, and each test against --expect.
func (o *ProfileFlags) finish(w io.Writer, x *result.IO) {
	tests := x.Tests
	if o.Profile != "" && len(tests) == 1 {
		if p, err := sizing.ReadProfile(o.Profile, o.ProfilePercentile, o.ProfilePeriod); err == nil {
			if vs := profileVerdicts(w, p, &tests[0]); len(vs) > 0 {
				q := &result.IORequirements{Profile: p.From, Percentile: o.ProfilePercentile, Period: o.ProfilePeriod}
				for _, v := range vs {
					q.Verdicts = append(q.Verdicts, result.IORequirement{What: v.What, Needed: v.Need, Measured: v.Measured, Met: v.Met})
				}
				x.Requirements = q
			}
		}
	}
	if o.Expect == "" {
		return
	}
	e, err := sizing.ParseExpect(o.Expect, o.Catalog)
	if err != nil {
		return
	}
	const mib = 1e6 / (1 << 20) // the probe's MB are 10^6 bytes; the caps' MiB
	for i := range tests {
		t := &tests[i]
		var ios, bytes int64
		for _, d := range []*result.IODir{t.Read, t.Write} {
			if d != nil {
				ios, bytes = ios+d.IOs, bytes+d.Bytes
			}
		}
		if ios == 0 {
			continue
		}
		var series []sizing.Second
		for _, s := range t.Series {
			series = append(series, sizing.Second{IOPS: s.ReadIOPS + s.WriteIOPS, MBps: (s.ReadMBs + s.WriteMBs) * mib})
		}
		if len(tests) > 1 {
			fmt.Fprintf(w, "%s: ", t.Name)
		}
		for _, line := range e.Compare(float64(bytes)/float64(ios)/1024, t.IOPS(), t.MBs()*mib, series) {
			fmt.Fprintln(w, line)
		}
	}
}

// profiled are the options a profile sets: given alongside --profile they are refused. The replay draws its
// offsets uniformly (norandommap): fio's random map would trim its IOs to the blocks not yet done and the
// request sizes replayed would fall below the checklist's.
var profiled = []string{"rw", "bs", "bssplit", "bsrange", "rwmixread", "rwmixwrite", "iodepth", "rate_iops", "rate", "numjobs", "norandommap"}

// applyProfile sets the job's options from the profile.
func (o *ProfileFlags) applyProfile(v *workload.Values) (*workload.Values, *sizing.Profile, error) {
	for _, name := range profiled {
		if v.Changed(name) {
			return nil, nil, fmt.Errorf("--profile sets --%s from the checklist: leave it out", name)
		}
	}
	p, err := sizing.ReadProfile(o.Profile, o.ProfilePercentile, o.ProfilePeriod)
	if err != nil {
		return nil, nil, err
	}
	v = v.Set("rw", "randrw").Set("bssplit", p.BSSplit).Set("rwmixread", int(p.ReadPct+0.5)).Set("iodepth", []int{p.QueueDepth}).
		Set("numjobs", []int{1}).Set("rate_iops", fmt.Sprintf("%d,%d", p.RateRead, p.RateWrite)).Set("norandommap", true)
	return v, p, nil
}

// profileVerdicts prints each requirement of the profile, met or not, on the test that replayed it.
func profileVerdicts(w io.Writer, p *sizing.Profile, t *result.IOTest) []sizing.Verdict {
	var ios, bytes int64
	var reads int64
	var latSum float64
	for _, d := range []*result.IODir{t.Read, t.Write} {
		if d != nil {
			ios += d.IOs
			bytes += d.Bytes
			latSum += d.Lat.Mean * float64(d.IOs)
		}
	}
	if t.Read != nil {
		reads = t.Read.IOs
	}
	if ios == 0 || t.Seconds <= 0 {
		fmt.Fprintf(w, "profile %s: the test did no IO: nothing to judge\n", p.From)
		return nil
	}
	vs := p.Judge(float64(ios)/t.Seconds, float64(bytes)/t.Seconds/(1<<20), 100*float64(reads)/float64(ios), float64(bytes)/float64(ios)/1024, latSum/float64(ios)/1000)
	fmt.Fprintf(w, "\nprofile %s: randrw, %.0f%% reads, bssplit %s, iodepth %d, rate_iops %d,%d\n", p.From, p.ReadPct, p.BSSplit, p.QueueDepth, p.RateRead, p.RateWrite)
	for _, n := range p.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	fmt.Fprintf(w, "  %-22s %12s %12s  %s\n", "requirement", "needed", "measured", "")
	for _, v := range vs {
		verdict := "met"
		if !v.Met {
			verdict = "NOT MET"
		}
		fmt.Fprintf(w, "  %-22s %12s %12s  %s\n", v.What, v.Need, v.Measured, verdict)
	}
	return vs
}

func (o *ProfileFlags) recordProfile(out map[string]any) {
	out["profile"], out["profile_percentile"], out["profile_period"] = o.Profile, o.ProfilePercentile, o.ProfilePeriod
	out["expect"], out["catalog"] = o.Expect, o.Catalog
}

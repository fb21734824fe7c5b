package sizing

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/dbdyno/dbdyno/internal/host/monitor"
)

// Profile is a checklist turned into one storage job, the prototype check the study prescribes: the period's
// read share, its request sizes as a bssplit, its queue depth, and its IOPS at the percentile as the job's
// rate (reads and writes each capped at their share, like fio's rate_iops).
type Profile struct {
	From       string
	Period     string
	IOPS       float64 // the requirement at the percentile
	MBps       float64
	LatencyMs  float64 // the recorded average latency at the percentile: the candidate should be no slower
	ReadPct    float64 // the period's average read share
	BSSplit    string  // fio's bssplit: the intervals' request sizes at p50, p90 and p99, weighted 50/40/10
	MeanKB     float64 // the bssplit's mean request size
	QueueDepth int
	RateRead   int // IOPS caps per direction
	RateWrite  int
	Notes      []string
}

// ReadProfile reads a checklist file (dbdyno monitor checklist NAME --output-format json) into a profile.
func ReadProfile(path, pct, period string) (*Profile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	var c monitor.Checklist
	if err := json.Unmarshal(b, &c); err != nil || len(c.Periods) == 0 {
		return nil, fmt.Errorf("--profile %s is not a checklist (dbdyno monitor checklist NAME --output-format json): %v", path, err)
	}
	return ProfileOf(&c, pct, period, path)
}

// ProfileOf builds the profile of one period (period, or the one with the most IOPS at the percentile).
func ProfileOf(c *monitor.Checklist, pct, period, from string) (*Profile, error) {
	var p *monitor.Period
	best := -1.0
	for i := range c.Periods {
		q := &c.Periods[i]
		if period != "" {
			if q.Name == period {
				p = q
			}
			continue
		}
		if r, ok := q.Row(monitor.KeyIOPS); ok && r.Stat != nil {
			if v, err := r.Value(pct); err != nil {
				return nil, fmt.Errorf("--profile-percentile: %v", err)
			} else if v > best {
				p, best = q, v
			}
		}
	}
	if p == nil {
		var names []string
		for _, q := range c.Periods {
			names = append(names, q.Name)
		}
		if period != "" {
			return nil, fmt.Errorf("--profile-period %s: the checklist's periods are %s", period, strings.Join(names, ", "))
		}
		return nil, fmt.Errorf("%s: no period has IO to replay", from)
	}
	get := func(key, col string) (float64, error) {
		r, ok := p.Row(key)
		if !ok {
			return 0, fmt.Errorf("%s: period %s has no %s row", from, p.Name, key)
		}
		v, err := r.Value(col)
		if err != nil {
			return 0, fmt.Errorf("%s: period %s: %v", from, p.Name, err)
		}
		return v, nil
	}
	pr := &Profile{From: fmt.Sprintf("%s %s of %s", from, pct, p.Name), Period: p.Name}
	var err error
	if pr.IOPS, err = get(monitor.KeyIOPS, pct); err != nil {
		return nil, err
	}
	if pr.IOPS < 1 {
		return nil, fmt.Errorf("%s: period %s has %.2f IOPS at %s: nothing to replay", from, p.Name, pr.IOPS, pct)
	}
	if pr.MBps, err = get(monitor.KeyMBps, pct); err != nil {
		return nil, err
	}
	if pr.LatencyMs, err = get(monitor.KeyLatency, pct); err != nil {
		return nil, err
	}
	if pr.ReadPct, err = get(monitor.KeyReadPct, "avg"); err != nil {
		return nil, err
	}
	var sizes [3]float64
	for i, col := range []string{"p50", "p90", "p99"} {
		if sizes[i], err = get(monitor.KeyIOSize, col); err != nil {
			return nil, err
		}
	}
	pr.BSSplit, pr.MeanKB = bssplit(sizes)
	qd, err := get(monitor.KeyQueueDepth, pct)
	if err != nil {
		return nil, err
	}
	pr.QueueDepth = max(1, int(math.Ceil(qd)))
	pr.RateRead = int(math.Round(pr.IOPS * pr.ReadPct / 100))
	pr.RateWrite = int(math.Round(pr.IOPS)) - pr.RateRead
	if job := pr.IOPS * pr.MeanKB / 1024; job < pr.MBps {
		pr.Notes = append(pr.Notes, fmt.Sprintf("the job's rate and sizes give %.1f MiB/s, less than the checklist's %.1f at %s (the percentiles come from different intervals): the throughput is judged against %.1f", job, pr.MBps, pct, job))
		pr.MBps = job
	}
	if r, _ := p.Row(monitor.KeyRandomPct); r.Stat == nil {
		pr.Notes = append(pr.Notes, "the random share was not measured: the job is all random (randrw), the harder case for a disk")
	}
	if c.Growth != 1 {
		pr.Notes = append(pr.Notes, fmt.Sprintf("the load figures include the checklist's growth x%g", c.Growth))
	}
	return pr, nil
}

// bssplit weights the intervals' request sizes at p50, p90 and p99 50/40/10 (half the intervals are at or
// below p50, 40% between p50 and p90, 10% above), each rounded to 4 KiB (direct IO's alignment); equal sizes
// merge.
func bssplit(kb [3]float64) (string, float64) {
	shares := map[int]int{}
	for i, w := range []int{50, 40, 10} {
		k := max(4, int(math.Round(kb[i]/4))*4)
		shares[k] += w
	}
	var ks []int
	for k := range shares {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	var parts []string
	sum := 0
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%dk/%d", k, shares[k]))
		sum += k * shares[k]
	}
	return strings.Join(parts, ":"), float64(sum) / 100
}

// Verdict is one requirement measured on the candidate.
type Verdict struct {
	What     string
	Need     string
	Measured string
	Met      bool
}

// Judge compares a replay's figures with the profile: IOPS and MB/s within 2% of the requirement (the rate
// cap holds the job at it), the read share and the mean request size within 2% of the profile's, and the mean
// latency no worse than the recorded one at the percentile.
func (p *Profile) Judge(iops, mbps, readPct, meanKB, latencyMs float64) []Verdict {
	ge := func(got, want float64) bool { return got >= want*0.98 }
	within := func(got, want float64) bool { return math.Abs(got-want) <= 0.02*math.Max(want, 1) }
	return []Verdict{
		{"IOPS", fmt.Sprintf("%.0f", p.IOPS), fmt.Sprintf("%.0f", iops), ge(iops, p.IOPS)},
		{"throughput MiB/s", fmt.Sprintf("%.1f", p.MBps), fmt.Sprintf("%.1f", mbps), ge(mbps, p.MBps)},
		{"% reads", fmt.Sprintf("%.1f", p.ReadPct), fmt.Sprintf("%.1f", readPct), math.Abs(readPct-p.ReadPct) <= 2},
		{"mean request size KB", fmt.Sprintf("%.1f", p.MeanKB), fmt.Sprintf("%.1f", meanKB), within(meanKB, p.MeanKB)},
		{"average latency ms", fmt.Sprintf("<= %.2f", p.LatencyMs), fmt.Sprintf("%.2f", latencyMs), latencyMs <= p.LatencyMs},
	}
}

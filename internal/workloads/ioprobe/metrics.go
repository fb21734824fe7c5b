package ioprobe

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

var (
	mIOPS    = workload.MetricDesc{Name: "IOPS", Unit: "1/s", Better: result.Higher, Aggregate: "sum"}
	mMBs     = workload.MetricDesc{Name: "MB/s", Unit: "MB/s", Better: result.Higher, Aggregate: "sum"}
	mRead50  = workload.MetricDesc{Name: "read p50 latency", Unit: "µs", Better: result.Lower, Aggregate: "max"}
	mRead99  = workload.MetricDesc{Name: "read p99 latency", Unit: "µs", Better: result.Lower, Aggregate: "max"}
	mWrite50 = workload.MetricDesc{Name: "write p50 latency", Unit: "µs", Better: result.Lower, Aggregate: "max"}
	mWrite99 = workload.MetricDesc{Name: "write p99 latency", Unit: "µs", Better: result.Lower, Aggregate: "max"}
	mCPU     = workload.MetricDesc{Name: "CPU per IO", Unit: "µs", Better: result.Lower}
)

// lat is the test's completion latency percentile (50 or 99): its read side's, or its write side's when it
// only writes.
func lat(t *result.IOTest, p int) float64 {
	l, _ := t.Latency()
	if p == 50 {
		return l.P50
	}
	return l.P99
}

// large says whether a test is judged by its throughput (64 KiB blocks and up) rather than its IOPS.
func large(t *result.IOTest) bool { return t.BS >= 64<<10 }

// main is the figure a test is judged by: MB/s for large blocks, IOPS for small (the best pass keeps it).
func main(t *result.IOTest) float64 {
	if large(t) {
		return t.MBs()
	}
	return t.IOPS()
}

// metrics are a run's figures: for one test by their plain names, for several each named after its test;
// the headline is the first test's main figure.
func metrics(r *result.Result) []result.Metric {
	if r.IO == nil {
		return nil
	}
	var out []result.Metric
	for i := range r.IO.Tests {
		t := &r.IO.Tests[i]
		name := func(d workload.MetricDesc) workload.MetricDesc {
			if len(r.IO.Tests) > 1 {
				return d.Named(t.Name + ": " + d.Name)
			}
			return d
		}
		if t.Seconds <= 0 || t.Read == nil && t.Write == nil {
			continue
		}
		src := fmt.Sprintf("io/%d/", i)
		a, b := name(mIOPS).WithNoise(src+"iops").Value(t.IOPS()), name(mMBs).WithNoise(src+"mb_s").Value(t.MBs())
		if i == 0 {
			if large(t) {
				b.Headline = true
			} else {
				a.Headline = true
			}
		}
		out = append(out, a, b)
		if d := t.Read; d != nil {
			out = append(out, name(mRead50).WithNoise(src+"read@50").Value(d.Lat.P50), name(mRead99).WithNoise(src+"read@99").Value(d.Lat.P99))
		}
		if d := t.Write; d != nil {
			out = append(out, name(mWrite50).WithNoise(src+"write@50").Value(d.Lat.P50), name(mWrite99).WithNoise(src+"write@99").Value(d.Lat.P99))
		}
		if t.CPU.PerIOUs > 0 {
			out = append(out, name(mCPU).Value(t.CPU.PerIOUs))
		}
	}
	return out
}

// work is what a run's tests do, without their load (queue depth and jobs are load, as virtual users are):
// runs compare when they did the same work.
func work(r *result.Result) string {
	if r.IO == nil {
		return ""
	}
	if p, _ := r.Options["preset"].(string); p != "" && len(r.IO.Tests) > 1 {
		// a study's tests by the preset's name (its tests are the preset's, in its order)
		return fmt.Sprintf("%s preset, %d tests", p, len(r.IO.Tests)) + buffered(r.IO.Tests)
	}
	var parts []string
	for i := range r.IO.Tests {
		t := &r.IO.Tests[i]
		w := t.RW + " " + result.FormatSize(int64(t.BS))
		if t.RW == "rw" || t.RW == "randrw" {
			w += fmt.Sprintf(" %d/%d", t.RWMixRead, 100-t.RWMixRead)
		}
		if t.RateIOPS > 0 {
			w += fmt.Sprintf(" rate %d", t.RateIOPS)
		}
		if len(r.IO.Tests) > 1 {
			w = t.Name
		}
		if t.Buffered || !t.Direct {
			w += " buffered"
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, "; ")
}

// us writes a latency in µs to the precision it has: a sub-microsecond completion is 0.42, not 0 (fio prints
// those in nanoseconds); three significant digits below 100, whole µs from there.
func us(v float64) string {
	if v < 100 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// describe names a run by its tests as its progress did ("randread 8k Q32T2"), or by its preset; at most three
// tests, and their count beyond.
func describe(r *result.Result) string {
	if r.IO == nil {
		return ""
	}
	if p, _ := r.Options["preset"].(string); p != "" && len(r.IO.Tests) > 1 {
		return p + " preset"
	}
	var names []string
	for i := range r.IO.Tests {
		if i == 3 {
			names = append(names, fmt.Sprintf("%d more", len(r.IO.Tests)-3))
			break
		}
		names = append(names, r.IO.Tests[i].Name)
	}
	return strings.Join(names, ", ")
}

// printTest is a test's lines as fio prints its summary: per direction IOPS, bandwidth and latency.
func printTest(w io.Writer, t *result.IOTest) {
	if t == nil {
		return
	}
	for _, d := range []struct {
		name string
		d    *result.IODir
	}{{"read", t.Read}, {"write", t.Write}} {
		if d.d == nil {
			continue
		}
		l := d.d.Lat
		fmt.Fprintf(w, "  %s: IOPS=%.0f, BW=%.1fMiB/s (%.1fMB/s); clat (µs): min=%s, mean=%s, p50=%s, p90=%s, p99=%s, p99.9=%s, max=%s\n",
			d.name, d.d.IOPS, d.d.MBs*1e6/(1<<20), d.d.MBs, us(l.Min), us(l.Mean), us(l.P50), us(l.P90), us(l.P99), us(l.P999), us(l.Max))
	}
	fmt.Fprintf(w, "  cpu: usr=%.1f%%, sys=%.1f%%, %.2f µs per IO (job threads %.2f)", t.CPU.UserPct, t.CPU.SysPct, t.CPU.PerIOUs, t.CPU.JobsPerIOUs)
	if t.Disk != nil {
		fmt.Fprintf(w, "; device %s: %.0f r/s %.0f w/s, %.1f MB/s read %.1f MB/s written, queue %.1f, util %.0f%%",
			t.Disk.Device, t.Disk.ReadIOPS, t.Disk.WriteIOPS, t.Disk.ReadMBs, t.Disk.WriteMBs, t.Disk.AvgQueue, t.Disk.UtilPct)
	}
	fmt.Fprintln(w)
	if l := t.Little; l != nil {
		fmt.Fprintf(w, "  Little's law: %.0f IOPS x %.1f µs mean time in flight (submission to reaping) = %.1f IOs in flight (queue depth kept: %d)\n",
			l.IOPS, l.MeanLatS*1e6, l.ImpliedDepth, l.Depth)
	}
	if t.Buffered {
		fmt.Fprintln(w, "  BUFFERED: direct IO was refused here; these are the page cache's figures")
	}
	if t.Status != result.StatusOK {
		fmt.Fprintf(w, "  %s: %s\n", strings.ToUpper(t.Status), t.Error)
	}
}

// buffered marks a preset's tests that went through the page cache.
func buffered(ts []result.IOTest) string {
	for i := range ts {
		if ts[i].Buffered || !ts[i].Direct {
			return " buffered"
		}
	}
	return ""
}

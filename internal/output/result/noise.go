package result

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// A metric's Noise names the samples inside one run that its value is a figure of, so that one run carries
// its own noise estimate (compare's bootstrap over them, or a percentile's interval from its sample count):
//
//	intervals             the measured intervals' throughput (per_minute): the run's rate of all its work
//	intervals/TX          transaction TX's rate in each measured interval (its count over the interval's length)
//	latency/TX@95         the 95th percentile of transaction TX's latency histogram
//	io/N/FIELD            IO test N's (from 0) per-second series: iops, mb_s, read_iops, write_iops, read_mb_s, write_mb_s
//	io/N/read@99          the 99th percentile of IO test N's read (or write) completion-latency histogram
//	probe                 the probe's steps' rates (one per table, chunk ...)
//
// The value need not be in the samples' unit: an estimate is relative to the samples' own median or percentile.

// IntervalsNoise is the Noise of a metric that is the run's rate of all its work; TxNoise of one
// transaction's rate; LatencyNoise of a percentile (95 for p95) of a transaction's latency.
func IntervalsNoise() string                   { return "intervals" }
func TxNoise(tx string) string                 { return "intervals/" + tx }
func LatencyNoise(tx string, p float64) string { return fmt.Sprintf("latency/%s@%g", tx, p) }

// NoiseSeries is the series a metric's Noise names (intervals, intervals/TX, io/N/FIELD, probe), one value per
// measured interval, second or step; nil when the run has no such series or the source is a histogram.
func (r *Result) NoiseSeries(src string) []float64 {
	switch {
	case src == "intervals" || strings.HasPrefix(src, "intervals/"):
		m := r.Measurement
		if m == nil {
			return nil
		}
		tx, one := strings.CutPrefix(src, "intervals/")
		var out []float64
		prev := 0.0
		for _, iv := range m.Intervals {
			dt := iv.ElapsedSeconds - prev
			prev = iv.ElapsedSeconds
			if !iv.Measured || dt <= 0 {
				continue
			}
			if !one {
				out = append(out, iv.PerMinute)
				continue
			}
			out = append(out, float64(iv.Transactions[tx].Count)*60/dt)
		}
		return out
	case strings.HasPrefix(src, "io/") && !strings.Contains(src, "@"):
		t, field, ok := r.ioTest(src)
		if !ok {
			return nil
		}
		var out []float64
		for _, s := range t.Series {
			var v float64
			switch field {
			case "iops":
				v = s.ReadIOPS + s.WriteIOPS
			case "mb_s":
				v = s.ReadMBs + s.WriteMBs
			case "read_iops":
				v = s.ReadIOPS
			case "write_iops":
				v = s.WriteIOPS
			case "read_mb_s":
				v = s.ReadMBs
			case "write_mb_s":
				v = s.WriteMBs
			default:
				return nil
			}
			out = append(out, v)
		}
		return out
	case src == "probe":
		if r.Probe == nil {
			return nil
		}
		var out []float64
		for _, s := range r.Probe.Steps {
			if s.Rate > 0 && !s.Exceeded {
				out = append(out, s.Rate)
			}
		}
		return out
	}
	return nil
}

// NoiseHistogram is the histogram and percentile (95 for p95) a metric's Noise names (latency/TX@P,
// io/N/read@P); ok is false when the source is not a histogram's or the run does not hold it.
func (r *Result) NoiseHistogram(src string) (h *hdrhistogram.Histogram, pct float64, ok bool) {
	at := strings.LastIndex(src, "@")
	if at < 0 {
		return nil, 0, false
	}
	p, err := strconv.ParseFloat(src[at+1:], 64)
	if err != nil || p <= 0 || p >= 100 {
		return nil, 0, false
	}
	var enc string
	switch {
	case strings.HasPrefix(src, "latency/"):
		if r.Measurement == nil {
			return nil, 0, false
		}
		enc = r.Measurement.Transactions[src[len("latency/"):at]].Histogram
	case strings.HasPrefix(src, "io/"):
		t, dir, ok := r.ioTest(src[:at])
		if !ok {
			return nil, 0, false
		}
		switch {
		case dir == "read" && t.Read != nil:
			enc = t.Read.Histogram
		case dir == "write" && t.Write != nil:
			enc = t.Write.Histogram
		}
	}
	if enc == "" {
		return nil, 0, false
	}
	h, err = DecodeHistogram(enc)
	if err != nil || h.TotalCount() == 0 {
		return nil, 0, false
	}
	return h, p, true
}

// ioTest is the IO test an io/N/... source names and the rest of the source after it.
func (r *Result) ioTest(src string) (*IOTest, string, bool) {
	parts := strings.SplitN(src, "/", 3)
	if r.IO == nil || len(parts) != 3 {
		return nil, "", false
	}
	i, err := strconv.Atoi(parts[1])
	if err != nil || i < 0 || i >= len(r.IO.Tests) {
		return nil, "", false
	}
	return &r.IO.Tests[i], parts[2], true
}

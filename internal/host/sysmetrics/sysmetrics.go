// Package sysmetrics samples the machine's CPU, memory and disks while a run goes on (like sar, iostat or
// PerfMon next to a benchmark) and summarises each series.
package sysmetrics

import (
	"context"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/disk"
	"github.com/shirou/gopsutil/v4/mem"
	"github.com/shirou/gopsutil/v4/net"
)

// Sampler samples every interval until Stop.
type Sampler struct {
	interval time.Duration
	scope    string
	start    time.Time
	cancel   context.CancelFunc
	done     chan struct{}
	mu       sync.Mutex
	samples  []result.SystemSample
	spans    [][2]time.Time // each sample's span: from the snapshot before it to its own
}

// Start begins sampling. scope says whose load the figures show ("database and client" or "client").
func Start(ctx context.Context, interval time.Duration, scope string) *Sampler {
	if interval <= 0 {
		interval = time.Second
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &Sampler{interval: interval, scope: scope, start: time.Now(), cancel: cancel, done: make(chan struct{})}
	go s.loop(ctx)
	return s
}

type snapshot struct {
	total cpu.TimesStat
	cores []cpu.TimesStat
	disks map[string]disk.IOCountersStat
	nets  []net.IOCountersStat
	at    time.Time
}

func take() snapshot {
	s := snapshot{at: time.Now()}
	if t, err := cpu.Times(false); err == nil && len(t) > 0 {
		s.total = t[0]
	}
	s.cores, _ = cpu.Times(true)
	s.disks, _ = disk.IOCounters()
	s.nets, _ = net.IOCounters(true)
	return s
}

func busy(a, b cpu.TimesStat) (busyPct, user, system, iowait, steal float64) {
	tot := cpuTotal(b) - cpuTotal(a)
	if tot <= 0 {
		return 0, 0, 0, 0, 0
	}
	idle := (b.Idle - a.Idle) + (b.Iowait - a.Iowait)
	pct := func(x float64) float64 { return math.Max(0, 100*x/tot) }
	return pct(tot - idle), pct(b.User - a.User + b.Nice - a.Nice), pct(b.System - a.System + b.Irq - a.Irq + b.Softirq - a.Softirq),
		pct(b.Iowait - a.Iowait), pct(b.Steal - a.Steal)
}

// cpuTotal is the seconds of every state of a CPU's times (gopsutil's deprecated TimesStat.Total: Guest and
// GuestNice are already counted in User and Nice on Linux).
func cpuTotal(t cpu.TimesStat) float64 {
	return t.User + t.System + t.Idle + t.Nice + t.Iowait + t.Irq + t.Softirq + t.Steal
}

func skipDisk(name string) bool {
	for _, p := range []string{"loop", "ram", "zram", "sr", "fd"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func (s *Sampler) loop(ctx context.Context) {
	defer close(s.done)
	prev := Take()
	t := time.NewTicker(s.interval)
	defer t.Stop()
	for {
		last := false
		select {
		case <-ctx.Done():
			// The stretch since the last sample is the run's too: kept when it is a tenth of an interval or
			// more, or when it is the only one (a run shorter than the interval, or a tick the scheduler
			// delivered after the stop).
			last = true
		case <-t.C:
		}
		cur := Take()
		if last && len(s.samples) > 0 && cur.at.Sub(prev.at) < s.interval/10 {
			return
		}
		smp := Between(prev, cur)
		smp.T = s.secs(cur.at)
		s.mu.Lock()
		s.samples = append(s.samples, smp)
		s.spans = append(s.spans, [2]time.Time{prev.at, cur.at})
		s.mu.Unlock()
		if last {
			return
		}
		prev = cur
	}
}

// Snapshot is the machine's counters at one moment.
type Snapshot = snapshot

// Take reads the machine's counters now.
func Take() Snapshot { return take() }

// At is when the snapshot was taken.
func (s Snapshot) At() time.Time { return s.at }

// Between is the interval from one snapshot to the next: CPU busy (all cores and each), memory used now, each
// disk's IOPS, MB/s, latency and queue depth. Its T is left for the caller.
func Between(prev, cur Snapshot) result.SystemSample {
	secs := cur.at.Sub(prev.at).Seconds()
	smp := result.SystemSample{Disks: map[string]result.DiskSample{}}
	smp.CPUBusy, smp.CPUUser, smp.CPUSystem, smp.CPUIowait, smp.CPUSteal = busy(prev.total, cur.total)
	for i := range cur.cores {
		if i < len(prev.cores) {
			b, u, sy, io, st := busy(prev.cores[i], cur.cores[i])
			r := func(x float64) float64 { return math.Round(x*10) / 10 }
			smp.PerCoreBusy = append(smp.PerCoreBusy, r(b))
			smp.PerCore = append(smp.PerCore, result.CoreSample{User: r(u), System: r(sy), Iowait: r(io), Steal: r(st)})
		}
	}
	if vm, err := mem.VirtualMemory(); err == nil {
		smp.MemUsed = vm.Used
	}
	for name, c := range cur.disks {
		p, ok := prev.disks[name]
		if !ok || skipDisk(name) || secs <= 0 {
			continue
		}
		ops := float64(c.ReadCount-p.ReadCount) + float64(c.WriteCount-p.WriteCount)
		d := result.DiskSample{
			IOPS:       ops / secs,
			ReadMBs:    float64(c.ReadBytes-p.ReadBytes) / secs / 1e6,
			WriteMBs:   float64(c.WriteBytes-p.WriteBytes) / secs / 1e6,
			QueueDepth: float64(c.WeightedIO-p.WeightedIO) / (secs * 1000),
		}
		if ops > 0 {
			d.LatencyMs = float64(c.ReadTime-p.ReadTime+c.WriteTime-p.WriteTime) / ops
		}
		smp.Disks[name] = d
	}
	for _, c := range cur.nets {
		if c.Name == "lo" || secs <= 0 {
			continue
		}
		for _, p := range prev.nets {
			if p.Name == c.Name {
				if smp.Net == nil {
					smp.Net = map[string]result.NetSample{}
				}
				smp.Net[c.Name] = result.NetSample{RxMBs: float64(c.BytesRecv-p.BytesRecv) / secs / 1e6, TxMBs: float64(c.BytesSent-p.BytesSent) / secs / 1e6,
					RxPPS: float64(c.PacketsRecv-p.PacketsRecv) / secs, TxPPS: float64(c.PacketsSent-p.PacketsSent) / secs}
			}
		}
	}
	return smp
}

// Stop ends sampling and returns the series with their summaries.
func (s *Sampler) Stop() *result.SystemMetrics {
	s.cancel()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return Metrics(s.scope, s.interval, s.samples)
}

// Window is the samples whose time (the end of their span) falls in [from, to], a measured window inside the
// sampled run (a stepped run's step), and whose span lies at least half in it (the first one after the
// window's start is not mostly ramp-up), with their summary; their T and the window's edges (MeasureFromS, MeasureToS) are in
// seconds from the sampling's start, rounded alike, so every sample's T lies between the edges. nil for a nil
// Sampler.
func (s *Sampler) Window(from, to time.Time) *result.SystemMetrics {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	var in []result.SystemSample
	for i, sp := range s.spans {
		if mid := sp[0].Add(sp[1].Sub(sp[0]) / 2); !mid.Before(from) && !sp[1].After(to) {
			in = append(in, s.samples[i])
		}
	}
	s.mu.Unlock()
	m := Metrics(s.scope, s.interval, in)
	m.MeasureFromS, m.MeasureToS = s.secs(from), s.secs(to)
	return m
}

// secs is t in seconds from the sampling's start, rounded as a sample's T.
func (s *Sampler) secs(t time.Time) float64 { return math.Round(t.Sub(s.start).Seconds()*10) / 10 }

// Metrics are samples with each series' summary.
func Metrics(scope string, interval time.Duration, samples []result.SystemSample) *result.SystemMetrics {
	m := &result.SystemMetrics{Scope: scope, IntervalS: interval.Seconds(), Samples: samples, Summary: map[string]result.Stat{}}
	if m.Samples == nil {
		m.Samples = []result.SystemSample{}
	}
	series := map[string][]float64{}
	for _, x := range samples {
		series["cpu_busy_pct"] = append(series["cpu_busy_pct"], x.CPUBusy)
		series["cpu_user_pct"] = append(series["cpu_user_pct"], x.CPUUser)
		series["cpu_system_pct"] = append(series["cpu_system_pct"], x.CPUSystem)
		series["cpu_iowait_pct"] = append(series["cpu_iowait_pct"], x.CPUIowait)
		series["cpu_steal_pct"] = append(series["cpu_steal_pct"], x.CPUSteal)
		series["mem_used_bytes"] = append(series["mem_used_bytes"], float64(x.MemUsed))
		for i, c := range x.PerCoreBusy {
			k := "core" + itoa(i) + "_busy_pct"
			series[k] = append(series[k], c)
		}
		for name, d := range x.Disks {
			series["disk."+name+".iops"] = append(series["disk."+name+".iops"], d.IOPS)
			series["disk."+name+".read_mb_s"] = append(series["disk."+name+".read_mb_s"], d.ReadMBs)
			series["disk."+name+".write_mb_s"] = append(series["disk."+name+".write_mb_s"], d.WriteMBs)
			series["disk."+name+".avg_latency_ms"] = append(series["disk."+name+".avg_latency_ms"], d.LatencyMs)
			series["disk."+name+".queue_depth"] = append(series["disk."+name+".queue_depth"], d.QueueDepth)
		}
		for name, n := range x.Net {
			series["net."+name+".rx_mb_s"] = append(series["net."+name+".rx_mb_s"], n.RxMBs)
			series["net."+name+".tx_mb_s"] = append(series["net."+name+".tx_mb_s"], n.TxMBs)
		}
	}
	for k, v := range series {
		m.Summary[k] = Summarise(v)
	}
	return m
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// Summarise returns the mean and nearest-rank percentiles of a series.
func Summarise(v []float64) result.Stat {
	if len(v) == 0 {
		return result.Stat{}
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	rank := func(p float64) float64 {
		i := int(math.Ceil(p/100*float64(len(s)))) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	r := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	return result.Stat{Mean: r(sum / float64(len(s))), P50: r(rank(50)), P90: r(rank(90)), P99: r(rank(99)), Max: r(s[len(s)-1])}
}

// ProcessIO is this process's IO counters (/proc/self/io): bytes asked of read and write calls, those calls,
// and the bytes that reached the storage layer. An embedded engine's counters.
func ProcessIO() map[string]float64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return nil
	}
	out := map[string]float64{}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			out["process_"+strings.TrimSpace(k)] = f
		}
	}
	return out
}

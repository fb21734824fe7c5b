package agent

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// The agent's /metrics: its host's last sample in Prometheus's format (CPU busy and its parts, memory, each
// disk's IOPS, throughput, latency and queue depth, each interface's throughput), labelled with the host's
// name, for the Prometheus that watches the database host; behind the agent's token like every other path.

var (
	dCPU     = prometheus.NewDesc("dbdyno_host_cpu_percent", "the host's CPU over the last interval, by mode (busy is all but idle)", []string{"host", "mode"}, nil)
	dMemUsed = prometheus.NewDesc("dbdyno_host_memory_used_bytes", "memory in use", []string{"host"}, nil)
	dMemAll  = prometheus.NewDesc("dbdyno_host_memory_bytes", "the host's memory", []string{"host"}, nil)
	dCores   = prometheus.NewDesc("dbdyno_host_physical_cores", "the host's physical cores", []string{"host"}, nil)
	dIOPS    = prometheus.NewDesc("dbdyno_host_disk_iops", "a disk's reads and writes a second", []string{"host", "device"}, nil)
	dDiskBps = prometheus.NewDesc("dbdyno_host_disk_bytes_per_second", "a disk's throughput, by direction", []string{"host", "device", "direction"}, nil)
	dDiskLat = prometheus.NewDesc("dbdyno_host_disk_latency_seconds", "a disk's mean IO latency", []string{"host", "device"}, nil)
	dDiskQD  = prometheus.NewDesc("dbdyno_host_disk_queue_depth", "a disk's mean requests in flight", []string{"host", "device"}, nil)
	dNetBps  = prometheus.NewDesc("dbdyno_host_network_bytes_per_second", "an interface's throughput, by direction", []string{"host", "interface", "direction"}, nil)
)

// hostCollector collects the last sample.
type hostCollector struct{ s *Server }

func (c hostCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{dCPU, dMemUsed, dMemAll, dCores, dIOPS, dDiskBps, dDiskLat, dDiskQD, dNetBps} {
		ch <- d
	}
}

func (c hostCollector) Collect(ch chan<- prometheus.Metric) {
	h := c.s.host.Hostname
	g := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, append([]string{h}, labels...)...)
	}
	g(dMemAll, float64(c.s.host.MemoryBytes))
	g(dCores, float64(c.s.host.PhysicalCores))
	c.s.mu.Lock()
	var last *Sample
	if n := len(c.s.samples); n > 0 {
		cp := c.s.samples[n-1]
		last = &cp
	}
	c.s.mu.Unlock()
	if last == nil {
		return // no interval sampled yet
	}
	for mode, v := range map[string]float64{"busy": last.CPUBusy, "user": last.CPUUser, "system": last.CPUSystem, "iowait": last.CPUIowait, "steal": last.CPUSteal} {
		g(dCPU, v, mode)
	}
	g(dMemUsed, float64(last.MemUsed))
	for dev, d := range last.Disks {
		g(dIOPS, d.IOPS, dev)
		g(dDiskBps, d.ReadMBs*1e6, dev, "read") // the sample's MB/s are 10^6 bytes
		g(dDiskBps, d.WriteMBs*1e6, dev, "write")
		g(dDiskLat, d.LatencyMs/1000, dev)
		g(dDiskQD, d.QueueDepth, dev)
	}
	for ifc, n := range last.Net {
		g(dNetBps, n.RxMBs*1e6, ifc, "receive")
		g(dNetBps, n.TxMBs*1e6, ifc, "transmit")
	}
}

// metricsHandler serves the host's figures.
func (s *Server) metricsHandler() http.HandlerFunc {
	reg := prometheus.NewRegistry()
	reg.MustRegister(hostCollector{s})
	h := promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	return h.ServeHTTP
}

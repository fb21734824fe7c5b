// Package monitor records a host's block devices, CPU and memory for hours or weeks (dbdyno monitor) and turns
// the recording into the storage-planning study's requirements checklist: per period, the 50th/90th/99th
// percentiles of IOPS, read and write shares, request size, throughput, latency, queue depth, CPU and memory.
package monitor

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Counters are one block device's cumulative counters from /proc/diskstats (the kernel's
// Documentation/admin-guide/iostats.rst): completed reads and writes, sectors (512 bytes), milliseconds spent,
// milliseconds doing IO, and the weighted milliseconds (time in queue) that give the average queue depth.
type Counters struct {
	Reads, ReadSectors, ReadMs    uint64
	Writes, WriteSectors, WriteMs uint64
	IOMs, WeightedMs              uint64
}

// ParseDiskstats reads /proc/diskstats' text: device name to counters.
func ParseDiskstats(r io.Reader) (map[string]Counters, error) {
	out := map[string]Counters{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) < 14 {
			return nil, fmt.Errorf("diskstats line %d: %d fields, want at least 14", n, len(f))
		}
		v := make([]uint64, 11)
		for i := range v {
			x, err := strconv.ParseUint(f[3+i], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("diskstats line %d (%s): field %d: %v", n, f[2], 4+i, err)
			}
			v[i] = x
		}
		out[f[2]] = Counters{Reads: v[0], ReadSectors: v[2], ReadMs: v[3], Writes: v[4], WriteSectors: v[6], WriteMs: v[7],
			IOMs: v[9], WeightedMs: v[10]}
	}
	return out, sc.Err()
}

// Delta is what one device did in one interval: counts, bytes and milliseconds.
type Delta struct {
	Reads      uint64 `json:"r"`
	Writes     uint64 `json:"w"`
	ReadBytes  uint64 `json:"rb"`
	WriteBytes uint64 `json:"wb"`
	ReadMs     uint64 `json:"rms"`
	WriteMs    uint64 `json:"wms"`
	IOMs       uint64 `json:"ioms"`
	WeightedMs uint64 `json:"qms"`
}

// sub is b minus a, 0 where a counter went backwards (a device replaced under the same name).
func sub(a, b uint64) uint64 {
	if b < a {
		return 0
	}
	return b - a
}

// Between is the devices' deltas from one snapshot to the next; devices of prev missing from cur are listed in
// missing (the interval records the rest).
func Between(prev, cur map[string]Counters, keep func(string) bool) (map[string]Delta, []string) {
	out := map[string]Delta{}
	var missing []string
	for name, p := range prev {
		if keep != nil && !keep(name) {
			continue
		}
		c, ok := cur[name]
		if !ok {
			missing = append(missing, name)
			continue
		}
		out[name] = Delta{Reads: sub(p.Reads, c.Reads), Writes: sub(p.Writes, c.Writes),
			ReadBytes: 512 * sub(p.ReadSectors, c.ReadSectors), WriteBytes: 512 * sub(p.WriteSectors, c.WriteSectors),
			ReadMs: sub(p.ReadMs, c.ReadMs), WriteMs: sub(p.WriteMs, c.WriteMs), IOMs: sub(p.IOMs, c.IOMs), WeightedMs: sub(p.WeightedMs, c.WeightedMs)}
	}
	return out, missing
}

// Sample is one recorded interval: it ended at At and lasted Seconds.
type Sample struct {
	At       time.Time        `json:"at"`
	Seconds  float64          `json:"s"`
	Devices  map[string]Delta `json:"dev"`
	Missing  []string         `json:"missing,omitempty"` // devices that vanished during the interval
	CPU      float64          `json:"cpu"`               // busy %, all cores
	MemUsed  uint64           `json:"mem"`               // bytes
	MemTotal uint64           `json:"mem_total"`
	TPS      *float64         `json:"tps,omitempty"` // the database's transactions a second (--target)
	// First marks the first interval after the recording started (or restarted): the time since the previous
	// sample is a gap, not an interval.
	First bool `json:"first,omitempty"`
	// Traced is each device's issued requests counted random or sequential from the block layer's trace
	// (see trace.go); nil when the recording does not trace.
	Traced map[string]Traced `json:"trace,omitempty"`
	// NoTrace says why the recording does not trace (on its first interval).
	NoTrace string `json:"no_trace,omitempty"`
	// TraceLost is the trace events the buffer dropped in the interval (all devices): the shares are then
	// those of a sample of the requests.
	TraceLost uint64 `json:"trace_lost,omitempty"`
}

// Traced is one device's requests issued in an interval, from the block layer's trace: a request is
// sequential when it starts where one of the device's recent requests of the same direction ended.
type Traced struct {
	Random     uint64 `json:"rnd"`
	Sequential uint64 `json:"seq"`
}

var partition = regexp.MustCompile(`^((sd|vd|xvd|hd)[a-z]+\d+|(nvme\d+n\d+|mmcblk\d+|nbd\d+)p\d+)$`)

// WholeDisk says whether a diskstats name is a device to record: not a partition (its IO is counted in its
// disk's too), a loop device or a RAM disk.
func WholeDisk(name string) bool {
	for _, p := range []string{"loop", "ram", "zram", "fd", "sr"} {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	return !partition.MatchString(name)
}

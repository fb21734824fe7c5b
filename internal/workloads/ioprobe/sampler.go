package ioprobe

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// sampler reads the clones' counters every interval of the measured window (the series and a progress line),
// and the process's CPU and the device's counters at the window's start and end.
type sampler struct {
	w        *window
	clones   []*clone
	interval time.Duration
	out      io.Writer
	dev      string
	series   []result.IOSecond
	done     chan int64
	finished chan struct{}

	started       bool
	ru0, ru1      unix.Rusage
	d0, d1        diskCounters
	t0, t1        int64
	prevIOs       [2]int64
	prevBytes     [2]int64
	prevLat       int64
	prevDev       diskCounters
	prevT         int64
	devOK0, devOK bool
}

func startSampler(w *window, clones []*clone, interval time.Duration, out io.Writer) *sampler {
	s := &sampler{w: w, clones: clones, interval: interval, out: out, done: make(chan int64), finished: make(chan struct{})}
	if len(clones) > 0 {
		s.dev = clones[0].file.DevName
	}
	go s.loop()
	return s
}

func (s *sampler) begin(at int64) {
	s.started, s.t0, s.prevT = true, at, at
	unix.Getrusage(unix.RUSAGE_SELF, &s.ru0)
	s.d0, s.devOK0 = readDiskstats(s.dev)
	s.prevDev = s.d0
}

func (s *sampler) loop() {
	defer close(s.finished)
	wait := time.Duration(s.w.measure - s.w.now())
	if wait > 0 {
		select {
		case last := <-s.done:
			s.end(last)
			return
		case <-time.After(wait):
		}
	}
	s.begin(s.w.now())
	tick := time.NewTicker(s.interval)
	defer tick.Stop()
	for {
		select {
		case last := <-s.done:
			s.end(last)
			return
		case <-tick.C:
			s.sample(s.w.now())
		}
	}
}

func (s *sampler) end(last int64) {
	if !s.started {
		s.begin(last)
	}
	s.t1 = last
	unix.Getrusage(unix.RUSAGE_SELF, &s.ru1)
	s.d1, s.devOK = readDiskstats(s.dev)
	s.devOK = s.devOK && s.devOK0
}

func (s *sampler) stop(last int64) {
	s.done <- last
	<-s.finished
}

func (s *sampler) sample(now int64) {
	var ios, bytes [2]int64
	var lat int64
	for _, c := range s.clones {
		for d := range 2 {
			ios[d] += c.c.ios[d].Load()
			bytes[d] += c.c.bytes[d].Load()
			lat += c.c.latNs[d].Load()
		}
	}
	dt := float64(now-s.prevT) / 1e9
	if dt <= 0 {
		return
	}
	p := result.IOSecond{T: float64(now-s.w.measure) / 1e9,
		ReadIOPS: float64(ios[0]-s.prevIOs[0]) / dt, WriteIOPS: float64(ios[1]-s.prevIOs[1]) / dt,
		ReadMBs: float64(bytes[0]-s.prevBytes[0]) / dt / 1e6, WriteMBs: float64(bytes[1]-s.prevBytes[1]) / dt / 1e6}
	if n := ios[0] + ios[1] - s.prevIOs[0] - s.prevIOs[1]; n > 0 {
		p.MeanLatUs = float64(lat-s.prevLat) / float64(n) / 1e3
	}
	if len(s.clones) > 0 && s.clones[0].live != nil { // the live page's second: IOPS per minute, the mean latency
		s.clones[0].live.Interval(time.Duration(now-s.w.measure), (p.ReadIOPS+p.WriteIOPS)*60, 0, p.MeanLatUs/1000, true)
	}
	if d, ok := readDiskstats(s.dev); ok {
		p.DevReadIOPS = float64(d.reads-s.prevDev.reads) / dt
		p.DevWriteIOPS = float64(d.writes-s.prevDev.writes) / dt
		s.prevDev = d
	}
	s.series = append(s.series, p)
	s.prevIOs, s.prevBytes, s.prevLat, s.prevT = ios, bytes, lat, now
	line := fmt.Sprintf("  %5.0fs", p.T)
	if p.ReadIOPS > 0 || ios[0] > 0 {
		line += fmt.Sprintf("  read %8.0f IOPS %8.1f MB/s", p.ReadIOPS, p.ReadMBs)
	}
	if p.WriteIOPS > 0 || ios[1] > 0 {
		line += fmt.Sprintf("  write %8.0f IOPS %8.1f MB/s", p.WriteIOPS, p.WriteMBs)
	}
	fmt.Fprintf(s.out, "%s  clat mean %.0f µs\n", line, p.MeanLatUs)
}

func (s *sampler) cpu(ios int64) result.IOCPU {
	secs := float64(s.t1-s.t0) / 1e9
	c := result.IOCPU{UserS: tv(s.ru1.Utime) - tv(s.ru0.Utime), SystemS: tv(s.ru1.Stime) - tv(s.ru0.Stime)}
	if secs > 0 {
		c.UserPct, c.SysPct = c.UserS/secs*100, c.SystemS/secs*100
	}
	if ios > 0 {
		c.PerIOUs = (c.UserS + c.SystemS) / float64(ios) * 1e6
	}
	c.Overhead = "user/system/per IO: dbdyno's whole process over the measured window; jobs: the job threads alone, as fio counts a job"
	return c
}

func (s *sampler) disk() *result.IODisk {
	secs := float64(s.t1-s.t0) / 1e9
	if !s.devOK || secs <= 0 {
		return nil
	}
	a, b := s.d0, s.d1
	ms := secs * 1000
	return &result.IODisk{Device: s.dev, ReadIOPS: float64(b.reads-a.reads) / secs, WriteIOPS: float64(b.writes-a.writes) / secs,
		ReadMBs: float64(b.readSectors-a.readSectors) * 512 / secs / 1e6, WriteMBs: float64(b.writeSectors-a.writeSectors) * 512 / secs / 1e6,
		AvgQueue: float64(b.weightedMs-a.weightedMs) / ms, UtilPct: min(100, float64(b.ioMs-a.ioMs)/ms*100)}
}

// diskCounters are one device's line of /proc/diskstats (the kernel's iostats.rst fields).
type diskCounters struct {
	reads, readSectors, writes, writeSectors, ioMs, weightedMs uint64
}

func readDiskstats(dev string) (diskCounters, bool) {
	if dev == "" {
		return diskCounters{}, false
	}
	f, err := os.Open("/proc/diskstats")
	if err != nil {
		return diskCounters{}, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 14 || fs[2] != dev {
			continue
		}
		n := func(i int) uint64 { v, _ := strconv.ParseUint(fs[i], 10, 64); return v }
		return diskCounters{reads: n(3), readSectors: n(5), writes: n(7), writeSectors: n(9), ioMs: n(12), weightedMs: n(13)}, true
	}
	return diskCounters{}, false
}

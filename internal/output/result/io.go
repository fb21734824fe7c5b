package result

import (
	"strconv"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// FormatSize writes a size in fio's binary units: 4k, 1m, 30g, or bytes.
func FormatSize(n int64) string {
	for _, u := range []struct {
		s string
		m int64
	}{{"t", 1 << 40}, {"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}} {
		if n >= u.m && n%u.m == 0 {
			return strconv.FormatInt(n/u.m, 10) + u.s
		}
	}
	return strconv.FormatInt(n, 10)
}

// IO holds a storage probe's run (dbdyno io): the files it used, the warm-up it did, and each test's figures.
type IO struct {
	Files  []IOFile  `json:"files"`
	Warmup *IOWarmup `json:"warmup,omitempty"`
	Tests  []IOTest  `json:"tests"`
	// Requirements are a replayed checklist's (io run --profile): each requirement, what it needs, what the
	// replay measured, met or not.
	Requirements *IORequirements `json:"requirements,omitempty"`
}

// IORequirements is a requirements checklist replayed on the disk: where it came from and its verdicts.
type IORequirements struct {
	Profile    string          `json:"profile"`
	Percentile string          `json:"percentile"`
	Period     string          `json:"period,omitempty"`
	Verdicts   []IORequirement `json:"verdicts"`
}

// IORequirement is one requirement of a replayed checklist.
type IORequirement struct {
	What     string `json:"what"`
	Needed   string `json:"needed"`
	Measured string `json:"measured"`
	Met      bool   `json:"met"`
}

// Met says whether every requirement was met.
func (q *IORequirements) Met() bool {
	for _, v := range q.Verdicts {
		if !v.Met {
			return false
		}
	}
	return true
}

// IOFile is one file or device the tests used.
type IOFile struct {
	Path       string  `json:"path"`
	SizeBytes  int64   `json:"size_bytes"`
	Device     string  `json:"device,omitempty"` // the block device under it, as /proc/diskstats names it
	Filesystem string  `json:"filesystem,omitempty"`
	LaidOut    bool    `json:"laid_out"`           // written by this run before measuring (untimed)
	LayoutS    float64 `json:"layout_s,omitempty"` // the time that took
	// Buffered: direct IO was refused by the filesystem and the jobs used the page cache (their figures then
	// say what the cache does, not the disk).
	Buffered bool `json:"buffered,omitempty"`
}

// IOWarmup is what ran before the measured tests: 1 MiB sequential writes, then reads, each for its time.
type IOWarmup struct {
	WriteS   float64 `json:"write_s"`
	WriteMBs float64 `json:"write_mb_s"`
	ReadS    float64 `json:"read_s"`
	ReadMBs  float64 `json:"read_mb_s"`
}

// IOTest is one test: the jobs that ran at the same time, their figures per direction over the measured
// window, the jobs' own figures, the per-second series, the CPU dbdyno used, the device's counters, and
// Little's law on the figures.
type IOTest struct {
	Name      string      `json:"name"`
	RW        string      `json:"rw"`
	BS        int         `json:"bs"`
	IODepth   int         `json:"iodepth"`
	NumJobs   int         `json:"numjobs"`
	RWMixRead int         `json:"rwmixread"`
	IOEngine  string      `json:"ioengine"`
	Direct    bool        `json:"direct"`
	Buffered  bool        `json:"buffered,omitempty"` // direct IO asked but refused: buffered
	RateIOPS  int         `json:"rate_iops,omitempty"`
	RampS     float64     `json:"ramp_s"`
	RuntimeS  float64     `json:"runtime_s"`
	TimeBased bool        `json:"time_based"`
	Passes    int         `json:"passes"`
	BestPass  int         `json:"best_pass,omitempty"` // the pass kept when several ran (the best by the test's main figure)
	CDM       *IOCDM      `json:"cdm,omitempty"`       // how a CrystalDiskMark preset ran it
	Status    string      `json:"status"`
	Error     string      `json:"error,omitempty"`
	Seconds   float64     `json:"seconds"` // the measured window
	Read      *IODir      `json:"read,omitempty"`
	Write     *IODir      `json:"write,omitempty"`
	Jobs      []IOJob     `json:"jobs"`
	Series    []IOSecond  `json:"series"`
	CPU       IOCPU       `json:"cpu"`
	Disk      *IODisk     `json:"disk,omitempty"`
	Little    *LittlesLaw `json:"littles_law,omitempty"`
	// StartUnixS is when the measured window started (Unix seconds, this host's clock): the merge of shards
	// checks their windows agree.
	StartUnixS float64 `json:"start_unix_s,omitempty"`
}

// IOPS is the test's IOPS over both directions.
func (t *IOTest) IOPS() float64 { return t.both(func(d *IODir) float64 { return d.IOPS }) }

// MBs is the test's MB/s over both directions.
func (t *IOTest) MBs() float64 { return t.both(func(d *IODir) float64 { return d.MBs }) }

func (t *IOTest) both(f func(*IODir) float64) float64 {
	v := 0.0
	for _, d := range []*IODir{t.Read, t.Write} {
		if d != nil {
			v += f(d)
		}
	}
	return v
}

// Latency is the test's completion latency: its read side's, or its write side's when it only writes.
func (t *IOTest) Latency() (IOLatency, bool) {
	switch {
	case t.Read != nil:
		return t.Read.Lat, true
	case t.Write != nil:
		return t.Write.Lat, true
	}
	return IOLatency{}, false
}

// IOCDM is how a CrystalDiskMark preset ran a test, as CrystalDiskMark runs it: a pause before it, an
// unmeasured preparing pass, then the measured passes, the best MB/s kept and the lowest mean latency over them.
type IOCDM struct {
	Row          string    `json:"row"`               // CrystalDiskMark's name for the test: SEQ1M Q8T1, RND4K Q32T1
	IntervalS    float64   `json:"interval_s"`        // the pause before the test
	PrepareS     float64   `json:"prepare_s"`         // the unmeasured preparing pass
	PassMBs      []float64 `json:"pass_mb_s"`         // each measured pass's MB/s (10^6 bytes), in order
	PassMeanUs   []float64 `json:"pass_mean_clat_us"` // each measured pass's mean completion latency
	MinMeanLatUs float64   `json:"min_mean_clat_us"`  // the lowest of them, over the passes that did IO (CrystalDiskMark's latency)
}

// IODir is one direction's figures: IOs, bytes, rates and the completion latency in microseconds, from a
// log-linear histogram (1% relative error) merged over the jobs.
type IODir struct {
	IOs   int64     `json:"ios"`
	Bytes int64     `json:"bytes"`
	IOPS  float64   `json:"iops"`
	MBs   float64   `json:"mb_s"` // 10^6 bytes per second
	Lat   IOLatency `json:"clat_us"`
	// Histogram is the completion latencies in nanoseconds (EncodeHistogram): the merge of shards takes the
	// percentiles of their union from it.
	Histogram string `json:"histogram,omitempty"`
}

// IODirOf is one direction's figures from its IOs, bytes, summed completion latency (ns) and latency
// histogram (ns) over a window of secs: a single run and a merge of shards both compute them here.
func IODirOf(ios, bytes int64, latNs float64, h *hdrhistogram.Histogram, secs float64) *IODir {
	us := func(q float64) float64 { return float64(h.ValueAtPercentile(q)) / 1e3 }
	return &IODir{IOs: ios, Bytes: bytes, IOPS: float64(ios) / secs, MBs: float64(bytes) / secs / 1e6,
		Lat: IOLatency{Min: float64(h.Min()) / 1e3, Mean: latNs / float64(ios) / 1e3, P50: us(50), P90: us(90),
			P95: us(95), P99: us(99), P999: us(99.9), Max: float64(h.Max()) / 1e3}, Histogram: EncodeHistogram(h)}
}

// IOLatency is a completion latency summary in microseconds.
type IOLatency struct {
	Min  float64 `json:"min"`
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p99_9"`
	Max  float64 `json:"max"`
}

// IOJob is one job clone's own figures.
type IOJob struct {
	Job       string  `json:"job"`
	Clone     int     `json:"clone"`
	File      string  `json:"file"`
	ReadIOPS  float64 `json:"read_iops"`
	WriteIOPS float64 `json:"write_iops"`
	ReadMBs   float64 `json:"read_mb_s"`
	WriteMBs  float64 `json:"write_mb_s"`
	MeanLatUs float64 `json:"mean_clat_us"`
	// the clone's own measured window (its job's ramp_time and runtime): its start (Unix seconds) and length
	StartUnixS float64 `json:"start_unix_s,omitempty"`
	Seconds    float64 `json:"seconds,omitempty"`
}

// IOSecond is one interval of the series.
type IOSecond struct {
	T            float64 `json:"t_s"`
	ReadIOPS     float64 `json:"read_iops"`
	WriteIOPS    float64 `json:"write_iops"`
	ReadMBs      float64 `json:"read_mb_s"`
	WriteMBs     float64 `json:"write_mb_s"`
	MeanLatUs    float64 `json:"mean_clat_us"`
	DevReadIOPS  float64 `json:"dev_read_iops,omitempty"`
	DevWriteIOPS float64 `json:"dev_write_iops,omitempty"`
}

// IOCPU is the CPU dbdyno's process used over the measured window.
type IOCPU struct {
	UserS   float64 `json:"user_s"`
	SystemS float64 `json:"system_s"`
	UserPct float64 `json:"user_pct"`   // of one core
	SysPct  float64 `json:"system_pct"` // of one core
	PerIOUs float64 `json:"per_io_us"`  // (user + system) / IOs
	// the job threads alone (each job keeps its thread), as fio counts a job's CPU
	JobsUserS   float64 `json:"jobs_user_s"`
	JobsSystemS float64 `json:"jobs_system_s"`
	JobsPerIOUs float64 `json:"jobs_per_io_us"`
	Overhead    string  `json:"note,omitempty"`
}

// IODisk is the device's own counters (/proc/diskstats) over the measured window.
type IODisk struct {
	Device    string  `json:"device"`
	ReadIOPS  float64 `json:"read_iops"`
	WriteIOPS float64 `json:"write_iops"`
	ReadMBs   float64 `json:"read_mb_s"`
	WriteMBs  float64 `json:"write_mb_s"`
	AvgQueue  float64 `json:"avg_queue_size"`
	UtilPct   float64 `json:"util_pct"`
}

// LittlesLaw checks the figures against each other: the IOs in flight on average (IOPS x the mean time an IO
// spends from its submission's start to its reaping, fio's lat) against the queue depth the jobs kept
// (iodepth x numjobs).
type LittlesLaw struct {
	IOPS         float64 `json:"iops"`
	MeanLatS     float64 `json:"mean_lat_s"`
	ImpliedDepth float64 `json:"implied_depth"`
	Depth        int     `json:"configured_depth"`
}

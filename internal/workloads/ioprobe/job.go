package ioprobe

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Job is one fio job: the options dbdyno takes, with fio's names and meanings.
type Job struct {
	Name      string
	Filename  string // one file every clone of the job shares
	Directory string // or a file per clone in this directory: NAME.N.0, as fio names them
	Device    bool   // Filename is a block device, named with --device
	// (fio joins Directory and Filename when both are given: path)
	Size      int64
	RW        string // read write randread randwrite rw randrw
	BS        int
	IODepth   int
	NumJobs   int
	RWMixRead int
	Direct    bool
	// DirectAsked: direct IO was asked for in so many words (a refusal is then an error, not a fallback).
	DirectAsked bool
	IOEngine    string
	Ramp        time.Duration
	Runtime     time.Duration
	TimeBased   bool
	// RateIOPS and Rate cap each direction (read, write) on its own, as fio's rate_iops=500,200 and
	// rate=1m,500k: IOs or bytes per second, 0 uncapped; a byte rate wins over an IO rate (fio's precedence)
	RateIOPS [2]int
	Rate     [2]int64
	// Blocks are the block sizes per direction when not the one BS (bs=4k,8k, bsrange, bssplit)
	Blocks [2]blockSizes
	Split  [2][]bsShare // bssplit's, which wins over bs and bsrange (as fio)
	// Invalidate drops the file's page cache before the job starts (fio's invalidate, default on);
	// FadviseHint is fio's fadvise_hint: 0, 1 (random or sequential as the job), random, sequential, noreuse
	Invalidate  bool
	FadviseHint string
	// RandRepeat: the same random offsets every run (fio's randrepeat, default on); off: seeded from the clock
	RandRepeat bool
	// BatchSubmit IOs are sent to the kernel at once (fio's iodepth_batch_submit: 1, 0 means iodepth);
	// BatchCompleteMin..BatchCompleteMax are reaped at once when the queue is full (fio's
	// iodepth_batch_complete_min, default 1, 0 polls; _max defaults to the min)
	BatchSubmit      int
	BatchCompleteMin int
	BatchCompleteMax int
	// SubmitOffload: fio's io_submit_mode=offload, IOs kept in flight while a rate cap holds the next back
	// (inline, the default, lets them complete first, as fio's quiesce)
	SubmitOffload bool
	// NoRandomMap: random offsets drawn uniformly (blocks may repeat within a pass, IOs are never trimmed); by
	// default, fio's random map: every block once per pass over the file, each IO trimmed to the blocks not yet
	// done from its start (randommap.go)
	NoRandomMap bool
	// Offset is where the job's region of its file starts, Size bytes from it (--shard on a file the clones
	// share: each shard its own range); CloneLo..CloneHi are the clones this process runs (--shard), both 0 for
	// all NumJobs
	Offset           int64
	CloneLo, CloneHi int
}

// clones are the job's clones this process runs, [lo, hi) of NumJobs.
func (j *Job) clones() (lo, hi int) {
	if j.CloneHi == 0 {
		return 0, j.NumJobs
	}
	return j.CloneLo, j.CloneHi
}

// RWs are fio's rw values (readwrite is rw).
var RWs = []string{"read", "write", "randread", "randwrite", "rw", "randrw"}

// Random says whether offsets are random.
func (j *Job) Random() bool { return strings.HasPrefix(j.RW, "rand") }

// Reads and Writes say which directions the job does.
func (j *Job) Reads() bool  { return j.RW != "write" && j.RW != "randwrite" }
func (j *Job) Writes() bool { return j.RW != "read" && j.RW != "randread" }

// mixRead is the share of reads in per cent.
func (j *Job) mixRead() int {
	switch {
	case !j.Writes():
		return 100
	case !j.Reads():
		return 0
	}
	return j.RWMixRead
}

// Depth is the queue depth one clone keeps (psync runs at 1, as fio caps it).
func (j *Job) Depth() int {
	if j.IOEngine == "psync" {
		return 1
	}
	return j.IODepth
}

// Title names the job's work and load as CrystalDiskMark does: "randread 4k Q32T1".
func (j *Job) Title() string { return j.Work() + fmt.Sprintf(" Q%dT%d", j.Depth(), j.NumJobs) }

// groupTitle names a group of jobs (running together until a stonewall) as Title names one: their work when
// every job does the same, then the load of them all: the queue depth, a range when the jobs' differ (fio's
// aio-read example: Q4-32), and the clones of every job.
func groupTitle(jobs []Job) string {
	work := jobs[0].Work()
	lo, hi, clones := jobs[0].Depth(), jobs[0].Depth(), 0
	for i := range jobs {
		d := jobs[i].Depth()
		lo, hi, clones = min(lo, d), max(hi, d), clones+jobs[i].NumJobs
		if jobs[i].Work() != work {
			work = ""
		}
	}
	q := strconv.Itoa(lo)
	if hi > lo {
		q += "-" + strconv.Itoa(hi)
	}
	load := fmt.Sprintf("Q%sT%d", q, clones)
	if work == "" {
		return load
	}
	return work + " " + load
}

// Work names what the job does without its load: the direction, block size, mix and rate.
func (j *Job) Work() string {
	s := j.RW + " " + j.bsText()
	if j.Reads() && j.Writes() {
		s += fmt.Sprintf(" %d/%d", j.RWMixRead, 100-j.RWMixRead)
	}
	if r := j.rateText(); r != "" {
		s += " rate " + r
	}
	return s
}

// Check says what is wrong with the job, one line naming the fix: each option's check (in the table's order),
// then the buffers the whole job needs.
func (j *Job) Check() error {
	where := ""
	if j.Name != "" && j.Name != defaultName {
		where = "job " + j.Name + ": "
	}
	for i := range options {
		if check := options[i].check; check != nil {
			if err := check(j); err != nil {
				return fmt.Errorf("%s%v", where, err)
			}
		}
	}
	if buf := int64(j.Depth()) * int64(j.maxBS()) * int64(j.NumJobs); buf > 4<<30 {
		return fmt.Errorf("%siodepth x bs x numjobs is %s of buffers: lower one of them", where, result.FormatSize(buf))
	}
	if j.Random() && !j.NoRandomMap {
		// a bit per block of the smallest size, per job clone (fio's axmap)
		if m := j.Size / int64(j.minBS()) / 8 * int64(j.NumJobs); m > 1<<30 {
			return fmt.Errorf("%sthe random map of size/%s x numjobs takes %s of memory: use norandommap=1 (uniform offsets) or a larger smallest block size",
				where, result.FormatSize(int64(j.minBS())), result.FormatSize(m))
		}
	}
	return nil
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ParseTime reads fio's times: a bare number is seconds; or with us, ms, s, m, h, d.
func ParseTime(s string) (time.Duration, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	if t == "" {
		return 0, nil
	}
	if n, err := strconv.ParseFloat(t, 64); err == nil {
		return time.Duration(n * float64(time.Second)), nil
	}
	if strings.HasSuffix(t, "d") {
		n, err := strconv.ParseFloat(strings.TrimSuffix(t, "d"), 64)
		if err == nil {
			return time.Duration(n * 24 * float64(time.Hour)), nil
		}
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0, fmt.Errorf("%q is not a time: use seconds (30) or a unit (500ms, 30s, 2m)", s)
	}
	return d, nil
}

// parseBool reads fio's booleans (0/1, true/false).
func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not 0 or 1", s)
}

// A blockSizes is one direction's block sizes: min..max in multiples of min (fio's bsrange), or a weighted
// split (fio's bssplit, per cent); zero: the job's BS.
type blockSizes struct {
	min, max int
	split    []bsShare
}

type bsShare struct{ size, pct int }

func (b blockSizes) set() bool { return b.min > 0 }

func (b blockSizes) String() string {
	switch {
	case len(b.split) > 0:
		var parts []string
		for _, s := range b.split {
			parts = append(parts, fmt.Sprintf("%s/%d", result.FormatSize(int64(s.size)), s.pct))
		}
		return strings.Join(parts, ":")
	case b.min != b.max:
		return result.FormatSize(int64(b.min)) + "-" + result.FormatSize(int64(b.max))
	}
	return result.FormatSize(int64(b.min))
}

// sizes are direction d's block sizes.
func (j *Job) sizes(d int) blockSizes {
	if sp := j.Split[d]; len(sp) > 0 {
		b := blockSizes{min: sp[0].size, max: sp[0].size, split: sp}
		for _, x := range sp {
			b.min, b.max = min(b.min, x.size), max(b.max, x.size)
		}
		return b
	}
	if j.Blocks[d].set() {
		return j.Blocks[d]
	}
	return blockSizes{min: j.BS, max: j.BS}
}

// variableBS says whether the job has more than the one block size BS.
func (j *Job) variableBS() bool {
	return j.Blocks[0].set() || j.Blocks[1].set() || len(j.Split[0])+len(j.Split[1]) > 0
}

// allSizes are every block size the job may issue, in both directions.
func (j *Job) allSizes() []int {
	var out []int
	for d := range 2 {
		b := j.sizes(d)
		out = append(out, b.min, b.max)
		for _, s := range b.split {
			out = append(out, s.size)
		}
	}
	return out
}

func (j *Job) maxBS() int {
	m := 0
	for _, s := range j.allSizes() {
		m = max(m, s)
	}
	return m
}

func (j *Job) minBS() int {
	m := 0
	for _, s := range j.allSizes() {
		if m == 0 || s < m {
			m = s
		}
	}
	return m
}

// bsText is the block size as the job's name gives it: 4k, or per direction 4k,8k, or a range or split.
func (j *Job) bsText() string {
	r, w := j.sizes(dirRead).String(), j.sizes(dirWrite).String()
	switch {
	case !j.Writes() || r == w:
		return r
	case !j.Reads():
		return w
	}
	return r + "," + w
}

// rateText is the job's cap as fio writes it: 500, or per direction 500,200 (IOs), or 1m,500k (bytes).
func (j *Job) rateText() string {
	two := func(a, b string) string {
		switch {
		case a == b || !j.Writes():
			return a
		case !j.Reads():
			return b
		}
		return a + "," + b
	}
	if j.Rate != [2]int64{} {
		return two(result.FormatSize(j.Rate[0])+"/s", result.FormatSize(j.Rate[1])+"/s")
	}
	if j.RateIOPS != [2]int{} {
		return two(strconv.Itoa(j.RateIOPS[0]), strconv.Itoa(j.RateIOPS[1]))
	}
	return ""
}

// bytesPerSec is direction d's cap in bytes per second (0: none): rate, else rate_iops at the smallest block
// size of the direction, as fio converts it.
func (j *Job) bytesPerSec(d int) int64 {
	if j.Rate[d] > 0 {
		return j.Rate[d]
	}
	return int64(j.RateIOPS[d]) * int64(j.sizes(d).min)
}

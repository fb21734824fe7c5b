package ioprobe

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/dbdyno/dbdyno/internal/lib/aio"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// Job is one fio job: the options dbdyno takes, with fio's names and meanings.
type Job struct {
	Name      string
	Filename  string // one file every clone of the job shares
	Directory string // or a file per clone in this directory: NAME.N.0, as fio names them
	Device    bool   // Filename is a block device, named with --device
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
	RateIOPS    int
	// NoRandomMap: random offsets drawn uniformly (blocks may repeat within a pass); by default, as fio, every
	// block is visited once per pass over the file
	NoRandomMap bool
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

// Work names what the job does without its load: the direction, block size, mix and rate.
func (j *Job) Work() string {
	s := j.RW + " " + result.FormatSize(int64(j.BS))
	if j.Reads() && j.Writes() {
		s += fmt.Sprintf(" %d/%d", j.RWMixRead, 100-j.RWMixRead)
	}
	if j.RateIOPS > 0 {
		s += fmt.Sprintf(" rate %d", j.RateIOPS)
	}
	return s
}

// Check says what is wrong with the job, one line naming the fix.
func (j *Job) Check() error {
	where := ""
	if j.Name != "" && j.Name != defaultName {
		where = "job " + j.Name + ": "
	}
	bad := func(f string, a ...any) error { return fmt.Errorf(where+f, a...) }
	switch {
	case j.Filename == "" && j.Directory == "":
		return bad("no file: give --filename PATH or --directory DIR")
	case j.Filename != "" && j.Directory != "":
		return bad("--filename and --directory are both given: give one")
	case !has(RWs, j.RW):
		return bad("rw=%s: use one of %s", j.RW, strings.Join(RWs, ", "))
	case j.BS <= 0:
		return bad("bs must be positive (got %d)", j.BS)
	case j.Direct && j.BS%512 != 0:
		return bad("bs=%s is not a multiple of 512, which direct IO needs: use a multiple of 512 (4k, 8k) or --direct=0", result.FormatSize(int64(j.BS)))
	case j.Size <= 0:
		return bad("size must be given and positive, e.g. --size 1g")
	case j.Size < int64(j.BS):
		return bad("size %s is smaller than bs %s: make --size at least one block", result.FormatSize(j.Size), result.FormatSize(int64(j.BS)))
	case j.IODepth < 1:
		return bad("iodepth must be at least 1 (got %d)", j.IODepth)
	case j.IODepth > 65536:
		return bad("iodepth %d is more than 65536", j.IODepth)
	case j.NumJobs < 1:
		return bad("numjobs must be at least 1 (got %d)", j.NumJobs)
	case j.RWMixRead < 0 || j.RWMixRead > 100:
		return bad("rwmixread=%d is outside 0..100: give the share of reads in per cent", j.RWMixRead)
	case !has(aio.Engines, j.IOEngine):
		return bad("ioengine=%s: use one of %s", j.IOEngine, strings.Join(aio.Engines, ", "))
	case j.Ramp < 0 || j.Runtime < 0:
		return bad("ramp_time and runtime cannot be negative")
	case j.TimeBased && j.Runtime == 0:
		return bad("time_based needs a runtime, e.g. --runtime 30")
	case j.RateIOPS < 0:
		return bad("rate_iops cannot be negative")
	case int64(j.Depth())*int64(j.BS)*int64(j.NumJobs) > 4<<30:
		return bad("iodepth x bs x numjobs is %s of buffers: lower one of them", result.FormatSize(int64(j.Depth())*int64(j.BS)*int64(j.NumJobs)))
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

// ParseSize reads fio's sizes: bytes, or with k/m/g/t (and KiB, MB ...: fio's default kb_base=1024 counts
// them all in powers of 1024).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' })
	num, suf := t, ""
	if i >= 0 {
		num, suf = t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	}
	suf = strings.TrimSuffix(strings.TrimSuffix(suf, "b"), "i")
	mult := map[string]int64{"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}[suf]
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || f < 0 {
		return 0, fmt.Errorf("%q is not a size: use bytes or a number with k, m, g or t (4k, 1m, 30g)", s)
	}
	return int64(f * float64(mult)), nil
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

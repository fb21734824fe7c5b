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
	if buf := int64(j.Depth()) * int64(j.BS) * int64(j.NumJobs); buf > 4<<30 {
		return fmt.Errorf("%siodepth x bs x numjobs is %s of buffers: lower one of them", where, result.FormatSize(buf))
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

package ioprobe

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Test is what runs at one time: one or more jobs (each with its clones) started together, as fio runs the
// jobs of a file between stonewalls. Passes > 1 runs it that many times and keeps the best (CrystalDiskMark).
type Test struct {
	Name   string
	Jobs   []Job
	Passes int
}

// fioDefaults are fio's own defaults, which a job file starts from (the CLI has dbdyno's: see flags).
func fioDefaults() Job {
	return Job{Name: defaultName, RW: "read", BS: 4096, IODepth: 1, NumJobs: 1, RWMixRead: 50, IOEngine: "psync"}
}

const defaultName = "dbdyno"

// Options are the fio options dbdyno takes; a job file naming any other is refused.
var Options = []string{"name", "description", "filename", "directory", "size", "rw", "readwrite", "bs", "blocksize",
	"iodepth", "numjobs", "rwmixread", "rwmixwrite", "direct", "buffered", "ioengine", "ramp_time", "runtime",
	"time_based", "rate_iops", "norandommap", "group_reporting", "thread", "stonewall", "wait_for_previous"}

// set applies one fio option to a job.
func set(j *Job, key, val string) error {
	num := func() (int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if err != nil {
			return 0, fmt.Errorf("%s=%s is not a whole number", key, val)
		}
		return n, nil
	}
	var err error
	switch key {
	case "name":
		j.Name = val
	case "description", "group_reporting", "thread", "stonewall", "wait_for_previous":
		// descriptive, or how dbdyno always works (one figure per test, each job kept; jobs as threads)
	case "filename":
		if strings.Contains(val, ":") {
			return fmt.Errorf("filename=%s names several files: give one file per job", val)
		}
		j.Filename = val
	case "directory":
		if strings.Contains(val, ":") {
			return fmt.Errorf("directory=%s names several directories: give one", val)
		}
		j.Directory = val
	case "size":
		j.Size, err = ParseSize(val)
	case "rw", "readwrite":
		j.RW = strings.TrimSpace(val)
		if j.RW == "readwrite" {
			j.RW = "rw"
		}
		if strings.Contains(j.RW, ":") {
			return fmt.Errorf("%s=%s: an offset modifier (:N) is not supported; give the direction alone", key, val)
		}
	case "bs", "blocksize":
		if strings.ContainsAny(val, ",-:") {
			return fmt.Errorf("%s=%s: one block size for reads and writes is supported, e.g. bs=8k", key, val)
		}
		var n int64
		n, err = ParseSize(val)
		j.BS = int(n)
	case "iodepth":
		j.IODepth, err = num()
	case "numjobs":
		j.NumJobs, err = num()
	case "rwmixread":
		j.RWMixRead, err = num()
	case "rwmixwrite":
		var n int
		n, err = num()
		if n < 0 || n > 100 {
			return fmt.Errorf("rwmixwrite=%d is outside 0..100: give the share of writes in per cent", n)
		}
		j.RWMixRead = 100 - n
	case "direct":
		j.Direct, err = parseBool(val)
		j.DirectAsked = j.Direct
	case "buffered":
		var b bool
		b, err = parseBool(val)
		j.Direct, j.DirectAsked = !b, !b
	case "ioengine":
		j.IOEngine = strings.TrimSpace(val)
	case "ramp_time":
		j.Ramp, err = ParseTime(val)
	case "runtime":
		j.Runtime, err = ParseTime(val)
	case "time_based":
		j.TimeBased, err = parseBool(val)
	case "norandommap":
		j.NoRandomMap, err = parseBool(val)
	case "rate_iops":
		if strings.Contains(val, ",") {
			return fmt.Errorf("rate_iops=%s: one rate for reads and writes is supported", val)
		}
		j.RateIOPS, err = num()
	default:
		return fmt.Errorf("fio option %q is not supported by dbdyno io: remove it, or use one of %s", key, strings.Join(Options, ", "))
	}
	if err != nil {
		return fmt.Errorf("%s=%s: %v", key, val, err)
	}
	return nil
}

// ParseJobFile reads a fio job file: a [global] section whose options every job starts from, then job
// sections; jobs run together until one says stonewall (or wait_for_previous), which starts the next test.
// Any option dbdyno does not take is an error naming it and the line.
func ParseJobFile(name string, r io.Reader) ([]Test, error) {
	global := fioDefaults()
	var tests []Test
	var cur *Job
	inGlobal := false
	newTest := false
	flush := func() {
		if cur == nil {
			return
		}
		if len(tests) == 0 || newTest {
			tests = append(tests, Test{Passes: 1})
		}
		t := &tests[len(tests)-1]
		t.Jobs = append(t.Jobs, *cur)
		cur, newTest = nil, false
	}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == ';' || s[0] == '#' {
			continue
		}
		if s[0] == '[' {
			if !strings.HasSuffix(s, "]") {
				return nil, fmt.Errorf("%s:%d: %q is not a section header: use [global] or [jobname]", name, line, s)
			}
			flush()
			sec := strings.TrimSpace(s[1 : len(s)-1])
			if inGlobal = sec == "global"; !inGlobal {
				j := global
				j.Name = sec
				cur = &j
			}
			continue
		}
		key, val, _ := strings.Cut(s, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if i := strings.IndexAny(val, ";#"); i >= 0 && (i == 0 || val[i-1] == ' ' || val[i-1] == '\t') {
			val = strings.TrimSpace(val[:i])
		}
		var target *Job
		switch {
		case inGlobal:
			target = &global
		case cur != nil:
			target = cur
		default:
			return nil, fmt.Errorf("%s:%d: option %q outside a section: put it under [global] or a [job]", name, line, key)
		}
		if (key == "stonewall" || key == "wait_for_previous") && !inGlobal {
			newTest = len(tests) > 0
		}
		if key == "stonewall" && inGlobal {
			return nil, fmt.Errorf("%s:%d: stonewall in [global]: put it in the job that waits", name, line)
		}
		if err := set(target, key, val); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if key == "direct" || key == "buffered" {
			target.DirectAsked = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	flush()
	if len(tests) == 0 {
		return nil, fmt.Errorf("%s holds no job section: add one, e.g. [randread] after [global]", name)
	}
	for i := range tests {
		var names []string
		for k := range tests[i].Jobs {
			j := &tests[i].Jobs[k]
			if err := j.Check(); err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
			names = append(names, j.Name)
		}
		tests[i].Name = strings.Join(names, "+")
		if len(tests[i].Jobs) == 1 {
			tests[i].Name = tests[i].Jobs[0].Title()
		}
	}
	return tests, nil
}

package ioprobe

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/workload"
)

// Test is what runs at one time: one or more jobs (each with its clones) started together, as fio runs the
// jobs of a file between stonewalls. Passes > 1 runs it that many times and keeps the best (CrystalDiskMark).
type Test struct {
	Name   string
	Jobs   []Job
	Passes int
	// StartAt, when set, is the instant (this host's clock) the test's window starts (--start-at: the shards
	// of one run start together): its clones set up first, then wait for it
	StartAt time.Time
	// Live, when set (--metrics-addr, --live), takes each measured IO's completion (as the unit "read" or
	// "write", with its latency), the test's name as the phase, its clones as the users and each second's IOPS
	Live workload.Live
}

// defaultName is the name of a job nothing names (the command line's, or fio's default).
const defaultName = "dbdyno"

// ParseJobFile reads a fio job file: a [global] section whose options every job starts from, then job
// sections; jobs run together until one says stonewall (or wait_for_previous), which starts the next test.
// Any option dbdyno does not take is an error naming it and the line.
func ParseJobFile(name string, r io.Reader) ([]Test, error) {
	return parseJobFile(name, r, fioDefaults())
}

// parseJobFile reads a job file whose jobs start from global (fio's defaults, and the options given on the
// command line before the file, as fio takes them).
func parseJobFile(name string, r io.Reader, global Job) ([]Test, error) {
	var tests []Test
	var cur *Job
	inGlobal := false
	newTest, globalWall := false, false
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
				newTest = globalWall && len(tests) > 0
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
		if key == "stonewall" || key == "wait_for_previous" {
			if inGlobal {
				globalWall = true // every job after waits for the ones before, as fio
			} else {
				newTest = len(tests) > 0
			}
		}
		if err := set(target, key, val); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
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
			if j.Filename == "" && j.Directory == "" {
				j.Directory = "." // fio's: files named after the job in the current directory
			}
			if err := j.Check(); err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
			names = append(names, j.Name)
		}
		// fio's job names kept, with what they do: "seq-read (read 128k Q1T1)", "file1+file2 (randread 128k Q4-32T2)"
		tests[i].Name = strings.Join(names, "+") + " (" + groupTitle(tests[i].Jobs) + ")"
	}
	return tests, nil
}

package ioprobe

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/aio"
	"github.com/dbdyno/dbdyno/internal/lib/units"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Where an option is taken.
const (
	onCLI  = 1 << iota // a flag of dbdyno io run, declared here
	inFile             // a key of a fio job file (and of --matrix, for MatrixKeys)
	own                // a flag of dbdyno io run declared by RunFlags (its kind and help there), placed and applied here
	both   = onCLI | inFile
)

// An option is one of dbdyno io's options, declared once as fio declares its own: its name (fio's, where fio
// has it), the flag of dbdyno io run (kind, dbdyno's default, help), fio's default that a job file starts from,
// how a value sets the job, and the values the job may end with. The command's fio flags, the job-file parser,
// --matrix, a job's checks and the result's fio options are all built from this table: an option is added
// here, once, and means the same from a flag and from a job file. The command's own options (which tests run,
// and how) are RunFlags's fields; the table only places those that set the job among its flags (own).
type option struct {
	name    string
	aliases []string // fio's other names for it in a job file (readwrite, blocksize)
	where   int      // onCLI, inFile, both or own
	kind    workload.Kind
	def     string // the flag's default (dbdyno's), as typed
	fio     string // fio's own default, which a job file starts from ("": the zero value)
	help    string
	sweep   string // a Counts flag's sweep title
	// set applies a value to the job. A form dbdyno cannot honour is refused, never ignored. nil: the option
	// changes no job (descriptive, or how dbdyno always works).
	set func(j *Job, v value) error
	// check says what is wrong with the job's final value (presets and a matrix set theirs after the options),
	// one line naming the fix; Job.Check runs the checks in the table's order.
	check func(j *Job) error
	// unrecorded: not kept in the result's options
	unrecorded bool
}

// options are the table. The order is the flags' and the job-file options' (as listed in messages).
var options = []option{
	{name: "name", where: inFile, fio: defaultName, set: func(j *Job, v value) error { j.Name = v.s; return nil }},
	{name: "description", where: inFile},
	{name: "filename", where: both, kind: workload.String, help: "the file the jobs use (fio's filename); laid out at --size when new",
		set: func(j *Job, v value) error {
			if strings.Contains(v.s, ":") {
				return fmt.Errorf("%s names several files: give one file per job", v)
			}
			j.Filename = v.s
			return nil
		},
		check: func(j *Job) error {
			switch {
			case j.Filename == "" && j.Directory == "":
				return errors.New("no file: give --filename PATH or --directory DIR")
			}
			return nil
		}},
	{name: "directory", where: both, kind: workload.String, help: "or a directory: each job clone uses its own file in it (dbdyno.N.0, as fio names them); with --filename, the file's directory (fio joins them)",
		set: func(j *Job, v value) error {
			if strings.Contains(v.s, ":") {
				return fmt.Errorf("%s names several directories: give one", v)
			}
			j.Directory = v.s
			return nil
		}},
	// the command's own --device (RunFlags.Device), placed here among the flags: it sets the job after filename
	// and directory, before the options that follow
	{name: "device", where: own,
		set: func(j *Job, v value) error {
			if v.s == "" {
				return nil
			}
			if j.Filename != "" || j.Directory != "" {
				return errors.New("--device is given with --filename or --directory: give one")
			}
			j.Filename, j.Device = v.s, true
			return nil
		}},
	// size is checked with bs (the file holds at least one block)
	{name: "size", where: both, kind: workload.String, def: "1g", help: "bytes of the file the jobs use (4k, 64m, 1g, 30g)",
		set: func(j *Job, v value) error { return v.size(&j.Size) }},
	{name: "rw", aliases: []string{"readwrite"}, where: both, kind: workload.String, def: "randread", fio: "read", help: "read, write, randread, randwrite, rw or randrw",
		set: func(j *Job, v value) error {
			rw := strings.TrimSpace(v.s)
			if rw == "readwrite" {
				rw = "rw"
			}
			if strings.Contains(rw, ":") {
				return fmt.Errorf("%s: an offset modifier (:N) is not supported; give the direction alone", v)
			}
			j.RW = rw
			return nil
		},
		check: func(j *Job) error {
			if !has(RWs, j.RW) {
				return fmt.Errorf("rw=%s: use one of %s", j.RW, strings.Join(RWs, ", "))
			}
			return nil
		}},
	{name: "bs", aliases: []string{"blocksize"}, where: both, kind: workload.String, def: "4k", fio: "4k", help: "block size (a multiple of 512 with --direct); 4k,16k: reads 4k, writes 16k",
		set: func(j *Job, v value) error {
			var bs [2]int
			err := perDir(v, func(s string, d int) error {
				if s == "" {
					bs[d] = 4096 // fio's default for a direction left out (bs=,8k)
					return nil
				}
				n, err := units.ParseSize(s)
				if err != nil || n <= 0 || n > 1<<30 {
					return fmt.Errorf("%s: %q is not a block size: give one like 4k or 1m (4k,16k for reads and writes)", v, s)
				}
				bs[d] = int(n)
				return nil
			})
			if err != nil {
				return err
			}
			j.BS, j.Blocks = bs[0], [2]blockSizes{}
			if bs[0] != bs[1] {
				j.Blocks = [2]blockSizes{{min: bs[0], max: bs[0]}, {min: bs[1], max: bs[1]}}
			}
			return nil
		},
		check: func(j *Job) error {
			for _, bs := range j.allSizes() {
				switch {
				case bs <= 0:
					return fmt.Errorf("bs must be positive (got %d)", bs)
				case j.Direct && bs%512 != 0:
					return fmt.Errorf("bs=%s is not a multiple of 512, which direct IO needs: use a multiple of 512 (4k, 8k) or --direct=0", result.FormatSize(int64(bs)))
				}
			}
			switch {
			case j.Size <= 0:
				return errors.New("size must be given and positive, e.g. --size 1g")
			case j.Size < int64(j.maxBS()):
				return fmt.Errorf("size %s is smaller than bs %s: make --size at least one block", result.FormatSize(j.Size), result.FormatSize(int64(j.maxBS())))
			}
			return nil
		}},
	{name: "bsrange", aliases: []string{"blocksize_range"}, where: both, kind: workload.String, help: "block sizes from a range, multiples of its smallest (fio's: 4k-64k; 4k-8k,16k-32k for reads and writes)",
		set: func(j *Job, v value) error {
			if v.s == "" {
				return nil
			}
			var r [2]blockSizes
			err := perDir(v, func(s string, d int) error {
				if s == "" {
					r[d] = blockSizes{min: 4096, max: 4096}
					return nil
				}
				lo, hi, ok := strings.Cut(strings.ReplaceAll(s, ":", "-"), "-")
				a, err1 := units.ParseSize(lo)
				b, err2 := units.ParseSize(hi)
				if !ok || err1 != nil || err2 != nil || a <= 0 || b < a || b > 1<<30 {
					return fmt.Errorf("%s: %q is not a range of block sizes: give it as 4k-64k", v, s)
				}
				r[d] = blockSizes{min: int(a), max: int(b)}
				return nil
			})
			if err != nil {
				return err
			}
			j.BS, j.Blocks = r[0].min, r
			return nil
		}},
	{name: "bssplit", where: both, kind: workload.String, help: "block sizes by share (fio's: 4k/60:64k/40, a share left blank splits the rest; a second list after a comma for writes); wins over bs and bsrange",
		set: func(j *Job, v value) error {
			if v.s == "" {
				return nil
			}
			var split [2][]bsShare
			err := perDir(v, func(s string, d int) error {
				if s == "" {
					return nil
				}
				sum, blank := 0, 0
				for _, part := range strings.Split(s, ":") {
					size, pct, _ := strings.Cut(part, "/")
					n, err := units.ParseSize(size)
					if err != nil || n <= 0 || n > 1<<30 {
						return fmt.Errorf("%s: %q is not a block size and a share: give them as 4k/60:64k/40", v, part)
					}
					p := -1
					if strings.TrimSpace(pct) != "" {
						if p, err = strconv.Atoi(strings.TrimSpace(pct)); err != nil || p < 0 || p > 100 {
							return fmt.Errorf("%s: share %q is not a whole per cent from 0 to 100", v, pct)
						}
						sum += p
					} else {
						blank++
					}
					split[d] = append(split[d], bsShare{int(n), p})
				}
				if sum > 100 || blank == 0 && sum != 100 {
					return fmt.Errorf("%s: the shares add up to %d%%: make them 100", v, sum)
				}
				// blank shares split what is left evenly, as fio fills them in (the last takes the remainder)
				left := 100 - sum
				for i := range split[d] {
					if split[d][i].pct < 0 {
						blank--
						split[d][i].pct = left / (blank + 1)
						if blank == 0 {
							split[d][i].pct = left
						}
						left -= split[d][i].pct
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			j.Split = split
			return nil
		}},
	{name: "iodepth", where: both, kind: workload.Counts, def: "32", fio: "1", help: "IOs each job keeps in flight; a list 1,8,32 sweeps them", sweep: "by queue depth",
		set: func(j *Job, v value) error { return v.int(&j.IODepth) },
		check: func(j *Job) error {
			switch {
			case j.IODepth < 1:
				return fmt.Errorf("iodepth must be at least 1 (got %d)", j.IODepth)
			case j.IODepth > 65536:
				return fmt.Errorf("iodepth %d is more than 65536", j.IODepth)
			}
			return nil
		}},
	{name: "numjobs", where: both, kind: workload.Counts, def: "1", fio: "1", help: "clones of the job running at once; a list sweeps them", sweep: "by jobs",
		set: func(j *Job, v value) error { return v.int(&j.NumJobs) },
		check: func(j *Job) error {
			if j.NumJobs < 1 {
				return fmt.Errorf("numjobs must be at least 1 (got %d)", j.NumJobs)
			}
			return nil
		}},
	{name: "rwmixread", where: both, kind: workload.Int, def: "50", fio: "50", help: "per cent of reads in rw and randrw",
		set: func(j *Job, v value) error { return v.int(&j.RWMixRead) },
		check: func(j *Job) error {
			if j.RWMixRead < 0 || j.RWMixRead > 100 {
				return fmt.Errorf("rwmixread=%d is outside 0..100: give the share of reads in per cent", j.RWMixRead)
			}
			return nil
		}},
	{name: "rwmixwrite", where: inFile,
		set: func(j *Job, v value) error {
			var n int
			if err := v.int(&n); err != nil {
				return err
			}
			if n < 0 || n > 100 {
				return fmt.Errorf("rwmixwrite=%d is outside 0..100: give the share of writes in per cent", n)
			}
			j.RWMixRead = 100 - n
			return nil
		}},
	// DirectAsked: direct or buffered said in so many words (a job file's, a flag given), not a default
	{name: "direct", where: both, kind: workload.Bool, def: "true", help: "O_DIRECT (bypass the page cache); where the filesystem refuses it, the default falls back to buffered IO and says so, and an explicit --direct=1 is an error",
		set: func(j *Job, v value) error {
			err := v.bool(&j.Direct)
			j.DirectAsked = v.given
			return err
		}},
	{name: "buffered", where: inFile,
		set: func(j *Job, v value) error {
			var b bool
			err := v.bool(&b)
			j.Direct, j.DirectAsked = !b, v.given
			return err
		}},
	{name: "ioengine", where: both, kind: workload.String, def: "io_uring", fio: "psync", help: "io_uring, libaio or psync (psync runs at depth 1)",
		set: func(j *Job, v value) error { j.IOEngine = strings.TrimSpace(v.s); return nil },
		check: func(j *Job) error {
			if !has(aio.Engines, j.IOEngine) {
				return fmt.Errorf("ioengine=%s: use one of %s", j.IOEngine, strings.Join(aio.Engines, ", "))
			}
			return nil
		}},
	{name: "ramp_time", where: both, kind: workload.String, def: "0", help: "time run before measuring (fio's: seconds, or 500ms, 2m)",
		set:   func(j *Job, v value) error { return v.time(&j.Ramp) },
		check: func(j *Job) error { return notNegative(j.Ramp) }},
	{name: "runtime", aliases: []string{"timeout"}, where: both, kind: workload.String, def: "30", help: "measured time (seconds, or with a unit); 0 with --time_based=false: one pass over --size",
		set:   func(j *Job, v value) error { return v.time(&j.Runtime) },
		check: func(j *Job) error { return notNegative(j.Runtime) }},
	{name: "time_based", where: both, kind: workload.Bool, def: "true", help: "run for the runtime even when --size is done (--time_based=false stops after size bytes)",
		set: func(j *Job, v value) error { return v.bool(&j.TimeBased) },
		check: func(j *Job) error {
			if j.TimeBased && j.Runtime == 0 {
				return errors.New("time_based needs a runtime, e.g. --runtime 30")
			}
			return nil
		}},
	{name: "rate_iops", where: both, kind: workload.String, def: "0", help: "cap each job at this many IOPS in each direction (500: reads and writes 500 each; 500,200: reads 500, writes 200; 0: no cap)",
		set: func(j *Job, v value) error {
			return perDir(v, func(s string, d int) error {
				if s == "" {
					j.RateIOPS[d] = 0
					return nil
				}
				n, err := strconv.Atoi(strings.TrimSpace(s))
				if err != nil || n < 0 {
					return fmt.Errorf("%s: %q is not a whole number of IOs per second", v, s)
				}
				j.RateIOPS[d] = n
				return nil
			})
		}},
	{name: "rate", where: both, kind: workload.String, def: "0", help: "cap each job at this many bytes per second in each direction (fio's: 10m, or 10m,5m for reads and writes); wins over --rate_iops",
		set: func(j *Job, v value) error {
			return perDir(v, func(s string, d int) error {
				if s == "" {
					j.Rate[d] = 0
					return nil
				}
				n, err := units.ParseSize(s)
				if err != nil || n < 0 {
					return fmt.Errorf("%s: %q is not bytes per second: give it as 10m", v, s)
				}
				j.Rate[d] = n
				return nil
			})
		}},
	{name: "iodepth_batch_submit", aliases: []string{"iodepth_batch"}, where: both, kind: workload.Int, def: "1", fio: "1", help: "IOs sent to the kernel in one call (fio's: 1, each IO as soon as it is ready; 0: iodepth)",
		set: func(j *Job, v value) error { return v.int(&j.BatchSubmit) },
		check: func(j *Job) error {
			if j.BatchSubmit < 0 || j.BatchCompleteMin < 0 || j.BatchCompleteMax < 0 {
				return errors.New("iodepth_batch_submit, iodepth_batch_complete_min and _max cannot be negative")
			}
			return nil
		}},
	{name: "iodepth_batch_complete_min", aliases: []string{"iodepth_batch_complete"}, where: both, kind: workload.Int, def: "1", fio: "1", help: "IOs to wait for when the queue is full (fio's: 1; 0 polls without waiting)",
		set: func(j *Job, v value) error { return v.int(&j.BatchCompleteMin) }},
	{name: "iodepth_batch_complete_max", where: both, kind: workload.Int, def: "0", help: "most IOs reaped in one call (fio's: as many as iodepth_batch_complete_min when 0 or below it)",
		set: func(j *Job, v value) error { return v.int(&j.BatchCompleteMax) }},
	{name: "invalidate", where: both, kind: workload.Bool, def: "true", fio: "1", help: "drop the file's page cache before each job (fio's, on by default: buffered reads then come from the disk)",
		set: func(j *Job, v value) error { return v.bool(&j.Invalidate) }},
	{name: "fadvise_hint", where: both, kind: workload.String, def: "1", fio: "1", help: "posix_fadvise hint on each job's file (fio's): 1 random or sequential as the job, 0 none, random, sequential, noreuse",
		set: func(j *Job, v value) error {
			h := strings.TrimSpace(v.s)
			if !has([]string{"0", "1", "random", "sequential", "noreuse"}, h) {
				return fmt.Errorf("%s: use 0, 1, random, sequential or noreuse", v)
			}
			j.FadviseHint = h
			return nil
		}},
	{name: "randrepeat", aliases: []string{"allrandrepeat"}, where: both, kind: workload.Bool, def: "true", fio: "1", help: "the same random offsets every run (fio's, on by default); 0 seeds them from the clock",
		set: func(j *Job, v value) error { return v.bool(&j.RandRepeat) }},
	// how a job waits when its rate cap holds the next IO back: inline (fio's default) lets the IOs in flight
	// complete first, offload keeps them in flight
	{name: "io_submit_mode", where: inFile,
		set: func(j *Job, v value) error {
			m := strings.TrimSpace(v.s)
			if m != "inline" && m != "offload" {
				return fmt.Errorf("%s: use inline or offload", v)
			}
			j.SubmitOffload = m == "offload"
			return nil
		}},
	{name: "norandommap", where: both, kind: workload.Bool, help: "draw random offsets uniformly (blocks may repeat); by default every block is visited once per pass, as fio's random map",
		set: func(j *Job, v value) error { return v.bool(&j.NoRandomMap) }},
	// how dbdyno always works: one figure per test, each job's kept; jobs as threads; a job file's stonewall
	// and wait_for_previous start the next test (ParseJobFile)
	{name: "group_reporting", where: both, kind: workload.Bool, help: "accepted for fio's sake: dbdyno always reports one figure per test and keeps each job's", unrecorded: true},
	{name: "thread", aliases: []string{"threads"}, where: inFile}, // threads=1 in fio's steadystate and waitfor examples
	{name: "stonewall", where: inFile},
	{name: "wait_for_previous", where: inFile},
}

// Options are the fio options dbdyno takes in a job file (with fio's other names for them); a job file naming
// any other is refused.
var Options = fileOptions()

func fileOptions() []string {
	var out []string
	for _, o := range options {
		if o.where&inFile != 0 {
			out = append(out, o.name)
			out = append(out, o.aliases...)
		}
	}
	return out
}

// flags are dbdyno io run's flags: the table's, with the command's own (ownFlags, RunFlags's) where the table
// places them and the others after, in their order.
func flags(ownFlags []workload.Flag) []workload.Flag {
	var out []workload.Flag
	placed := map[string]bool{}
	for _, o := range options {
		switch {
		case o.where&onCLI != 0:
			out = append(out, workload.Flag{Name: o.name, Kind: o.kind, Default: o.def, Help: o.help, SweepTitle: o.sweep})
		case o.where&own != 0:
			i := indexOf(ownFlags, o.name)
			if i < 0 {
				panic("ioprobe: the table places --" + o.name + ", which RunFlags does not declare") // a mistake in the table
			}
			out = append(out, ownFlags[i])
			placed[o.name] = true
		}
	}
	for _, f := range ownFlags {
		if !placed[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

func indexOf(fs []workload.Flag, name string) int {
	for i, f := range fs {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// jobFlags are the fio options on the command line that set the job; a job file sets them itself.
func jobFlags() []string {
	var out []string
	for _, o := range options {
		if o.where == both && o.set != nil {
			out = append(out, o.name)
		}
	}
	return out
}

// fileOption is the option a job file or --matrix names key by (fio's name or another of fio's), nil if dbdyno
// does not take it there.
func fileOption(key string) *option {
	for i := range options {
		if o := &options[i]; o.where&inFile != 0 && (o.name == key || has(o.aliases, key)) {
			return o
		}
	}
	return nil
}

// set applies one fio option, as a job file or --matrix gives it, to a job.
func set(j *Job, key, val string) error {
	o := fileOption(key)
	if o == nil {
		return fmt.Errorf("fio option %q is not supported by dbdyno io: remove it, or use one of %s", key, strings.Join(Options, ", "))
	}
	if o.set == nil {
		return nil
	}
	return o.set(j, value{key: key, s: val, given: true})
}

// fioDefaults are fio's own defaults, which a job file starts from (the command line has dbdyno's).
func fioDefaults() Job {
	var j Job
	for i := range options {
		if o := &options[i]; o.fio != "" {
			if err := o.set(&j, value{key: o.name, s: o.fio}); err != nil {
				panic("ioprobe: fio's default " + o.name + "=" + o.fio + ": " + err.Error()) // a mistake in the table
			}
		}
	}
	return j
}

// cliJob is the job the command line's options describe: each flag's value (given or dbdyno's default) set as
// the job file's option of that name would set it (and the command's own that the table places, as its set says).
func cliJob(v *workload.Values) (Job, error) {
	j := Job{Name: defaultName}
	for i := range options {
		o := &options[i]
		if o.where&(onCLI|own) == 0 || o.set == nil {
			continue
		}
		if err := o.set(&j, value{key: o.name, s: flagText(v, o), flag: true, given: v.Changed(o.name)}); err != nil {
			return j, err
		}
	}
	return j, nil
}

// fileDefaults are what a job file's jobs start from: fio's defaults, with the fio options given on the
// command line set over them (fio's options before a job file).
func fileDefaults(v *workload.Values) (Job, error) {
	j := fioDefaults()
	for i := range options {
		o := &options[i]
		if o.where == both && o.set != nil && v.Changed(o.name) {
			if err := o.set(&j, value{key: o.name, s: flagText(v, o), flag: true, given: true}); err != nil {
				return j, err
			}
		}
	}
	return j, nil
}

// flagText is a flag's value as a job file would write it.
func flagText(v *workload.Values, o *option) string {
	f, _ := v.Flag(o.name)
	switch f.Kind {
	case workload.Bool:
		if v.Bool(o.name) {
			return "1"
		}
		return "0"
	case workload.Int:
		return strconv.Itoa(v.Int(o.name))
	case workload.Counts:
		return strconv.Itoa(v.Count(o.name))
	}
	return v.String(o.name)
}

// recorded are the table's options the result keeps, by their plan keys (RunFlags.record adds the command's
// own).
func recorded(v *workload.Values) map[string]any {
	out := map[string]any{}
	for _, o := range options {
		if o.where&onCLI == 0 || o.unrecorded {
			continue
		}
		f, _ := v.Flag(o.name)
		switch f.Kind {
		case workload.Counts:
			out[f.PlanKey()] = v.Count(o.name)
		case workload.Bool:
			out[f.PlanKey()] = v.Bool(o.name)
		case workload.Int:
			out[f.PlanKey()] = v.Int(o.name)
		case workload.Duration:
			out[f.PlanKey()] = v.Duration(o.name).Seconds()
		case workload.Strings:
			out[f.PlanKey()] = strings.Join(v.Strings(o.name), " ")
		default:
			out[f.PlanKey()] = v.String(o.name)
		}
	}
	return out
}

// A value is an option's value as a job file, --matrix or the command line gave it; it words the messages.
type value struct {
	key   string // the name it was given by: fio's, or another of fio's for it
	s     string
	flag  bool // from the command line
	given bool // said in so many words: a job file's or --matrix's, or a flag given (not its default)
}

// String is the value as written: size=1x in a job file, --size 1x on the command line.
func (v value) String() string {
	if v.flag {
		return "--" + v.key + " " + v.s
	}
	return v.key + "=" + v.s
}

// bad words a value that does not read: "size=1x: ..." from a job file, "--size: ..." from the command line.
func (v value) bad(err error) error {
	if v.flag {
		return fmt.Errorf("--%s: %v", v.key, err)
	}
	return fmt.Errorf("%s=%s: %v", v.key, v.s, err)
}

func (v value) int(to *int) error {
	n, err := strconv.Atoi(strings.TrimSpace(v.s))
	if err != nil {
		return v.bad(fmt.Errorf("%s=%s is not a whole number", v.key, v.s))
	}
	*to = n
	return nil
}

func (v value) size(to *int64) error {
	n, err := units.ParseSize(v.s)
	if err != nil {
		return v.bad(err)
	}
	*to = n
	return nil
}

func (v value) time(to *time.Duration) error {
	d, err := ParseTime(v.s)
	if err != nil {
		return v.bad(err)
	}
	*to = d
	return nil
}

func (v value) bool(to *bool) error {
	b, err := parseBool(v.s)
	if err != nil {
		return v.bad(err)
	}
	*to = b
	return nil
}

func notNegative(d time.Duration) error {
	if d < 0 {
		return errors.New("ramp_time and runtime cannot be negative")
	}
	return nil
}

// perDir reads a value given per direction as fio does: one value for reads and writes, or "reads,writes"
// (a value left blank is the default, passed as ""; a third, for trims, is accepted and not used: dbdyno does
// no trims).
func perDir(v value, set func(s string, d int) error) error {
	parts := strings.Split(strings.TrimSpace(v.s), ",")
	if len(parts) > 3 {
		return fmt.Errorf("%s: give at most reads,writes,trims", v)
	}
	if err := set(strings.TrimSpace(parts[0]), dirRead); err != nil {
		return err
	}
	w := parts[0]
	if len(parts) > 1 {
		w = parts[1]
	}
	return set(strings.TrimSpace(w), dirWrite)
}

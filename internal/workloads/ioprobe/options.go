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
			case j.Filename != "" && j.Directory != "":
				return errors.New("--filename and --directory are both given: give one")
			}
			return nil
		}},
	{name: "directory", where: both, kind: workload.String, help: "or a directory: each job clone uses its own file in it (dbdyno.N.0, as fio names them)",
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
	{name: "bs", aliases: []string{"blocksize"}, where: both, kind: workload.String, def: "4k", fio: "4k", help: "block size (a multiple of 512 with --direct)",
		set: func(j *Job, v value) error {
			if strings.ContainsAny(v.s, ",-:") {
				return fmt.Errorf("%s: one block size for reads and writes is supported, e.g. bs=8k", v)
			}
			var n int64
			if err := v.size(&n); err != nil {
				return err
			}
			j.BS = int(n)
			return nil
		},
		check: func(j *Job) error {
			switch {
			case j.BS <= 0:
				return fmt.Errorf("bs must be positive (got %d)", j.BS)
			case j.Direct && j.BS%512 != 0:
				return fmt.Errorf("bs=%s is not a multiple of 512, which direct IO needs: use a multiple of 512 (4k, 8k) or --direct=0", result.FormatSize(int64(j.BS)))
			case j.Size <= 0:
				return errors.New("size must be given and positive, e.g. --size 1g")
			case j.Size < int64(j.BS):
				return fmt.Errorf("size %s is smaller than bs %s: make --size at least one block", result.FormatSize(j.Size), result.FormatSize(int64(j.BS)))
			}
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
	{name: "runtime", where: both, kind: workload.String, def: "30", help: "measured time (seconds, or with a unit); 0 with --time_based=false: one pass over --size",
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
	{name: "rate_iops", where: both, kind: workload.Int, def: "0", help: "cap each job at this many IOPS (0: no cap)",
		set: func(j *Job, v value) error {
			if strings.Contains(v.s, ",") {
				return fmt.Errorf("%s: one rate for reads and writes is supported", v)
			}
			return v.int(&j.RateIOPS)
		},
		check: func(j *Job) error {
			if j.RateIOPS < 0 {
				return errors.New("rate_iops cannot be negative")
			}
			return nil
		}},
	{name: "norandommap", where: both, kind: workload.Bool, help: "draw random offsets uniformly (blocks may repeat); by default every block is visited once per pass, as fio's random map",
		set: func(j *Job, v value) error { return v.bool(&j.NoRandomMap) }},
	// how dbdyno always works: one figure per test, each job's kept; jobs as threads; a job file's stonewall
	// and wait_for_previous start the next test (ParseJobFile)
	{name: "group_reporting", where: both, kind: workload.Bool, help: "accepted for fio's sake: dbdyno always reports one figure per test and keeps each job's", unrecorded: true},
	{name: "thread", where: inFile},
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

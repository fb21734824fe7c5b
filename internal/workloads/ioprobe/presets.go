package ioprobe

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// A preset is a list of tests from the studies this probe reproduces; each test starts from the command's
// job (file, size, engine, direct, runtime) and sets its own direction, block size and load.
type preset struct {
	help    string
	passes  int
	size    int64         // the preset's default --size
	runtime time.Duration // its default --runtime (time based)
	tests   []step
	cdm     *cdmProfile // a CrystalDiskMark profile: run as CrystalDiskMark runs it (cdm.go)
}

type step struct {
	rw        string
	bs        int
	depth     int
	jobs      int
	rwmixread int
	title     string
}

var presets = map[string]preset{
	// CrystalDiskMark 8's profiles (cdm.go): its default, and its NVMe SSD setting
	"crystaldiskmark":      cdmDefault.asPreset(),
	"crystaldiskmark-nvme": cdmNVMe.asPreset(),
	"crystaldiskmark3":     cdm3.asPreset(),
	// The cloud premium-storage design guide: maximum IOPS with 8K random IO at queue depth 128 over 4 workers,
	// maximum throughput with 64K and 1M sequential IO; 30 s runs.
	"premium-storage": {help: "the premium-storage guide's max IOPS (8K random read and write, QD128 x 4 jobs) and max throughput (64K and 1M sequential read and write); 30 s each",
		passes: 1, size: 4 << 30, runtime: 30 * time.Second, tests: []step{
			{"randread", 8 << 10, 128, 4, 0, "max IOPS 8K random read"}, {"randwrite", 8 << 10, 128, 4, 0, "max IOPS 8K random write"},
			{"read", 64 << 10, 128, 4, 0, "max throughput 64K sequential read"}, {"write", 64 << 10, 128, 4, 0, "max throughput 64K sequential write"},
			{"read", 1 << 20, 16, 4, 0, "max throughput 1M sequential read"}, {"write", 1 << 20, 16, 4, 0, "max throughput 1M sequential write"},
		}},
	// What SQL Server does to its disks: 8K random 70/30 for OLTP data pages, 64K and 256K sequential reads for
	// scans and read-ahead, 60K sequential log writes at queue depth 1.
	"sqlserver": {help: "SQL Server's IO: 8K random 70/30 OLTP (QD8 x 4), 64K and 256K sequential reads as scans (QD8), 60K sequential log writes at QD1; 30 s each",
		passes: 1, size: 4 << 30, runtime: 30 * time.Second, tests: []step{
			{"randrw", 8 << 10, 8, 4, 70, "OLTP 8K random 70/30"},
			{"read", 64 << 10, 8, 1, 0, "scan 64K sequential read"}, {"read", 256 << 10, 8, 1, 0, "scan 256K sequential read"},
			{"write", 60 << 10, 1, 1, 0, "log 60K sequential write QD1"},
		}},
}

// Presets lists the presets' names.
func Presets() []string {
	var out []string
	for n := range presets {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// PresetHelp describes the presets for --help.
func PresetHelp() string {
	var b strings.Builder
	for _, n := range Presets() {
		line := "  " + n + ":"
		for _, word := range strings.Fields(presets[n].help) {
			if len(line)+1+len(word) > 100 {
				b.WriteString(line + "\n")
				line = "   "
			}
			line += " " + word
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// presetTests makes a preset's tests from the command's job; sizeGiven/runtimeGiven keep the user's --size
// and --runtime over the preset's.
func presetTests(name string, base Job, sizeGiven, runtimeGiven bool) ([]Test, error) {
	p, ok := presets[name]
	if !ok {
		return nil, fmt.Errorf("--preset %s: use one of %s", name, strings.Join(Presets(), ", "))
	}
	if !sizeGiven {
		base.Size = p.size
	}
	if !runtimeGiven {
		base.Runtime = p.runtime
	}
	base.TimeBased = true
	if p.cdm != nil {
		base = cdmShared(base)
	}
	var out []Test
	for _, s := range p.tests {
		j := base
		j.RW, j.BS, j.IODepth, j.NumJobs = s.rw, s.bs, s.depth, s.jobs
		if s.rwmixread > 0 {
			j.RWMixRead = s.rwmixread
		}
		if err := j.Check(); err != nil {
			return nil, fmt.Errorf("--preset %s, %s: %v", name, s.title, err)
		}
		out = append(out, Test{Name: s.title, Jobs: []Job{j}, Passes: p.passes})
	}
	return out, nil
}

// MatrixKeys are the options --matrix may vary.
var MatrixKeys = []string{"bs", "iodepth", "numjobs", "rw", "rwmixread", "ioengine"}

// matrixTests makes one test per combination of the --matrix values ("bs=4k,8k iodepth=1,32 rw=randread"),
// the first option varying slowest.
func matrixTests(spec []string, base Job) ([]Test, error) {
	type axis struct {
		key  string
		vals []string
	}
	var axes []axis
	seen := map[string]bool{}
	for _, s := range spec {
		for _, part := range strings.Fields(s) {
			k, v, ok := strings.Cut(part, "=")
			if !ok || v == "" {
				return nil, fmt.Errorf("--matrix %q: use option=v1,v2 (e.g. bs=4k,64k iodepth=1,32)", part)
			}
			if !has(MatrixKeys, k) {
				return nil, fmt.Errorf("--matrix %s: %s cannot vary; use %s", part, k, strings.Join(MatrixKeys, ", "))
			}
			if seen[k] {
				return nil, fmt.Errorf("--matrix names %s twice: give its values once, comma-separated", k)
			}
			seen[k] = true
			vals := strings.Split(v, ",")
			var given []string // the values that are not empty, for the refusal's fix
			for _, x := range vals {
				if strings.TrimSpace(x) != "" {
					given = append(given, x)
				}
			}
			for i, x := range vals {
				if strings.TrimSpace(x) == "" { // as --vus 1,,2 is refused: never silently one value fewer
					return nil, fmt.Errorf("--matrix %s: value %d of %d of %s is empty: give each value once, comma-separated (%s=%s)", part, i+1, len(vals), k, k, strings.Join(given, ","))
				}
			}
			axes = append(axes, axis{k, vals})
		}
	}
	if len(axes) == 0 {
		return nil, fmt.Errorf("--matrix is empty: give option=v1,v2, e.g. --matrix \"bs=4k,64k iodepth=1,32\"")
	}
	jobs := []Job{base}
	for _, a := range axes {
		var next []Job
		for _, j := range jobs {
			for _, v := range a.vals {
				c := j
				if err := set(&c, a.key, v); err != nil {
					return nil, fmt.Errorf("--matrix: %v", err)
				}
				next = append(next, c)
			}
		}
		jobs = next
	}
	if len(jobs) > 512 {
		return nil, fmt.Errorf("--matrix makes %d tests: keep it under 512", len(jobs))
	}
	var out []Test
	for _, j := range jobs {
		if err := j.Check(); err != nil {
			return nil, fmt.Errorf("--matrix, %s: %v", j.Title(), err)
		}
		out = append(out, Test{Name: j.Title(), Jobs: []Job{j}, Passes: 1})
	}
	return out, nil
}

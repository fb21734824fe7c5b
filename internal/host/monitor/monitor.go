package monitor

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/dbdyno/dbdyno/internal/lib/shell"

	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	gojson "github.com/goccy/go-json"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/host/agent"
	"github.com/dbdyno/dbdyno/internal/store"
)

// Options are a recording's.
type Options struct {
	Name     string
	Interval time.Duration
	Duration time.Duration // 0: until the context ends
	Devices  []string      // the devices to record; none: every whole disk
	Target   *engine.Target
	// Status gets the one-line live status (rewritten in place on a terminal, a line a minute otherwise).
	Status io.Writer
	// Stored is called after each interval is in the store.
	Stored func(Sample)
	// Proc is the proc filesystem's root ("/proc" unless a test says otherwise).
	Proc string
	// Trace is the block layer trace for the random/sequential shares: "auto" (the default: traced where the
	// kernel lets us, the reason recorded otherwise), "on" (refused where it cannot) or "off".
	Trace string
	// TraceFilter is added to the trace event's kernel filter (tests trace their own process's requests).
	TraceFilter string
	// Agent, when set, is the remote host's agent whose raw counters are recorded instead of this host's.
	Agent *agent.Client
}

// snapshot is the counters at one moment.
type snapshot struct {
	at            time.Time
	disks         map[string]Counters
	busy, total   uint64 // CPU ticks, all cores
	memUsed, memT uint64
	tx            *engine.TxCounts
	traced        map[string]Traced // by device name, since the previous snapshot
	lost          uint64
}

type recorder struct {
	o    Options
	st   *store.Store
	db   *sql.DB
	keep func(string) bool
	tr   *Tracer
	why  string            // why there is no trace
	devs map[string]string // "major,minor" to name
	// traced: the devices the trace's kernel filter lets through (the recorded ones when it was last set)
	traced map[string]bool
	// resumed: the agent answered again after a gap; the next interval is the first of a stretch
	resumed bool
}

// Record samples the host every interval and stores each interval in the store as it ends (appending to a
// recording of the same name), until the context ends or the duration is over. It holds two snapshots at a
// time, whatever the duration. It returns the intervals stored.
func Record(ctx context.Context, st *store.Store, o Options) (int, error) {
	if runtime.GOOS != "linux" && o.Agent == nil {
		return 0, fmt.Errorf("dbdyno monitor reads /proc/diskstats, /proc/stat and /proc/meminfo: Linux only (run it on a Linux host, or use dbdyno agent)")
	}
	if o.Name == "" {
		return 0, errors.New("dbdyno monitor needs --name: the recording's name (rerunning with the same name appends)")
	}
	if o.Interval < 100*time.Millisecond {
		return 0, fmt.Errorf("--interval %v is too short: at least 100ms", o.Interval)
	}
	if o.Duration != 0 && o.Duration < o.Interval {
		return 0, fmt.Errorf("--duration %v is shorter than one --interval (%v): nothing would be recorded", o.Duration, o.Interval)
	}
	if o.Proc == "" {
		o.Proc = "/proc"
	}
	if o.Status == nil {
		o.Status = io.Discard
	}
	r := &recorder{o: o, st: st, keep: WholeDisk}
	if o.Target != nil {
		db, err := o.Target.Open(ctx)
		if err != nil {
			return 0, err
		}
		defer db.Close()
		db.SetMaxOpenConns(1)
		if _, err := o.Target.Engine.ReadTxCounts(ctx, db); err != nil {
			return 0, fmt.Errorf("--target: %v: dbdyno monitor records its transactions a second from them; record the host alone without --target", err)
		}
		r.db = db
	}
	switch {
	case o.Agent != nil && o.Trace == "on":
		return 0, fmt.Errorf("--block-trace on: the block layer is traced on the host itself, not through its agent: run dbdyno monitor on %s, or use --block-trace auto", o.Agent.Where())
	case o.Agent != nil:
		r.why = "the recording is of a remote host through its agent; block requests are traced on the host itself (dbdyno monitor run there as root)"
	case o.Trace == "" || o.Trace == "auto" || o.Trace == "on":
		tr, err := StartTrace(o.TraceFilter)
		if err != nil {
			if o.Trace == "on" {
				return 0, fmt.Errorf("--block-trace on: %v (--block-trace auto records without it, the random share not measured)", err)
			}
			r.why = err.Error()
		} else {
			r.tr = tr
			defer tr.Stop()
			r.devs = devNumbers(o.Proc + "/diskstats")
		}
	case o.Trace == "off":
		r.why = "the recording was made with --block-trace off"
	default:
		return 0, fmt.Errorf("--block-trace %s: auto, on or off", o.Trace)
	}
	first, err := r.take(ctx)
	if err != nil {
		return 0, err
	}
	if len(o.Devices) > 0 {
		want := map[string]bool{}
		for _, d := range o.Devices {
			d = strings.TrimPrefix(d, "/dev/")
			if _, ok := first.disks[d]; !ok {
				where := o.Proc + "/diskstats"
				if o.Agent != nil {
					where = "the diskstats of " + o.Agent.Where()
				}
				return 0, fmt.Errorf("--device %s: no such device in %s (it has %s)", d, where, strings.Join(names(first.disks), ", "))
			}
			want[d] = true
		}
		r.keep = func(n string) bool { return want[n] }
	}
	if r.tr != nil {
		if o.Interval > time.Second {
			r.tr.Keep(time.Second)
		}
		if err := r.filterTrace(first.disks); err != nil {
			return 0, err
		}
	}
	tick := time.NewTicker(o.Interval)
	defer tick.Stop()
	prev, n, tty := first, 0, isTerminal(o.Status)
	lastLine := time.Time{}
	away := false // the agent did not answer: the next answer starts a new stretch (marked first)
	for {
		select {
		case <-ctx.Done():
			if tty {
				fmt.Fprintln(o.Status)
			}
			return n, nil
		case <-tick.C:
		}
		cur, err := r.take(ctx)
		if err != nil && o.Agent != nil && ctx.Err() == nil {
			if !away {
				fmt.Fprintf(o.Status, "\nmonitor %s: %v; recording resumes when it answers (the time between is a gap)\n", o.Name, err)
			}
			away = true
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return n, nil
			}
			return n, err
		}
		if away {
			fmt.Fprintf(o.Status, "monitor %s: agent %s is back\n", o.Name, o.Agent.Where())
			prev, away = cur, false
			r.resumed = true
			continue
		}
		s := r.sample(prev, cur, n == 0 || r.resumed)
		r.resumed = false
		prev = cur
		doc, err := json.Marshal(s)
		if err != nil {
			return n, err
		}
		if err := st.AddSample(ctx, o.Name, s.At, doc); err != nil {
			if ctx.Err() != nil {
				return n, nil
			}
			return n, err
		}
		n++
		if o.Stored != nil {
			o.Stored(s)
		}
		if tty {
			fmt.Fprintf(o.Status, "\r%s\x1b[K", r.status(s, n))
		} else if s.At.Sub(lastLine) >= time.Minute || o.Interval >= time.Minute {
			fmt.Fprintln(o.Status, r.status(s, n))
			lastLine = s.At
		}
		if o.Duration > 0 && time.Duration(n)*o.Interval >= o.Duration {
			if tty {
				fmt.Fprintln(o.Status)
			}
			return n, nil
		}
	}
}

func names(m map[string]Counters) []string {
	var out []string
	for n := range m {
		if WholeDisk(n) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// sample is the interval between two snapshots.
func (r *recorder) sample(prev, cur snapshot, first bool) Sample {
	secs := cur.at.Sub(prev.at).Seconds()
	s := Sample{At: cur.at.UTC(), Seconds: secs, MemUsed: cur.memUsed, MemTotal: cur.memT, First: first}
	s.Devices, s.Missing = Between(prev.disks, cur.disks, r.keep)
	sort.Strings(s.Missing)
	if cur.traced != nil {
		s.Traced, s.TraceLost = map[string]Traced{}, cur.lost
		for d := range s.Devices {
			s.Traced[d] = cur.traced[d]
		}
	} else if first {
		s.NoTrace = r.why
	}
	if dt := cur.total - prev.total; cur.total > prev.total {
		s.CPU = 100 * float64(cur.busy-prev.busy) / float64(dt)
	}
	if prev.tx != nil && cur.tx != nil && secs > 0 {
		tps := cur.tx.Sub(*prev.tx).Total() / secs
		s.TPS = &tps
	}
	return s
}

// status is the one-line live status: the interval's load over the recorded devices.
func (r *recorder) status(s Sample, n int) string {
	var d Delta
	for _, x := range s.Devices {
		d.Reads += x.Reads
		d.Writes += x.Writes
		d.ReadBytes += x.ReadBytes
		d.WriteBytes += x.WriteBytes
		d.WeightedMs += x.WeightedMs
	}
	ops := float64(d.Reads + d.Writes)
	line := fmt.Sprintf("monitor %s: %d intervals stored | %d devices %.0f IOPS %.1f MiB/s", r.o.Name, n, len(s.Devices), ops/s.Seconds,
		float64(d.ReadBytes+d.WriteBytes)/s.Seconds/(1<<20))
	if ops > 0 {
		line += fmt.Sprintf(" reads %.0f%%", 100*float64(d.Reads)/ops)
	}
	line += fmt.Sprintf(" QD %.1f | CPU %.0f%% mem %.1f GiB", float64(d.WeightedMs)/(s.Seconds*1000), s.CPU, float64(s.MemUsed)/(1<<30))
	if s.TPS != nil {
		line += fmt.Sprintf(" | %.0f TPS", *s.TPS)
	}
	var rnd, seq uint64
	for _, t := range s.Traced {
		rnd, seq = rnd+t.Random, seq+t.Sequential
	}
	if rnd+seq > 0 {
		line += fmt.Sprintf(" | random %.0f%%", 100*float64(rnd)/float64(rnd+seq))
	}
	if len(s.Missing) > 0 {
		line += " | gone: " + strings.Join(s.Missing, ",")
	}
	return line
}

// take reads the counters now.
func (r *recorder) take(ctx context.Context) (snapshot, error) {
	s := snapshot{at: time.Now()}
	var disk, cpu, mem string
	if r.o.Agent != nil {
		p, err := r.o.Agent.Proc(ctx)
		if err != nil {
			return s, err
		}
		s.at, disk, cpu, mem = p.At, p.Diskstats, p.CPU, p.Meminfo
	} else {
		d, err := os.ReadFile(r.o.Proc + "/diskstats")
		if err != nil {
			return s, fmt.Errorf("dbdyno monitor: %w", err)
		}
		st, err := os.ReadFile(r.o.Proc + "/stat")
		if err != nil {
			return s, err
		}
		m, err := os.ReadFile(r.o.Proc + "/meminfo")
		if err != nil {
			return s, err
		}
		disk, cpu, mem = string(d), strings.SplitN(string(st), "\n", 2)[0], string(m)
	}
	var err error
	if s.disks, err = ParseDiskstats(strings.NewReader(disk)); err != nil {
		return s, err
	}
	if r.tr != nil && r.traced != nil {
		for name := range s.disks {
			if r.keep(name) && !r.traced[name] { // a device that appeared since: traced from now on
				if err := r.filterTrace(s.disks); err != nil {
					return s, err
				}
				break
			}
		}
	}
	if r.tr != nil {
		byNum, lost := r.tr.Take()
		s.traced, s.lost = map[string]Traced{}, lost
		for num, c := range byNum {
			name, ok := r.devs[num]
			if !ok { // a device that appeared since
				r.devs = devNumbers(r.o.Proc + "/diskstats")
				name = r.devs[num]
			}
			if name != "" {
				s.traced[name] = c
			}
		}
	}
	if s.busy, s.total, err = cpuTicks(cpu); err != nil {
		return s, err
	}
	if s.memUsed, s.memT, err = memory(mem); err != nil {
		return s, err
	}
	if r.db != nil {
		// a failed read leaves the interval without TPS (the checklist counts the intervals that have it)
		if c, err := r.o.Target.Engine.ReadTxCounts(ctx, r.db); err == nil {
			s.tx = &c
		}
	}
	return s, nil
}

// filterTrace has the kernel trace the requests of the recorded devices alone (of disks, the ones recorded).
func (r *recorder) filterTrace(disks map[string]Counters) error {
	r.devs = devNumbers(r.o.Proc + "/diskstats")
	r.traced = map[string]bool{}
	var nums []string
	for num, name := range r.devs {
		if _, ok := disks[name]; ok && r.keep(name) {
			nums = append(nums, num)
			r.traced[name] = true
		}
	}
	return r.tr.FilterDevices(nums)
}

// cpuTicks reads /proc/stat's cpu line: the busy ticks (all but idle and iowait) and the total.
func cpuTicks(line string) (busy, total uint64, err error) {
	fl := strings.Fields(line)
	if len(fl) < 9 || fl[0] != "cpu" {
		return 0, 0, fmt.Errorf("/proc/stat: unexpected first line %q", line)
	}
	var idle uint64
	for i := 1; i <= 8; i++ { // user nice system idle iowait irq softirq steal (guest is within user)
		v, err := strconv.ParseUint(fl[i], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/stat: %v", err)
		}
		total += v
		if i == 4 || i == 5 {
			idle += v
		}
	}
	return total - idle, total, nil
}

// memory reads /proc/meminfo's text: used (total less available) and total, bytes.
func memory(text string) (used, total uint64, err error) {
	var avail uint64
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.ParseUint(f[1], 10, 64)
		switch f[0] {
		case "MemTotal:":
			total = v << 10
		case "MemAvailable:":
			avail = v << 10
		}
	}
	if total == 0 {
		return 0, 0, fmt.Errorf("/proc/meminfo has no MemTotal")
	}
	return total - min(avail, total), total, nil
}

// Load calls fn with each interval of a recording, oldest first.
func Load(ctx context.Context, st *store.Store, name string, fn func(Sample)) (int, error) {
	return load(ctx, st, name, false, fn)
}

// load is Load; reuse decodes every interval into one sample (fn then must not keep it: the checklist does
// not), which halves the decoding's allocations.
func load(ctx context.Context, st *store.Store, name string, reuse bool, fn func(Sample)) (int, error) {
	n := 0
	var s Sample
	err := st.Samples(ctx, name, func(doc []byte) error {
		if reuse {
			clear(s.Devices)
			s.Traced = nil // a traced interval has a map, an untraced one none
			s.Missing, s.TPS, s.First, s.NoTrace, s.TraceLost = s.Missing[:0], nil, false, "", 0
		} else {
			s = Sample{}
		}
		if err := gojson.Unmarshal(doc, &s); err != nil { // 3 times encoding/json's speed: a month is 259,200 intervals
			return fmt.Errorf("recording %s: interval %d: %v", name, n+1, err)
		}
		n++
		fn(s)
		return nil
	})
	return n, err
}

// ChecklistOf computes a stored recording's checklist; a recording with no interval is an error naming the
// recordings there are. No periods: the periods are found from the recording's load (a first pass over it).
func ChecklistOf(ctx context.Context, st *store.Store, name string, periods []PeriodSpec, devices []string, growth float64, loc *time.Location) (*Checklist, error) {
	note := ""
	if len(periods) == 0 {
		periods, note = FoundPeriods(ctx, st, name, devices, loc)
	}
	b := NewBuilder(periods, devices, growth, loc)
	n, err := load(ctx, st, name, true, b.Add)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		recs, _ := st.Recordings(ctx)
		var have []string
		for _, r := range recs {
			have = append(have, r.Name)
		}
		if len(have) == 0 {
			return nil, fmt.Errorf("no recording %s in the results store (it has none: dbdyno monitor --name %s records one)", name, shell.Quote(name))
		}
		return nil, fmt.Errorf("no recording %s in the results store (it has %s)", name, strings.Join(have, ", "))
	}
	for _, d := range devices {
		if !b.Seen(d) {
			return nil, fmt.Errorf("--device %s: recording %s has no such device", d, name)
		}
	}
	c := b.Checklist(name)
	c.PeriodsNote = note
	return c, nil
}

package ioprobe

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/unix"

	"github.com/dbdyno/dbdyno/internal/lib/aio"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// Latencies are kept in nanoseconds in log-linear histograms of two significant digits: every percentile is
// within 1% of the exact one, and jobs' histograms merge.
func newHist() *hdrhistogram.Histogram { return hdrhistogram.New(1, int64(time.Hour), 2) }

const (
	dirRead  = 0
	dirWrite = 1
)

// counters are one clone's figures, updated by its goroutine and read by the sampler (the histograms are
// read only after the clone ended).
type counters struct {
	ios, bytes, latNs [2]atomic.Int64
	totNs             [2]atomic.Int64 // from the IO's preparation to its reaping (fio's lat: clat plus submission)
	hist              [2]*hdrhistogram.Histogram
}

type clone struct {
	job      *Job
	k        int
	file     *File
	c        counters
	err      error
	ru0, ru1 unix.Rusage // the clone's thread over the measured window
	// the clone's own window (its job's ramp_time and runtime), in ns from the test's start: measured from
	// measure until end (0: until its IO is done); finished is when its loop returned
	measure, end, finished int64
	// submits counts the calls that sent IOs to the kernel, issued the IOs sent (fio's one IO per submit
	// unless iodepth_batch_submit says more)
	submits, issued int64
	live            workload.Live // the test's (nil: none)
}

// window is a test's timeline in nanoseconds from its start: ramp until measure, then measured until end
// (end 0: until the jobs' IO is done). Each job's clones keep their own window inside it (clone).
type window struct {
	base    time.Time
	measure int64
	end     int64
}

func (w *window) now() int64 { return int64(time.Since(w.base)) }

// dirNames are the directions as the live figures name them.
var dirNames = [2]string{"read", "write"}

// testHook, when set (tests), sees a test's clones after they ended.
var testHook func(clones []*clone)

// ioHook, when set (tests), sees every IO as its clone prepares it: direction, offset in the file, length.
var ioHook func(job string, clone, dir int, off int64, n int)

// runTest runs one pass of a test: every job's clones at the same time, the sampler beside them. Each job
// keeps its own ramp_time, runtime and time_based (as fio's jobs do); the test's window spans them.
func runTest(ctx context.Context, t *Test, files map[string]*File, out io.Writer, interval time.Duration) (*result.IOTest, error) {
	j0 := t.Jobs[0]
	rt := &result.IOTest{Name: t.Name, RW: j0.RW, BS: j0.BS, IODepth: j0.Depth(), NumJobs: j0.NumJobs, RWMixRead: j0.mixRead(),
		IOEngine: j0.IOEngine, Direct: j0.Direct, RateIOPS: max(j0.RateIOPS[dirRead], j0.RateIOPS[dirWrite]), RampS: j0.Ramp.Seconds(), RuntimeS: j0.Runtime.Seconds(),
		TimeBased: j0.TimeBased, Passes: t.Passes, Status: result.StatusOK}
	var clones []*clone
	w := &window{measure: -1}
	unbounded := false
	for i := range t.Jobs {
		j := &t.Jobs[i]
		m, e := int64(j.Ramp), int64(0)
		if j.Runtime > 0 {
			e = m + int64(j.Runtime)
		} else {
			unbounded = true
		}
		if w.measure < 0 || m < w.measure {
			w.measure = m
		}
		w.end = max(w.end, e)
		lo, hi := j.clones()
		if i == 0 {
			rt.NumJobs = hi - lo // a shard's clones of the job (--shard)
		}
		for k := lo; k < hi; k++ {
			f := files[j.path(k)]
			rt.Buffered = rt.Buffered || j.Direct && f.Buffered
			clones = append(clones, &clone{job: j, k: k, file: f, measure: m, end: e, live: t.Live})
		}
	}
	if unbounded {
		w.end = 0
	}
	if n := len(clones) + 2; runtime.GOMAXPROCS(0) < n {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	}
	// the clones open their files, set up their queues and fill their buffers first; the clock starts when
	// all are ready, so the window's CPU and time are the IO's alone
	var ready, wg sync.WaitGroup
	start := make(chan struct{})
	for _, c := range clones {
		ready.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.err = c.run(ctx, w, &ready, start)
			c.finished = w.now()
		}()
	}
	ready.Wait()
	debug.FreeOSMemory() // the runtime's own clean-up, now rather than inside the window
	if d := time.Until(t.StartAt); !t.StartAt.IsZero() && d > 0 {
		// --start-at: the clones are ready; the window opens at the instant, as the other shards' do
		fmt.Fprintf(out, "waiting %s for --start-at\n", d.Round(time.Millisecond))
		select {
		case <-ctx.Done():
		case <-time.After(d):
		}
	}
	if t.Live != nil {
		t.Live.Phase(t.Name)
		t.Live.Users(len(clones))
	}
	w.base = time.Now()
	s := startSampler(w, clones, interval, out)
	close(start)
	wg.Wait()
	last := w.now()
	s.stop(last)
	if testHook != nil {
		testHook(clones)
	}
	for _, c := range clones {
		if c.err != nil {
			rt.Status, rt.Error = result.StatusFailed, fmt.Sprintf("%s clone %d on %s: %v", c.job.Name, c.k, c.file.Path, c.err)
			break
		}
	}
	if rt.Status == result.StatusOK && ctx.Err() != nil {
		rt.Status, rt.Error = result.StatusAborted, "stopped before the test's end"
	}
	figures(rt, clones, s, w, last)
	if rt.Status == result.StatusFailed {
		return rt, fmt.Errorf("%s", rt.Error)
	}
	return rt, nil
}

// fadvise advice by fio's fadvise_hint values (1: as the job reads)
func (j *Job) advice() int {
	switch j.FadviseHint {
	case "random":
		return unix.FADV_RANDOM
	case "sequential":
		return unix.FADV_SEQUENTIAL
	case "noreuse":
		return unix.FADV_NOREUSE
	case "1":
		if j.Random() {
			return unix.FADV_RANDOM
		}
		return unix.FADV_SEQUENTIAL
	}
	return -1
}

// draw is one sequential IO's size (fio's get_next_buflen, with no end to fit before: a sequential job wraps
// to its region's start instead).
func (b *blockSizes) draw(rng *rand.Rand) int { return b.drawFit(rng, math.MaxInt64) }

// run is one clone's IO loop, as fio's: IOs are issued one at a time, each sent to the kernel at once
// (iodepth_batch_submit=1) and timed from its own submission, until the queue is full; then completions are
// reaped (at least iodepth_batch_complete_min, at most _max) and the freed slots refilled. The loop stops when
// its window ends or the job's IO is done; it counts the IOs that complete inside its measured window.
func (c *clone) run(ctx context.Context, w *window, ready *sync.WaitGroup, start <-chan struct{}) error {
	// the clone keeps its thread: its queue is used from one thread, and the thread's CPU over the window is
	// the job's own (as fio counts a job's)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	setUp := false
	defer func() {
		if !setUp {
			ready.Done()
		}
	}()
	j := c.job
	flags := unix.O_RDONLY | unix.O_CLOEXEC
	if j.Writes() {
		flags = unix.O_RDWR | unix.O_CLOEXEC
	}
	if j.Direct && !c.file.Buffered {
		flags |= unix.O_DIRECT
	}
	fd, err := unix.Open(c.file.Path, flags, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	// as fio before a job's IO: the file's page cache dropped (invalidate), the access pattern advised
	if j.Invalidate {
		if err := unix.Fadvise(fd, j.Offset, j.Size, unix.FADV_DONTNEED); err != nil {
			return fmt.Errorf("dropping the page cache (invalidate=1): %v; use invalidate=0", err)
		}
	}
	if a := j.advice(); a >= 0 {
		if err := unix.Fadvise(fd, j.Offset, j.Size, a); err != nil {
			return fmt.Errorf("fadvise_hint=%s: %v; use fadvise_hint=0", j.FadviseHint, err)
		}
	}
	depth := j.Depth()
	q, err := aio.Open(j.IOEngine, fd, depth)
	if err != nil {
		return err
	}
	defer q.Close()
	sizes := [2]blockSizes{j.sizes(dirRead), j.sizes(dirWrite)}
	bufs, free, err := aio.Buffers(depth, j.maxBS())
	if err != nil {
		return err
	}
	defer free()
	seed := uint64(c.k)<<32 | uint64(len(j.Name))
	if !j.RandRepeat {
		seed = uint64(time.Now().UnixNano())
	}
	rng := rand.New(rand.NewPCG(0x64626479, seed)) // fixed per clone, as fio's randrepeat: the same offsets each run
	{                                              // reads too: every buffer page is faulted in before the run, not by the kernel during the first IOs
		fill := rand.NewChaCha8([32]byte{byte(c.k), 'w'})
		for _, b := range bufs {
			fill.Read(b)
		}
	}
	c.c.hist = [2]*hdrhistogram.Histogram{newHist(), newHist()}
	batchSubmit := j.BatchSubmit
	if batchSubmit <= 0 || batchSubmit > depth {
		batchSubmit = depth // fio's iodepth_batch_submit=0
	}
	cmin, cmax := min(j.BatchCompleteMin, depth), min(max(j.BatchCompleteMax, j.BatchCompleteMin), depth)
	polling := j.BatchCompleteMin == 0 && j.BatchCompleteMax == 0
	if cmax < 1 {
		cmax = 1
	}
	var (
		seqOff    [2]int64
		issuedAt  = make([]int64, depth)
		preppedAt = make([]int64, depth)
		batch     = make([]int, 0, depth)
		dirOf     = make([]int, depth)
		lenOf     = make([]int, depth)
		freeSlot  = make([]int, 0, depth)
		done      = make([]aio.Done, cmax)
		inflight  int
		issued    int64 // bytes
		budget    int64 // bytes the job does when not time based: size, as fio's io_size
		bps       = [2]int64{j.bytesPerSec(dirRead), j.bytesPerSec(dirWrite)}
		due       [2]int64 // when each direction's next IO is due under its rate cap
		mix       = j.mixRead()
		random    = j.Random()
		seq       uint64
		firstErr  error
		offload   = j.SubmitOffload
	)
	if !j.TimeBased {
		budget = j.Size
	}
	var rnd *randomIOs // random offsets and lengths, with fio's random map unless norandommap
	if random {
		rnd = newRandomIOs(j, rng)
	}
	// a new pass over the file (a time based job's): fio drops the file's page cache again (invalidate, on
	// buffered IO), as before the job's first
	newPass := func() {
		if j.Invalidate && flags&unix.O_DIRECT == 0 {
			unix.Fadvise(fd, j.Offset, j.Size, unix.FADV_DONTNEED)
		}
	}
	for s := depth - 1; s >= 0; s-- {
		freeSlot = append(freeSlot, s)
	}
	submit := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := q.Submit(); err != nil {
			return err
		}
		c.submits++
		c.issued += int64(len(batch))
		// completion latency, as fio's clat: from the IO's submission (the syscall returned) to its reaping
		at := w.now()
		for _, s := range batch {
			issuedAt[s] = at
		}
		batch = batch[:0]
		return nil
	}
	reap := func(min int) error {
		n, err := q.Wait(min, done)
		if err != nil {
			return err
		}
		end := w.now()
		for _, dn := range done[:n] {
			s := dn.Slot
			if err := dn.Err(lenOf[s]); err != nil && firstErr == nil {
				firstErr = err
			}
			if end >= c.measure && (c.end == 0 || end <= c.end) {
				d := dirOf[s]
				lat := end - issuedAt[s]
				c.c.ios[d].Add(1)
				c.c.bytes[d].Add(int64(lenOf[s]))
				c.c.latNs[d].Add(lat)
				c.c.totNs[d].Add(end - preppedAt[s])
				c.c.hist[d].RecordValue(lat)
				if c.live != nil {
					c.live.Done(dirNames[d], time.Duration(lat), "committed", 0, true)
				}
			}
			freeSlot = append(freeSlot, s)
			inflight--
		}
		return nil
	}
	setUp = true
	ready.Done()
	<-start
	inWindow := false
	defer func() {
		if inWindow {
			unix.Getrusage(unix.RUSAGE_THREAD, &c.ru1)
		}
	}()
	for {
		now := w.now()
		if !inWindow && now >= c.measure {
			inWindow = true
			unix.Getrusage(unix.RUSAGE_THREAD, &c.ru0)
		}
		stopping := firstErr != nil || ctx.Err() != nil || c.end > 0 && now >= c.end || budget > 0 && issued >= budget
		wait := int64(0) // > 0: the rate cap holds the next IO back until then
		for inflight < depth && !stopping {
			d := dirRead
			if mix < 100 && (mix == 0 || rng.IntN(100) >= mix) {
				d = dirWrite
			}
			if bps[d] > 0 && due[d] > now {
				// ahead of the rate in this direction: the other goes if it is due (fio's rate_ddir)
				o := d ^ 1
				if mix > 0 && mix < 100 && (bps[o] == 0 || due[o] <= now) {
					d = o
				} else {
					wait = due[d]
					if mix > 0 && mix < 100 && bps[o] > 0 {
						wait = min(wait, due[o])
					}
					break
				}
			}
			var off int64
			var n int
			if random {
				var ok bool
				if off, n, ok = rnd.next(d); !ok && j.TimeBased {
					// the random map is full: a time based job starts another pass (fio's file reset)
					rnd.reset()
					newPass()
					off, n, ok = rnd.next(d)
				}
				if !ok { // every block done: the job's IO is (as fio's, when the map has no free block)
					stopping = true
					break
				}
			} else {
				n = sizes[d].draw(rng)
				if seqOff[d]+int64(n) > j.Size {
					seqOff[d] = 0
					if j.TimeBased {
						newPass()
					}
				}
				off = seqOff[d]
				seqOff[d] += int64(n)
			}
			if bps[d] > 0 {
				due[d] = max(due[d], 0) + int64(n)*int64(time.Second)/bps[d]
			}
			slot := freeSlot[len(freeSlot)-1]
			freeSlot = freeSlot[:len(freeSlot)-1]
			if d == dirWrite {
				seq++
				scramble(bufs[slot][:n], seq)
			}
			dirOf[slot], lenOf[slot], preppedAt[slot] = d, n, now
			if ioHook != nil {
				ioHook(j.Name, c.k, d, j.Offset+off, n)
			}
			batch = append(batch, slot)
			q.Prep(slot, d == dirWrite, j.Offset+off, bufs[slot][:n]) // within the job's region (--shard)
			inflight++
			if issued += int64(n); budget > 0 && issued >= budget {
				stopping = true
			}
			if len(batch) >= batchSubmit {
				if err := submit(); err != nil {
					return err
				}
			}
			if polling && inflight < depth {
				if err := reap(0); err != nil {
					return err
				}
			}
		}
		// what is prepared goes before any wait (fio commits before reaping)
		if err := submit(); err != nil {
			return err
		}
		switch {
		case inflight == 0 && stopping:
			return firstErr
		case wait > 0 && (inflight == 0 || !offload):
			// ahead of the rate: inline (fio's default) lets the IOs in flight complete, then sleeps until the
			// next is due; offload keeps them in flight and reaps as they come
			for inflight > 0 {
				if err := reap(1); err != nil {
					return err
				}
			}
			if d := time.Duration(wait - w.now()); d > 0 {
				time.Sleep(d)
			}
		default:
			if err := reap(max(1, min(cmin, inflight))); err != nil {
				return err
			}
		}
	}
}

// scramble makes each write's data differ from the last (incompressible, and no two blocks alike for
// deduplicating storage): a counter mixed into the first 8 bytes of every 512-byte sector.
func scramble(b []byte, seq uint64) {
	x := seq * 0x9E3779B97F4A7C15
	for i := 0; i+8 <= len(b); i += 512 {
		x ^= x >> 29
		x *= 0xBF58476D1CE4E5B9
		b[i], b[i+1], b[i+2], b[i+3], b[i+4], b[i+5], b[i+6], b[i+7] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24), byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56)
	}
}

// figures fills the test's figures from the clones and the sampler: per direction, the IOs of every clone
// over the test's window (from the earliest job's measuring start to the last one's end, as fio's group);
// each clone's own over its own window.
func figures(rt *result.IOTest, clones []*clone, s *sampler, w *window, last int64) {
	secs := float64(w.end-w.measure) / 1e9
	if w.end == 0 || last < w.end {
		secs = float64(last-w.measure) / 1e9
	}
	if secs <= 0 {
		secs = math.SmallestNonzeroFloat64
	}
	rt.Seconds = secs
	rt.StartUnixS = float64(w.base.Add(time.Duration(w.measure)).UnixNano()) / 1e9
	var merged [2]*hdrhistogram.Histogram
	var total int64
	for d := range 2 {
		merged[d] = newHist()
		var ios, bytes, lat int64
		for _, c := range clones {
			if c.c.hist[d] != nil {
				merged[d].Merge(c.c.hist[d])
			}
			ios += c.c.ios[d].Load()
			bytes += c.c.bytes[d].Load()
			lat += c.c.latNs[d].Load()
		}
		if ios == 0 {
			continue
		}
		total += ios
		dir := result.IODirOf(ios, bytes, float64(lat), merged[d], secs) // with its histogram: shards merge exactly
		if d == dirRead {
			rt.Read = dir
		} else {
			rt.Write = dir
		}
	}
	for _, c := range clones {
		end := c.end
		if end == 0 || c.finished < end {
			end = c.finished
		}
		cs := float64(end-c.measure) / 1e9
		if cs <= 0 {
			cs = math.SmallestNonzeroFloat64
		}
		r, wr := c.c.ios[dirRead].Load(), c.c.ios[dirWrite].Load()
		jf := result.IOJob{Job: c.job.Name, Clone: c.k, File: c.file.Path, ReadIOPS: float64(r) / cs, WriteIOPS: float64(wr) / cs,
			ReadMBs: float64(c.c.bytes[dirRead].Load()) / cs / 1e6, WriteMBs: float64(c.c.bytes[dirWrite].Load()) / cs / 1e6,
			Seconds: cs, StartUnixS: float64(w.base.Add(time.Duration(c.measure)).UnixNano()) / 1e9}
		if r+wr > 0 {
			jf.MeanLatUs = float64(c.c.latNs[dirRead].Load()+c.c.latNs[dirWrite].Load()) / float64(r+wr) / 1e3
		}
		rt.Jobs = append(rt.Jobs, jf)
	}
	rt.Series = s.series
	rt.CPU = s.cpu(total)
	for _, c := range clones {
		rt.CPU.JobsUserS += tv(c.ru1.Utime) - tv(c.ru0.Utime)
		rt.CPU.JobsSystemS += tv(c.ru1.Stime) - tv(c.ru0.Stime)
	}
	if total > 0 {
		rt.CPU.JobsPerIOUs = (rt.CPU.JobsUserS + rt.CPU.JobsSystemS) / float64(total) * 1e6
	}
	rt.Disk = s.disk()
	if total > 0 {
		// Little's law on the IO's whole time in dbdyno's hands (submission included): in flight on average
		var tot int64
		for _, c := range clones {
			tot += c.c.totNs[dirRead].Load() + c.c.totNs[dirWrite].Load()
		}
		iops := float64(total) / secs
		mean := float64(tot) / float64(total) / 1e9
		depth := 0
		for _, c := range clones {
			depth += c.job.Depth()
		}
		rt.Little = &result.LittlesLaw{IOPS: iops, MeanLatS: mean, ImpliedDepth: iops * mean, Depth: depth}
	}
}

func tv(t unix.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }

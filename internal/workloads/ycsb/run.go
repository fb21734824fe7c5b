package ycsb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/output/result"
)

// session is one `ycsb load` or `ycsb run` against one target, driven by runner.VU: YCSB's client threads
// are its virtual users, each operation one unit of work.
type session struct {
	setup   *runner.Setup
	phase   string // "load" or "run"
	cfg     *Config
	db      *DB
	lock    *engine.Lock // a load's: shared with the other loads, kept out by a drop
	version string
	set     sqlfile.Set
	// the load's key sequence (YCSB's keysequence: from insertstart), the run's inserts (transactioninsertkeysequence)
	loadNext atomic.Int64
	ins      *AckCounter
	insStart int64
	ops      opChooser
	pool     string // printable random characters: every field value is a slice of it
	keys     func() Chooser
	fieldLen func() Chooser
	scanLen  func() Chooser
	missed   [numOps]atomic.Int64 // operations that found no record (NOT_FOUND), in the measured window
	// active are the operations the phase does (a load's inserts; a run's operations of a positive
	// proportion), in YCSB's order: the runner's units of work are their indexes here
	active []int
	unit   [numOps]int // an operation's index in active
}

// poolSize is the random characters the field values are cut from (1 MiB, shared by every user).
const poolSize = 1 << 20

// errNoRecord is an operation that found no record under its key: YCSB's NOT_FOUND (the JDBC binding's read
// without a row, its update of no row). The engine classifies it as not_found.
var errNoRecord = fmt.Errorf("no such record (%w)", sql.ErrNoRows)

func (s *session) ServerVersion() string { return s.version }

func (s *session) Transactions() []string {
	out := make([]string, len(s.active))
	for i, op := range s.active {
		out[i] = OpNames[op]
	}
	return out
}

// Options are the run's settings: the shared ones and YCSB's properties under their names.
func (s *session) Options() map[string]any {
	out := s.setup.Options()
	for k, v := range s.cfg.Record(s.phase) {
		out[k] = v
	}
	s.cfg.recordShard(out, s.phase, s.setup.Shard)
	out["threadcount"] = s.setup.Users.VUs
	if s.setup.Users.Rate > 0 {
		out["target"] = s.setup.Users.Rate
	}
	if s.phase == "run" {
		out["insert_from"] = s.insStart
	}
	return out
}

// Configure: rates per second and latencies in µs, as YCSB states them; no key transaction.
func (s *session) Configure(cfg *runner.Config) {
	cfg.KeyTx, cfg.RateLabel, cfg.PerSecond, cfg.Micros = -1, "ops/s", true, true
}

// Figures: throughput over the measured window (every operation that completed), per operation, the
// operations that found no record, and the client's CPU per operation.
func (s *session) Figures(m *result.Measurement) map[string]any {
	fig := map[string]any{"operations": m.Committed, "failed": m.Errors}
	if m.MeasuredSecs > 0 {
		fig["ops_per_s"] = runner.Round(float64(m.Committed)/m.MeasuredSecs, 1)
		for _, n := range OpNames {
			if t, ok := m.Transactions[n]; ok && t.Count+t.Errors > 0 {
				fig[n+"_per_s"] = runner.Round(float64(t.Count)/m.MeasuredSecs, 1)
			}
		}
	}
	for op, n := range OpNames {
		if c := s.missed[op].Load(); c > 0 {
			fig[n+"_not_found"] = c
		}
	}
	if m.Committed > 0 {
		fig["client_cpu_us_per_op"] = runner.Round(m.ClientCPU.MicrosPerTx, 2)
	}
	return fig
}

// Finish records what the run did in the build record (a load's finished range; where the run's inserts
// stopped) and prints the summaries.
func (s *session) Finish(ctx context.Context, res *result.Result) {
	end, cancel := runner.EndContext(ctx)
	defer cancel()
	m := res.Measurement
	switch {
	case s.phase == "load" && m != nil && res.Status == result.StatusOK && m.Errors == 0 && m.Committed == s.cfg.InsertCount:
		rec, err := s.db.finishLoad(end, s.cfg.InsertStart, s.cfg.InsertCount)
		if err != nil {
			fmt.Fprintf(s.setup.Out, "warning: recording the load as finished: %v\n", err)
			break
		}
		if rec.Status == "ready" {
			fmt.Fprintf(s.setup.Out, "loaded records %d..%d: YCSB's table %s holds all %d records (ready to run)\n",
				s.cfg.InsertStart, s.cfg.InsertStart+s.cfg.InsertCount-1, s.cfg.Table, rec.RecordCount)
		} else {
			fmt.Fprintf(s.setup.Out, "loaded records %d..%d; the loads so far hold %s of %d: load the rest (insertstart, insertcount) before running\n",
				s.cfg.InsertStart, s.cfg.InsertStart+s.cfg.InsertCount-1, rec.loadedText(), rec.RecordCount)
		}
	case s.phase == "load" && m != nil:
		fmt.Fprintf(s.setup.Out, "the load of records %d..%d did not finish (%d inserted, %d failed): it is not recorded as loaded; load again with --drop\n",
			s.cfg.InsertStart, s.cfg.InsertStart+s.cfg.InsertCount-1, m.Committed, m.Errors)
	case s.phase == "run" && s.ins != nil && s.ins.Handed() > s.insStart:
		if err := s.db.Data.PutMeta(end, keyNextInsert, fmt.Sprint(s.ins.Handed())); err != nil {
			fmt.Fprintf(s.setup.Out, "warning: recording where this run's inserts stopped: %v\n", err)
		}
	}
	if m != nil {
		printSummary(s.setup.Out, res, s)
		if s.cfg.ExportFile != "" {
			if err := writeExport(s.cfg.ExportFile, res, s); err != nil {
				fmt.Fprintf(s.setup.Out, "warning: exportfile: %v\n", err)
			} else {
				fmt.Fprintf(s.setup.Out, "YCSB's summary written to %s (exportfile)\n", s.cfg.ExportFile)
			}
		}
	}
}

func (s *session) Close() {
	s.lock.Release()
	s.db.Close()
}

// NewWorker opens one client thread's connection with the operations' statements prepared.
func (s *session) NewWorker(ctx context.Context, vu int) (runner.Worker, error) {
	// a shard's users draw from streams of their own (shard I of N: I << 32 apart), not its sister shards'
	w := &worker{s: s, r: rand.New(rand.NewPCG(s.setup.Users.Seed, uint64(vu)+1+uint64(s.setup.Shard.I)<<32)), fieldLen: s.fieldLen()}
	if s.phase == "run" {
		w.keys, w.scanLen = s.keys(), s.scanLen()
	}
	w.args = make([]any, s.cfg.FieldCount+1)
	w.retry = runner.Retry{Engine: s.db.T.Engine}
	return w, w.Reconnect(ctx)
}

// worker is one of YCSB's client threads: its connection, its generators and random source.
type worker struct {
	runner.Cut
	s        *session
	r        *rand.Rand
	sess     *engine.Session
	keys     Chooser
	fieldLen Chooser
	scanLen  Chooser
	retry    runner.Retry
	args     []any
	keyBuf   []byte
	// the run's context without its cancellation, made once: an operation in flight when the run ends finishes
	// (the runner interrupts the connection of one that does not)
	runCtx, ctx context.Context
}

func (w *worker) Next() (int, time.Duration, time.Duration) {
	if w.s.phase == "load" {
		return 0, 0, 0
	}
	return w.s.unit[w.s.ops.next(w.r)], 0, 0
}

func (w *worker) Reconnect(ctx context.Context) error {
	w.Close()
	s, err := runner.Connect(ctx, w.s.db.Data.SQL, w.s.db.T, w.s.set)
	if err != nil {
		return err
	}
	w.sess = s
	w.Set(s.Interrupter())
	return nil
}

func (w *worker) Close() {
	w.sess.Close()
	w.sess = nil
}

// Counted counts the measured operations that found no record, by operation (YCSB's Return=NOT_FOUND).
func (w *worker) Counted(unit int, out runner.Outcome) {
	if out.Err != nil && errors.Is(out.Err, errNoRecord) {
		w.s.missed[w.s.active[unit]].Add(1)
	}
}

// key is the key of a key number, in a buffer of the worker's.
func (w *worker) key(keynum int64) string {
	w.keyBuf = appendKey(w.keyBuf[:0], keynum, w.s.cfg.ZeroPadding, w.s.cfg.Ordered)
	return string(w.keyBuf)
}

// value is a field's random value: printable characters, as YCSB's RandomByteIterator, of the field length
// generator's length.
func (w *worker) value() string {
	n := int(w.fieldLen.Next(w.r))
	off := w.r.IntN(len(w.s.pool) - n + 1)
	return w.s.pool[off : off+n]
}

// nextKeynum is CoreWorkload.nextKeynum: a key number of the request distribution, drawn again while it is
// beyond the newest acknowledged insert.
func (w *worker) nextKeynum() int64 {
	for {
		if k := w.keys.Next(w.r); k <= w.s.ins.Last() {
			return k
		}
	}
}

func (w *worker) Do(ctx context.Context, unit int) runner.Outcome {
	op := w.s.active[unit]
	if ctx != w.runCtx {
		w.runCtx, w.ctx = ctx, context.WithoutCancel(ctx)
	}
	switch op {
	case opInsert:
		var k int64
		if w.s.phase == "load" {
			k = w.s.loadNext.Add(1) - 1
		} else {
			k = w.s.ins.Next()
		}
		key := w.key(k)
		w.args[0] = key
		for i := 1; i < len(w.args); i++ {
			w.args[i] = w.value()
		}
		out := w.retry.Unit(ctx, OpNames[op], func() (bool, error) {
			_, err := w.sess.Exec(w.ctx, "insert", w.args...)
			return false, err
		})
		if w.s.phase == "run" {
			if err := w.s.ins.Ack(k); err != nil && out.Err == nil {
				out.Err = err
			}
		}
		return out
	case opRead:
		key := w.key(w.nextKeynum())
		name := w.readStatement()
		return w.retry.Unit(ctx, OpNames[op], func() (bool, error) { return false, w.read(name, key) })
	case opUpdate:
		key := w.key(w.nextKeynum())
		name, args := w.updateArgs(key)
		return w.retry.Unit(ctx, OpNames[op], func() (bool, error) { return false, w.update(name, key, args) })
	case opScan:
		key := w.key(w.nextKeynum())
		n := w.scanLen.Next(w.r)
		name := "scan"
		if !w.s.cfg.ReadAll {
			name = scanField[w.r.IntN(w.s.cfg.FieldCount)]
		}
		return w.retry.Unit(ctx, OpNames[op], func() (bool, error) {
			_, err := w.sess.Count(w.ctx, name, key, n)
			return false, err
		})
	default: // read-modify-write: a read, then an update of the record, each its own statement (YCSB's, not a transaction)
		key := w.key(w.nextKeynum())
		read := w.readStatement()
		name, args := w.updateArgs(key)
		return w.retry.Unit(ctx, OpNames[op], func() (bool, error) {
			if err := w.read(read, key); err != nil {
				return false, err
			}
			return false, w.update(name, key, args)
		})
	}
}

// readStatement is a read's: every field, or one field chosen at random (readallfields=false).
func (w *worker) readStatement() string {
	if w.s.cfg.ReadAll {
		return "read"
	}
	return readField[w.r.IntN(w.s.cfg.FieldCount)]
}

func (w *worker) read(name, key string) error {
	n, err := w.sess.Count(w.ctx, name, key)
	if err == nil && n == 0 {
		return fmt.Errorf("%s: %w", key, errNoRecord)
	}
	return err
}

// updateArgs are an update's statement and arguments: every field new (writeallfields), or one field chosen
// at random.
func (w *worker) updateArgs(key string) (string, []any) {
	if w.s.cfg.WriteAll {
		w.args[0] = key
		for i := 1; i < len(w.args); i++ {
			w.args[i] = w.value()
		}
		return "update", w.args
	}
	f := w.r.IntN(w.s.cfg.FieldCount)
	w.args[0], w.args[1] = key, w.value()
	return updateField[f], w.args[:2]
}

// update runs an update; one that touched no row is a record not found unless the record is there (MySQL counts
// the rows an update changed, and a value written again unchanged changes none).
func (w *worker) update(name, key string, args []any) error {
	n, err := w.sess.Exec(w.ctx, name, args...)
	if err == nil && n == 0 {
		if n, err = w.sess.Count(w.ctx, "key_exists", key); err == nil && n == 0 {
			return fmt.Errorf("%s: %w", key, errNoRecord)
		}
	}
	return err
}

// The one-field statements' names, by field (read_field0 ...).
var readField, updateField, scanField []string

func init() {
	for i := 0; i < 1000; i++ {
		readField = append(readField, fmt.Sprintf("read_field%d", i))
		updateField = append(updateField, fmt.Sprintf("update_field%d", i))
		scanField = append(scanField, fmt.Sprintf("scan_field%d", i))
	}
}

// makePool is the random characters the values are cut from: printable ASCII from ' ' to '~', as YCSB's
// RandomByteIterator writes, from the run's seed.
func makePool(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0x59435342)) // "YCSB"
	b := make([]byte, poolSize)
	for i := range b {
		b[i] = byte(' ' + r.IntN(95))
	}
	return string(b)
}

// generators sets the session's choosers from the configuration: YCSB's CoreWorkload.init.
func (s *session) generators() {
	cfg := s.cfg
	switch cfg.FieldLengthDist {
	case "uniform":
		u := Uniform{Lo: int64(cfg.MinFieldLen), Hi: int64(cfg.FieldLength)}
		s.fieldLen = func() Chooser { return u }
	case "zipfian":
		z := NewZipfian(int64(cfg.MinFieldLen), int64(cfg.FieldLength), ZipfianConstant, -1)
		s.fieldLen = func() Chooser { return ZipfianChooser{z.Clone()} }
	default:
		s.fieldLen = func() Chooser { return Constant(cfg.FieldLength) }
	}
	if s.phase != "run" {
		s.active = []int{opInsert}
		return
	}
	s.ops = newOpChooser(cfg.Proportions)
	s.active = s.ops.ops
	for i, op := range s.active {
		s.unit[op] = i
	}
	switch cfg.ScanDist {
	case "zipfian":
		z := NewZipfian(int64(cfg.MinScan), int64(cfg.MaxScan), ZipfianConstant, -1)
		s.scanLen = func() Chooser { return ZipfianChooser{z.Clone()} }
	default:
		u := Uniform{Lo: int64(cfg.MinScan), Hi: int64(cfg.MaxScan)}
		s.scanLen = func() Chooser { return u }
	}
	lo, hi := cfg.InsertStart, cfg.InsertStart+cfg.InsertCount-1
	switch cfg.RequestDist {
	case "zipfian":
		// YCSB's keyspace for the keys the run's inserts will add: operationcount x insertproportion x 2 (its
		// "fudge factor"); a key not inserted yet is drawn again
		expected := int64(float64(int32(cfg.OperationCount)) * cfg.Proportions[opInsert] * 2)
		z := NewScrambled(lo, hi+1+expected)
		s.keys = func() Chooser { return &Scrambled{min: z.min, count: z.count, z: z.z.Clone()} }
	case "latest":
		l := NewLatest(s.ins)
		s.keys = func() Chooser { return l.Clone() }
	case "hotspot":
		h := NewHotspot(lo, hi, cfg.HotData, cfg.HotOpn)
		s.keys = func() Chooser { return h }
	case "sequential":
		q := Sequential{lo: lo, n: hi - lo + 1, counter: &atomic.Int64{}}
		s.keys = func() Chooser { return q }
	case "exponential":
		e := NewExponential(s.ins, cfg.ExpPercentile, float64(cfg.RecordCount)*cfg.ExpFrac)
		s.keys = func() Chooser { return e }
	default:
		u := Uniform{Lo: lo, Hi: hi}
		s.keys = func() Chooser { return u }
	}
}

// describe words the run's operations for its banner: "read 50%, update 50%; zipfian".
func (s *session) describe() string {
	if s.phase == "load" {
		return fmt.Sprintf("insert records %d..%d", s.cfg.InsertStart, s.cfg.InsertStart+s.cfg.InsertCount-1)
	}
	sum := 0.0
	for _, p := range s.cfg.Proportions {
		sum += p
	}
	var parts []string
	for op, p := range s.cfg.Proportions {
		if p > 0 {
			parts = append(parts, fmt.Sprintf("%s %.4g%%", OpNames[op], 100*p/sum))
		}
	}
	return strings.Join(parts, ", ") + "; " + s.cfg.RequestDist
}

package ycsb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/engine/bulk"
	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
	"github.com/dbdyno/dbdyno/internal/method/runner"
	"github.com/dbdyno/dbdyno/internal/workload"
)

// settled is a command's properties as its Prepare resolved them, carried to each run's Open in the options'
// hidden Resolved field: every repeat and target runs the same properties, and the notes are printed once.
type settled struct {
	Once  string      `json:"once"` // this command's: its notes are printed by the first run that opens
	Props [][3]string `json:"props"`
	Notes []string    `json:"notes,omitempty"`
}

// noted holds the commands whose notes were printed.
var noted sync.Map

// settle resolves and checks a command's YCSB properties in its Prepare and maps YCSB's client properties
// onto the runner's options where no flag gave them: threadcount onto --vus (--threads), target onto --rate,
// status.interval onto --interval, operationcount and maxexecutiontime onto the measured window, a load's
// records onto its count of units. It stores what it resolved in p.Resolved.
func settle(phase string, p *Properties, u *runner.Users, v *workload.Values, sh workload.Shard) (*Config, error) {
	res, err := Resolve(Sources{Workload: p.Workload, Files: p.Files, Set: p.Set, Args: p.Args, Phase: phase})
	if err != nil {
		return nil, err
	}
	cfg, err := Parse(res.Props, phase)
	if err != nil {
		return nil, err
	}
	if err := cfg.narrow(phase, sh); err != nil {
		return nil, err
	}
	unknowns, quiets := unknown(res.Props)
	if len(unknowns) > 0 {
		res.Notes = append(res.Notes, "warning: YCSB properties that neither YCSB's core nor dbdyno knows, ignored as YCSB ignores them: "+strings.Join(unknowns, ", "))
	}
	if len(quiets) > 0 {
		res.Notes = append(res.Notes, "YCSB properties with no meaning here, ignored: "+strings.Join(quiets, "; "))
	}
	if !v.Given(u, &u.VUs) && cfg.Threads > 0 {
		u.VUs = cfg.Threads
	}
	if !v.Given(u, &u.Rate) && cfg.Target > 0 {
		u.Rate = cfg.Target
	}
	if !v.Given(u, &u.Interval) && cfg.StatusInterval > 0 {
		u.Interval = cfg.StatusInterval
	}
	if cfg.IntendedLatency && u.Rate == 0 {
		res.Notes = append(res.Notes, "measurement.interval=intended without a target: a closed loop's intended start is its start, so the latencies are YCSB's op latencies")
	}
	switch phase {
	case "load":
		for _, f := range []struct {
			given bool
			flag  string
		}{{v.Given(u, &u.Duration), "--duration"}, {v.Given(u, &u.Transactions), "--transactions"}} {
			if f.given {
				return nil, fmt.Errorf("%s: a load inserts its records (insertcount of them from insertstart) and ends: give -p insertcount=N instead", f.flag)
			}
		}
		if u.Rampup > 0 || u.Warmup > 0 {
			return nil, fmt.Errorf("--rampup and --warmup: a load inserts each of its records once, all of them measured: leave them out")
		}
		u.Transactions = int(cfg.InsertCount)
		if !v.Given(u, &u.MaxErrorRate) && !cfg.KeepGoing {
			u.MaxErrorRate = 0 // YCSB's load stops at a failed insert (core_workload_insertion_keep_going_on_error=false)
		}
		u.VUs = int(min(int64(u.VUs), cfg.InsertCount))
	case "run":
		if !v.Given(u, &u.Transactions) && !v.Given(u, &u.Duration) {
			switch {
			case cfg.OperationCount > 0 && cfg.MaxExecution > 0:
				return nil, fmt.Errorf("operationcount=%d and maxexecutiontime=%d both end the run, and a dbdyno run ends by one of them: give -p operationcount=0 to run for maxexecutiontime, or leave maxexecutiontime out", cfg.OperationCount, int64(cfg.MaxExecution.Seconds()))
			case cfg.OperationCount > 0:
				u.Transactions = int(cfg.OperationCount)
				u.VUs = int(min(int64(u.VUs), cfg.OperationCount))
			case cfg.MaxExecution > 0:
				u.Duration = cfg.MaxExecution
			}
		}
	}
	s := settled{Once: nonce(), Notes: res.Notes}
	for _, k := range res.Props.Keys() {
		val, _ := res.Props.Get(k)
		s.Props = append(s.Props, [3]string{k, val, res.Props.From(k)})
	}
	b, _ := json.Marshal(s)
	p.Resolved = string(b)
	return cfg, nil
}

func nonce() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// unsettle reads what settle stored: the properties, and the notes when no run of the command printed them yet.
func unsettle(phase string, p *Properties) (*Config, []string, error) {
	if p.Resolved == "" { // not prepared (a caller of Start alone): resolved here
		res, err := Resolve(Sources{Workload: p.Workload, Files: p.Files, Set: p.Set, Args: p.Args, Phase: phase})
		if err != nil {
			return nil, nil, err
		}
		cfg, err := Parse(res.Props, phase)
		return cfg, res.Notes, err
	}
	var s settled
	if err := json.Unmarshal([]byte(p.Resolved), &s); err != nil {
		return nil, nil, fmt.Errorf("the resolved YCSB properties do not read: %w", err)
	}
	props := newProps()
	for _, kv := range s.Props {
		props.Set(kv[0], kv[1], kv[2])
	}
	cfg, err := Parse(props, phase)
	if _, seen := noted.LoadOrStore(s.Once, true); seen {
		return cfg, nil, err
	}
	return cfg, s.Notes, err
}

// openSession opens one load or run on its target and prints its banner.
func openSession(ctx context.Context, setup *runner.Setup, phase string, p *Properties, drop bool) (runner.Session, error) {
	cfg, notes, err := unsettle(phase, p)
	if err == nil {
		err = cfg.narrow(phase, setup.Shard)
	}
	if err != nil {
		return nil, err
	}
	for _, n := range notes {
		fmt.Fprintln(setup.Out, n)
	}
	t := setup.Target
	s := &session{setup: setup, phase: phase, cfg: cfg}
	if s.db, err = Open(ctx, t, LayoutOf(cfg)); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			s.Close()
		}
	}()
	files, err := sqlfile.OverlayFiles(s.db.Layout.FS(), t.Engine.Name, []string{"tx.sql"}, t.Engine.Placeholder)
	if err != nil {
		return nil, err
	}
	s.set = sqlfile.Merge(files)
	if phase == "load" {
		err = s.prepareLoad(ctx, drop)
		// a shard's load started with its sister shards': one of them makes the table, the others wait for it
		for wait := time.Now().Add(shardWait); err != nil && errors.Is(err, errBusy) && setup.Shard.On() && time.Now().Before(wait) && ctx.Err() == nil; {
			if s.lock != nil {
				s.lock.Release()
				s.lock = nil
			}
			time.Sleep(200 * time.Millisecond)
			err = s.prepareLoad(ctx, drop)
		}
	} else {
		err = s.prepareRun(ctx)
	}
	if err != nil {
		return nil, err
	}
	s.version = s.db.ServerVersion(ctx)
	s.pool = makePool(setup.Users.Seed)
	if phase == "run" && cfg.RequestDist == "latest" && s.ins.Last() > 5_000_000 {
		fmt.Fprintf(setup.Out, "computing the latest distribution's zeta over %d records (YCSB's SkewedLatestGenerator)\n", s.ins.Last())
	}
	s.generators()
	rate := ""
	if setup.Users.Rate > 0 {
		rate = fmt.Sprintf(", target %g ops/s", setup.Users.Rate)
	}
	how := fmt.Sprintf("%d operations", setup.Transactions)
	if setup.Transactions == 0 {
		how = "for " + setup.Duration.String()
	}
	fmt.Fprintf(setup.Out, "dbdyno ycsb %s on %s (%s): %s %s, %d records of %d fields x %d bytes (%s), %s keys; %s, %d thread(s)%s, seed %d\n",
		phase, s.version, t, cfg.Table, s.describe(), cfg.RecordCount, cfg.FieldCount, cfg.FieldLength, cfg.FieldLengthDist,
		map[bool]string{true: "ordered", false: "hashed"}[cfg.Ordered], how, setup.Users.VUs, rate, setup.Users.Seed)
	ok = true
	return s, nil
}

// lockName is the dataset's lock (bulk's: dbdyno_ and the workload's name), which runs hold shared through the
// dataset's start check and drops take exclusive.
const lockName = "dbdyno_ycsb"

// prepareLoad makes YCSB's table for a load, or finds the one another driver's load made with the same
// properties (loads of several drivers: insertstart and insertcount), and holds the table's lock shared while
// it loads.
func (s *session) prepareLoad(ctx context.Context, drop bool) error {
	db, cfg, t := s.db, s.cfg, s.setup.Target
	if !drop {
		if err := s.takeLock(ctx, false); err != nil {
			return err
		}
		table, meta, err := db.exists(ctx)
		if err != nil {
			return err
		}
		if meta {
			rec, err := db.Record(ctx)
			if err != nil {
				return err
			}
			if rec.Layout.Table != cfg.Table {
				return fmt.Errorf("%s holds dbdyno's YCSB table %s, not %s: drop it first (dbdyno ycsb drop), or load into another database", t, rec.Layout.Table, cfg.Table)
			}
			if !table {
				return fmt.Errorf("%s holds dbdyno's record of YCSB's table %s without the table (a drop or load cut short): add --drop to start again", t, cfg.Table)
			}
			if err := rec.agrees(cfg); err != nil {
				return err
			}
			for _, l := range rec.Loaded {
				if cfg.InsertStart < l[1] && l[0] < cfg.InsertStart+cfg.InsertCount {
					return fmt.Errorf("%s already holds records %d..%d of YCSB's table %s (loads finished %s): add --drop to load it again from scratch, or load another range (insertstart, insertcount)",
						t, max(l[0], cfg.InsertStart), min(l[1], cfg.InsertStart+cfg.InsertCount)-1, cfg.Table, rec.loadedText())
				}
			}
			fmt.Fprintf(s.setup.Out, "YCSB's table %s is there (loads finished: %s): this load adds records %d..%d\n",
				cfg.Table, rec.loadedText(), cfg.InsertStart, cfg.InsertStart+cfg.InsertCount-1)
			s.loadNext.Store(cfg.InsertStart)
			return nil
		}
		if table {
			return fmt.Errorf("%s has a table %s that dbdyno did not create: refusing to touch it; give -p table=NAME for another, or use another database", t, cfg.Table)
		}
		s.lock.Release()
		s.lock = nil
	}
	// a new table: made under the exclusive lock (another dbdyno's load, run or drop of it keeps this one out)
	if err := s.takeLock(ctx, true); err != nil {
		return err
	}
	table, meta, err := db.exists(ctx)
	if err != nil {
		return err
	}
	if table && !meta {
		return fmt.Errorf("%s has a table %s that dbdyno did not create: refusing to touch it; give -p table=NAME for another, or use another database", t, cfg.Table)
	}
	if meta || table {
		if !drop {
			return busyError(fmt.Sprintf("%s's YCSB table %s was made by another load meanwhile: run this load again", t, cfg.Table))
		}
		// the recorded table may have another name: that one is dropped (and a table of this name beside it is
		// not dbdyno's)
		if rec, err := db.Record(ctx); err == nil && rec != nil && rec.Layout.Table != cfg.Table {
			if table {
				return fmt.Errorf("%s has a table %s that dbdyno did not create (its YCSB table is %s): refusing to touch it; give -p table=NAME for another, or use another database", t, cfg.Table, rec.Layout.Table)
			}
			old, err := Open(ctx, t, rec.Layout)
			if err != nil {
				return err
			}
			err = old.Data.Script(ctx, old.Data.SQL, "drop.sql")
			old.Close()
			if err != nil {
				return err
			}
		}
		if err := db.Data.Script(ctx, db.Data.SQL, "drop.sql"); err != nil {
			return fmt.Errorf("dropping dbdyno's previous YCSB table: %w", err)
		}
		fmt.Fprintf(s.setup.Out, "dropped dbdyno's previous YCSB table (--drop)\n")
	}
	if err := db.Data.Script(ctx, db.Data.SQL, "schema.sql"); err != nil {
		return fmt.Errorf("creating YCSB's table: %w", err)
	}
	if err := db.putRecord(ctx, cfg); err != nil {
		return err
	}
	s.lock.Release()
	s.lock = nil
	if err := s.takeLock(ctx, false); err != nil {
		return err
	}
	fmt.Fprintf(s.setup.Out, "created YCSB's table %s (YCSB_KEY and %d fields %s..%s)\n", cfg.Table, cfg.FieldCount, db.Layout.Columns[0], db.Layout.Columns[len(db.Layout.Columns)-1])
	s.loadNext.Store(cfg.InsertStart)
	return nil
}

// errBusy is a load kept out by another dbdyno's hold of the table's lock, or beaten by another load to making
// the table (busyError): a shard's load waits up to shardWait for its sister shard that makes it.
var errBusy = errors.New("YCSB's table is busy")

// shardWait bounds a shard's wait for its sister shards to make YCSB's table.
const shardWait = 60 * time.Second

type busyError string

func (e busyError) Error() string        { return string(e) }
func (e busyError) Is(target error) bool { return target == errBusy }

// takeLock takes YCSB's table lock, shared (loads) or exclusive (making or replacing the table).
func (s *session) takeLock(ctx context.Context, exclusive bool) error {
	l, err := s.setup.Target.Lock(ctx, s.db.Data.SQL, lockName, exclusive)
	if errors.Is(err, engine.ErrLocked) {
		if exclusive {
			return busyError(fmt.Sprintf("%s's YCSB table is in use by another dbdyno (a load, run or drop holds its lock): refusing to make or replace it until that ends", s.setup.Target))
		}
		return busyError(fmt.Sprintf("%s's YCSB table is being made or dropped by another dbdyno (it holds its lock): wait for it to end", s.setup.Target))
	}
	if err != nil {
		return err
	}
	s.lock = l
	return nil
}

// prepareRun checks that the table holds a finished load of the run's records, with the same keys and fields,
// takes the dataset's start check (and its lock, shared), and sets where the run's inserts go on from.
func (s *session) prepareRun(ctx context.Context) error {
	db, cfg, t := s.db, s.cfg, s.setup.Target
	table, meta, err := db.exists(ctx)
	if err != nil {
		return err
	}
	load := fmt.Sprintf("'dbdyno ycsb load' with the run's properties (-P/-p/--workload) --target %s", t)
	switch {
	case !table && !meta:
		return fmt.Errorf("no YCSB table %s in %s: load it first with %s", cfg.Table, t, load)
	case !meta:
		return fmt.Errorf("%s has a table %s that dbdyno did not load: refusing to run on it; load one with %s into another database", t, cfg.Table, load)
	}
	rec, err := db.markReady(ctx)
	if err != nil {
		return err
	}
	if rec.Layout.Table != cfg.Table {
		return fmt.Errorf("table=%s, but %s holds dbdyno's YCSB table %s: give -p table=%s, or load %s with --drop", cfg.Table, t, rec.Layout.Table, rec.Layout.Table, cfg.Table)
	}
	if !table {
		return fmt.Errorf("%s lacks YCSB's table %s that dbdyno loaded: load it again with --drop", t, cfg.Table)
	}
	if err := rec.agrees(cfg); err != nil {
		return err
	}
	if rec.Status != "ready" {
		return fmt.Errorf("YCSB's table %s holds only the records loads finished (%s of %d): finish loading it (the other drivers' insertstart and insertcount), or load it again with --drop",
			cfg.Table, rec.loadedText(), rec.RecordCount)
	}
	// the dataset's start check: its lock (shared, against a drop), the table there as a load left it
	if err := db.Data.Ready(ctx); err != nil {
		var ns *bulk.NoSchemaError
		if errors.As(err, &ns) {
			return fmt.Errorf("YCSB's table %s in %s is not ready: %v", cfg.Table, t, err)
		}
		return err
	}
	s.insStart = max(cfg.RecordCount, rec.NextInsert)
	// a run cut short before it recorded its inserts left records past the recorded next key: the inserts go
	// on after them
	if k, moved, err := s.firstFreeKey(ctx, s.insStart); err != nil {
		return err
	} else if moved {
		fmt.Fprintf(s.setup.Out, "YCSB's table holds records a run inserted without recording it (one cut short): this run's inserts go on from key number %d\n", k)
		s.insStart = k
	}
	s.ins = NewAckCounter(s.insStart)
	return nil
}

// firstFreeKey is the first key number from k on whose record is not in the table, the inserts being in
// order: found by doubling steps, then halving them.
func (s *session) firstFreeKey(ctx context.Context, k int64) (int64, bool, error) {
	has := func(n int64) (bool, error) { return s.db.keyExists(ctx, KeyName(n, s.cfg.ZeroPadding, s.cfg.Ordered)) }
	ok, err := has(k)
	if err != nil || !ok {
		return k, false, err
	}
	lo, step := k, int64(1) // lo is there
	for {
		ok, err := has(k + step)
		if err != nil {
			return 0, false, err
		}
		if !ok {
			break
		}
		lo, step = k+step, step*2
	}
	hi := k + step // not there
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		ok, err := has(mid)
		if err != nil {
			return 0, false, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, true, nil
}

package bulk

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// The build's manifest: what a finished build left, in its build record, so that a run can tell at its start
// whether the tables are still the ones the build made. Per table, "rows:TABLE" is the rows loaded and
// "indexes:TABLE" its indexes (the primary key's among them), sorted and comma-separated. A build made before
// manifests were recorded has none, and is not checked.
const (
	manifestRows     = "rows:"
	manifestIndexes  = "indexes:"
	manifestChecksum = "checksum:" // of the tables no run changes (Dataset.Static): engine.TableChecksum
	// manifestRoutines lists the build's procedures, functions and triggers ("KIND:NAME", sorted,
	// comma-separated; continued in "routines.2", ... past a value's 255 characters), and "routine:KIND:NAME"
	// is a digest of each one's definition as the engine reports it (admin.sql's routines()).
	manifestRoutines = "routines"
	manifestRoutine  = "routine:"
	metaValueMax     = 255 // the build record's values: varchar(255)
	// exactMax is the largest table a run's start check counts exactly; larger ones are compared by the
	// catalog's estimate where the engine keeps one.
	exactMax = 1_000_000
	// estimateSlack is how far a catalog's estimate may stray from the rows loaded before it is reported.
	estimateSlack = 0.10
)

// ChangedError means the dataset's tables are no longer the ones its build made (a table missing, an index or
// primary key dropped, rows deleted or added where runs never change them): runs and checks refuse them.
type ChangedError struct {
	Differences []string
	msg         string
}

func (e *ChangedError) Error() string { return e.msg }

// StartCheck collects what a dataset's start check found that does not stop a run but makes its figures
// doubtful (an index added, a large table whose estimated rows strayed): the method records it in the result.
type StartCheck struct {
	mu    sync.Mutex
	diffs []string
}

type startCheckKey struct{}

// WithStartCheck returns a context whose datasets' start checks (Ready) report to the StartCheck returned.
func WithStartCheck(ctx context.Context) (context.Context, *StartCheck) {
	c := &StartCheck{}
	return context.WithValue(ctx, startCheckKey{}, c), c
}

// Differences lists what the start checks reported, in order.
func (c *StartCheck) Differences() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.diffs...)
}

func (c *StartCheck) add(d ...string) {
	c.mu.Lock()
	c.diffs = append(c.diffs, d...)
	c.mu.Unlock()
}

// manifestTables are the tables whose manifest is recorded: the dataset's and its numbered ones, not the
// build record.
func (db *DB) manifestTables() []string {
	var out []string
	for _, t := range append(append([]string{}, db.D.Tables...), db.PartNames()...) {
		if t != db.D.metaTable() {
			out = append(out, t)
		}
	}
	return out
}

// recordManifest writes the manifest of the tables as they are now (the end of a build).
func (db *DB) recordManifest(ctx context.Context) error {
	for _, t := range db.manifestTables() {
		n, err := db.T.Engine.CountRows(ctx, db.SQL, t)
		if err != nil {
			return fmt.Errorf("counting the rows of %s: %w", t, err)
		}
		if err := db.PutMeta(ctx, manifestRows+t, strconv.FormatInt(n, 10)); err != nil {
			return err
		}
		idx, ok, err := db.T.Engine.IndexNames(ctx, db.SQL, t)
		if err != nil {
			return fmt.Errorf("listing the indexes of %s: %w", t, err)
		}
		if v := strings.Join(sorted(idx), ","); ok && len(v) <= 255 {
			if err := db.PutMeta(ctx, manifestIndexes+t, v); err != nil {
				return err
			}
		}
		if !slices.Contains(db.D.Static, t) {
			continue
		}
		sum, ok, err := db.T.Engine.TableChecksum(ctx, db.SQL, t)
		if err != nil {
			return fmt.Errorf("the checksum of %s: %w", t, err)
		}
		if ok {
			if err := db.PutMeta(ctx, manifestChecksum+t, sum); err != nil {
				return err
			}
		}
	}
	return db.recordRoutines(ctx)
}

// routines reads the dataset's procedures, functions and triggers as the engine reports their definitions
// (admin.sql's routines(): rows of kind, name and definition; the engine's overloads of one name read as one):
// by "KIND:NAME", a digest of each. ok is false where the dataset has no such statement for the engine.
func (db *DB) routines(ctx context.Context) (digests map[string]string, ok bool, err error) {
	st, ok := db.set["routines"]
	if !ok {
		return nil, false, nil
	}
	rows, err := db.SQL.QueryContext(ctx, st.SQL)
	if err != nil {
		return nil, true, err
	}
	defer rows.Close()
	defs := map[string][]string{}
	for rows.Next() {
		var kind, name string
		var def sql.NullString
		if err := rows.Scan(&kind, &name, &def); err != nil {
			return nil, true, err
		}
		k := strings.ToLower(kind) + ":" + name
		defs[k] = append(defs[k], def.String)
	}
	if err := rows.Err(); err != nil {
		return nil, true, err
	}
	digests = map[string]string{}
	for k, d := range defs {
		slices.Sort(d)
		h := sha256.Sum256([]byte(strings.Join(d, "\x00")))
		digests[k] = hex.EncodeToString(h[:])
	}
	return digests, true, nil
}

// recordRoutines records the dataset's routines and triggers as they are now (the end of a build, after
// procs.sql). A distributed SQL product that cannot read them has none recorded, and none compared.
func (db *DB) recordRoutines(ctx context.Context) error {
	digests, ok, err := db.routines(ctx)
	if err != nil {
		if db.T.Product(ctx) != "" {
			return nil
		}
		return fmt.Errorf("reading the procedures and triggers: %w", err)
	}
	if !ok {
		return nil
	}
	names := sorted(slices.Collect(maps.Keys(digests)))
	for _, k := range names {
		if err := db.PutMeta(ctx, manifestRoutine+k, digests[k]); err != nil {
			return err
		}
	}
	// the list, in values of at most metaValueMax characters, each name whole
	var chunks []string
	cur := ""
	for _, k := range names {
		if cur != "" && len(cur)+1+len(k) > metaValueMax {
			chunks = append(chunks, cur)
			cur = ""
		}
		if cur != "" {
			cur += ","
		}
		cur += k
	}
	chunks = append(chunks, cur)
	for i, c := range chunks {
		if err := db.PutMeta(ctx, routinesKey(i), c); err != nil {
			return err
		}
	}
	return nil
}

func routinesKey(i int) string {
	if i == 0 {
		return manifestRoutines
	}
	return fmt.Sprintf("%s.%d", manifestRoutines, i+1)
}

// recordedRoutines is the build record's list of routines and triggers; ok is false for a build that recorded
// none (made before they were recorded, or on a product that could not read them).
func (db *DB) recordedRoutines(ctx context.Context) (names []string, ok bool, err error) {
	for i := 0; ; i++ {
		v, err := db.Meta(ctx, routinesKey(i))
		if errors.Is(err, ErrNoMeta) {
			return names, i > 0, nil
		}
		if err != nil {
			return nil, false, err
		}
		if v != "" {
			names = append(names, strings.Split(v, ",")...)
		}
	}
}

// checkRoutines compares the dataset's routines and triggers with the digests their build recorded: one
// changed or dropped stops a run (hard), one the build did not make only marks it (soft).
func (db *DB) checkRoutines(ctx context.Context) (hard, soft []string, err error) {
	if _, ok := db.set["routines"]; !ok {
		return nil, nil, nil
	}
	names, ok, err := db.recordedRoutines(ctx)
	if err != nil || !ok {
		return nil, nil, err
	}
	now, _, err := db.routines(ctx)
	if err != nil {
		if db.T.Product(ctx) != "" {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("reading the procedures and triggers: %w", err)
	}
	word := func(k string) string { kind, name, _ := strings.Cut(k, ":"); return "the " + kind + " " + name }
	for _, k := range names {
		built, err := db.Meta(ctx, manifestRoutine+k)
		if err != nil {
			return nil, nil, err
		}
		switch d, ok := now[k]; {
		case !ok:
			hard = append(hard, word(k)+" was dropped since the build")
		case d != built:
			hard = append(hard, word(k)+" was changed since the build")
		}
		delete(now, k)
	}
	for _, k := range sorted(slices.Collect(maps.Keys(now))) {
		soft = append(soft, word(k)+" was made since the build")
	}
	return hard, soft, nil
}

// Integrity runs the engine's own check of the database's structure where the dataset has one for the engine
// (admin.sql's integrity_check(): SQLite's PRAGMA quick_check, whose one row "ok" says it found nothing): the
// check verbs' look at pages no query of theirs reads. A finding is an error naming the first one.
func (db *DB) Integrity(ctx context.Context) error {
	st, ok := db.set["integrity_check"]
	if !ok {
		return nil
	}
	what, _, _ := strings.Cut(st.SQL, "\n")
	rows, err := db.SQL.QueryContext(ctx, st.SQL)
	if err != nil {
		return fmt.Errorf("%s: the engine's integrity check (%s) failed: %w: the database is damaged: restore it or rebuild with '%s build --drop'", db.T, what, err, db.D.command())
	}
	defer rows.Close()
	var findings []string
	for rows.Next() {
		var f sql.NullString
		if err := rows.Scan(&f); err != nil {
			return err
		}
		// SQLite heads the first finding "*** in database main ***" on a line of its own
		for _, line := range strings.Split(f.String, "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "*** in database ") {
				findings = append(findings, line)
			}
		}
	}
	if err := rows.Err(); err != nil && len(findings) == 0 {
		return fmt.Errorf("%s: the engine's integrity check (%s) failed: %w: the database is damaged: restore it or rebuild with '%s build --drop'", db.T, what, err, db.D.command())
	} // else: the findings before the check gave up, the first of which is what the error names
	if len(findings) == 0 || len(findings) == 1 && strings.EqualFold(findings[0], "ok") {
		return nil
	}
	more := ""
	if len(findings) > 1 {
		more = fmt.Sprintf(" (and %d more finding(s))", len(findings)-1)
	}
	return fmt.Errorf("%s fails the engine's integrity check (%s): %s%s: the database is damaged: restore it or rebuild with '%s build --drop'",
		db.T, what, findings[0], more, db.D.command())
}

// Contents compares the contents of the tables no run changes (Dataset.Static; not those the build record says
// churn now, such as TPC-H's with update sets applied) with the checksums their build recorded, each computed
// by the database in one scan: the check verbs' look at what a run's start check does not read. It returns the
// tables compared and, for each that differs, what differs; a build recorded before checksums compares none.
func (db *DB) Contents(ctx context.Context) (compared, differ []string, err error) {
	return db.ContentsOf(ctx)
}

// ContentsOf is Contents of some of the tables no run changes (all of them when none is named): a command
// about to trust one (webstore's reset, restoring from its loaded copy) compares that one.
func (db *DB) ContentsOf(ctx context.Context, tables ...string) (compared, differ []string, err error) {
	for _, t := range db.manifestTables() {
		if len(tables) > 0 && !slices.Contains(tables, t) {
			continue
		}
		if !slices.Contains(db.D.Static, t) || db.growth(ctx, t) == churns {
			continue
		}
		built, err := db.Meta(ctx, manifestChecksum+t)
		if errors.Is(err, ErrNoMeta) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		now, ok, err := db.T.Engine.TableChecksum(ctx, db.SQL, t)
		if err != nil {
			return nil, nil, fmt.Errorf("the checksum of %s: %w", t, err)
		}
		if !ok {
			continue
		}
		compared = append(compared, t)
		if now != built {
			br, _, _ := strings.Cut(built, ":")
			nr, _, _ := strings.Cut(now, ":")
			what := "a value changed"
			if br != nr {
				what = fmt.Sprintf("%s rows, the build loaded %s", nr, br)
			}
			differ = append(differ, fmt.Sprintf("%s differs from its build (%s: checksum %s, built %s)", t, what, now, built))
		}
	}
	return compared, differ, nil
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	slices.Sort(s)
	return s
}

// growth says how a run may change a table's rows.
type growth int

const (
	fixed  growth = iota // never: the rows loaded, exactly
	grows                // inserts only: at least the rows loaded
	churns               // inserts and deletes: not compared
)

func (db *DB) growth(ctx context.Context, t string) growth {
	switch {
	case slices.Contains(db.D.Grows, t):
		return grows
	case db.D.Parts != "" && !slices.Contains(db.D.Tables, t):
		return churns // the probes' numbered tables: their runs write and delete rows
	case slices.Contains(db.D.Churns, t):
		if db.D.ChurnsWith == "" {
			return churns
		}
		if _, err := db.Meta(ctx, db.D.ChurnsWith); err == nil {
			return churns
		}
	}
	return fixed
}

// checkManifest compares the tables with the build's manifest: what stops a run (hard) and what only marks it
// (soft).
func (db *DB) checkManifest(ctx context.Context) (hard, soft []string, err error) {
	for _, t := range db.manifestTables() {
		if v, err := db.Meta(ctx, manifestIndexes+t); err == nil {
			idx, ok, err := db.T.Engine.IndexNames(ctx, db.SQL, t)
			if err != nil {
				return nil, nil, fmt.Errorf("listing the indexes of %s: %w", t, err)
			}
			if ok {
				have := map[string]bool{}
				for _, n := range idx {
					have[n] = true
				}
				var want []string
				if v != "" {
					want = strings.Split(v, ",")
				}
				for _, n := range want {
					if !have[n] {
						hard = append(hard, fmt.Sprintf("%s lacks its index or primary key %s", t, n))
					}
					delete(have, n)
				}
				for _, n := range sorted(keys(have)) {
					soft = append(soft, fmt.Sprintf("%s has an index the build did not make: %s", t, n))
				}
			}
		} else if !errors.Is(err, ErrNoMeta) {
			return nil, nil, err
		}
		v, err := db.Meta(ctx, manifestRows+t)
		if errors.Is(err, ErrNoMeta) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		loaded, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("build record %s%s = %q is not a count", manifestRows, t, v)
		}
		g := db.growth(ctx, t)
		if g == churns {
			continue
		}
		if loaded > exactMax {
			n, ok, err := db.T.Engine.EstimateRows(ctx, db.SQL, t)
			if err != nil {
				return nil, nil, fmt.Errorf("estimating the rows of %s: %w", t, err)
			}
			if ok && (float64(n) < float64(loaded)*(1-estimateSlack) || g == fixed && float64(n) > float64(loaded)*(1+estimateSlack)) {
				soft = append(soft, fmt.Sprintf("%s has about %d rows by the catalog's estimate; the build loaded %d", t, n, loaded))
			}
			continue
		}
		n, err := db.T.Engine.CountRows(ctx, db.SQL, t)
		if err != nil {
			return nil, nil, fmt.Errorf("counting the rows of %s: %w", t, err)
		}
		switch {
		case n < loaded:
			hard = append(hard, fmt.Sprintf("%s has %d rows, %d fewer than the build loaded", t, n, loaded-n))
		case n > loaded && g == fixed:
			hard = append(hard, fmt.Sprintf("%s has %d rows, %d more than the build loaded (runs never add to it)", t, n, n-loaded))
		}
	}
	return hard, soft, nil
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// verify runs the start check once per open dataset: differences that stop a run are a *ChangedError, the
// others go to the context's StartCheck.
func (db *DB) verify(ctx context.Context) error {
	if db.verified {
		return nil
	}
	hard, soft, err := db.checkManifest(ctx)
	if err != nil {
		return fmt.Errorf("checking the %s tables against their build: %w", db.D.Title, err)
	}
	rhard, rsoft, err := db.checkRoutines(ctx)
	if err != nil {
		return fmt.Errorf("checking the %s procedures and triggers against their build: %w", db.D.Title, err)
	}
	soft = append(soft, rsoft...)
	switch {
	case len(rhard) > 0:
		hard = append(hard, rhard...)
		return &ChangedError{Differences: hard, msg: fmt.Sprintf("%s's %s database is not what its build made: %s: rebuild with '%s build --drop'",
			db.T, db.D.Title, strings.Join(hard, "; "), db.D.command())}
	case len(hard) > 0:
		return &ChangedError{Differences: hard, msg: fmt.Sprintf("%s's %s tables changed since they were built: %s: rebuild with '%s build --drop'",
			db.T, db.D.Title, strings.Join(hard, "; "), db.D.command())}
	}
	if c, ok := ctx.Value(startCheckKey{}).(*StartCheck); ok && len(soft) > 0 {
		c.add(soft...)
	}
	db.verified = true
	return nil
}

// lockName is the dataset's lock in its target.
// LockedBy makes db's tables share owner's lock (a dataset built and run only with owner's, whose lock covers
// both: CH-benCHmark's three tables with TPC-C's nine): db takes no lock of its own, so that one command holds
// one lock, also where an embedded database's lock is its file's.
func (db *DB) LockedBy(owner *DB) { db.owner = owner }

// held is the lock db's tables are under: its own, or its owner's.
func (db *DB) held() *engine.Lock {
	if db.owner != nil {
		return db.owner.held()
	}
	return db.lock
}

func (db *DB) lockName() string { return "dbdyno_" + db.D.Workload }

// hold takes the dataset's lock, shared for a run or check, exclusive for a build or drop, unless this DB
// holds it already; it is given up by Close.
func (db *DB) hold(ctx context.Context, exclusive bool) error {
	if db.owner != nil {
		return db.owner.hold(ctx, exclusive)
	}
	if db.lock != nil && (db.exclusive || !exclusive) {
		return nil
	}
	db.lock.Release() // a shared lock becomes exclusive: given up, then taken again
	db.lock = nil
	l, err := db.T.Lock(ctx, db.SQL, db.lockName(), exclusive)
	if errors.Is(err, engine.ErrLocked) {
		if exclusive {
			return fmt.Errorf("%s's %s tables are in use by a dbdyno run or build (it holds their lock): refusing to drop or rebuild them until it ends", db.T, db.D.Title)
		}
		return fmt.Errorf("%s's %s tables are being built or dropped by another dbdyno (it holds their lock): wait for it to end", db.T, db.D.Title)
	}
	if err != nil {
		return err
	}
	db.lock, db.exclusive = l, exclusive
	return nil
}

package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/dbdyno/dbdyno/internal/lib/sqlfile"
)

// ErrLocked means another dbdyno holds the dataset's lock: a run when a build or drop asks for it, a build or
// drop when a run asks.
var ErrLocked = errors.New("in use by another dbdyno")

// lockSlots is how many runs can hold a dataset's lock at once on an engine whose named locks are exclusive
// only (MySQL's GET_LOCK): a run takes one numbered slot, a build or drop every slot.
const lockSlots = 16

// Lock is a dataset's lock, held until Release: shared by runs, exclusive for a build or a drop.
type Lock struct {
	conn   *sql.Conn // the session that holds a server's lock
	unlock *sqlfile.Statement
	name   string
	file   *fileLock // an embedded database's
	// Unheld says why the lock holds nothing on this server: another product behind the engine's wire whose
	// lock functions keep nobody out, or refused them ("" when it is held, or where the engine has no lock).
	// It is noted in the run's settings as dataset_lock, not collected.
	Unheld string
}

// unheld is a Lock that holds nothing on a server that cannot lock, noted in ctx's run (WithSideTally).
func unheld(ctx context.Context, why string) *Lock {
	noteNotCollected(ctx, "dataset_lock", NotCollected+why+": a concurrent build, drop or run of these tables is not kept out")
	return &Lock{Unheld: why}
}

// Release gives the lock up (catalog.sql's unlock_all), and closes the session that held it rather than
// return it to the pool.
func (l *Lock) Release() {
	if l == nil {
		return
	}
	if l.conn != nil {
		// given up on the session first: the server notices a closed connection only later
		if st := l.unlock; st != nil {
			var args []any
			if len(st.Params) > 0 {
				args = st.Args([]any{l.name})
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // a frozen server: closed below anyway
			l.conn.ExecContext(ctx, st.SQL, args...)
			cancel()
		}
		l.conn.Raw(func(any) error { return driver.ErrBadConn })
		l.conn.Close()
		l.conn = nil
	}
	if l.file != nil {
		l.file.unlock()
		l.file = nil
	}
}

// Lock takes the lock named name (a dataset's) in the target without waiting, shared or exclusive: a server's
// session lock (catalog.sql's lock_shared and lock_exclusive: advisory locks, named locks, application locks)
// on a connection of db kept for it, or a lock on an embedded database's file. ErrLocked when another holds it;
// where the engine has no such lock, a Lock that holds nothing.
func (t *Target) Lock(ctx context.Context, db *sql.DB, name string, exclusive bool) (*Lock, error) {
	set := t.Engine.catalog.Set()
	shared, excl := set["lock_shared"], set["lock_exclusive"]
	if excl == nil {
		if !t.Engine.Embedded || t.Path == "" {
			return &Lock{}, nil
		}
		if st, err := os.Stat(t.Path); err != nil || !st.Mode().IsRegular() {
			return &Lock{}, nil // in memory: no other process sees it
		}
		f, err := lockFile(t.Path, exclusive)
		if err != nil {
			return nil, err
		}
		return &Lock{file: f}, nil
	}
	vr := t.Engine.variantOf(ctx, db)
	if vr != nil && vr.noLock != "" {
		return unheld(ctx, vr.noLock), nil
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, t.ConnectError(err)
	}
	l := &Lock{conn: conn, unlock: set["unlock_all"], name: name}
	take := func(st string, args []any) (bool, error) {
		var n sql.NullInt64
		if err := conn.QueryRowContext(ctx, st, args...).Scan(&n); err != nil {
			return false, fmt.Errorf("taking dbdyno's lock: %w", err)
		}
		return n.Int64 == 1, nil
	}
	var ok bool
	switch {
	case shared != nil && !exclusive:
		ok, err = take(shared.SQL, shared.Args([]any{name}))
	case shared != nil:
		ok, err = take(excl.SQL, excl.Args([]any{name}))
	case exclusive: // every slot
		ok = true
		for i := 1; i <= lockSlots && ok && err == nil; i++ {
			ok, err = take(excl.SQL, excl.Args([]any{fmt.Sprintf("%s.%d", name, i)}))
		}
	default: // the first free slot
		for i := 1; i <= lockSlots && !ok && err == nil; i++ {
			ok, err = take(excl.SQL, excl.Args([]any{fmt.Sprintf("%s.%d", name, i)}))
		}
	}
	if err != nil || !ok {
		l.Release()
		if err == nil {
			err = ErrLocked
		}
		// a distributed SQL product without the lock functions (YugabyteDB before 2.25): the command goes on
		if vr != nil && vr.distributed && !errors.Is(err, ErrLocked) && ctx.Err() == nil && t.Engine.Classify(err) != ConnLost {
			cause := err
			if u := errors.Unwrap(err); u != nil {
				cause = u // the server's own, not "taking dbdyno's lock: ..."
			}
			return unheld(ctx, Redact(strings.TrimPrefix(vr.cannot(cause), NotCollected))), nil
		}
		return nil, err
	}
	return l, nil
}

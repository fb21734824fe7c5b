package tpcc_test

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
	"github.com/dbdyno/dbdyno/internal/output/result"
	"github.com/dbdyno/dbdyno/internal/testkit/clitest"
	"github.com/dbdyno/dbdyno/internal/testkit/netproxy"
	"github.com/dbdyno/dbdyno/internal/testkit/testsrv"
)

// A run that did not do its work is not ok: each fault below once ended `ok`, exit 0.

// faultRun copies the one TPC-C build into a SQLite file of the test's own, lets fault do its harm (before the
// run, or when during is set once the run is measuring work: an event of the run, not a time a loaded machine
// outlasts), and returns the run's exit, output and result.
func faultRun(t *testing.T, during bool, fault func(path string), args ...string) (clitest.Result, *result.Result) {
	t.Helper()
	return faultRunWatching(t, during, fault, nil, args...)
}

// faultRunWatching is faultRun with each line of the run's output handed to watch as well.
func faultRunWatching(t *testing.T, during bool, fault func(path string), watch func(string), args ...string) (clitest.Result, *result.Result) {
	t.Helper()
	path := builtSQLite(t)
	url := "sqlite://" + path
	file := filepath.Join(t.TempDir(), "r.json")
	harm := &event{do: func() { fault(path) }}
	if !during {
		fault(path)
	} else {
		watch = watchAll(measuring(harm.fire), watch)
	}
	r := clitest.RunWatching(context.Background(), watch, append([]string{"tpcc", "run", "--target", url, "--vus", "2", "--rampup", "1s",
		"--interval", "1s", "--result", file}, args...)...)
	if harmed := harm.wait(); during && !harmed {
		t.Fatalf("the run ended before it measured any work: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	res, _ := clitest.ReadResult(t, file)
	return r, res
}

// failed checks a run ended failed, exit 1, with want in its one error line and its result's error.
func failed(t *testing.T, r clitest.Result, res *result.Result, want string) {
	t.Helper()
	if r.Code != 1 || res.Status != result.StatusFailed || !strings.Contains(r.Stderr, want) || !strings.Contains(res.Error, want) {
		t.Fatalf("want exit 1, status failed and %q; got exit %d, status %s, error %q\nstdout:\n%s\nstderr:\n%s", want, r.Code, res.Status, res.Error, r.Stdout, r.Stderr)
	}
}

func sqliteExec(t *testing.T, path, stmt string) {
	db, err := sql.Open(engine.SQLiteDriver, "file:"+path+"?_pragma=busy_timeout(30000)")
	if err != nil {
		t.Error(err)
		return
	}
	defer db.Close()
	if _, err := db.Exec(stmt); err != nil {
		t.Errorf("%s: %v", stmt, err)
	}
}

// A read-only database file (chmod; as root, which ignores modes, the immutable attribute): the first write
// fails the run at once with SQLite's message, not 12,818 errors later.
func TestReadOnlyFileFailsTheRun(t *testing.T) {
	t.Parallel() // on a SQLite file of its own: beside the tests that wait on servers
	r, res := faultRun(t, false, func(path string) {
		for _, f := range []string{path + "-wal", path + "-shm"} {
			os.Remove(f)
		}
		if err := os.Chmod(path, 0o444); err != nil {
			t.Fatal(err)
		}
		if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			f.Close()
			if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
				t.Skipf("cannot make %s read-only for this user: %v %s", path, err, out)
			}
			t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
		}
	}, "--duration", "2m")
	failed(t, r, res, "takes no writes")
	// at once: well within the run's 2 minutes, however slow the machine (a run that went on takes all of them)
	if took := res.EndedAt.Sub(res.StartedAt); !strings.Contains(res.Error, "readonly") || took > time.Minute {
		t.Fatalf("the engine's message is missing or the run went on (%s): %s", took, res.Error)
	}
}

// Garbage written over pages of the file: "database disk image is malformed" fails the run at once.
func TestCorruptPagesFailTheRun(t *testing.T) {
	t.Parallel() // on a SQLite file of its own: beside the tests that wait on servers
	r, res := faultRun(t, false, func(path string) {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		st, _ := f.Stat()
		garbage := []byte(strings.Repeat("\xde\xad\xbe\xef", 1024))
		// one page in 16 of those that hold customer, stock and order-line rows; the schema's, the meta table's
		// and the small tables' first pages are left whole, so the run opens
		for off := int64(3000 * 4096); off < min(st.Size(), 15000*4096); off += 16 * 4096 {
			f.WriteAt(garbage, off)
		}
	}, "--duration", "30s")
	failed(t, r, res, "damaged data")
	if !strings.Contains(res.Error, "malformed") {
		t.Fatalf("the engine's message is missing: %s", res.Error)
	}
}

// A table dropped while the run goes on (as `tpcc build --drop` does): the run fails at its first "no such
// table", with the schema class counted.
func TestTableDroppedDuringTheRunFailsIt(t *testing.T) {
	r, res := faultRun(t, true, func(path string) { sqliteExec(t, path, "DROP TABLE history") }, "--duration", "30s")
	failed(t, r, res, "the schema is missing or changed")
	if m := res.Measurement; m == nil || m.ErrorClasses["schema"] < 1 || !strings.Contains(res.Error, "no such table") {
		t.Fatalf("error classes %v, error %s", m.ErrorClasses, res.Error)
	}
}

// A column dropped under the Payment transaction: every payment failed, and the run said ok.
func TestColumnDroppedDuringTheRunFailsIt(t *testing.T) {
	r, res := faultRun(t, true, func(path string) { sqliteExec(t, path, "ALTER TABLE history DROP COLUMN h_data") }, "--duration", "30s")
	failed(t, r, res, "the schema is missing or changed")
	if !strings.Contains(res.Error, "h_data") {
		t.Fatalf("the engine's message is missing: %s", res.Error)
	}
}

// A constraint that a quarter of the payments break (h_amount is uniform on 1..5000): constraint errors, a class that does not end the run
// at once, are counted by class and fail it above --max-error-rate.
func TestErrorRateAboveTheMaximumFailsTheRun(t *testing.T) {
	r, res := faultRun(t, false, func(path string) {
		// a trigger, not an index or deleted rows: the run's start check would refuse those as tampering
		sqliteExec(t, path, "CREATE TRIGGER dbdyno_test_refuse_payment BEFORE INSERT ON history WHEN NEW.h_amount < 1250 BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: history.h_c_id'); END")
	}, "--transactions", "300")
	failed(t, r, res, "constraint violation errors, above --max-error-rate 1%")
	if n := res.Measurement.ErrorClasses["constraint"]; n < 1 || n != res.Measurement.Transactions["payment"].Errors {
		t.Fatalf("constraint errors %d, payment errors %d", n, res.Measurement.Transactions["payment"].Errors)
	}
	// the same errors under a maximum they stay within do not fail it
	r, res = faultRun(t, false, func(path string) {
		// a trigger, not an index or deleted rows: the run's start check would refuse those as tampering
		sqliteExec(t, path, "CREATE TRIGGER dbdyno_test_refuse_payment BEFORE INSERT ON history WHEN NEW.h_amount < 1250 BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: history.h_c_id'); END")
	}, "--transactions", "300", "--max-error-rate", "100")
	if r.Code != 0 || res.Status != result.StatusOK {
		t.Fatalf("--max-error-rate 100: exit %d status %s\n%s", r.Code, res.Status, r.Stderr)
	}
}

// Another writer holds the file's lock for the whole run: nothing completes (NOPM 0); the run is stalled and
// failed, not ok.
func TestFileHeldByAnotherWriterFailsTheRun(t *testing.T) {
	var release func()
	// the lock is given up once the window is over (the virtual users' waits end), however late the run began
	over := windowOver(func() { release() })
	r, res := faultRunWatching(t, false, func(path string) {
		db, err := sql.Open(engine.SQLiteDriver, "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		tx, err := db.Begin()
		if err == nil {
			_, err = tx.Exec("UPDATE warehouse SET w_ytd = w_ytd")
		}
		if err != nil {
			t.Fatal(err)
		}
		release = sync.OnceFunc(func() { tx.Rollback(); db.Close() })
		time.AfterFunc(2*time.Minute, release) // only should the window's end never be printed: no hang
	}, over, "--duration", "4s")
	if release != nil {
		defer release()
	}
	failed(t, r, res, "the run stalled")
	if s := res.Measurement.Stall; s == nil || s.InFlight < 1 || !strings.Contains(res.Error, "no unit of work completed") {
		t.Fatalf("stall %+v, error %s", s, res.Error)
	}
}

// The district counters moved by another writer during the run: the database's count of new orders disagrees
// with the client's, and the run fails.
func TestCrossCheckDisagreementFailsTheRun(t *testing.T) {
	r, res := faultRun(t, true, func(path string) {
		sqliteExec(t, path, "UPDATE district SET d_next_o_id = d_next_o_id + 100000")
	}, "--duration", "4s")
	failed(t, r, res, "the database counted")
	if res.Figures["new_orders_db"].(float64) < 100000 {
		t.Fatalf("figures %v", res.Figures)
	}
}

// A server frozen for the second half of an 8 s window: the run reports the stall and fails (it said ok).
func TestFrozenServerStallFailsTheRun(t *testing.T) {
	direct := testsrv.URL(t, "DBDYNO_TEST_PG")
	builtOn(t, direct)
	f := netproxy.Start(t, direct)
	file := filepath.Join(t.TempDir(), "r.json")
	// frozen once the window has counted work (its first interval, at most 2 s of the 8 s: the rest stalls),
	// thawed once the window is over; events of the run, not times a loaded machine outlasts
	thaw := sync.OnceFunc(f.Thaw)
	defer thaw()
	watch := watchAll(measuring(func() { f.Freeze() }), windowOver(thaw))
	r := clitest.RunWatching(context.Background(), watch, "tpcc", "run", "--target", f.URL, "--vus", "2", "--rampup", "1s", "--duration", "8s",
		"--interval", "2s", "--wait-interval", "0", "--result", file)
	res, _ := clitest.ReadResult(t, file)
	failed(t, r, res, "the run stalled")
	s := res.Measurement.Stall
	if s == nil || s.IdleIntervals < 1 || s.InFlight < 1 || s.LongestS < 2 || !strings.Contains(r.Stdout, "STALLED: nothing completed") {
		t.Fatalf("stall %+v\n%s", s, r.Stdout)
	}
}

package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// The one retry policy: a serialization failure or deadlock runs the unit again up to its tries, the outcome
// counting the runs before the last; anything else (success, a lost connection, an expected rollback, another
// error, the run's end) ends it at the first run.
func TestRetryPolicy(t *testing.T) {
	pg, _ := engine.Lookup("postgres")
	serial := fmt.Errorf("stmt: %w", &pgconn.PgError{Code: "40001"})
	for _, c := range []struct {
		name        string
		tries       int
		errs        []error // what each run returns; the last repeats
		rolledBack  bool
		cancelled   bool
		runs        int
		err, lost   bool
		wantRetries int
	}{
		{name: "success", errs: []error{nil}, runs: 1},
		{name: "two conflicts then success", errs: []error{serial, serial, nil}, runs: 3, wantRetries: 2},
		{name: "conflicts past the default tries", errs: []error{serial}, runs: DefaultTries, err: true, wantRetries: DefaultTries - 1},
		{name: "one try (pgbench's default)", tries: 1, errs: []error{serial}, runs: 1, err: true},
		{name: "three tries", tries: 3, errs: []error{serial}, runs: 3, err: true, wantRetries: 2},
		{name: "a deadlock", tries: 3, errs: []error{&pgconn.PgError{Code: "40P01"}, nil}, runs: 2, wantRetries: 1},
		{name: "a lost connection", errs: []error{&pgconn.PgError{Code: "57P01"}}, runs: 1, err: true, lost: true},
		{name: "a session closed by a failed reconnect", errs: []error{engine.ErrClosed}, runs: 1, err: true, lost: true},
		{name: "another error", errs: []error{&pgconn.PgError{Code: "23505"}}, runs: 1, err: true},
		{name: "an expected rollback", errs: []error{nil}, rolledBack: true, runs: 1},
		{name: "the run ended", errs: []error{serial}, cancelled: true, runs: 1, err: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.cancelled {
				cancel()
			}
			p := Retry{Engine: pg, Tries: c.tries}
			runs := 0
			out := p.Do(ctx, func(try int) Outcome {
				runs++
				if try != runs {
					t.Fatalf("run %d told it is try %d", runs, try)
				}
				return p.Outcome("new_order", c.rolledBack, c.errs[min(runs, len(c.errs))-1])
			})
			if runs != c.runs || out.Retries != c.wantRetries || (out.Err != nil) != c.err || out.ConnLost != c.lost || out.RolledBack != c.rolledBack {
				t.Fatalf("%d runs, outcome %+v; want %d runs, %d retries, error %v, lost %v", runs, out, c.runs, c.wantRetries, c.err, c.lost)
			}
			if out.Err != nil && !errors.Is(out.Err, c.errs[len(c.errs)-1]) {
				t.Fatalf("the outcome's error %v does not wrap the last run's", out.Err)
			}
			if out.Err != nil && out.Err.Error()[:len("new_order: ")] != "new_order: " {
				t.Fatalf("the outcome's error %q is not named by its unit", out.Err)
			}
		})
	}
}

// A back-off waits before each retry, doubling, and a run that ends during the wait ends the unit there.
func TestRetryBackoff(t *testing.T) {
	pg, _ := engine.Lookup("postgres")
	serial := &pgconn.PgError{Code: "40001"}
	p := Retry{Engine: pg, Tries: 3, Backoff: 20 * time.Millisecond}
	var at []time.Time
	out := p.Do(context.Background(), func(int) Outcome {
		at = append(at, time.Now())
		return p.Outcome("payment", false, serial)
	})
	if len(at) != 3 || out.Retries != 2 {
		t.Fatalf("%d runs, %d retries; want 3 and 2", len(at), out.Retries)
	}
	if d1, d2 := at[1].Sub(at[0]), at[2].Sub(at[1]); d1 < 20*time.Millisecond || d2 < 40*time.Millisecond {
		t.Fatalf("waited %s and %s before the retries, want at least 20ms, then 40ms", d1, d2)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runs := 0
	p = Retry{Engine: pg, Tries: 5, Backoff: time.Hour}
	done := make(chan Outcome, 1)
	go func() {
		done <- p.Do(ctx, func(int) Outcome { runs++; return p.Outcome("payment", false, serial) })
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	select {
	case out := <-done:
		if runs != 1 || out.Err == nil {
			t.Fatalf("after the run ended in the wait: %d runs, error %v", runs, out.Err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the run ended and the retry kept waiting")
	}
}

// Unit is Do around a unit that says whether it rolled back: retried alike, its error named by the unit.
func TestRetryUnit(t *testing.T) {
	pg, _ := engine.Lookup("postgres")
	runs := 0
	out := Retry{Engine: pg, Tries: 3}.Unit(context.Background(), "delivery", func() (bool, error) {
		runs++
		return false, &pgconn.PgError{Code: "40001"}
	})
	if runs != 3 || out.Retries != 2 || out.Err == nil || !strings.HasPrefix(out.Err.Error(), "delivery: ") {
		t.Fatalf("%d runs, outcome %+v", runs, out)
	}
	if out := (Retry{Engine: pg}).Unit(context.Background(), "new_order", func() (bool, error) { return true, nil }); !out.RolledBack || out.Err != nil {
		t.Fatalf("an expected rollback: %+v", out)
	}
}

package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/dbdyno/dbdyno/internal/engine"
)

// DefaultTries is the runs of a unit of work the retry policy allows in all, the first included, when a
// workload does not say: ten retries, as HammerDB's and go-tpc's drivers allow a serialization failure.
const DefaultTries = 11

// Retry is the runner's one retry policy, as BenchBase's worker keeps one for every benchmark: a unit of work
// that fails with a serialization failure, a deadlock or a lock timeout (the engine's Retryable class) runs again
// with the input it started with, up to Tries runs in all, while the run goes on. A lost connection, an expected
// rollback or any other error ends it at once. Every workload's Worker.Do runs its unit of work through it, so
// the retries a result counts mean the same in every workload.
type Retry struct {
	Engine *engine.Engine // classifies the errors
	Tries  int            // runs in all, the first included (0: DefaultTries; 1: no retry, as pgbench's default)
	// Backoff is the wait before the second run, doubled before each one after it up to MaxBackoff (0: none:
	// every workload retries at once, as BenchBase's worker, HammerDB and pgbench do; the time a retry took
	// counts in the unit's latency either way).
	Backoff time.Duration
}

// MaxBackoff bounds a retry's wait.
const MaxBackoff = time.Second

// Do runs attempt until it ends other than retryably, or the tries are spent, or ctx ends. attempt gets the
// try's number (1 for the first) and restores the unit's input itself when try > 1 (the same order, the same
// script variables). The outcome's Retries counts the runs before the last.
func (p Retry) Do(ctx context.Context, attempt func(try int) Outcome) Outcome {
	tries := p.Tries
	if tries <= 0 {
		tries = DefaultTries
	}
	wait := min(p.Backoff, MaxBackoff)
	for try := 1; ; try++ {
		out := attempt(try)
		out.Retries = try - 1
		if out.Err == nil || out.ConnLost || try >= tries || ctx.Err() != nil || p.Engine.Classify(out.Err) != engine.Retryable {
			return out
		}
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return out // the run ended during the wait: the last attempt's error stands
			case <-t.C:
			}
			wait = min(2*wait, MaxBackoff)
		}
	}
}

// Unit runs the unit of work name through Do, each attempt one call of do, which says whether the unit rolled
// back as the workload defines and its error (named by the unit in the outcome): the shape of most workloads'
// Worker.Do.
func (p Retry) Unit(ctx context.Context, name string, do func() (rolledBack bool, err error)) Outcome {
	return p.Do(ctx, func(int) Outcome {
		rolledBack, err := do()
		return p.Outcome(name, rolledBack, err)
	})
}

// Outcome is how one attempt of unit name ended: err (nil when it committed or rolled back as the workload
// defines) named by the unit, and whether the connection is gone, as the engine classifies it.
func (p Retry) Outcome(name string, rolledBack bool, err error) Outcome {
	out := Outcome{RolledBack: rolledBack}
	if err != nil {
		out.Err = fmt.Errorf("%s: %w", name, err)
		out.ConnLost = p.Engine.Classify(err) == engine.ConnLost
	}
	return out
}

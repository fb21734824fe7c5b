package runner

import (
	"context"
	"fmt"
	"time"
)

// TransactionNames: a virtual-user run's transactions, known before it measures.
func (v *vuRun) TransactionNames() []string { return v.sess.Transactions() }

// StartsAt: a virtual-user run starts its measured window at --start-at itself (see startAt).
func (v *vuRun) StartsAt() bool { return true }

// startAt settles a run whose measured window starts at cfg.MeasureAt (--start-at), its workers connected
// first: it waits, idle, until the ramp-up's start (MeasureAt less Rampup), then makes the ramp-up last until
// MeasureAt. Only workers connected after the ramp-up's start make it shorter than --rampup (said), and only
// workers connected after MeasureAt itself fail the run. A timer's own lateness after the wait is neither: the
// wait had connected late every run (a ramp-up of 1.999s for 2s, said as late) and refused every --rampup 0s
// run ("had passed (by 2ms)").
func startAt(ctx context.Context, cfg *Config) error {
	if cfg.MeasureAt.IsZero() {
		return nil
	}
	wait := time.Until(cfg.MeasureAt.Add(-cfg.Rampup))
	if wait > 0 {
		fmt.Fprintf(cfg.Progress, "waiting %s for --start-at %s (less the ramp-up)\n", wait.Round(time.Millisecond), cfg.MeasureAt.UTC().Format(time.RFC3339Nano))
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w while waiting for --start-at", ErrAborted)
		case <-t.C:
		}
		cfg.Rampup = max(time.Until(cfg.MeasureAt), 0)
		return nil
	}
	left := time.Until(cfg.MeasureAt)
	if left <= 0 {
		return fmt.Errorf("--start-at %s had passed (by %s) when the virtual users were connected: give a later time", cfg.MeasureAt.UTC().Format(time.RFC3339Nano), (-left).Round(time.Millisecond))
	}
	fmt.Fprintf(cfg.Progress, "ramp-up %s, not %s: the virtual users were connected late for --start-at\n", left.Round(time.Millisecond), cfg.Rampup)
	cfg.Rampup = left
	return nil
}

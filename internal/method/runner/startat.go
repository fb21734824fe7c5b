package runner

import (
	"context"
	"fmt"
	"time"
)

// StartsAt: a virtual-user run starts its measured window at --start-at itself (see startAt).
func (v *vuRun) StartsAt() bool { return true }

// startAt settles a run whose measured window starts at cfg.MeasureAt (--start-at), its workers connected: it
// waits, idle, until the ramp-up's start (MeasureAt less Rampup), then makes the ramp-up last until MeasureAt
// (shorter than --rampup when the workers were connected too late for all of it). A MeasureAt already past
// fails the run.
func startAt(ctx context.Context, cfg *Config) error {
	if cfg.MeasureAt.IsZero() {
		return nil
	}
	if wait := time.Until(cfg.MeasureAt.Add(-cfg.Rampup)); wait > 0 {
		fmt.Fprintf(cfg.Progress, "waiting %s for --start-at %s (less the ramp-up)\n", wait.Round(time.Millisecond), cfg.MeasureAt.UTC().Format(time.RFC3339Nano))
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w while waiting for --start-at", ErrAborted)
		case <-t.C:
		}
	}
	left := time.Until(cfg.MeasureAt)
	if left <= 0 {
		return fmt.Errorf("--start-at %s had passed (by %s) when the virtual users were connected: give a later time", cfg.MeasureAt.UTC().Format(time.RFC3339Nano), (-left).Round(time.Millisecond))
	}
	if left < cfg.Rampup {
		fmt.Fprintf(cfg.Progress, "ramp-up %s, not %s: the virtual users were connected late for --start-at\n", left.Round(time.Millisecond), cfg.Rampup)
	}
	cfg.Rampup = left
	return nil
}
